/**
 * The Request class is used as a wrapper around the host layer's `HttpRequest`.
 *
 * It adds content negotiation results, request body parsing by the configured parsers and
 * authentication. The asynchronous steps are explicit: `APIView.initial()` awaits
 * `request.parseBody()` and `request.authenticate()`; afterwards `request.data`,
 * `request.user` and `request.auth` are plain synchronous getters.
 */
import type { Readable } from 'node:stream';
import { HttpRequest, MultiValueDict, QueryDict, type AuthUser, type UploadedFile } from './core/http';
import { APIException, UnsupportedMediaType } from './exceptions';
import { apiSettings } from './settings';
import type { BaseParser, DataAndFiles } from './parsers';
import type { BaseRenderer } from './renderers';
import type { BaseContentNegotiation } from './negotiation';
import type { BaseVersioning } from './versioning';

/** The user on a request: a host user, or null when UNAUTHENTICATED_USER is null. */
export type RequestUser = AuthUser | null;

/** What an authenticator returns: `[user, auth]` when it identified the request, else null. */
export type AuthenticationResult = [user: AuthUser, auth: unknown] | null | undefined;

/**
 * The shape of an authentication scheme as the request uses it (see lib/authentication.ts
 * for the base class).
 */
export interface Authenticator {
  authenticate(request: Request): AuthenticationResult | Promise<AuthenticationResult>;
  authenticateHeader?(request: Request): string | null | undefined;
}

/** Context handed to parsers: the view, its URL arguments, the request and its encoding. */
export interface ParserContext {
  view?: unknown;
  args?: string[];
  kwargs?: Record<string, unknown>;
  request?: Request;
  encoding?: string;
  [key: string]: unknown;
}

/** Options of the `Request` constructor. */
export interface RequestOptions {
  parsers?: BaseParser[];
  authenticators?: Authenticator[];
  negotiator?: BaseContentNegotiation | null;
  parserContext?: ParserContext | null;
}

/** Key in `HttpRequest.state` of a user forced by the test tools (`forceAuthenticate`). */
export const FORCE_AUTH_USER = 'api_framework.forceAuthUser';
/** Key in `HttpRequest.state` of a token forced by the test tools. */
export const FORCE_AUTH_TOKEN = 'api_framework.forceAuthToken';

/**
 * Make every API view treat `httpRequest` as authenticated as `user` (and `token`), skipping
 * the configured authenticators. Used by the test request factory and client.
 */
export function forceAuthenticate(httpRequest: HttpRequest, user: AuthUser | null, token: unknown = null): void {
  httpRequest.state.set(FORCE_AUTH_USER, user);
  httpRequest.state.set(FORCE_AUTH_TOKEN, token);
}

/** An authenticator that always answers with the forced user and token. */
export class ForcedAuthentication implements Authenticator {
  constructor(
    readonly forceUser: AuthUser | null,
    readonly forceToken: unknown,
  ) {}

  /** Return the forced credentials. */
  authenticate(): AuthenticationResult {
    return [this.forceUser as AuthUser, this.forceToken];
  }
}

/**
 * A non-APIException error raised inside an authenticator, wrapped so that it is reported
 * as a server error instead of being mistaken for a missing attribute.
 */
export class WrappedAttributeError extends Error {
  override name = 'WrappedAttributeError';
}

/** True for the media types of HTML forms, which fill `request.POST`. */
export function isFormMediaType(mediaType: string): boolean {
  const base = mediaType.split(';')[0].trim().toLowerCase();
  return base === 'application/x-www-form-urlencoded' || base === 'multipart/form-data';
}

/** What `parseBody()` answers once the body was found empty (nothing to wait for). */
const PARSED: Promise<void> = Promise.resolve();

/** What `authenticate()` answers once it finished without an asynchronous step. */
const AUTHENTICATED: Promise<void> = Promise.resolve();

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function isDataAndFiles(value: unknown): value is DataAndFiles {
  return value !== null && typeof value === 'object' && (value as { isDataAndFiles?: unknown }).isDataAndFiles === true;
}

const DEPRECATED: Record<string, [string, string]> = {
  DATA: ['request.DATA', 'request.data'],
  FILES: ['request.FILES', 'request.data'],
  QUERY_PARAMS: ['request.QUERY_PARAMS', 'request.query_params'],
};

function deprecated(name: keyof typeof DEPRECATED): never {
  const [old, replacement] = DEPRECATED[name];
  throw new Error(
    `\`${old}\` has been deprecated in favor of \`${replacement}\` since version 3.0, and has been removed as of version 3.2.`,
  );
}

/** Instantiate the UNAUTHENTICATED_USER / UNAUTHENTICATED_TOKEN setting's value. */
function instantiateSetting(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'function') return new (value as new () => unknown)();
  return value;
}

/**
 * Wrapper allowing to enhance a standard `HttpRequest` instance: parsed `data`, `queryParams`,
 * `user` and `auth`, the negotiated renderer and the API version.
 */
export class Request {
  /** The host request underneath. */
  readonly httpRequest: HttpRequest;
  /** The parsers that may parse the body. */
  parsers: BaseParser[];
  /** The authenticators tried in order. */
  authenticators: Authenticator[];
  /** The content negotiation policy (selects the parser). */
  negotiator: BaseContentNegotiation | null;
  /** Context handed to parsers. */
  parserContext: ParserContext;
  /** The renderer chosen by content negotiation. */
  acceptedRenderer: BaseRenderer | null = null;
  /** The media type chosen by content negotiation (may carry parameters such as `indent`). */
  acceptedMediaType: string | null = null;
  /** The requested API version, or null. */
  version: string | null = null;
  /** The versioning scheme instance, or null. */
  versioningScheme: BaseVersioning | null = null;

  #data: unknown = undefined;
  #files: MultiValueDict<UploadedFile> | null = null;
  #fullData: unknown = undefined;
  #parsed = false;
  #parseError: unknown = null;
  #parsing: Promise<void> | null = null;
  #authenticated = false;
  #user: RequestUser = null;
  #auth: unknown = null;
  #authenticator: Authenticator | null = null;
  #method: string | null = null;

  constructor(httpRequest: HttpRequest, options: RequestOptions = {}) {
    if (!(httpRequest instanceof HttpRequest)) {
      throw new TypeError(
        `The \`request\` argument must be an instance of \`HttpRequest\`, not \`${Object.prototype.toString.call(httpRequest)}\`.`,
      );
    }
    this.httpRequest = httpRequest;
    this.parsers = options.parsers ?? [];
    this.authenticators = options.authenticators ?? [];
    this.negotiator = options.negotiator ?? null;
    this.parserContext = options.parserContext ?? {};
    this.parserContext.request = this;
    this.parserContext.encoding = httpRequest.encoding ?? 'utf-8';

    const state = httpRequest.hasState ? httpRequest.state : null;
    if (state !== null && (state.has(FORCE_AUTH_USER) || state.has(FORCE_AUTH_TOKEN))) {
      const user = (state.get(FORCE_AUTH_USER) ?? null) as AuthUser | null;
      const token = state.get(FORCE_AUTH_TOKEN) ?? null;
      if (user !== null || token !== null) this.authenticators = [new ForcedAuthentication(user, token)];
    }
  }

  // -- The host request, proxied ------------------------------------------------------------

  /** Upper-case HTTP method. */
  get method(): string {
    return this.#method ?? this.httpRequest.method;
  }

  /**
   * A copy of this request that answers `method` instead (used by the metadata class to
   * check permissions for PUT and POST while answering OPTIONS).
   */
  clone(method: string): Request {
    const copy = new Request(this.httpRequest, {
      parsers: this.parsers,
      authenticators: this.authenticators,
      negotiator: this.negotiator,
      parserContext: { ...this.parserContext },
    });
    copy.#method = method.toUpperCase();
    copy.#data = this.#data;
    copy.#files = this.#files;
    copy.#fullData = this.#fullData;
    copy.#parsed = this.#parsed;
    copy.#parsing = this.#parsing;
    copy.#authenticated = this.#authenticated;
    copy.#user = this.#user;
    copy.#auth = this.#auth;
    copy.#authenticator = this.#authenticator;
    copy.acceptedRenderer = this.acceptedRenderer;
    copy.acceptedMediaType = this.acceptedMediaType;
    copy.version = this.version;
    copy.versioningScheme = this.versioningScheme;
    return copy;
  }

  /** The full Content-Type header, parameters included (`''` when absent). */
  get contentType(): string {
    return this.httpRequest.header('content-type') ?? '';
  }

  /** The decoded path. */
  get path(): string {
    return this.httpRequest.path;
  }

  /** The CGI-style environment of the host request. */
  get META(): Record<string, string> {
    return this.httpRequest.META;
  }

  /** The request headers (lower-case names). */
  get headers(): HttpRequest['headers'] {
    return this.httpRequest.headers;
  }

  /** A request header's value. */
  header(name: string): string | undefined {
    return this.httpRequest.header(name);
  }

  /** The request cookies. */
  get cookies(): Record<string, string> {
    return this.httpRequest.cookies;
  }

  /** The session set by the session middleware, if any. */
  get session(): unknown {
    return Reflect.get(this.httpRequest, 'session');
  }

  /** `'https'` or `'http'`. */
  get scheme(): string {
    return this.httpRequest.scheme;
  }

  /** True for HTTPS requests. */
  isSecure(): boolean {
    return this.httpRequest.isSecure();
  }

  /** The validated host. */
  getHost(): string {
    return this.httpRequest.getHost();
  }

  /** The path with its query string. */
  getFullPath(forceAppendSlash = false): string {
    return this.httpRequest.getFullPath(forceAppendSlash);
  }

  /** An absolute URI for `location` (default: this request's URL). */
  buildAbsoluteUri(location?: string): string {
    return this.httpRequest.buildAbsoluteUri(location);
  }

  /** The raw body as a stream, or null when the request has no body. */
  get stream(): Readable | null {
    return this.httpRequest.hasBody ? this.httpRequest.stream() : null;
  }

  /** The raw body bytes. */
  body(): Promise<Buffer> {
    return this.httpRequest.body();
  }

  /** A more semantic name for the query string parameters (the host request's `GET`). */
  get queryParams(): QueryDict {
    return this.httpRequest.query;
  }

  // -- Parsing ------------------------------------------------------------------------------

  /**
   * Parse the body with the first parser that handles the content type. Errors are thrown
   * and also kept: the first read of `data` afterwards throws the same error, as in the
   * original, where parsing happens on first access.
   */
  parseBody(): Promise<void> {
    if (!this.#parsing) {
      if (this.httpRequest.hasBody) {
        this.#parsing = this.loadDataAndFiles();
      } else {
        // Nothing to read: the empty data is set at once, without an asynchronous step.
        const mediaType = this.contentType;
        if (mediaType && isFormMediaType(mediaType)) this.setParsed(new QueryDict(), new MultiValueDict<UploadedFile>());
        else this.setParsed({}, null);
        this.#parsing = PARSED;
      }
    }
    return this.#parsing;
  }

  /** True once the body has been parsed (or found empty): `data` may be read. */
  get isBodyParsed(): boolean {
    return this.#parsed;
  }

  private async loadDataAndFiles(): Promise<void> {
    let data: unknown;
    let files: MultiValueDict<UploadedFile>;
    try {
      [data, files] = await this.parse();
    } catch (error) {
      this.#data = new QueryDict();
      this.#files = new MultiValueDict<UploadedFile>();
      this.#fullData = this.#data;
      this.#parseError = error;
      this.#parsed = true;
      throw error;
    }
    this.setParsed(data, files);
  }

  /**
   * Keep the parsed `data` and `files` (merged into `data` when there are files). `files` is
   * null for a body without files that is not a form (`files` makes the empty dict when read).
   */
  private setParsed(data: unknown, files: MultiValueDict<UploadedFile> | null): void {
    this.#data = data;
    this.#files = files;
    if (files !== null && files.size > 0) {
      if (data instanceof QueryDict || data instanceof MultiValueDict) {
        const full = data.copy() as MultiValueDict<unknown>;
        for (const [key, values] of files.lists()) full.setList(key, values);
        this.#fullData = full;
      } else {
        this.#fullData = { ...(data as Record<string, unknown>), ...files.toObject() };
      }
    } else {
      this.#fullData = data;
    }
    const contentType = this.contentType;
    if (contentType !== '' && isFormMediaType(contentType)) {
      if (data instanceof QueryDict) this.httpRequest.POST = data;
      this.httpRequest.FILES = files ?? (this.#files = new MultiValueDict<UploadedFile>());
    }
    this.#parsed = true;
  }

  private async parse(): Promise<[unknown, MultiValueDict<UploadedFile>]> {
    const mediaType = this.contentType;
    if (!this.httpRequest.hasBody) {
      const empty = mediaType && isFormMediaType(mediaType) ? new QueryDict() : {};
      return [empty, new MultiValueDict<UploadedFile>()];
    }
    const parser = this.negotiator ? this.negotiator.selectParser(this, this.parsers) : null;
    if (!parser) throw new UnsupportedMediaType(mediaType);
    const stream = this.httpRequest.stream({ files: parser.uploadsFiles === true });
    const parsed = await parser.parse(stream, mediaType, this.parserContext);
    if (isDataAndFiles(parsed)) return [parsed.data, parsed.files];
    return [parsed, new MultiValueDict<UploadedFile>()];
  }

  private ensureParsed(): void {
    if (!this.#parsed) {
      throw new Error(
        'The request body has not been parsed yet: `await request.parseBody()` before reading ' +
          '`request.data` (APIView.initial() does this for API views).',
      );
    }
    if (this.#parseError !== null) {
      const error = this.#parseError;
      this.#parseError = null;
      throw error;
    }
  }

  /** The parsed body: an object, a list, a `QueryDict` for forms (with files merged in). */
  get data(): unknown {
    this.ensureParsed();
    return this.#fullData;
  }

  /** The uploaded files of a multipart body. */
  get files(): MultiValueDict<UploadedFile> {
    this.ensureParsed();
    return (this.#files ??= new MultiValueDict<UploadedFile>());
  }

  /** Form fields when the body is a form, else an empty `QueryDict` (host compatibility). */
  get POST(): QueryDict {
    this.ensureParsed();
    if (isFormMediaType(this.contentType) && this.#data instanceof QueryDict) return this.#data;
    return new QueryDict();
  }

  /** Removed: use `request.data`. */
  get DATA(): never {
    return deprecated('DATA');
  }

  /** Removed: use `request.data`. */
  get FILES(): never {
    return deprecated('FILES');
  }

  /** Removed: use `request.queryParams`. */
  get QUERY_PARAMS(): never {
    return deprecated('QUERY_PARAMS');
  }

  // -- Authentication -----------------------------------------------------------------------

  /** True once `authenticate()` has run (or `user` was set). */
  get isAuthenticationDone(): boolean {
    return this.#authenticated;
  }

  private notYetAuthenticated(attribute: string): never {
    throw new Error(
      `\`request.${attribute}\` was read before authentication ran: \`await request.authenticate()\` first ` +
        '(APIView.initial() does this for API views).',
    );
  }

  /** The user associated with the current request, as authenticated by the authenticators. */
  get user(): RequestUser {
    if (!this.#authenticated) this.notYetAuthenticated('user');
    return this.#user;
  }

  /** Set the user, also on the host request so that host middleware sees it. */
  set user(value: RequestUser) {
    this.#user = value;
    this.#authenticated = true;
    if (value !== null) this.httpRequest.user = value;
  }

  /** Extra authentication information (a token record, ...), or null. */
  get auth(): unknown {
    if (!this.#authenticated) this.notYetAuthenticated('auth');
    return this.#auth;
  }

  /** Set the authentication information. */
  set auth(value: unknown) {
    this.#auth = value;
    this.#authenticated = true;
  }

  /** The authenticator instance that authenticated this request, or null. */
  get successfulAuthenticator(): Authenticator | null {
    return this.#authenticator;
  }

  /**
   * Try each authenticator in turn: the first returning `[user, auth]` wins; one that raises
   * an `APIException` stops the process (the request stays unauthenticated and the error
   * propagates); when none succeeds the request is unauthenticated.
   */
  authenticate(): Promise<void> {
    try {
      return this.authenticateNow() ?? AUTHENTICATED;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * `authenticate()`'s work without an asynchronous step while the authenticators answer at
   * once: undefined when done, a promise from the first asynchronous answer on; errors are
   * thrown (or reject the promise). `APIView.initial()` calls it directly.
   */
  authenticateNow(): Promise<void> | undefined {
    const authenticators = this.authenticators;
    for (let i = 0; i < authenticators.length; i++) {
      const authenticator = authenticators[i];
      let answer: AuthenticationResult | Promise<AuthenticationResult>;
      try {
        answer = authenticator.authenticate(this);
      } catch (error) {
        throw this.authenticationError(error);
      }
      if (isPromiseLike(answer)) return this.finishAuthentication(i, answer);
      if (answer !== null && answer !== undefined) {
        this.authenticated(authenticator, answer);
        return undefined;
      }
    }
    this.notAuthenticated();
    return undefined;
  }

  /** The rest of `authenticateNow()` from authenticator `from`, whose answer is `pending`. */
  private async finishAuthentication(from: number, pending: PromiseLike<AuthenticationResult>): Promise<void> {
    const authenticators = this.authenticators;
    for (let i = from; i < authenticators.length; i++) {
      const authenticator = authenticators[i];
      let result: AuthenticationResult;
      try {
        // Await only asynchronous answers (an authenticator without credentials to check
        // may answer at once).
        const answer = i === from ? pending : authenticator.authenticate(this);
        result = isPromiseLike(answer) ? await answer : answer;
      } catch (error) {
        throw this.authenticationError(error);
      }
      if (result !== null && result !== undefined) {
        this.authenticated(authenticator, result);
        return;
      }
    }
    this.notAuthenticated();
  }

  /** Keep the successful authenticator and its `[user, auth]`. */
  private authenticated(authenticator: Authenticator, result: [user: AuthUser, auth: unknown]): void {
    this.#authenticator = authenticator;
    [this.user, this.auth] = result;
  }

  /**
   * An authenticator raised `error`: the request stays unauthenticated, and the error to
   * propagate (a `TypeError` that is not an `APIException` is wrapped).
   */
  private authenticationError(error: unknown): unknown {
    this.notAuthenticated();
    if (error instanceof TypeError && !(error instanceof APIException)) {
      const wrapped = new WrappedAttributeError(error.message);
      wrapped.stack = error.stack;
      return wrapped;
    }
    return error;
  }

  /** Mark the request unauthenticated: UNAUTHENTICATED_USER and UNAUTHENTICATED_TOKEN. */
  private notAuthenticated(): void {
    this.#authenticator = null;
    this.user = instantiateSetting(apiSettings.UNAUTHENTICATED_USER) as RequestUser;
    this.auth = instantiateSetting(apiSettings.UNAUTHENTICATED_TOKEN);
  }

  toString(): string {
    return `<Request: ${this.method} '${this.getFullPath()}'>`;
  }
}
