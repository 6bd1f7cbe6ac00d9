/**
 * `HttpResponse`: what views return and the server writes, with content held in memory; and
 * its two body variants, `StreamingHttpResponse` (an iterable of chunks) and `JsonResponse`.
 * The responses for one status (redirects, 404 ...) are in `statusResponses.ts`.
 */
import { STATUS_CODES } from 'node:http';
import { setCookieHeader, type CookieOptions, type ResponseCookie } from './cookies';
import { ResponseHeaders } from './responseHeaders';

/** Options shared by the response constructors. */
export interface ResponseInit {
  status?: number;
  /** The Content-Type (default `text/html; charset=utf-8`); null sets none (a subclass sets it later). */
  contentType?: string | null;
  headers?: Record<string, string | number>;
  reason?: string;
}

/**
 * A response with content held in memory. Views return one (or a subclass); middleware may
 * change its headers and cookies before the server writes it.
 */
export class HttpResponse {
  status: number;
  /** Custom reason phrase; defaults to the standard one for the status. */
  reason: string | undefined;
  readonly headers: ResponseHeaders;
  /** The cookies map, made when first read (most responses set none). */
  private cookieMap: Map<string, ResponseCookie> | null = null;
  /** True for responses whose body is an (async) iterable. */
  readonly streaming: boolean = false;
  /** When true the server closes the connection after writing this response. */
  closeConnection = false;
  private contentValue: Buffer | string;

  constructor(content: Buffer | string = '', init: ResponseInit = {}) {
    this.status = init.status ?? 200;
    this.reason = init.reason;
    this.headers = new ResponseHeaders(init.headers);
    if (init.contentType === null) {
      // The caller chooses the Content-Type later (a rendered response, a 304).
    } else if (!this.headers.has('Content-Type')) {
      this.headers.set('Content-Type', init.contentType ?? 'text/html; charset=utf-8');
    } else if (init.contentType) {
      this.headers.set('Content-Type', init.contentType);
    }
    this.contentValue = content;
  }

  /** Cookies to set, by name. */
  get cookies(): Map<string, ResponseCookie> {
    return (this.cookieMap ??= new Map<string, ResponseCookie>());
  }

  /** True when a cookie is to be set (without making the map). */
  get hasCookies(): boolean {
    return this.cookieMap !== null && this.cookieMap.size > 0;
  }

  /** The HTTP status code (the host framework's `status_code`). */
  get statusCode(): number {
    return this.status;
  }

  set statusCode(value: number) {
    this.status = value;
  }

  /** The reason phrase written on the status line. */
  get reasonPhrase(): string {
    return this.reason ?? STATUS_CODES[this.status] ?? 'Unknown Status Code';
  }

  /** The body. */
  get content(): Buffer | string {
    return this.contentValue;
  }

  set content(value: Buffer | string) {
    this.contentValue = value;
  }

  /** The body as bytes. */
  get contentBytes(): Buffer {
    const value = this.contentValue;
    return Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8');
  }

  /** The body as text (tests read this). */
  get text(): string {
    const value = this.contentValue;
    return Buffer.isBuffer(value) ? value.toString('utf8') : value;
  }

  /** The body parsed as JSON (tests read this). */
  json(): unknown {
    return JSON.parse(this.text);
  }

  /** Set a header. */
  setHeader(name: string, value: string | number): void {
    this.headers.set(name, value);
  }

  /** A header's value, or undefined. */
  getHeader(name: string): string | undefined {
    return this.headers.get(name);
  }

  /** True when the header is set. */
  hasHeader(name: string): boolean {
    return this.headers.has(name);
  }

  /** Remove a header. */
  removeHeader(name: string): void {
    this.headers.delete(name);
  }

  /** Set the header only when it is not set yet. */
  setDefaultHeader(name: string, value: string | number): void {
    if (!this.headers.has(name)) this.headers.set(name, value);
  }

  /**
   * Set a cookie. `maxAge` is in seconds and also fills `expires`, like the host framework.
   */
  setCookie(name: string, value: string, options: CookieOptions = {}): void {
    const opts: CookieOptions = { path: '/', ...options };
    if (opts.maxAge !== undefined && opts.maxAge !== null && !opts.expires) {
      opts.expires = new Date(Date.now() + opts.maxAge * 1000);
    }
    this.cookies.set(name, { value, options: opts });
  }

  /** Expire a cookie in the client. */
  deleteCookie(name: string, options: Pick<CookieOptions, 'path' | 'domain' | 'sameSite'> = {}): void {
    const secure = name.startsWith('__Secure-') || name.startsWith('__Host-');
    this.cookies.set(name, {
      value: '',
      options: { ...options, path: options.path ?? '/', maxAge: 0, expires: new Date(0), secure },
    });
  }

  /** The `Set-Cookie` header values. */
  cookieHeaders(): string[] {
    const cookies = this.cookieMap;
    return cookies === null ? [] : Array.from(cookies, ([name, cookie]) => setCookieHeader(name, cookie));
  }

  /** The response as the original's repr shows it, for debugging. */
  toString(): string {
    return `<${this.constructor.name} status_code=${this.status}, "${this.getHeader('Content-Type') ?? ''}">`;
  }
}

/**
 * A response whose body is produced by an (async) iterable of chunks and written with
 * backpressure; it has no Content-Length.
 */
export class StreamingHttpResponse extends HttpResponse {
  override readonly streaming: boolean = true;
  /** The chunks of the body. */
  streamingContent: AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

  constructor(streamingContent: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, init: ResponseInit = {}) {
    super('', init);
    this.streamingContent = streamingContent;
  }

  /** Not available: the body is a stream. */
  override get content(): Buffer | string {
    throw new TypeError(`This ${this.constructor.name} instance has no \`content\` attribute. Use \`streamingContent\` instead.`);
  }

  override set content(_value: Buffer | string) {
    throw new TypeError(`This ${this.constructor.name} instance has no \`content\` attribute. Use \`streamingContent\` instead.`);
  }

  /** Read the whole stream (tests use this). */
  async readAll(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.streamingContent) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
}

/** A JSON response; `safe` (default) insists on a plain object, as the host framework does. */
export class JsonResponse extends HttpResponse {
  constructor(data: unknown, init: ResponseInit & { safe?: boolean } = {}) {
    const safe = init.safe ?? true;
    if (safe && (data === null || typeof data !== 'object' || Array.isArray(data))) {
      throw new TypeError('In order to allow non-dict objects to be serialized set the safe parameter to False.');
    }
    super(JSON.stringify(data), { ...init, contentType: init.contentType ?? 'application/json' });
  }
}
