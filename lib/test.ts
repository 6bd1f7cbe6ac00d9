/**
 * Test tools: `APIRequestFactory` builds real requests for calling views directly,
 * `APIClient` sends requests through the whole project (middleware, URL resolution, views)
 * in process, `RequestsClient` talks to a live server over HTTP, and `transactionalSuite()`
 * runs every test of a suite inside a rolled-back transaction.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - Test tools (`lib/test.ts`): `new APIRequestFactory()` methods are async and return an
 *   `HttpRequest` (`await factory.post(path, { data, format, contentType, headers, meta, secure })`);
 *   `forceAuthenticate(request, user, token)`; `new APIClient({ enforceCsrfChecks })` answers
 *   `TestResponse` (`status`, `headers`, `header()`, `data`, `json()`, `text`, `content`) through
 *   `handleRequest` in process, with `credentials()`, `login()`, `forceLogin()`, `logout()`,
 *   `forceAuthenticate()` and a cookie jar; `RequestsClient(baseUrl)` uses node's fetch (undici)
 *   against `startLiveServer()`; `transactionalSuite(suite('x'))` rolls back every test body.
 */
import { authenticate as authenticateCredentials, login as authLogin, logout as authLogout } from '../contrib/auth';
import { dontEnforceCsrfChecks } from './core/middleware/csrf';
import { getSessionStore } from '../contrib/sessions/middleware';
import { settings } from './core/conf';
import { quoteCookieValue } from './core/cookie';
import { withRollback } from './core/db/testing';
import { handleRequest } from './core/handler';
import { HttpRequest, HttpResponse, StreamingHttpResponse, allowTestClientHost, type AuthUser } from './core/http';
import { runServer, type RunningServer } from './core/server';
import { forceAuthenticate as forceRequestAuthentication } from './request';
import { apiSettings } from './settings';

// As the host framework's test runner does, the test clients' host `testserver` is allowed
// without listing it in ALLOWED_HOSTS once the test tools are loaded.
allowTestClientHost();

/** A renderer as the request factory uses it to encode bodies. */
interface EncodingRenderer {
  mediaType: string;
  format: string;
  charset: string | null;
  render(data: unknown, acceptedMediaType?: string | null, context?: never): string | Buffer | Promise<string | Buffer>;
}

type EncodingRendererClass = new () => EncodingRenderer;

/** Options of one test request. */
export interface TestRequestOptions {
  /** The body (encoded with `format`), or for GET/HEAD the query parameters. */
  data?: unknown;
  /** A format of TEST_REQUEST_RENDERER_CLASSES (`'multipart'`, `'json'`). */
  format?: string;
  /** Send `data` as-is (string or bytes) with this Content-Type; excludes `format`. */
  contentType?: string;
  /**
   * Extra request headers: header names (`Authorization`) or the original's META spelling
   * (`HTTP_AUTHORIZATION`, `CONTENT_TYPE`; other upper-case keys such as `REMOTE_USER` go to
   * `request.META`).
   */
  headers?: Record<string, string>;
  /**
   * The original's `**extra`: META-style keys (`HTTP_AUTHORIZATION` -> the `Authorization`
   * header, `REMOTE_USER` -> `request.META`); header names work too.
   */
  extra?: Record<string, string>;
  /** Extra `request.META` entries (e.g. `REMOTE_USER`). */
  meta?: Record<string, string>;
  /** Make an HTTPS request. */
  secure?: boolean;
  /** The client address (default 127.0.0.1). */
  remoteAddr?: string;
}

/** Options of `APIRequestFactory` and `APIClient`. */
export interface FactoryOptions {
  /** Apply the CSRF checks (off by default, as in the host framework's test client). */
  enforceCsrfChecks?: boolean;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

function encodeQuery(data: unknown): string {
  if (data === null || data === undefined) return '';
  const params = new URLSearchParams();
  const entries = data instanceof Map ? [...data.entries()] : Object.entries(data as Record<string, unknown>);
  for (const [key, value] of entries) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) params.append(String(key), item === null || item === undefined ? '' : String(item));
  }
  return params.toString();
}

function isEmptyData(data: unknown): boolean {
  if (data === null || data === undefined) return true;
  if (typeof data === 'object' && !Buffer.isBuffer(data)) return Object.keys(data as object).length === 0;
  return false;
}

/**
 * Builds `HttpRequest`s for calling views directly, the way the server would: bodies are
 * encoded with the renderers of TEST_REQUEST_RENDERER_CLASSES (`format: 'json'`), or sent
 * raw with `contentType`.
 *
 * @example
 * const factory = new APIRequestFactory();
 * const request = await factory.post('/notes/', { data: { title: 'new idea' }, format: 'json' });
 * const response = await NoteList.asView()(request, {});
 */
export class APIRequestFactory {
  /** Apply CSRF checks to the built requests. */
  enforceCsrfChecks: boolean;
  /** Headers sent with every request. */
  defaultHeaders: Record<string, string>;

  constructor(options: FactoryOptions = {}) {
    this.enforceCsrfChecks = options.enforceCsrfChecks ?? false;
    this.defaultHeaders = { ...(options.headers ?? {}) };
  }

  /** The renderers usable for request bodies, by format. */
  protected rendererClasses(): Map<string, EncodingRendererClass> {
    const map = new Map<string, EncodingRendererClass>();
    for (const cls of apiSettings.TEST_REQUEST_RENDERER_CLASSES) {
      map.set(new cls().format, cls);
    }
    return map;
  }

  /**
   * Encode `data` into a body and its Content-Type: raw with an explicit `contentType`,
   * otherwise rendered in `format` (default TEST_REQUEST_DEFAULT_FORMAT).
   */
  async encodeData(data: unknown, format?: string, contentType?: string): Promise<[Buffer | null, string | null]> {
    if (data === null || data === undefined) return [null, contentType ?? null];
    if (format !== undefined && contentType !== undefined) {
      throw new Error('You may not set both `format` and `contentType`.');
    }
    if (contentType !== undefined) {
      // Content type given: the data is the raw body.
      const raw = Buffer.isBuffer(data) ? data : Buffer.from(typeof data === 'string' ? data : String(data), 'utf8');
      return [raw, contentType];
    }
    const chosen = format ?? apiSettings.TEST_REQUEST_DEFAULT_FORMAT;
    const renderers = this.rendererClasses();
    const cls = renderers.get(chosen);
    if (!cls) {
      const available = [...renderers.keys()].map((fmt) => `'${fmt}'`).join(', ');
      throw new Error(
        `Invalid format '${chosen}'. Available formats are ${available}. Set TEST_REQUEST_RENDERER_CLASSES to enable extra request formats.`,
      );
    }
    const renderer = new cls();
    const rendered = await renderer.render(data);
    let type = renderer.mediaType;
    if (renderer.charset) type = `${type}; charset=${renderer.charset}`;
    const body = typeof rendered === 'string' ? Buffer.from(rendered, renderer.charset === 'iso-8859-1' ? 'latin1' : 'utf8') : rendered;
    return [body, type];
  }

  /** A GET request; `data` becomes the query string (a query already in `path` is kept without data). */
  get(path: string, options: TestRequestOptions = {}): Promise<HttpRequest> {
    return this.queryRequest('GET', path, options);
  }

  /** A HEAD request; `data` becomes the query string. */
  head(path: string, options: TestRequestOptions = {}): Promise<HttpRequest> {
    return this.queryRequest('HEAD', path, options);
  }

  /** A POST request with an encoded body. */
  post(path: string, options: TestRequestOptions = {}): Promise<HttpRequest> {
    return this.bodyRequest('POST', path, options);
  }

  /** A PUT request with an encoded body. */
  put(path: string, options: TestRequestOptions = {}): Promise<HttpRequest> {
    return this.bodyRequest('PUT', path, options);
  }

  /** A PATCH request with an encoded body. */
  patch(path: string, options: TestRequestOptions = {}): Promise<HttpRequest> {
    return this.bodyRequest('PATCH', path, options);
  }

  /** A DELETE request (with a body only when `data` is given). */
  delete(path: string, options: TestRequestOptions = {}): Promise<HttpRequest> {
    return this.bodyRequest('DELETE', path, options);
  }

  /** An OPTIONS request (with a body only when `data` is given). */
  options(path: string, options: TestRequestOptions = {}): Promise<HttpRequest> {
    return this.bodyRequest('OPTIONS', path, options);
  }

  private async queryRequest(method: string, path: string, options: TestRequestOptions): Promise<HttpRequest> {
    const [bare, query] = path.includes('?') ? [path.slice(0, path.indexOf('?')), path.slice(path.indexOf('?') + 1)] : [path, ''];
    const queryString = isEmptyData(options.data) ? query : encodeQuery(options.data);
    return this.generic(method, queryString ? `${bare}?${queryString}` : bare, null, null, options);
  }

  private async bodyRequest(method: string, path: string, options: TestRequestOptions): Promise<HttpRequest> {
    const [body, contentType] = await this.encodeData(options.data, options.format, options.contentType);
    return this.generic(method, path, body, contentType, options);
  }

  /**
   * Build a request of any method with a ready body. Override to decorate every request the
   * factory makes.
   */
  generic(method: string, path: string, body: Buffer | string | null, contentType: string | null, options: TestRequestOptions = {}): HttpRequest {
    const given = splitMetaStyle({ ...this.defaultHeaders, ...(options.headers ?? {}), ...(options.extra ?? {}) });
    const headers: Record<string, string> = { host: 'testserver', ...given.headers };
    if (contentType !== null) headers['content-type'] = contentType;
    const request = HttpRequest.create({
      method,
      url: path,
      headers,
      body: body ?? undefined,
      secure: options.secure ?? false,
      remoteAddress: options.remoteAddr ?? '127.0.0.1',
    });
    Object.assign(request.META, given.meta);
    if (options.meta) Object.assign(request.META, options.meta);
    if (!this.enforceCsrfChecks) {
      request.dontEnforceCsrfChecks = true;
      dontEnforceCsrfChecks(request);
    }
    return request;
  }
}

const META_KEY = /^[A-Z][A-Z0-9_]*$/;

/**
 * Headers given by name or in the original's META spelling: `HTTP_X_API_KEY` is the header
 * `x-api-key`, `CONTENT_TYPE`/`CONTENT_LENGTH` are those headers, other upper-case
 * identifiers (`REMOTE_USER`, `SERVER_NAME`) are META entries; anything else is a header name.
 */
export function splitMetaStyle(entries: Record<string, string>): { headers: Record<string, string>; meta: Record<string, string> } {
  const headers: Record<string, string> = {};
  const meta: Record<string, string> = {};
  for (const [key, value] of Object.entries(entries)) {
    if (!META_KEY.test(key)) headers[key.toLowerCase()] = value;
    else if (key.startsWith('HTTP_')) headers[key.slice(5).toLowerCase().replace(/_/g, '-')] = value;
    else if (key === 'CONTENT_TYPE' || key === 'CONTENT_LENGTH') headers[key.toLowerCase().replace('_', '-')] = value;
    else meta[key] = value;
  }
  return { headers, meta };
}

/**
 * Force authentication on a request built by `APIRequestFactory`: API views then see `user`
 * and `token` as `request.user` and `request.auth`, whatever their authentication classes.
 */
export function forceAuthenticate(request: HttpRequest, user: AuthUser | null = null, token: unknown = null): void {
  forceRequestAuthentication(request, user, token);
}

/** A response received by `APIClient`: the host response plus easy access to its body. */
/**
 * Run the request's cleanup hooks once the response is complete, as the server does after
 * writing it: at once, or after the last chunk of a streaming response.
 */
async function finishRequest(request: HttpRequest, response: HttpResponse): Promise<void> {
  if (response instanceof StreamingHttpResponse) {
    const chunks = response.streamingContent;
    response.streamingContent = (async function* finished(): AsyncGenerator<Buffer | string> {
      try {
        yield* chunks;
      } finally {
        await request.runCleanups();
      }
    })();
    return;
  }
  await request.runCleanups();
}

/**
 * What the test clients answer: the status, headers and body of the response, with `data` (the
 * response's unrendered data, for API views) and `json()` for assertions.
 */
export class TestResponse {
  constructor(
    /** The response the project answered with. */
    readonly response: HttpResponse,
    /** The request that was sent. */
    readonly request: HttpRequest,
  ) {}

  /** The HTTP status code. */
  get status(): number {
    return this.response.status;
  }

  /** Same as `status` (the host framework's `status_code`). */
  get statusCode(): number {
    return this.response.status;
  }

  /** The response headers. */
  get headers(): HttpResponse['headers'] {
    return this.response.headers;
  }

  /** A header value, or undefined. */
  header(name: string): string | undefined {
    return this.response.getHeader(name);
  }

  /** The body bytes. */
  get content(): Buffer {
    return this.response.contentBytes;
  }

  /** The body as text. */
  get text(): string {
    return this.response.text;
  }

  /** The body parsed as JSON. */
  json(): unknown {
    return JSON.parse(this.text);
  }

  /**
   * The response data: the unrendered data of an API `Response`, else the parsed body of a
   * JSON response, else undefined.
   */
  get data(): unknown {
    const response = this.response as HttpResponse & { data?: unknown };
    if ('data' in response && !(response.data instanceof Function)) return response.data;
    const type = this.response.getHeader('Content-Type') ?? '';
    if (/^application\/(.+\+)?json/i.test(type) && this.content.length) return this.json();
    return undefined;
  }

  /** The cookies the response sets. */
  get cookies(): HttpResponse['cookies'] {
    return this.response.cookies;
  }
}

/**
 * The `Cookie:` header the client sends: each cookie as `name=value` with the value quoted as
 * a `Set-Cookie` header writes it (`a b;c` is `"a b\073c"`), sorted, as the host framework's
 * test client sends its cookie jar, so any value reads back unchanged.
 */
function cookieHeader(cookies: ReadonlyMap<string, string>): string {
  return [...cookies]
    .map(([name, value]) => `${name}=${quoteCookieValue(value)}`)
    .sort()
    .join('; ');
}

/**
 * Sends requests through the project's whole stack (settings MIDDLEWARE, ROOT_URLCONF, the
 * views) in process, without sockets. Cookies persist between requests; `credentials()`
 * adds headers to every request; `login()`/`forceLogin()` create a session;
 * `forceAuthenticate()` skips authentication for API views.
 *
 * @example
 * const client = new APIClient();
 * client.credentials({ Authorization: `Token ${token.key}` });
 * const response = await client.post('/notes/', { data: { title: 'new idea' }, format: 'json' });
 * assert.is(response.status, 201);
 */
export class APIClient {
  /** Encodes bodies and builds the requests. */
  readonly factory: APIRequestFactory;
  /** Cookies sent with every request, by name. */
  readonly cookies = new Map<string, string>();
  private credentialHeaders: Record<string, string> = {};
  private forceUser: AuthUser | null = null;
  private forceToken: unknown = null;

  constructor(options: FactoryOptions = {}) {
    this.factory = new APIRequestFactory(options);
  }

  /**
   * Set headers sent with every later request, replacing earlier ones: by name
   * (`{ Authorization: 'Token abc' }`) or in the original's META spelling
   * (`{ HTTP_AUTHORIZATION: 'Token abc' }`).
   */
  credentials(headers: Record<string, string> = {}): void {
    this.credentialHeaders = { ...headers };
  }

  /**
   * Authenticate every later request as `user` (and `token`) for API views. Calling it with
   * neither logs the client out.
   */
  async forceAuthenticate(user: AuthUser | null = null, token: unknown = null): Promise<void> {
    this.forceUser = user;
    this.forceToken = token;
    if (user === null && token === null) await this.logout();
  }

  /** A GET request; `data` becomes the query string. */
  get(path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.send(this.factory.get(path, this.withCredentials(options)));
  }

  /** A HEAD request. */
  head(path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.send(this.factory.head(path, this.withCredentials(options)));
  }

  /** A POST request. */
  post(path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.send(this.factory.post(path, this.withCredentials(options)));
  }

  /** A PUT request. */
  put(path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.send(this.factory.put(path, this.withCredentials(options)));
  }

  /** A PATCH request. */
  patch(path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.send(this.factory.patch(path, this.withCredentials(options)));
  }

  /** A DELETE request. */
  delete(path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.send(this.factory.delete(path, this.withCredentials(options)));
  }

  /** An OPTIONS request. */
  options(path: string, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.send(this.factory.options(path, this.withCredentials(options)));
  }

  /** A request of any method with a ready body. */
  generic(method: string, path: string, body: Buffer | string | null = null, contentType: string | null = null, options: TestRequestOptions = {}): Promise<TestResponse> {
    return this.send(Promise.resolve(this.factory.generic(method, path, body, contentType, this.withCredentials(options))));
  }

  private withCredentials(options: TestRequestOptions): TestRequestOptions {
    const headers: Record<string, string> = { ...this.credentialHeaders, ...(options.headers ?? {}) };
    const hasCookie = Object.keys({ ...headers, ...(options.extra ?? {}) }).some((name) => name.toLowerCase() === 'cookie' || name === 'HTTP_COOKIE');
    if (this.cookies.size && !hasCookie) {
      headers.cookie = cookieHeader(this.cookies);
    }
    return { ...options, headers };
  }

  private async send(pending: Promise<HttpRequest>): Promise<TestResponse> {
    const request = await pending;
    if (this.forceUser !== null || this.forceToken !== null) {
      forceRequestAuthentication(request, this.forceUser, this.forceToken);
    }
    const response = await handleRequest(request);
    await finishRequest(request, response);
    this.storeCookies(response);
    // The server sends no body for HEAD; the in-process answer must not either.
    if (request.method === 'HEAD') response.content = '';
    return new TestResponse(response, request);
  }

  private storeCookies(response: HttpResponse): void {
    const now = Date.now();
    for (const [name, { value, options }] of response.cookies) {
      const expired = options.maxAge === 0 || (options.expires instanceof Date && options.expires.getTime() <= now);
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /**
   * Log in with credentials through the authentication backends, creating a session as the
   * login view would. Returns false when the credentials are refused.
   */
  async login(credentials: Record<string, unknown>): Promise<boolean> {
    const user = await authenticateCredentials(null, credentials);
    if (!user || !user.is_active) return false;
    await this.forceLogin(user);
    return true;
  }

  /** Log `user` in without checking credentials: a session is created and its cookie kept. */
  async forceLogin(user: AuthUser): Promise<void> {
    const request = HttpRequest.create({ headers: { host: 'testserver' } });
    const Store = getSessionStore();
    const existing = this.cookies.get(settings.SESSION_COOKIE_NAME) ?? null;
    const session = new Store(existing);
    await session.ensureLoaded();
    request.session = session;
    await authLogin(request, user);
    await session.save();
    const key = session.sessionKey;
    if (key) this.cookies.set(settings.SESSION_COOKIE_NAME, key);
  }

  /** Forget credentials, forced authentication and the session (which is flushed). */
  async logout(): Promise<void> {
    this.credentialHeaders = {};
    this.forceUser = null;
    this.forceToken = null;
    const key = this.cookies.get(settings.SESSION_COOKIE_NAME);
    if (key) {
      const request = HttpRequest.create({ headers: { host: 'testserver', cookie: `${settings.SESSION_COOKIE_NAME}=${key}` } });
      const Store = getSessionStore();
      const session = new Store(key);
      await session.ensureLoaded();
      request.session = session;
      await authLogout(request);
    }
    this.cookies.clear();
  }
}

/** A response received by `RequestsClient`. */
export interface LiveResponse {
  status: number;
  headers: Headers;
  /** The body as text. */
  text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  json(): unknown;
}

/** Options of one `RequestsClient` request. */
export interface LiveRequestOptions {
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as an urlencoded form body (an object) or raw (string / bytes). */
  data?: Record<string, string> | string | Buffer;
  headers?: Record<string, string>;
}

/**
 * A client for a live server over real HTTP (node's fetch, which is undici), keeping cookies
 * between requests; the counterpart of the `requests`-based client of the original.
 *
 * @example
 * const server = await startLiveServer();
 * const client = new RequestsClient(server.url);
 * const response = await client.get('/snippets/');
 */
export class RequestsClient {
  /** Cookies sent with every request. */
  readonly cookies = new Map<string, string>();
  /** Headers sent with every request. */
  headers: Record<string, string> = {};

  constructor(readonly baseUrl: string) {}

  /** Send a request of any method. */
  async request(method: string, path: string, options: LiveRequestOptions = {}): Promise<LiveResponse> {
    const headers: Record<string, string> = { ...this.headers, ...(options.headers ?? {}) };
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    } else if (typeof options.data === 'string' || Buffer.isBuffer(options.data)) {
      body = options.data;
    } else if (options.data !== undefined) {
      body = new URLSearchParams(options.data).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const url = new URL(path, this.baseUrl).toString();
    // fetch's BodyInit wants bytes backed by a plain ArrayBuffer: copy a Buffer into one.
    const payload = Buffer.isBuffer(body) ? Uint8Array.from(body) : body;
    const response = await fetch(url, { method, headers, body: payload, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attr) => /^\s*max-age\s*=\s*0\s*$/i.test(attr));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
  }

  /** GET `path`. */
  get(path: string, options: LiveRequestOptions = {}): Promise<LiveResponse> {
    return this.request('GET', path, options);
  }

  /** POST to `path`. */
  post(path: string, options: LiveRequestOptions = {}): Promise<LiveResponse> {
    return this.request('POST', path, options);
  }

  /** PUT to `path`. */
  put(path: string, options: LiveRequestOptions = {}): Promise<LiveResponse> {
    return this.request('PUT', path, options);
  }

  /** PATCH `path`. */
  patch(path: string, options: LiveRequestOptions = {}): Promise<LiveResponse> {
    return this.request('PATCH', path, options);
  }

  /** DELETE `path`. */
  delete(path: string, options: LiveRequestOptions = {}): Promise<LiveResponse> {
    return this.request('DELETE', path, options);
  }
}

/** Start the project's server on a free port of 127.0.0.1 (close it in `after()`). */
export function startLiveServer(): Promise<RunningServer> {
  return runServer({ host: '127.0.0.1', port: 0, accessLog: false });
}

/** A test body as uvu calls it. */
export type TestCallback<C> = (context: C) => void | Promise<void>;

/** The uvu-like suite `transactionalSuite()` wraps. */
export interface TestSuite<C = unknown> {
  (name: string, fn: TestCallback<C>): void;
  only(name: string, fn: TestCallback<C>): void;
  skip(name?: string, fn?: TestCallback<C>): void;
}

/**
 * Wrap a suite's test function so every test body runs inside a transaction that is rolled
 * back afterwards (the original's `APITestCase`): tests see each other's data never, and the
 * database is left as the suite's `before()` made it. Hooks (`before`, `after`, `run`) are
 * the suite's own.
 *
 * @example
 * const test = transactionalSuite(suite('notes'));
 * test('create :: stores the note', async () => { ... });
 * test.run();
 */
export function transactionalSuite<S extends TestSuite>(testSuite: S): S {
  const wrap =
    (fn: TestCallback<unknown>): TestCallback<unknown> =>
    async (context: unknown): Promise<void> => {
      await withRollback(async () => {
        await fn(context);
      });
    };
  // The suite's own properties (before, after, run, ...) are copied onto the wrapper.
  const wrapped: S = Object.assign((name: string, fn: TestCallback<unknown>) => testSuite(name, wrap(fn)), testSuite);
  wrapped.only = (name: string, fn: TestCallback<unknown>) => testSuite.only(name, wrap(fn));
  wrapped.skip = (name?: string, fn?: TestCallback<unknown>) => testSuite.skip(name, fn && wrap(fn));
  return wrapped;
}

// What a project's specs need besides the clients: the test environment, a database per
// suite, rolled-back blocks and settings overrides.
export { setupTestProject, type TestProjectOptions } from './core/testEnvironment';
export { useTestDatabase, setupTestDatabase, withRollback, type TestDatabase, type TestDatabaseOptions } from './core/db/testing';
export { overrideSettings } from './core/conf';
