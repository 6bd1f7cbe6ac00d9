/**
 * Requests and responses of the host layer: `HttpRequest` wraps node's `IncomingMessage`,
 * `HttpResponse` (and its family) is what views return and the server writes.
 */
import { IncomingMessage, STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { serialize as serializeCookie } from 'cookie';
import { cookieHeaderText, parseCookie, quoteCookieValue } from './cookie';
import { settings } from './conf';
import { iriToUri, uriToPathText } from './encoding';
import {
  DisallowedHost,
  DisallowedRedirect,
  RequestDataTooBig,
  TooManyFieldsSent,
  Http404,
  PermissionDenied,
  SuspiciousOperation,
} from './exceptions';
import type { ResolverMatch } from './urls';

export { DisallowedHost, DisallowedRedirect, RequestDataTooBig, TooManyFieldsSent, Http404, PermissionDenied, SuspiciousOperation };

const BODY_TOO_BIG = 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.';

// ---------------------------------------------------------------------------------------------
// Multi-value dictionaries
// ---------------------------------------------------------------------------------------------

/**
 * A dictionary whose keys may hold several values, as query strings and forms do.
 * `get(key)` answers the last value (like the host framework), `getList(key)` all of them.
 */
export class MultiValueDict<V> {
  protected readonly data = new Map<string, V[]>();
  protected mutable = true;

  constructor(entries?: Iterable<[string, V]>) {
    if (entries) for (const [key, value] of entries) this.appendValue(key, value);
  }

  /** The last value for `key`, or `fallback` when the key is absent. */
  get(key: string): V | undefined;
  get<D>(key: string, fallback: D): V | D;
  get<D>(key: string, fallback?: D): V | D | undefined {
    const values = this.data.get(key);
    return values && values.length > 0 ? values[values.length - 1] : fallback;
  }

  /** Every value for `key` (a copy), or `[]`. */
  getList(key: string): V[] {
    return [...(this.data.get(key) ?? [])];
  }

  /** True when `key` holds at least one value. */
  has(key: string): boolean {
    return this.data.has(key);
  }

  /** The keys, in insertion order. */
  keys(): string[] {
    return [...this.data.keys()];
  }

  /** `[key, lastValue]` pairs. */
  entries(): Array<[string, V]> {
    const out: Array<[string, V]> = [];
    for (const [key, values] of this.data) if (values.length) out.push([key, values[values.length - 1]]);
    return out;
  }

  /** `[key, allValues]` pairs. */
  lists(): Array<[string, V[]]> {
    return [...this.data].map(([key, values]) => [key, [...values]]);
  }

  /** Every `[key, value]` pair, repeated keys included, in order. */
  items(): Array<[string, V]> {
    const out: Array<[string, V]> = [];
    for (const [key, values] of this.data) for (const value of values) out.push([key, value]);
    return out;
  }

  /** Number of distinct keys. */
  get size(): number {
    return this.data.size;
  }

  /** Iterates the keys, like the host framework's dictionaries. */
  [Symbol.iterator](): IterableIterator<string> {
    return this.data.keys();
  }

  /** Replace the values of `key` with this single value. */
  set(key: string, value: V): void {
    this.assertMutable();
    this.data.set(key, [value]);
  }

  /** Replace the values of `key` with a list. */
  setList(key: string, values: V[]): void {
    this.assertMutable();
    this.data.set(key, [...values]);
  }

  /** Add a value to `key`'s list. */
  appendList(key: string, value: V): void {
    this.assertMutable();
    this.appendValue(key, value);
  }

  /** Remove `key`. */
  delete(key: string): boolean {
    this.assertMutable();
    return this.data.delete(key);
  }

  /** A plain object of last values (handy for logging and tests). */
  toObject(): Record<string, V> {
    return Object.fromEntries(this.entries());
  }

  /** JSON output is the object of last values, as the host framework's `json.dumps(QueryDict)`. */
  toJSON(): Record<string, V> {
    return this.toObject();
  }

  /** A mutable copy. */
  copy(): this {
    const Ctor = this.constructor as new () => this;
    const clone = new Ctor();
    for (const [key, values] of this.data) clone.data.set(key, [...values]);
    clone.mutable = true;
    return clone;
  }

  protected appendValue(key: string, value: V): void {
    const values = this.data.get(key);
    if (values) values.push(value);
    else this.data.set(key, [value]);
  }

  protected assertMutable(): void {
    if (!this.mutable) throw new TypeError('This QueryDict instance is immutable');
  }
}

/** Parsed query strings and url-encoded forms; immutable unless copied (`copy()`). */
export class QueryDict extends MultiValueDict<string> {
  /**
   * Parse `a=1&a=2&b=` keeping repeated and blank values. Raises `TooManyFieldsSent` past
   * `DATA_UPLOAD_MAX_NUMBER_FIELDS`.
   */
  static parse(queryString: string, options: { mutable?: boolean } = {}): QueryDict {
    const dict = new QueryDict();
    if (queryString) {
      const limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS;
      let count = 0;
      for (const [key, value] of new URLSearchParams(queryString)) {
        count += 1;
        if (limit !== null && limit !== undefined && count > limit) {
          throw new TooManyFieldsSent('The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.');
        }
        dict.appendValue(key, value);
      }
    }
    dict.mutable = options.mutable ?? false;
    return dict;
  }

  /** Encode back to a query string (`a=1&a=2`). */
  urlencode(): string {
    const params = new URLSearchParams();
    for (const [key, value] of this.items()) params.append(key, value);
    return params.toString();
  }
}

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

/**
 * What the host layer knows about a user: implemented by `contrib/auth`'s `User` and
 * `AnonymousUser`. `request.user` always holds one.
 */
export interface AuthUser {
  pk: number | string | null;
  id: number | string | null;
  username: string;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  readonly isAuthenticated: boolean;
  readonly isAnonymous: boolean;
  /** True when the user has the permission `app_label.codename` (on `obj`, if given). */
  hasPerm(perm: string, obj?: unknown): boolean | Promise<boolean>;
  /** True when the user has every permission listed. */
  hasPerms(perms: Iterable<string>, obj?: unknown): boolean | Promise<boolean>;
}

/** The anonymous user the host layer puts on every request until authentication replaces it. */
export const anonymousUser: AuthUser = Object.freeze({
  pk: null,
  id: null,
  username: '',
  is_active: false,
  is_staff: false,
  is_superuser: false,
  isAuthenticated: false,
  isAnonymous: true,
  hasPerm: () => false,
  hasPerms: (perms: Iterable<string>) => [...perms].length === 0,
  toString: () => 'AnonymousUser',
});

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

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

function splitContentType(value: string): { type: string; params: Record<string, string> } {
  const [type, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    let val = part.slice(eq + 1).trim();
    if (val.length >= 2 && val.startsWith('"') && val.endsWith('"')) val = val.slice(1, -1);
    if (key) params[key] = val;
  }
  return { type: type.trim().toLowerCase(), params };
}

// Header names repeat from request to request: their META keys are computed once (bounded,
// so a client inventing names cannot grow it without limit).
const metaKeys = new Map<string, string>();
const MAX_META_KEYS = 1000;

/** The META key of a (lower-case) header name: `HTTP_X_FORWARDED_FOR`, `CONTENT_TYPE`. */
function metaKey(name: string): string {
  let key = metaKeys.get(name);
  if (key === undefined) {
    const upper = name.toUpperCase().replace(/-/g, '_');
    key = upper === 'CONTENT_TYPE' || upper === 'CONTENT_LENGTH' ? upper : `HTTP_${upper}`;
    if (metaKeys.size < MAX_META_KEYS) metaKeys.set(name, key);
  }
  return key;
}

/** The lower-case header name a META key stands for (`HTTP_ACCEPT` -> `accept`), or null. */
function headerNameFor(key: string): string | null {
  if (key === 'CONTENT_TYPE' || key === 'CONTENT_LENGTH') return key.toLowerCase().replace('_', '-');
  if (!key.startsWith('HTTP_') || key === 'HTTP_CONTENT_TYPE' || key === 'HTTP_CONTENT_LENGTH') return null;
  return key.slice(5).toLowerCase().replace(/_/g, '-');
}

/** The host's parts as `[domain, port]`; `['', '']` when the host is malformed. */
export function splitDomainPort(host: string): [string, string] {
  const lowered = host.toLowerCase();
  if (!/^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:\d+)?$/.test(lowered)) return ['', ''];
  if (lowered.endsWith(']')) return [lowered, ''];
  const colon = lowered.lastIndexOf(':');
  let domain = colon >= 0 ? lowered.slice(0, colon) : lowered;
  const port = colon >= 0 ? lowered.slice(colon + 1) : '';
  if (domain.endsWith('.')) domain = domain.slice(0, -1);
  return [domain, port];
}

/** True when `host` matches a pattern of ALLOWED_HOSTS (`*`, `.example.com`, `example.com`). */
export function validateHost(host: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((raw) => {
    if (raw === '*') return true;
    const pattern = raw.toLowerCase();
    if (pattern.startsWith('.')) return host.endsWith(pattern) || host === pattern.slice(1);
    return host === pattern;
  });
}

function pyRepr(value: string): string {
  return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/'/g, "\\'")}'`;
}

function limitFor(): number | null {
  const limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE;
  return typeof limit === 'number' ? limit : null;
}

const FILE_BODY_TOO_BIG = 'Request body exceeded settings.FILE_UPLOAD_MAX_SIZE.';

/** The bound of a streamed body: `FILE_UPLOAD_MAX_SIZE` for file uploads, else the data limit. */
function streamLimitFor(files: boolean): { limit: number | null; message: string } {
  if (!files) return { limit: limitFor(), message: BODY_TOO_BIG };
  const limit = settings.FILE_UPLOAD_MAX_SIZE;
  return { limit: typeof limit === 'number' ? limit : null, message: FILE_BODY_TOO_BIG };
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
  /** Form fields, filled by the form parsers. */
  POST: QueryDict = new QueryDict();
  /** Uploaded files, filled by the multipart parser. */
  FILES: MultiValueDict<UploadedFile> = new MultiValueDict<UploadedFile>();
  /** The authenticated user, or the anonymous user. */
  user: AuthUser = anonymousUser;
  /** The URL resolution that picked the view (set by the handler). */
  resolverMatch: ResolverMatch | null = null;
  /** Set once the CSRF middleware has decided (or the view is exempt). */
  csrfProcessingDone = false;
  /** When true, the CSRF checks are skipped (the API test client sets it). */
  dontEnforceCsrfChecks = false;
  /** The active language, set by the locale middleware or the API framework. */
  languageCode: string | undefined;
  /** Per-request scratch space for middleware and applications. */
  readonly state = new Map<string | symbol, unknown>();

  private queryCache: QueryDict | null = null;
  private cookieCache: Record<string, string> | null = null;
  private metaCache: Record<string, string> | null = null;
  private contentTypeCache: { type: string; params: Record<string, string> } | null = null;
  private bodyPromise: Promise<Buffer> | null = null;
  private bodyBuffer: Buffer | null = null;
  private streamed = false;
  private schemeHostCache: string | null = null;
  private cleanups: Array<() => void | Promise<void>> | null = null;

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

  /**
   * Register `fn` to run when the request is finished (Django's `request_finished`): after the
   * response was sent, whether the view succeeded or failed. The parsers register the removal
   * of uploaded temporary files here. Hooks run in registration order; errors are logged.
   */
  addCleanup(fn: () => void | Promise<void>): void {
    (this.cleanups ??= []).push(fn);
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
      this.cookieCache = parseCookie(cookieHeaderText(this.headers.cookie));
    }
    return this.cookieCache;
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
    return this.header(name);
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
    const meta = this.META;
    if (settings.USE_X_FORWARDED_HOST && meta.HTTP_X_FORWARDED_HOST) return meta.HTTP_X_FORWARDED_HOST;
    if (meta.HTTP_HOST) return meta.HTTP_HOST;
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
    let allowed = settings.ALLOWED_HOSTS;
    if (settings.DEBUG && allowed.length === 0) allowed = ['.localhost', '127.0.0.1', '[::1]'];
    const [domain] = splitDomainPort(host);
    if (domain && validateHost(domain, allowed)) return host;
    let message = `Invalid HTTP_HOST header: ${pyRepr(host)}.`;
    if (domain) message += ` You may need to add ${pyRepr(domain)} to ALLOWED_HOSTS.`;
    else message += ' The domain name provided is not valid according to RFC 1034/1035.';
    throw new DisallowedHost(message);
  }

  /** The port the client connected to, as a string. */
  getPort(): string {
    return this.META.SERVER_PORT;
  }

  /** The path with the query string; `forceAppendSlash` adds a trailing slash to the path. */
  getFullPath(forceAppendSlash = false): string {
    const slash = forceAppendSlash && !this.rawPath.endsWith('/') ? '/' : '';
    return `${this.rawPath}${slash}${this.queryString ? `?${this.queryString}` : ''}`;
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
    if (!this.contentTypeCache) this.contentTypeCache = splitContentType(this.header('content-type') ?? '');
    return this.contentTypeCache;
  }

  /** The declared body length, or null when absent (chunked) or malformed. */
  get contentLength(): number | null {
    const value = this.headers['content-length'];
    if (value === undefined || value === '') return null;
    const length = Number(value);
    return Number.isFinite(length) && length >= 0 ? length : null;
  }

  private checkDeclaredLength(limit = limitFor(), message = BODY_TOO_BIG): void {
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
      const limit = limitFor();
      this.bodyPromise =
        limit !== null && this.bodyBuffer.length > limit ? Promise.reject(new RequestDataTooBig(BODY_TOO_BIG)) : Promise.resolve(this.bodyBuffer);
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
    this.bodyPromise = this.readAll().then((buffer) => {
      this.bodyBuffer = buffer;
      return buffer;
    });
    return this.bodyPromise;
  }

  private readAll(): Promise<Buffer> {
    const raw = this.raw;
    const limit = limitFor();
    return new Promise<Buffer>((resolve, reject) => {
      if (raw.readableEnded || (!this.hasBody && raw.complete)) {
        resolve(Buffer.alloc(0));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const cleanup = (): void => {
        raw.off('data', onData);
        raw.off('end', onEnd);
        raw.off('error', onError);
        raw.off('aborted', onAborted);
      };
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (limit !== null && size > limit) {
          cleanup();
          // Keep discarding what the client still sends; the response closes the connection.
          raw.resume();
          reject(new RequestDataTooBig(BODY_TOO_BIG));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => {
        cleanup();
        resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const onAborted = (): void => {
        cleanup();
        reject(new Error('The client closed the connection before sending the whole request body.'));
      };
      raw.on('data', onData);
      raw.on('end', onEnd);
      raw.on('error', onError);
      raw.on('aborted', onAborted);
    });
  }

  /**
   * The raw body as a stream (for the parsers), limited like `body()`: the stream errors with
   * `RequestDataTooBig` once the limit is passed, and this throws at once when the declared
   * length is too big. With `{ files: true }` (multipart and file-upload parsers, whose files
   * go to disk) the bound is `FILE_UPLOAD_MAX_SIZE` instead of `DATA_UPLOAD_MAX_MEMORY_SIZE`;
   * the multipart parser still bounds its non-file fields by the latter, as the host framework.
   */
  stream(options: { files?: boolean } = {}): Readable {
    const { limit, message } = streamLimitFor(options.files === true);
    if (this.bodyBuffer) {
      if (limit !== null && this.bodyBuffer.length > limit) throw new RequestDataTooBig(message);
      return Readable.from([this.bodyBuffer]);
    }
    if (this.bodyPromise) {
      const pending = this.bodyPromise;
      return Readable.from((async function* replay() {
        yield await pending;
      })());
    }
    this.checkDeclaredLength(limit, message);
    this.streamed = true;
    const raw = this.raw;
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
        size += chunk.length;
        if (limit !== null && size > limit) {
          raw.unpipe(counter);
          raw.resume();
          callback(new RequestDataTooBig(message));
          return;
        }
        callback(null, chunk);
      },
    });
    raw.on('error', (error) => counter.destroy(error));
    return raw.pipe(counter);
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

  toString(): string {
    return `<HttpRequest: ${this.method} '${this.getFullPath()}'>`;
  }
}

// ---------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------

/** Response headers with case-insensitive names (the original spelling is kept for output). */
export class ResponseHeaders {
  private readonly map = new Map<string, [string, string]>();

  constructor(init?: Record<string, string | number> | Iterable<[string, string]>) {
    if (init) {
      const entries = Symbol.iterator in Object(init) ? (init as Iterable<[string, string]>) : Object.entries(init);
      for (const [name, value] of entries) this.set(name, String(value));
    }
  }

  /** Set (replace) a header. */
  set(name: string, value: string | number): void {
    this.map.set(name.toLowerCase(), [name, String(value)]);
  }

  /** A header's value, or undefined. */
  get(name: string): string | undefined {
    return this.map.get(name.toLowerCase())?.[1];
  }

  /** True when the header is set. */
  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  /** Remove a header. */
  delete(name: string): boolean {
    return this.map.delete(name.toLowerCase());
  }

  /** `[name, value]` pairs (copies) in the order first set. */
  entries(): Array<[string, string]> {
    return Array.from(this.map.values(), ([name, value]) => [name, value]);
  }

  /** Iterates the `[name, value]` pairs in the order first set; read-only views, not copies. */
  [Symbol.iterator](): Iterator<readonly [string, string]> {
    return this.map.values();
  }
}

/** Options of `setCookie()`: seconds for `maxAge`, like the host framework. */
export interface CookieOptions {
  maxAge?: number | null;
  expires?: Date | null;
  path?: string;
  domain?: string | null;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: 'Lax' | 'Strict' | 'None' | 'lax' | 'strict' | 'none' | false | null;
}

/** A cookie to be sent with a response. */
export interface ResponseCookie {
  value: string;
  options: CookieOptions;
}

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
  /** Cookies to set, by name. */
  readonly cookies = new Map<string, ResponseCookie>();
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
    const out: string[] = [];
    for (const [name, { value, options }] of this.cookies) {
      const sameSite = options.sameSite ? (options.sameSite.toLowerCase() as 'lax' | 'strict' | 'none') : undefined;
      // The value is quoted as the host framework's cookie module does (an empty one is `""`,
      // `a b` is `"a b"`), which the cookie package refuses: it writes the attributes only.
      const attributes = serializeCookie(name, '', {
        maxAge: options.maxAge ?? undefined,
        expires: options.expires ?? undefined,
        path: options.path,
        domain: options.domain ?? undefined,
        secure: options.secure || undefined,
        httpOnly: options.httpOnly || undefined,
        sameSite,
      }).slice(name.length + 1);
      out.push(`${name}=${quoteCookieValue(value)}${attributes}`);
    }
    return out;
  }

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

const ALLOWED_REDIRECT_SCHEMES = new Set(['http', 'https', 'ftp']);

/**
 * A 302 redirect to `url`. The `Location` is `iriToUri(url)`: non-ASCII text and characters a
 * URI may not hold are percent-encoded, existing `%XX` escapes are kept (`?next=%2Fadmin%2F`
 * stays intact).
 */
export class HttpResponseRedirect extends HttpResponse {
  constructor(url: string, init: ResponseInit = {}) {
    super('', { status: 302, ...init });
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
    if (scheme && !ALLOWED_REDIRECT_SCHEMES.has(scheme.toLowerCase())) {
      throw new DisallowedRedirect(`Unsafe redirect to URL with protocol '${scheme}'`);
    }
    this.setHeader('Location', iriToUri(url));
  }

  /** The redirect target. */
  get url(): string {
    return this.getHeader('Location') ?? '';
  }
}

/** A 301 redirect to `url`. */
export class HttpResponsePermanentRedirect extends HttpResponseRedirect {
  constructor(url: string, init: ResponseInit = {}) {
    super(url, { ...init, status: 301 });
  }
}

/** A 405 response listing the permitted methods in `Allow`. */
export class HttpResponseNotAllowed extends HttpResponse {
  constructor(permittedMethods: string[], init: ResponseInit = {}) {
    super('', { ...init, status: 405 });
    this.setHeader('Allow', permittedMethods.map((m) => m.toUpperCase()).join(', '));
  }
}

/** A 304 response (no body). */
export class HttpResponseNotModified extends HttpResponse {
  constructor(init: ResponseInit = {}) {
    super('', { ...init, status: 304 });
    this.removeHeader('Content-Type');
  }
}

/** A 400 response. */
export class HttpResponseBadRequest extends HttpResponse {
  constructor(content: Buffer | string = '', init: ResponseInit = {}) {
    super(content, { ...init, status: 400 });
  }
}

/** A 403 response. */
export class HttpResponseForbidden extends HttpResponse {
  constructor(content: Buffer | string = '', init: ResponseInit = {}) {
    super(content, { ...init, status: 403 });
  }
}

/** A 404 response. */
export class HttpResponseNotFound extends HttpResponse {
  constructor(content: Buffer | string = '', init: ResponseInit = {}) {
    super(content, { ...init, status: 404 });
  }
}

/** A 500 response. */
export class HttpResponseServerError extends HttpResponse {
  constructor(content: Buffer | string = '', init: ResponseInit = {}) {
    super(content, { ...init, status: 500 });
  }
}
