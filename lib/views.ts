/**
 * Provides an APIView class that is the base of all views in the API framework, and the
 * functions that are the defaults of the VIEW_NAME_FUNCTION, VIEW_DESCRIPTION_FUNCTION and
 * EXCEPTION_HANDLER settings.
 */
import { settings } from './core/conf';
import { Http404, PermissionDenied as HostPermissionDenied } from './core/exceptions';
import { HttpResponse, patchVaryHeaders, type HttpRequest } from './core/http';
import type { ViewFunction } from './core/urls';
import * as exceptions from './exceptions';
import { Request, type Authenticator, type ParserContext } from './request';
import { Response } from './response';
import { apiSettings, type ApiSettings } from './settings';
import { attachSchema, type ViewInspector } from './schemas/inspector';
import * as status from './status';
import { camelcaseToSpaces, dedent, markupDescription, removeTrailingString } from './utils/formatting';
import type { AuthenticationClass } from './authentication';
import type { BaseMetadata, MetadataClass } from './metadata';
import type { BaseContentNegotiation, ContentNegotiationClass, RendererSelection } from './negotiation';
import type { BaseParser, ParserClass } from './parsers';
import type { BasePermission, PermissionClass } from './permissions';
import type { BaseRenderer, RendererClass, RendererContext } from './renderers';
import type { BaseThrottle, ThrottleClass } from './throttling';
import type { BaseVersioning, VersioningClass } from './versioning';

/** URL keyword arguments. */
export type Kwargs = Record<string, unknown>;

/** A handler method (`get`, `post`, ...): returns a response, possibly asynchronously. */
export type Handler = (request: Request, kwargs: Kwargs, ...args: string[]) => HttpResponse | Promise<HttpResponse>;

/** What the exception handler receives besides the exception. */
export interface ExceptionHandlerContext {
  view: APIView;
  args: string[];
  kwargs: Kwargs;
  request: Request | null;
  [key: string]: unknown;
}

/** The signature of EXCEPTION_HANDLER. */
export type ExceptionHandler = (exc: unknown, context: ExceptionHandlerContext) => HttpResponse | null | Promise<HttpResponse | null>;

/** The view properties the name and description functions read. */
export interface NamedView {
  name?: string;
  suffix?: string;
  detail?: boolean;
  description?: string;
}

/**
 * Given a view instance, return a textual name to represent the view: the `name` it carries,
 * or its class name without `View`/`ViewSet` suffix, split into words, plus its `suffix`.
 * This name is used in the browsable API and in OPTIONS responses.
 */
export function getViewName(view: NamedView): string {
  if (view.name !== undefined && view.name !== null) return view.name;
  let name = (view as object).constructor.name;
  name = removeTrailingString(name, 'View');
  name = removeTrailingString(name, 'ViewSet');
  name = camelcaseToSpaces(name);
  if (view.suffix) name += ` ${view.suffix}`;
  return name;
}

/**
 * Given a view instance, return a textual description to represent the view: its
 * `description` property, or its class's static `description`, dedented. With `html`, the
 * text is rendered as Markdown. Used in the browsable API and in OPTIONS responses.
 */
export function getViewDescription(view: NamedView, html = false): string {
  let description = view.description;
  if (description === undefined || description === null) {
    const cls = (view as object).constructor as { description?: unknown };
    description = typeof cls.description === 'string' ? cls.description : '';
  }
  description = dedent(String(description));
  return html ? markupDescription(description) : description;
}

type TransactionModule = typeof import('./core/db/transaction');
let transactionModule: TransactionModule | null = null;

/**
 * Under `ATOMIC_REQUESTS`, mark the request's transaction for rollback: an error answered as a
 * response must not leave the view's writes behind. Without it (or outside `atomic()`) it does
 * nothing. Call it from a custom exception handler that answers errors itself.
 */
export function setRollback(): void {
  if (!settings.ATOMIC_REQUESTS) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const db = (transactionModule ??= require('./core/db/transaction') as TransactionModule);
  if (db.inAtomicBlock()) db.setRollback(true);
}

/**
 * Returns the response that should be used for any given exception: `{"detail": ...}` (or
 * the validation errors) for API exceptions, with WWW-Authenticate and Retry-After headers
 * when relevant. The host framework's Http404 and PermissionDenied are handled too.
 * Any other exception returns null, which leads to a 500 error.
 */
export function exceptionHandler(exc: unknown, _context: ExceptionHandlerContext): Response | null {
  let error = exc;
  if (error instanceof Http404) error = new exceptions.NotFound(error.message || null);
  else if (error instanceof HostPermissionDenied) error = new exceptions.PermissionDenied(error.message || null);

  if (error instanceof exceptions.APIException) {
    const headers: Record<string, string> = {};
    const authHeader = (error as { authHeader?: unknown }).authHeader;
    if (typeof authHeader === 'string' && authHeader) headers['WWW-Authenticate'] = authHeader;
    const wait = (error as { wait?: unknown }).wait;
    if (typeof wait === 'number' && wait) headers['Retry-After'] = String(Math.trunc(wait));
    const data = error.detail instanceof exceptions.ErrorDetail ? { detail: error.detail } : error.detail;
    setRollback();
    return new Response(data, { status: error.statusCode, headers });
  }
  return null;
}

/** An HTTP method a view may handle, as its handler method is named. */
export type HttpMethodName = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options' | 'trace';

/** The HTTP methods a view may handle, in the order `Allow` lists them. */
export const HTTP_METHOD_NAMES: readonly HttpMethodName[] = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];

/**
 * The policies a view may set per view (each falls back to its `DEFAULT_*` setting while
 * unset): the one list that `APIView` declares, `apiView()` options copy and `asView()`
 * initkwargs accept.
 */
export const API_VIEW_POLICIES = [
  'rendererClasses', 'parserClasses', 'authenticationClasses', 'throttleClasses', 'permissionClasses',
  'contentNegotiationClass', 'metadataClass', 'versioningClass', 'schema',
] as const;

/** The name of a per-view policy (see `API_VIEW_POLICIES`). */
export type ApiViewPolicy = typeof API_VIEW_POLICIES[number];

/** The per-view policies, typed as `APIView` declares them. */
export type ApiViewPolicies = Partial<Pick<APIView, ApiViewPolicy>>;

/**
 * What `asView()` accepts for view class `V`: any attribute of the class except the handler
 * methods, typed as the class declares it, so a misspelt or mistyped option fails to compile.
 */
export type ViewOptions<V extends APIView = APIView> = { [K in Exclude<keyof V, HttpMethodName>]?: V[K] };

/**
 * The developer-facing message for an initkwarg `key` of view class `className` that is a
 * handler method name (`method`) or not an attribute of the class (`unknown`).
 */
export type InitkwargMessage = (className: string, key: string, kind: 'method' | 'unknown') => string;

/** The host framework's `as_view()` words, naming this API. */
function hostInitkwargMessage(className: string, key: string, kind: 'method' | 'unknown'): string {
  return kind === 'method'
    ? `The method name ${key} is not accepted as an option of ${className}.asView().`
    : `${className}.asView() received an invalid option '${key}'. asView() only accepts options that are already attributes of the class.`;
}

/** The view class type `asView()` is called on. */
export type APIViewClass<V extends APIView = APIView> = (new () => V) & typeof APIView;

/**
 * Declare `names` as attributes of `cls` that have no value until a subclass or initkwargs set
 * one (the original's class attributes): they go on the prototype as `undefined`, so
 * `asView()` accepts them like any other attribute. Call it once per class, after its body.
 */
export function declareViewAttributes(cls: abstract new (...args: never[]) => APIView, names: readonly string[]): void {
  for (const name of names) {
    if (!(name in cls.prototype)) {
      Object.defineProperty(cls.prototype, name, { value: undefined, writable: true, configurable: true, enumerable: false });
    }
  }
}

/** One instance per view class, made once, answering which attributes the class has. */
const classProbes = new WeakMap<object, APIView>();

/** The handler method `name` of `view` (`get`, `post`, ...), if it has one. */
function handlerOf(view: APIView, name: string): Handler | undefined {
  const candidate: unknown = Reflect.get(view, name);
  return typeof candidate === 'function' ? (candidate as Handler) : undefined;
}

/** Whether `probe` has `key` as an attribute of its class (not one every object has). */
function hasAttribute(probe: object, key: string): boolean {
  for (let o: object | null = probe; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    if (Object.prototype.hasOwnProperty.call(o, key)) return true;
  }
  return false;
}

/** A plain view answers HEAD with its `get` handler when it has no `head` of its own. */
function answerHeadWithGet(view: APIView): void {
  const get = handlerOf(view, 'get');
  if (get !== undefined && handlerOf(view, 'head') === undefined) (view as APIView & { head?: Handler }).head = get;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Per view class: whether it overrides `allowedMethods`, and the Allow values seen so far. */
interface AllowCache {
  custom: boolean;
  byNames: WeakMap<readonly string[], Map<number, string>>;
}

const allowCaches = new WeakMap<object, AllowCache>();

/**
 * The `Allow` value of `view`: its `allowedMethods`, joined. It depends only on which of the
 * `httpMethodNames` have handlers (view sets set them per instance from the action map), so it
 * is computed once per class and set of handlers; a class overriding `allowedMethods` is asked
 * every time.
 */
function allowHeader(view: APIView): string {
  const cls = view.constructor;
  let cache = allowCaches.get(cls);
  if (!cache) {
    const descriptor = (proto: object | null): PropertyDescriptor | undefined => {
      for (let p = proto; p; p = Object.getPrototypeOf(p) as object | null) {
        const found = Object.getOwnPropertyDescriptor(p, 'allowedMethods');
        if (found) return found;
      }
      return undefined;
    };
    const inherited = descriptor(cls.prototype as object);
    cache = { custom: inherited?.get !== allowedMethodsGetter, byNames: new WeakMap() };
    allowCaches.set(cls, cache);
  }
  const names = view.httpMethodNames;
  if (cache.custom || names.length > 30 || Object.prototype.hasOwnProperty.call(view, 'allowedMethods')) {
    return view.allowedMethods.join(', ');
  }
  let mask = 0;
  for (let i = 0; i < names.length; i++) if (handlerOf(view, names[i]) !== undefined) mask |= 1 << i;
  let byMask = cache.byNames.get(names);
  if (!byMask) {
    byMask = new Map();
    cache.byNames.set(names, byMask);
  }
  let value = byMask.get(mask);
  if (value === undefined) {
    value = view.allowedMethods.join(', ');
    byMask.set(mask, value);
  }
  return value;
}

/**
 * The base class of API views. Handler methods are the lower-case HTTP method names
 * (`get`, `post`, ...), called with the `Request` and the URL keyword arguments.
 *
 * The policies may be set globally (API_FRAMEWORK settings) or per view, by overriding the
 * fields below in a subclass; fields left undefined read the settings at request time.
 *
 * @example
 * class SnippetList extends APIView {
 *   override permissionClasses = [IsAuthenticated];
 *   async get(request: Request) { return new Response(await listSnippets()); }
 * }
 * export const urlpatterns = [path('snippets/', SnippetList.asView())];
 */
export class APIView implements NamedView {
  /** The description of the view class (OPTIONS, browsable API); TypeScript has no docstrings. */
  static description?: string;

  // The following policies may be set at either globally, or per-view.
  rendererClasses?: RendererClass[];
  parserClasses?: ParserClass[];
  authenticationClasses?: AuthenticationClass[];
  throttleClasses?: ThrottleClass[];
  permissionClasses?: PermissionClass[];
  contentNegotiationClass?: ContentNegotiationClass;
  metadataClass?: MetadataClass | null;
  versioningClass?: VersioningClass | null;
  /**
   * The schema inspector of this view (schema generation). Reading it gives the view's own
   * inspector (set `schema = new AutoSchema({...})` or pass it in initkwargs) attached to this
   * view, else an instance of `DEFAULT_SCHEMA_CLASS` resolved when first read; set it to null
   * to exclude the view from schemas.
   */
  schema?: ViewInspector | null;
  /** The scope `ScopedRateThrottle` limits this view under (`DEFAULT_THROTTLE_RATES[scope]`). */
  throttleScope?: string;

  /** The lower-case method names this view may dispatch to (function views narrow it). */
  httpMethodNames: readonly string[] = HTTP_METHOD_NAMES;

  /** Allow dependency injection of other settings to make testing easier. */
  settings: ApiSettings = apiSettings;

  /** A name set by view sets or initkwargs (see `getViewName`). */
  name?: string;
  /** A suffix for the name (`List`, `Instance`), set by view sets. */
  suffix?: string;
  /** True for detail routes of view sets. */
  detail?: boolean;
  /** A description set by view sets or initkwargs (see `getViewDescription`). */
  description?: string;

  /** The current request (set by `dispatch`). */
  request!: Request;
  /** Positional URL arguments of the current request. */
  args: string[] = [];
  /** Keyword URL arguments of the current request. */
  kwargs: Kwargs = {};
  /** The format suffix from the URL, if any. */
  formatKwarg: string | null = null;
  /** The response headers every response of this view gets (`Allow`, `Vary`). */
  headers: Record<string, string> = {};
  /** The final response (set by `dispatch`). */
  response?: HttpResponse;

  /**
   * The view function for URL confs: a fresh instance per request, `initkwargs` set on it.
   * Unknown initkwargs fail at once, as in the host framework (and at compile time: they are
   * typed by the class's attributes). API views are CSRF exempt (session authentication
   * enforces CSRF itself).
   */
  static asView<V extends APIView>(this: APIViewClass<V>, initkwargs: ViewOptions<V> = {}): ViewFunction {
    APIView.checkInitkwargs(this, initkwargs);
    return APIView.makeView(this, initkwargs, answerHeadWithGet);
  }

  /**
   * Build the view function of `cls`: per request a fresh instance, `initkwargs` assigned,
   * then `prepare(instance)` (plain views answer HEAD with `get`, view sets bind their
   * actions), then `dispatch`. Shared by the `asView()` overrides of subclasses.
   */
  protected static makeView<V extends APIView>(cls: new () => V, initkwargs: Kwargs, prepare: (view: V) => void): ViewFunction {
    // Not an async function: dispatch()'s promise is answered as it is; anything else (an
    // error, a dispatch() override answering synchronously) still arrives as a promise.
    const view: ViewFunction = (httpRequest: HttpRequest, kwargs: Kwargs, ...args: string[]) => {
      let result: Promise<HttpResponse> | HttpResponse;
      try {
        const self = new cls();
        Object.assign(self, initkwargs);
        prepare(self);
        result = self.dispatch(httpRequest, kwargs ?? {}, ...args);
      } catch (error) {
        return Promise.reject(error);
      }
      return result instanceof Promise ? result : Promise.resolve(result);
    };
    Object.defineProperty(view, 'name', { value: cls.name });
    view.viewClass = cls;
    view.viewInitkwargs = initkwargs;
    view.csrfExempt = true;
    return view;
  }

  /**
   * Reject initkwargs that name a handler method or an attribute `cls` lacks (its instance
   * fields, methods, accessors and declared attributes; see `declareViewAttributes`), with
   * `message`'s words (the host framework's by default). Shared by the `asView()` overrides
   * of subclasses.
   */
  protected static checkInitkwargs(cls: new () => APIView, initkwargs: object, message: InitkwargMessage = hostInitkwargMessage): void {
    let probe = classProbes.get(cls);
    if (!probe) {
      probe = new cls();
      classProbes.set(cls, probe);
    }
    for (const key of Object.keys(initkwargs)) {
      if ((HTTP_METHOD_NAMES as readonly string[]).includes(key)) throw new TypeError(message(cls.name, key, 'method'));
      if (!hasAttribute(probe, key)) throw new TypeError(message(cls.name, key, 'unknown'));
    }
  }

  /** The upper-case names of the methods this view handles, in DRF's order. */
  get allowedMethods(): string[] {
    return this.httpMethodNames.filter((method) => handlerOf(this, method) !== undefined).map((m) => m.toUpperCase());
  }

  /** The headers set on every response: `Allow`, and `Vary: Accept` when several renderers may answer. */
  get defaultResponseHeaders(): Record<string, string> {
    const headers: Record<string, string> = { Allow: allowHeader(this) };
    if (this.getRendererClasses().length > 1) headers.Vary = 'Accept';
    return headers;
  }

  /** Raise 405 for a method this view does not handle. */
  httpMethodNotAllowed(request: Request): never {
    throw new exceptions.MethodNotAllowed(request.method);
  }

  /** Raise `NotAuthenticated` when the request could have authenticated but did not, else `PermissionDenied`. */
  permissionDenied(request: Request, message?: string | null, code?: string | null): never {
    if (request.authenticators.length > 0 && !request.successfulAuthenticator) {
      throw new exceptions.NotAuthenticated();
    }
    throw new exceptions.PermissionDenied(message ?? null, code ?? null);
  }

  /** Raise `Throttled`; `wait` is the number of seconds to wait, if known. */
  throttled(_request: Request, wait: number | null): never {
    throw new exceptions.Throttled(wait);
  }

  /** The WWW-Authenticate value for 401 responses, from the first authenticator; null means 403. */
  getAuthenticateHeader(request: Request): string | null {
    const authenticators = this.getAuthenticators();
    if (authenticators.length > 0 && authenticators[0].authenticateHeader) {
      return authenticators[0].authenticateHeader(request) ?? null;
    }
    return null;
  }

  /** The context every parser receives. */
  getParserContext(_httpRequest: HttpRequest): ParserContext {
    return { view: this, args: this.args, kwargs: this.kwargs };
  }

  /** The context every renderer receives. */
  getRendererContext(): RendererContext {
    return { view: this, args: this.args, kwargs: this.kwargs, request: this.request ?? null };
  }

  /** The context the exception handler receives. */
  getExceptionHandlerContext(): ExceptionHandlerContext {
    return { view: this, args: this.args, kwargs: this.kwargs, request: this.request ?? null };
  }

  /** The name shown in the browsable API and OPTIONS responses (VIEW_NAME_FUNCTION). */
  getViewName(): string {
    const func = this.settings.VIEW_NAME_FUNCTION as (view: APIView) => string;
    return func(this);
  }

  /** The description shown in the browsable API (`html`) and OPTIONS responses (VIEW_DESCRIPTION_FUNCTION). */
  getViewDescription(html = false): string {
    const func = this.settings.VIEW_DESCRIPTION_FUNCTION as (view: APIView, html: boolean) => string;
    return func(this, html);
  }

  // API policy instantiation methods

  /** The format suffix from the URL keyword arguments, if the URL conf has one. */
  getFormatSuffix(kwargs: Kwargs): string | null {
    const key = this.settings.FORMAT_SUFFIX_KWARG;
    if (!key) return null;
    const value = kwargs[key];
    return typeof value === 'string' && value ? value : null;
  }

  /** The renderer classes of this view. */
  getRendererClasses(): RendererClass[] {
    return this.rendererClasses ?? (this.settings.DEFAULT_RENDERER_CLASSES as RendererClass[]);
  }

  /** Instantiate and return the renderers this view can use. */
  getRenderers(): BaseRenderer[] {
    return this.getRendererClasses().map((Renderer) => new Renderer());
  }

  /** Instantiate and return the parsers this view can use. */
  getParsers(): BaseParser[] {
    const classes = this.parserClasses ?? (this.settings.DEFAULT_PARSER_CLASSES as ParserClass[]);
    return classes.map((Parser) => new Parser());
  }

  /** Instantiate and return the authenticators this view can use. */
  getAuthenticators(): Authenticator[] {
    const classes = this.authenticationClasses ?? (this.settings.DEFAULT_AUTHENTICATION_CLASSES as AuthenticationClass[]);
    return classes.map((Authentication) => new Authentication());
  }

  /** Instantiate and return the permissions this view requires. */
  getPermissions(): BasePermission[] {
    const classes = this.permissionClasses ?? (this.settings.DEFAULT_PERMISSION_CLASSES as PermissionClass[]);
    return classes.map((Permission) => new Permission());
  }

  /** Instantiate and return the throttles this view uses. */
  getThrottles(): BaseThrottle[] {
    const classes = this.throttleClasses ?? (this.settings.DEFAULT_THROTTLE_CLASSES as ThrottleClass[]);
    return classes.map((Throttle) => new Throttle());
  }

  /** Instantiate and return the content negotiation policy (cached per request). */
  getContentNegotiator(): BaseContentNegotiation {
    if (!this.negotiator) {
      const Negotiation = this.contentNegotiationClass ??
        (this.settings.DEFAULT_CONTENT_NEGOTIATION_CLASS as ContentNegotiationClass);
      this.negotiator = new Negotiation();
    }
    return this.negotiator;
  }

  private negotiator?: BaseContentNegotiation;

  /** The metadata class answering OPTIONS, or null when OPTIONS is not allowed. */
  getMetadataClass(): MetadataClass | null {
    if (this.metadataClass !== undefined) return this.metadataClass;
    return (this.settings.DEFAULT_METADATA_CLASS as MetadataClass | null) ?? null;
  }

  /** The versioning class of this view, or null. */
  getVersioningClass(): VersioningClass | null {
    if (this.versioningClass !== undefined) return this.versioningClass;
    return (this.settings.DEFAULT_VERSIONING_CLASS as VersioningClass | null) ?? null;
  }

  /** The function that turns exceptions into responses (EXCEPTION_HANDLER). */
  getExceptionHandler(): ExceptionHandler {
    return this.settings.EXCEPTION_HANDLER as ExceptionHandler;
  }

  // API policy implementation methods

  /** Determine which renderer and media type to use to render the response. */
  performContentNegotiation(request: Request, force = false): RendererSelection {
    const renderers = this.getRenderers();
    const conneg = this.getContentNegotiator();
    try {
      return conneg.selectRenderer(request, renderers, this.formatKwarg);
    } catch (error) {
      if (force && renderers.length > 0) return [renderers[0], renderers[0].mediaType];
      throw error;
    }
  }

  /**
   * Perform authentication on the incoming request. Authentication is awaited here, up
   * front, so that `request.user` is a plain getter afterwards.
   */
  async performAuthentication(request: Request): Promise<void> {
    await request.authenticate();
  }

  /** Check if the request should be permitted; raise an appropriate exception if not. */
  async checkPermissions(request: Request): Promise<void> {
    const pending = runPermissionChecks(this, request);
    if (pending !== undefined) await pending;
  }

  /** Check if the request should be permitted for `obj`; raise an appropriate exception if not. */
  checkObjectPermissions(request: Request, obj: unknown): Promise<void> {
    // Not `async`: while the permissions answer at once, no promise is made per check.
    try {
      return runObjectPermissionChecks(this, request, obj) ?? CHECKED;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Check every throttle; when any refuses, raise `Throttled` with the longest wait. */
  async checkThrottles(request: Request): Promise<void> {
    const pending = runThrottleChecks(this, request);
    if (pending !== undefined) await pending;
  }

  /** If versioning is being used, determine the version and the scheme of the request. */
  determineVersion(request: Request, kwargs: Kwargs): [string | null, BaseVersioning | null] {
    const Versioning = this.getVersioningClass();
    if (!Versioning) return [null, null];
    const scheme = new Versioning();
    return [scheme.determineVersion(request, kwargs), scheme];
  }

  // Dispatch methods

  /** Wrap the host request in the API `Request`. */
  initializeRequest(httpRequest: HttpRequest): Request {
    return new Request(httpRequest, {
      parsers: this.getParsers(),
      authenticators: this.getAuthenticators(),
      negotiator: this.getContentNegotiator(),
      parserContext: this.getParserContext(httpRequest),
    });
  }

  /**
   * Runs anything that needs to occur prior to calling the method handler: content
   * negotiation, versioning, body parsing (errors surface when `request.data` is read),
   * authentication, permissions, throttles.
   */
  async initial(request: Request): Promise<void> {
    const pending = runInitial(this, request);
    if (pending !== undefined) await pending;
  }

  /** Set the renderer on a `Response` and add the default headers to any response. */
  finalizeResponse(request: Request, response: unknown): HttpResponse {
    if (!(response instanceof HttpResponse)) {
      const kind = response === null ? 'null' : typeof response;
      throw new TypeError(
        `Expected a \`Response\`, \`HttpResponse\` or \`HttpStreamingResponse\` to be returned from the view, but received a \`${kind}\``,
      );
    }
    if (response instanceof Response) {
      if (!request.acceptedRenderer) {
        const [renderer, mediaType] = this.performContentNegotiation(request, true);
        request.acceptedRenderer = renderer;
        request.acceptedMediaType = mediaType;
      }
      response.acceptedRenderer = request.acceptedRenderer;
      response.acceptedMediaType = request.acceptedMediaType;
      response.rendererContext = this.getRendererContext();
    }
    const headers = this.headers;
    if (headers.Vary !== undefined) patchVaryHeaders(response, headers.Vary);
    for (const key in headers) {
      if (key !== 'Vary' && Object.prototype.hasOwnProperty.call(headers, key)) response.setHeader(key, headers[key]);
    }
    return response;
  }

  /**
   * Handle any exception that occurs, by returning an appropriate response, or re-raising
   * the error. Unauthenticated 401s become 403s when the first authenticator gives no
   * WWW-Authenticate value.
   */
  async handleException(exc: unknown): Promise<HttpResponse> {
    if (exc instanceof exceptions.NotAuthenticated || exc instanceof exceptions.AuthenticationFailed) {
      const authHeader = this.request ? this.getAuthenticateHeader(this.request) : null;
      if (authHeader) (exc as exceptions.APIException & { authHeader?: string }).authHeader = authHeader;
      else exc.statusCode = status.HTTP_403_FORBIDDEN;
    }
    const handler = this.getExceptionHandler();
    const context = this.getExceptionHandlerContext();
    const response = await handler(exc, context);
    if (response === null || response === undefined) this.raiseUncaughtException(exc);
    if (response instanceof Response) response.exception = true;
    return response;
  }

  /** Re-raise an exception no handler answered: the host framework turns it into a 500. */
  raiseUncaughtException(exc: unknown): never {
    throw exc;
  }

  /** Answer OPTIONS with the metadata class's description of the view. */
  async options(request: Request, _kwargs: Kwargs): Promise<HttpResponse> {
    const Metadata = this.getMetadataClass();
    if (!Metadata) return this.httpMethodNotAllowed(request);
    const metadata: BaseMetadata = new Metadata();
    const data = await metadata.determineMetadata(request, this);
    return new Response(data, { status: status.HTTP_200_OK });
  }

  /** The handler for the request's method, or the 405 handler. */
  protected getHandler(method: string): Handler {
    const name = method.toLowerCase();
    const handler = this.httpMethodNames.includes(name) ? handlerOf(this, name) : undefined;
    return handler ?? ((request: Request) => this.httpMethodNotAllowed(request));
  }

  /**
   * `.dispatch()` is pretty much the same as the host framework's regular dispatch, but
   * with extra hooks for startup, finalize, and exception handling.
   */
  dispatch(httpRequest: HttpRequest, kwargs: Kwargs, ...args: string[]): Promise<HttpResponse> {
    // Written without `async`: the steps that answer at once (the base `initial()` with
    // synchronous authenticators, permissions and throttles) cost no promise of their own.
    let request: Request;
    let outcome: HttpResponse | Promise<HttpResponse>;
    try {
      this.args = args;
      this.kwargs = kwargs;
      request = this.initializeRequest(httpRequest);
      this.request = request;
      this.headers = this.defaultResponseHeaders;
    } catch (error) {
      return Promise.reject(error);
    }
    try {
      const initial = this.initial === baseInitial ? runInitial(this, request) : this.initial(request);
      outcome = isPromise(initial)
        ? Promise.resolve(initial).then(() => this.getHandler(request.method).call(this, request, kwargs, ...args))
        : this.getHandler(request.method).call(this, request, kwargs, ...args);
    } catch (error) {
      outcome = Promise.reject(error);
    }
    // A request stopped before authentication (406, bad version, unknown format) stays
    // unauthenticated, as DRF's lazy `request.user`: renderers that show the user (the
    // browsable API) authenticate on demand, so JSON answers never read the session.
    const finish = (response: HttpResponse): HttpResponse => (this.response = this.finalizeResponse(request, response));
    const recover = (error: unknown): Promise<HttpResponse> => this.handleException(error).then(finish);
    if (isPromise(outcome)) return (outcome instanceof Promise ? outcome : Promise.resolve(outcome)).then(finish, recover);
    try {
      return Promise.resolve(finish(outcome));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

// The attributes declared above without a value exist on the class, as the original's class
// attributes do: `asView()` accepts them, `apiView()` copies the policies.
declareViewAttributes(APIView, [...API_VIEW_POLICIES.filter((name) => name !== 'schema'), 'throttleScope', 'name', 'suffix', 'detail', 'description']);

// `schema` is an accessor on the prototype (DRF's `DefaultSchema` descriptor): what a view
// declares or receives is kept aside (in a symbol-keyed slot of the instance: a class field
// `schema = null` sets it for every instance, so it must be cheap), and reading it attaches
// the inspector to the view. Views that never read it pay nothing.
const DECLARED_SCHEMA = Symbol('api_framework.declaredSchema');
type SchemaSlot = { [DECLARED_SCHEMA]?: unknown };
const resolvedSchemas = new WeakMap<APIView, ViewInspector | null>();
Object.defineProperty(APIView.prototype, 'schema', {
  configurable: true,
  enumerable: false,
  get(this: APIView & SchemaSlot): ViewInspector | null {
    const declared = this[DECLARED_SCHEMA];
    if (declared === undefined) {
      let inspector = resolvedSchemas.get(this);
      if (inspector === undefined) {
        inspector = attachSchema(this, undefined);
        resolvedSchemas.set(this, inspector);
      }
      return inspector;
    }
    return attachSchema(this, declared);
  },
  set(this: APIView & SchemaSlot, value: unknown): void {
    this[DECLARED_SCHEMA] = value;
  },
});

// The base class's getter, to tell a class that overrides `allowedMethods` (see `allowHeader`).
const allowedMethodsGetter = Object.getOwnPropertyDescriptor(APIView.prototype, 'allowedMethods')?.get;

// The base implementations, to tell a view that overrides them (see `initial`).
const baseCheckPermissions = APIView.prototype.checkPermissions;
const baseCheckThrottles = APIView.prototype.checkThrottles;
const basePerformAuthentication = APIView.prototype.performAuthentication;
const baseInitial = APIView.prototype.initial;
const baseAuthenticate = Request.prototype.authenticate;

/**
 * `initial()`'s work: content negotiation, versioning, body parsing (errors surface when
 * `request.data` is read), authentication, permissions, throttles. The hooks are called as
 * overridden; the base implementations run here directly, waiting only on what answers
 * asynchronously: undefined when everything answered at once, else a promise of the rest.
 */
function runInitial(view: APIView, request: Request): Promise<void> | undefined {
  view.formatKwarg = view.getFormatSuffix(view.kwargs);
  // Pairs read by index: destructuring would go through the array iterator.
  const selection = view.performContentNegotiation(request);
  request.acceptedRenderer = selection[0];
  request.acceptedMediaType = selection[1];

  const versioning = view.determineVersion(request, view.kwargs);
  request.version = versioning[0];
  request.versioningScheme = versioning[1];

  // Parse now; a parse error is kept and raised where the view reads `request.data`.
  const parsing = request.parseBody();
  if (!request.isBodyParsed) return parsing.catch(() => undefined).then(() => checkRequest(view, request));
  return checkRequest(view, request);
}

/** `next()` once `step` (a hook's answer) settled: at once unless it is a promise. */
function after(step: unknown, next: () => Promise<void> | undefined): Promise<void> | undefined {
  return isPromise(step) ? Promise.resolve(step).then(next) : next();
}

/** The authentication, permission and throttle steps of `runInitial()`. */
function checkRequest(view: APIView, request: Request): Promise<void> | undefined {
  const base = view.performAuthentication === basePerformAuthentication && request.authenticate === baseAuthenticate;
  return after(base ? request.authenticateNow() : view.performAuthentication(request), () => checkAccess(view, request));
}

/** The permission and throttle steps of `runInitial()`. */
function checkAccess(view: APIView, request: Request): Promise<void> | undefined {
  const permissions = view.checkPermissions === baseCheckPermissions ? runPermissionChecks(view, request) : view.checkPermissions(request);
  return after(permissions, () => checkThrottling(view, request));
}

/** The throttle step of `runInitial()`. */
function checkThrottling(view: APIView, request: Request): Promise<void> | undefined {
  const throttles = view.checkThrottles === baseCheckThrottles ? runThrottleChecks(view, request) : view.checkThrottles(request);
  return isPromise(throttles) ? Promise.resolve(throttles) : undefined;
}

/**
 * `checkPermissions()`'s work: each of `view.getPermissions()` in turn, `permissionDenied()` at
 * the first refusal. Synchronous while the permissions answer synchronously; a promise from
 * the first asynchronous answer on.
 */
function runPermissionChecks(view: APIView, request: Request): Promise<void> | undefined {
  const permissions = view.getPermissions();
  for (let i = 0; i < permissions.length; i++) {
    const permission = permissions[i];
    const allowed = permission.hasPermission(request, view);
    if (isPromise(allowed)) return finishPermissionChecks(view, request, permissions, i, allowed);
    if (!allowed) view.permissionDenied(request, permission.message ?? null, permission.code ?? null);
  }
  return undefined;
}

/** What the checks answer when every step answered at once. */
const CHECKED: Promise<void> = Promise.resolve();

/**
 * `view.checkObjectPermissions(request, obj)` without a promise while it is the library's and
 * the permissions answer at once: nothing when allowed (throws when refused), else a promise.
 */
export function objectPermissionsChecking(view: APIView, request: Request, obj: unknown): Promise<void> | undefined {
  if (view.checkObjectPermissions !== APIView.prototype.checkObjectPermissions) return view.checkObjectPermissions(request, obj);
  return runObjectPermissionChecks(view, request, obj);
}

/**
 * `checkObjectPermissions()`'s work: each of `view.getPermissions()` in turn, `permissionDenied()`
 * at the first refusal of `obj`. Synchronous while the permissions answer synchronously.
 */
function runObjectPermissionChecks(view: APIView, request: Request, obj: unknown): Promise<void> | undefined {
  const permissions = view.getPermissions();
  for (let i = 0; i < permissions.length; i++) {
    const permission = permissions[i];
    const allowed = permission.hasObjectPermission(request, view, obj);
    if (isPromise(allowed)) return finishObjectPermissionChecks(view, request, obj, permissions, i, allowed);
    if (!allowed) view.permissionDenied(request, permission.message ?? null, permission.code ?? null);
  }
  return undefined;
}

async function finishObjectPermissionChecks(
  view: APIView, request: Request, obj: unknown, permissions: BasePermission[], from: number, pending: Promise<boolean>,
): Promise<void> {
  for (let i = from; i < permissions.length; i++) {
    const permission = permissions[i];
    const answer = i === from ? pending : permission.hasObjectPermission(request, view, obj);
    if (!(isPromise(answer) ? await answer : answer)) view.permissionDenied(request, permission.message ?? null, permission.code ?? null);
  }
}

async function finishPermissionChecks(
  view: APIView, request: Request, permissions: BasePermission[], from: number, pending: Promise<boolean>,
): Promise<void> {
  for (let i = from; i < permissions.length; i++) {
    const permission = permissions[i];
    const answer = i === from ? pending : permission.hasPermission(request, view);
    if (!(isPromise(answer) ? await answer : answer)) view.permissionDenied(request, permission.message ?? null, permission.code ?? null);
  }
}

/**
 * `checkThrottles()`'s work: every one of `view.getThrottles()` is asked; when any refuses,
 * `throttled()` with the longest known wait. Synchronous while the throttles answer
 * synchronously.
 */
function runThrottleChecks(view: APIView, request: Request): Promise<void> | undefined {
  const throttles = view.getThrottles();
  if (throttles.length === 0) return undefined;
  const durations: Array<number | null> = [];
  for (let i = 0; i < throttles.length; i++) {
    const throttle = throttles[i];
    const allowed = throttle.allowRequest(request, view);
    if (isPromise(allowed)) return finishThrottleChecks(view, request, throttles, i, allowed, durations);
    if (!allowed) durations.push(throttle.wait());
  }
  reportThrottled(view, request, durations);
  return undefined;
}

async function finishThrottleChecks(
  view: APIView, request: Request, throttles: BaseThrottle[], from: number, pending: Promise<boolean>, durations: Array<number | null>,
): Promise<void> {
  for (let i = from; i < throttles.length; i++) {
    const throttle = throttles[i];
    const answer = i === from ? pending : throttle.allowRequest(request, view);
    if (!(isPromise(answer) ? await answer : answer)) durations.push(throttle.wait());
  }
  reportThrottled(view, request, durations);
}

function reportThrottled(view: APIView, request: Request, durations: Array<number | null>): void {
  if (durations.length > 0) {
    const known = durations.filter((duration): duration is number => duration !== null && duration !== undefined);
    view.throttled(request, known.length > 0 ? Math.max(...known) : null);
  }
}
