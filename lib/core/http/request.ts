/**
 * `HttpRequest`: an incoming HTTP request wrapping node's `IncomingMessage`. Views receive it;
 * middleware decorate it (`user`, `session`). Parsing is lazy: the query string, cookies and
 * `META` are built when first read, the body when `body()` or `stream()` is called.
 */
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { cookieHeaderText, parseCookie } from '../cookie';
import { settings } from '../conf';
import { escapeUriPath, iriToUri, uriToPathText } from '../encoding';
import { DisallowedHost, RequestDataTooBig } from '../exceptions';
import type { ResolverMatch } from '../urls';
import { BodyStream, limitedStream, memoryLimit, readBody, streamLimit, type BodyLimit } from './body';
import { headerNameFor, metaKey, splitContentType } from './headers';
import { isAllowedHost, splitDomainPort } from './hosts';
import { pythonStringRepr } from '../pythonRepr';
import { MultiValueDict, QueryDict } from './querydict';
import { anonymousUser, type AuthUser } from './user';

/** A file received by form parsing; the parsers fill `request.FILES` with these. */
export interface UploadedFile {
  /** The client's file name. */
  name: string;
  contentType: string;
  charset?: string | null;
  size: number;
  /** The whole content. */
  read(): Promise<Buffer>;
}

/** Options of `HttpRequest.create()`, the way tests and request factories build requests. */
export interface RequestInit {
  method?: string;
  /** Path with optional query string, e.g. `/snippets/?page=2`. */
  url?: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  remoteAddress?: string;
  secure?: boolean;
}

/**
 * An incoming HTTP request. Views receive it; middleware decorate it (`user`, `session`).
 * Parsing is lazy: the query string, cookies and `META` are built when first read.
 */
export class HttpRequest {
  /** The node request underneath. */
  readonly raw: IncomingMessage;
  /** Upper-case method name. */
  readonly method: string;
  /** The decoded path, without the query string. */
  readonly path: string;
  /** Same as `path` (the host layer has no script prefix). */
  readonly pathInfo: string;
  /** The raw, still percent-encoded path as sent. */
  readonly rawPath: string;
  /** The raw query string (without `?`), or ''. */
  readonly queryString: string;
  /** node's header object (lower-case names). */
  readonly headers: IncomingMessage['headers'];
  private postCache: QueryDict | null = null;
  private filesCache: MultiValueDict<UploadedFile> | null = null;
  private stateCache: Map<string | symbol, unknown> | null = null;
  /** The URL resolution that picked the view (set by the handler). */
  resolverMatch: ResolverMatch | null = null;
  /** Set once the CSRF middleware has decided (or the view is exempt). */
  csrfProcessingDone = false;
  /** When true, the CSRF checks are skipped (the API test client sets it). */
  dontEnforceCsrfChecks = false;
  /** The active language, set by the locale middleware or the API framework. */
  languageCode: string | undefined;

  private queryCache: QueryDict | null = null;
  private cookieCache: Record<string, string> | null = null;
  private metaCache: Record<string, string> | null = null;
  private contentTypeCache: { type: string; params: Record<string, string> } | null = null;
  private bodyPromise: Promise<Buffer> | null = null;
  private bodyBuffer: Buffer | null = null;
  private streamed = false;
  private schemeHostCache: string | null = null;
  private cleanups: Array<() => void | Promise<void>> | null = null;
  private currentUser: AuthUser = anonymousUser;
  private userReadHook: (() => void) | null = null;

  constructor(raw: IncomingMessage, options: { body?: Buffer } = {}) {
    this.raw = raw;
    this.method = (raw.method || 'GET').toUpperCase();
    const url = raw.url || '/';
    const q = url.indexOf('?');
    let rawPath = q >= 0 ? url.slice(0, q) : url;
    this.queryString = q >= 0 ? url.slice(q + 1) : '';
    if (!rawPath.startsWith('/')) {
      // An absolute-form request target (`GET http://host/path`): keep the path only.
      const match = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(rawPath);
      rawPath = match ? match[1] || '/' : `/${rawPath}`;
    }
    this.rawPath = rawPath;
    this.path = uriToPathText(rawPath);
    this.pathInfo = this.path;
    this.headers = raw.headers;
    if (options.body) this.bodyBuffer = options.body;
  }

  /** Form fields, filled by the form parsers (empty until then; made on first read). */
  get POST(): QueryDict {
    return (this.postCache ??= new QueryDict());
  }

  set POST(value: QueryDict) {
    this.postCache = value;
  }

  /** Uploaded files, filled by the multipart parser (empty until then; made on first read). */
  get FILES(): MultiValueDict<UploadedFile> {
    return (this.filesCache ??= new MultiValueDict<UploadedFile>());
  }

  set FILES(value: MultiValueDict<UploadedFile>) {
    this.filesCache = value;
  }

  /** Per-request scratch space for middleware and applications (made on first read). */
  get state(): Map<string | symbol, unknown> {
    return (this.stateCache ??= new Map<string | symbol, unknown>());
  }

  /** True when something was put in `state` (reading it is then needed). */
  get hasState(): boolean {
    return this.stateCache !== null && this.stateCache.size > 0;
  }

  /**
   * The authenticated user, or the anonymous user. An accessor on the class (not a property
   * redefined per request), so every request keeps one object shape.
   */
  get user(): AuthUser {
    const hook = this.userReadHook;
    if (hook !== null) hook();
    return this.currentUser;
  }

  set user(value: AuthUser) {
    this.currentUser = value;
  }

  /**
   * Set the request's user and a hook run at every read of `user` (AuthenticationMiddleware
   * marks the session as read there, as the host framework's lazy `request.user` does).
   */
  attachUser(user: AuthUser, onRead: (() => void) | null = null): void {
    this.currentUser = user;
    this.userReadHook = onRead;
  }

  /**
   * Register `fn` to run when the request is finished (Django's `request_finished`): after the
   * response was sent, whether the view succeeded or failed. The parsers register the removal
   * of uploaded temporary files here. Hooks run in registration order; errors are logged.
   */
  addCleanup(fn: () => void | Promise<void>): void {
    (this.cleanups ??= []).push(fn);
  }

  /** True while hooks registered with `addCleanup()` wait for `runCleanups()`. */
  get hasCleanups(): boolean {
    return this.cleanups !== null;
  }

  /**
   * Run (once) the hooks registered with `addCleanup()`. The server calls it after writing the
   * response and the test clients after handling it; callers of `handleRequest()` that do
   * neither call it themselves.
   */
  async runCleanups(): Promise<void> {
    const hooks = this.cleanups;
    if (!hooks) return;
    this.cleanups = null;
    for (const hook of hooks) {
      try {
        await hook();
      } catch (error) {
        process.stderr.write(`Error in a request cleanup hook: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      }
    }
  }

  /**
   * Build a request without a socket, the way request factories do: the body is held in
   * memory and `stream()` replays it.
   */
  static create(init: RequestInit = {}): HttpRequest {
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: init.remoteAddress ?? '127.0.0.1' });
    if (init.secure) Object.defineProperty(socket, 'encrypted', { value: true });
    const raw = new IncomingMessage(socket);
    raw.method = (init.method ?? 'GET').toUpperCase();
    raw.url = init.url ?? '/';
    raw.httpVersion = '1.1';
    const headers: IncomingMessage['headers'] = {};
    for (const [name, value] of Object.entries(init.headers ?? {})) {
      headers[name.toLowerCase()] = Array.isArray(value) && name.toLowerCase() !== 'set-cookie' ? value.join(', ') : value;
    }
    const body = init.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(init.body) ? init.body : Buffer.from(init.body);
    if (body.length && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
    raw.headers = headers;
    raw.push(body.length ? body : null);
    if (body.length) raw.push(null);
    return new HttpRequest(raw, { body });
  }

  /** The query string parameters. */
  get query(): QueryDict {
    if (!this.queryCache) this.queryCache = QueryDict.parse(this.queryString);
    return this.queryCache;
  }

  /** The host framework's name for `query`. */
  get GET(): QueryDict {
    return this.query;
  }

  /** The value of a request header (case-insensitive; repeated headers joined with ', '). */
  header(name: string): string | undefined {
    const value = this.headers[name.toLowerCase()];
    if (value === undefined) return undefined;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  /** The request cookies by name. */
  get cookies(): Record<string, string> {
    if (!this.cookieCache) {
      const header = this.headers.cookie;
      // No Cookie header: what parseCookie('') answers, an empty object without a prototype.
      this.cookieCache = header === undefined ? (Object.create(null) as Record<string, string>) : parseCookie(cookieHeaderText(header));
    }
    return this.cookieCache;
  }

  /**
   * The value of cookie `name`, or undefined: `cookies[name]`, without making the cookie
   * object when the request has no Cookie header and nobody read `cookies` yet.
   */
  cookie(name: string): string | undefined {
    if (this.cookieCache === null && this.headers.cookie === undefined) return undefined;
    return this.cookies[name];
  }

  /**
   * The CGI-style environment: `REMOTE_ADDR`, `HTTP_*`, `CONTENT_TYPE`, `SERVER_NAME` ...
   * Built when first read (one request header is better read with `header()` or
   * `metaHeader()`, which do not build it); changes made to it are kept for the request.
   */
  get META(): Record<string, string> {
    if (!this.metaCache) {
      const meta: Record<string, string> = {
        REQUEST_METHOD: this.method,
        PATH_INFO: this.pathInfo,
        QUERY_STRING: this.queryString,
        REMOTE_ADDR: this.raw.socket?.remoteAddress ?? '',
        SERVER_PROTOCOL: `HTTP/${this.raw.httpVersion || '1.1'}`,
      };
      const headers = this.headers;
      for (const name of Object.keys(headers)) {
        const value = headers[name];
        if (value === undefined) continue;
        meta[metaKey(name)] = Array.isArray(value) ? value.join(', ') : value;
      }
      const hostHeader = meta.HTTP_HOST ?? '';
      const [domain, port] = splitDomainPort(hostHeader);
      meta.SERVER_NAME = domain || this.raw.socket?.localAddress || 'localhost';
      meta.SERVER_PORT = port || String(this.raw.socket?.localPort ?? (this.isSocketSecure() ? 443 : 80));
      this.metaCache = meta;
    }
    return this.metaCache;
  }

  /**
   * The value `META[key]` has for a header key (`HTTP_AUTHORIZATION`, `CONTENT_TYPE`), without
   * building META: from META once it exists (it may have been changed), else from the header.
   */
  metaHeader(key: string): string | undefined {
    if (this.metaCache) return this.metaCache[key];
    const name = headerNameFor(key);
    if (name === null) return this.META[key];
    // `x_a` and `x-a` map to the same key: when a header is spelled with underscores, only META
    // knows which one won.
    if (name.includes('-') && this.headerNamesHaveUnderscores()) return this.META[key];
    const value = this.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  private headerNamesHaveUnderscores(): boolean {
    for (const name of Object.keys(this.headers)) if (name.includes('_')) return true;
    return false;
  }

  /** The remote user set by a trusted front end (`REMOTE_USER`), if any. */
  get remoteUser(): string | undefined {
    return this.META.REMOTE_USER;
  }

  private isSocketSecure(): boolean {
    return Boolean((this.raw.socket as Socket & { encrypted?: boolean } | undefined)?.encrypted);
  }

  /** True for HTTPS, directly or through the proxy header named by `SECURE_PROXY_SSL_HEADER`. */
  isSecure(): boolean {
    const proxyHeader = settings.SECURE_PROXY_SSL_HEADER;
    if (proxyHeader) {
      const [header, secureValue] = proxyHeader;
      const value = this.META[header];
      if (value !== undefined) return value.split(',')[0].trim() === secureValue;
    }
    return this.isSocketSecure();
  }

  /** `'https'` or `'http'`. */
  get scheme(): string {
    return this.isSecure() ? 'https' : 'http';
  }

  private rawHost(): string {
    // The Host headers are read through metaHeader(), which builds META only when needed.
    if (settings.USE_X_FORWARDED_HOST) {
      const forwarded = this.metaHeader('HTTP_X_FORWARDED_HOST');
      if (forwarded) return forwarded;
    }
    const hostHeader = this.metaHeader('HTTP_HOST');
    if (hostHeader) return hostHeader;
    const meta = this.META;
    const port = meta.SERVER_PORT;
    const defaultPort = this.isSecure() ? '443' : '80';
    return port !== defaultPort ? `${meta.SERVER_NAME}:${port}` : meta.SERVER_NAME;
  }

  /**
   * The host (with port, when not the default) the client asked for, validated against
   * `ALLOWED_HOSTS`; throws `DisallowedHost` otherwise.
   */
  getHost(): string {
    const host = this.rawHost();
    if (isAllowedHost(host)) return host;
    const [domain] = splitDomainPort(host);
    let message = `Invalid HTTP_HOST header: ${pythonStringRepr(host)}.`;
    if (domain) message += ` You may need to add ${pythonStringRepr(domain)} to ALLOWED_HOSTS.`;
    else message += ' The domain name provided is not valid according to RFC 1034/1035.';
    throw new DisallowedHost(message);
  }

  /** The port the client connected to, as a string. */
  getPort(): string {
    return this.META.SERVER_PORT;
  }

  /**
   * The path with the query string, safe to put in a URL or a page: the decoded path escaped
   * again (`escapeUriPath()`), then `?` and the query string as sent (IRI characters encoded),
   * as the host framework's `get_full_path()`. `forceAppendSlash` adds a trailing slash.
   */
  getFullPath(forceAppendSlash = false): string {
    const slash = forceAppendSlash && !this.path.endsWith('/') ? '/' : '';
    return `${escapeUriPath(this.path)}${slash}${this.queryString ? `?${iriToUri(this.queryString)}` : ''}`;
  }

  /** Same as `getFullPath()`. */
  get fullPath(): string {
    return this.getFullPath();
  }

  /**
   * An absolute URI for `location` (default: this request's full path), relative to this
   * request's scheme and host.
   */
  buildAbsoluteUri(location?: string): string {
    if (this.schemeHostCache === null) this.schemeHostCache = `${this.scheme}://${this.getHost()}`;
    const base = this.schemeHostCache;
    const target = location ?? this.getFullPath();
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(target)) return target;
    if (target.startsWith('//')) return `${this.scheme}:${target}`;
    if (target.startsWith('/') && !target.includes('/./') && !target.includes('/../')) return base + target;
    return new URL(target, base + this.rawPath).href;
  }

  /** The media type of the body, lower case without parameters, or ''. */
  get contentType(): string {
    return this.parsedContentType().type;
  }

  /** The parameters of the Content-Type header (`charset`, `boundary`). */
  get contentParams(): Record<string, string> {
    return this.parsedContentType().params;
  }

  /** The declared charset of the body, or null. */
  get encoding(): string | null {
    return this.contentParams.charset ?? null;
  }

  private parsedContentType(): { type: string; params: Record<string, string> } {
    if (!this.contentTypeCache) {
      const header = this.header('content-type');
      // No Content-Type: what splitContentType('') answers.
      this.contentTypeCache = header === undefined ? { type: '', params: {} } : splitContentType(header);
    }
    return this.contentTypeCache;
  }

  /** The declared body length, or null when absent (chunked) or malformed. */
  get contentLength(): number | null {
    const value = this.headers['content-length'];
    if (value === undefined || value === '') return null;
    const length = Number(value);
    return Number.isFinite(length) && length >= 0 ? length : null;
  }

  private checkDeclaredLength({ limit, message }: BodyLimit = memoryLimit()): void {
    const length = this.contentLength;
    if (limit !== null && length !== null && length > limit) throw new RequestDataTooBig(message);
  }

  /** True when the request may carry a body (declared length or chunked encoding). */
  get hasBody(): boolean {
    if (this.bodyBuffer) return this.bodyBuffer.length > 0;
    const length = this.contentLength;
    if (length !== null) return length > 0;
    return this.headers['transfer-encoding'] !== undefined;
  }

  /**
   * The whole body, read once and cached. Throws `RequestDataTooBig` when it exceeds
   * `DATA_UPLOAD_MAX_MEMORY_SIZE` (declared or counted while reading).
   */
  body(): Promise<Buffer> {
    if (this.bodyPromise) return this.bodyPromise;
    if (this.bodyBuffer) {
      // A body given up front (request factories) obeys the same limit.
      const { limit, message } = memoryLimit();
      this.bodyPromise =
        limit !== null && this.bodyBuffer.length > limit ? Promise.reject(new RequestDataTooBig(message)) : Promise.resolve(this.bodyBuffer);
      this.bodyPromise.catch(() => undefined);
      return this.bodyPromise;
    }
    if (this.streamed) return Promise.reject(new Error('You cannot access body after reading from the request\'s data stream.'));
    try {
      this.checkDeclaredLength();
    } catch (error) {
      this.bodyPromise = Promise.reject(error);
      this.bodyPromise.catch(() => undefined);
      return this.bodyPromise;
    }
    this.bodyPromise = readBody(this.raw, this.hasBody, memoryLimit()).then((buffer) => {
      this.bodyBuffer = buffer;
      return buffer;
    });
    return this.bodyPromise;
  }

  /**
   * The raw body as a stream (for the parsers), limited like `body()`: the stream errors with
   * `RequestDataTooBig` once the limit is passed, and this throws at once when the declared
   * length is too big. With `{ files: true }` (multipart and file-upload parsers, whose files
   * go to disk) the bound is `FILE_UPLOAD_MAX_SIZE` instead of `DATA_UPLOAD_MAX_MEMORY_SIZE`;
   * the multipart parser still bounds its non-file fields by the latter, as the host framework.
   */
  stream(options: { files?: boolean } = {}): Readable {
    const bound = streamLimit(options.files === true);
    if (this.bodyBuffer) {
      if (bound.limit !== null && this.bodyBuffer.length > bound.limit) throw new RequestDataTooBig(bound.message);
      return Readable.from([this.bodyBuffer]);
    }
    if (this.bodyPromise) {
      const pending = this.bodyPromise;
      return Readable.from((async function* replay() {
        yield await pending;
      })());
    }
    this.checkDeclaredLength(bound);
    this.streamed = true;
    // Bodies held in memory: a stream that parsers may also take whole (see BodyStream).
    return options.files === true ? limitedStream(this.raw, bound) : new BodyStream(this.raw, bound);
  }

  /** The body decoded as text (UTF-8 unless the Content-Type names a charset). */
  async text(): Promise<string> {
    const buffer = await this.body();
    const charset = (this.encoding ?? 'utf-8').toLowerCase();
    try {
      return new TextDecoder(charset).decode(buffer);
    } catch {
      return buffer.toString('utf8');
    }
  }

  /** True for `X-Requested-With: XMLHttpRequest`. */
  isAjax(): boolean {
    return this.header('x-requested-with') === 'XMLHttpRequest';
  }

  /** The request as the original's repr shows it, for debugging. */
  toString(): string {
    return `<HttpRequest: ${this.method} '${this.getFullPath()}'>`;
  }
}
