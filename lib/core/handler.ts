/**
 * The request handler: request -> middleware chain -> URL resolution -> `processView` hooks
 * -> view -> rendering, with every error turned into a response (errors never escape).
 *
 * The chain is built once per `MIDDLEWARE`/`ROOT_URLCONF` and rebuilt when they change.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - The handler (`lib/core/handler.ts`) renders lazily-rendered responses: a returned response
 *   with `render(): HttpResponse | Promise<HttpResponse>` and `isRendered === false` is rendered
 *   after the view and `processView` hooks, before the middleware see it (DRF's `Response`).
 * - Error views: the URL conf's `handler400/403/404/500(request, error?)`, else the host
 *   framework's defaults, byte for byte Django 3.2's `text/html` error page (titles `Not Found`
 *   with `The requested resource was not found on this server.`, `Server Error (500)`,
 *   `Bad Request (400)`, `403 Forbidden`; with DEBUG the 400/500 pages add the error and its
 *   stack); a handler that throws or returns no `HttpResponse` is logged and the default answers.
 *   A 413 is always JSON, `{"detail":"Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE."}`
 *   (or `settings.FILE_UPLOAD_MAX_SIZE.`), and closes the connection. API projects set
 *   `handler400`/`handler500` to `api_framework.exceptions`' JSON `badRequest`/`serverError`
 *   (`{"error": "Bad Request (400)"}`, `{"error": "Server Error (500)"}`; the demo does).
 * - 500s and suspicious 400s are logged to stderr (`Internal Server Error: <path>` + stack) when
 *   `LOG_SERVER_ERRORS` is true, or when it is `null` (default) unless env `API_FRAMEWORK_QUIET=1`
 *   (set by `spec/setup.ts`, so specs stay quiet; a spec asserting the log sets it to true).
 */
import { settings, onSettingChanged } from './conf';
import { escapeHtml } from './html';
import {
  HttpResponse,
  type HttpRequest,
} from './http';
import { Http404, PermissionDenied, RequestAborted, RequestDataTooBig, SuspiciousOperation } from './exceptions';
import { getResolver, resolve, type ErrorHandler, type ResolverMatch, type ViewFunction } from './urls';
import { outageOf, serviceUnavailableResponse } from './outage';
import { isHookMiddleware, isHookMiddlewareClass, loadMiddlewareClasses, type GetResponse, type Middleware, type MiddlewareMixin } from './middleware';
import { fuseHookMiddleware } from './middleware/fusedHooks';
import { formatException, technical404Response, technical500Response } from './debug';

type ViewHook = NonNullable<Middleware['processView']>;
type ExceptionHook = NonNullable<Middleware['processException']>;

/** A response rendered after the view (DRF's `Response`, template responses). */
interface RenderableResponse {
  isRendered: boolean;
  render(): HttpResponse | Promise<HttpResponse> | void | Promise<void>;
}

function isRenderable(value: unknown): value is HttpResponse & RenderableResponse {
  return (
    typeof (value as Partial<RenderableResponse>).render === 'function' &&
    (value as Partial<RenderableResponse>).isRendered === false
  );
}

/**
 * The page of the host framework's default error views (used when the project has no error
 * template): the same bytes as Django 3.2's `ERROR_PAGE_TEMPLATE`.
 */
function errorPage(title: string, details: string): string {
  return `\n<!doctype html>\n<html lang="en">\n<head>\n  <title>${title}</title>\n</head>\n<body>\n  <h1>${title}</h1><p>${details}</p>\n</body>\n</html>\n`;
}

function htmlResponse(body: string, status: number): HttpResponse {
  return new HttpResponse(body, { status, contentType: 'text/html' });
}

/** With DEBUG on, the error's message and stack (escaped) as the page's details; else ''. */
function debugDetails(error: unknown): string {
  if (!settings.DEBUG || error === undefined) return '';
  if (error instanceof Error) {
    return `${escapeHtml(`${error.name}: ${error.message}`)}</p>\n<pre>${escapeHtml(error.stack ?? '')}</pre><p>`;
  }
  return escapeHtml(String(error));
}

/** The default 400 view: the host framework's `<h1>Bad Request (400)</h1>` page (details when DEBUG). */
export function badRequest(_request: HttpRequest, error?: unknown): HttpResponse {
  return htmlResponse(errorPage('Bad Request (400)', debugDetails(error)), 400);
}

/** The default 403 view: the host framework's `<h1>403 Forbidden</h1>` page. */
export function permissionDenied(_request: HttpRequest, _error?: unknown): HttpResponse {
  return htmlResponse(errorPage('403 Forbidden', ''), 403);
}

/** The default 404 view: the host framework's "Not Found" page. */
export function pageNotFound(_request: HttpRequest, _error?: unknown): HttpResponse {
  return htmlResponse(errorPage('Not Found', 'The requested resource was not found on this server.'), 404);
}

/** The default 500 view: the host framework's `<h1>Server Error (500)</h1>` page (the stack when DEBUG). */
export function serverError(_request: HttpRequest, error?: unknown): HttpResponse {
  return htmlResponse(errorPage('Server Error (500)', debugDetails(error)), 500);
}

/** The 413 answer to a too-big body; the connection is closed after it. */
export function requestTooBig(_request: HttpRequest, error?: unknown): HttpResponse {
  const message = error instanceof Error ? error.message : 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.';
  const response = new HttpResponse(JSON.stringify({ detail: message }), { status: 413, contentType: 'application/json' });
  response.closeConnection = true;
  return response;
}

/**
 * The answer to a request whose client went away mid-body (`RequestAborted`), logged as a client
 * abort (`Client aborted: POST /path (...)`), never as a server error. The answer is never
 * delivered; it only closes the connection.
 */
export function requestAborted(request: HttpRequest, error?: unknown): HttpResponse {
  const message = error instanceof Error ? error.message : new RequestAborted().message;
  if (shouldLogServerErrors()) logError(`Client aborted: ${request.method} ${request.path} (${message})`);
  const response = new HttpResponse(JSON.stringify({ detail: message }), { status: 400, contentType: 'application/json' });
  response.closeConnection = true;
  return response;
}

const DEFAULT_HANDLERS: Record<400 | 403 | 404 | 500, ErrorHandler> = {
  400: badRequest,
  403: permissionDenied,
  404: pageNotFound,
  500: serverError,
};

/** Write a line to stderr (the host layer's logger). */
export function logError(message: string): void {
  process.stderr.write(`${message}\n`);
}

/**
 * Whether request errors (500s, suspicious 400s) are logged: `LOG_SERVER_ERRORS`, or when it
 * is null, unless the environment sets `API_FRAMEWORK_QUIET=1`.
 */
export function shouldLogServerErrors(): boolean {
  const value = settings.LOG_SERVER_ERRORS;
  if (value === true || value === false) return value;
  return process.env.API_FRAMEWORK_QUIET !== '1';
}

function describe(error: unknown): string {
  return formatException(error);
}

async function callErrorHandler(status: 400 | 403 | 404 | 500, request: HttpRequest, error: unknown): Promise<HttpResponse> {
  let handler: ErrorHandler = DEFAULT_HANDLERS[status];
  try {
    handler = getResolver().resolveErrorHandler(status) ?? handler;
  } catch (lookupError) {
    logError(`Could not load handler${status}: ${describe(lookupError)}`);
  }
  try {
    let response = await handler(request, error);
    if (isRenderable(response)) response = (await response.render()) ?? response;
    if (response instanceof HttpResponse) return response;
    throw new TypeError(`handler${status} didn't return an HttpResponse object.`);
  } catch (handlerError) {
    logError(`Error in handler${status}: ${describe(handlerError)}`);
    return DEFAULT_HANDLERS[status](request, error);
  }
}

/** Turn an error raised while handling `request` into the matching error response. */
export async function responseForException(request: HttpRequest, error: unknown): Promise<HttpResponse> {
  // With DEBUG, the host framework answers its technical pages instead of handler404/handler500.
  if (error instanceof Http404) return settings.DEBUG ? debugPage(() => technical404Response(request, error), 404, request, error) : callErrorHandler(404, request, error);
  if (error instanceof PermissionDenied) return callErrorHandler(403, request, error);
  if (error instanceof RequestDataTooBig) return requestTooBig(request, error);
  if (error instanceof RequestAborted) return requestAborted(request, error);
  // The database or the cache is down or timing out: 503 + Retry-After, logged once per outage.
  const outage = outageOf(error);
  if (outage) return serviceUnavailableResponse(outage, error);
  if (error instanceof SuspiciousOperation) {
    if (shouldLogServerErrors()) logError(`Bad Request: ${error.name}: ${error.message}`);
    return callErrorHandler(400, request, error);
  }
  if (shouldLogServerErrors()) logError(`Internal Server Error: ${request.path}\n${describe(error)}`);
  if (settings.DEBUG) return debugPage(() => technical500Response(request, error), 500, request, error);
  return callErrorHandler(500, request, error);
}

/** A DEBUG page, or (should building it fail) the status's error handler. */
async function debugPage(build: () => HttpResponse, status: 404 | 500, request: HttpRequest, error: unknown): Promise<HttpResponse> {
  try {
    return build();
  } catch (pageError) {
    logError(`Error while rendering the DEBUG ${status} page: ${describe(pageError)}`);
    return callErrorHandler(status, request, error);
  }
}

type TransactionModule = typeof import('./db/transaction');
let transactionModule: TransactionModule | null = null;

/**
 * `ATOMIC_REQUESTS`: run the view inside `atomic()` (unless marked `nonAtomicRequests`). The db
 * layer is loaded on first use only, so the handler never imports it eagerly.
 */
function runAtomically(view: ViewFunction, request: HttpRequest, kwargs: Record<string, unknown>, args: string[]): Promise<unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const db = (transactionModule ??= require('./db/transaction') as TransactionModule);
  if (db.isNonAtomicRequests(view)) return Promise.resolve(view(request, kwargs, ...args));
  return db.atomic(() => view(request, kwargs, ...args));
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Wrap a middleware's step so that an error it raises (synchronously or as a rejection)
 * becomes the error response the outer middleware sees. One promise reaction, no async frame.
 */
function convertExceptionToResponse(getResponse: GetResponse): GetResponse {
  return (request) => {
    let pending: Promise<HttpResponse>;
    try {
      pending = getResponse(request);
    } catch (error) {
      return responseForException(request, error);
    }
    const onError = (error: unknown): Promise<HttpResponse> => responseForException(request, error);
    return (pending instanceof Promise ? pending : Promise.resolve(pending)).then(undefined, onError);
  };
}

/**
 * Runs requests through the middleware and the view. Build one with `getHandler()`; it is
 * rebuilt when `MIDDLEWARE` or `ROOT_URLCONF` change.
 *
 * The innermost step (resolve, view, render) turns its own errors into responses, so without
 * middleware a request costs one async call; each middleware adds one exception wrapper.
 */
export class BaseHandler {
  private readonly chain: GetResponse;
  private readonly viewMiddleware: ViewHook[] = [];
  private readonly exceptionMiddleware: ExceptionHook[] = [];

  constructor() {
    // `chain` is the chain as it runs: adjacent hook-style middleware (`MiddlewareMixin`s
    // keeping its `handle()`) run as one fused step (`fuseHookMiddleware`). Each middleware
    // still gets a working `getResponse`: the nested chain below it.
    let chain: GetResponse = (request) => this.getResponseInner(request);
    let group: MiddlewareMixin[] = [];
    let below = chain;
    let nested = chain;
    const closeGroup = (): void => {
      if (group.length > 0) chain = fuseHookMiddleware(group, below, responseForException);
      group = [];
    };
    for (const cls of [...loadMiddlewareClasses()].reverse()) {
      const fusable = isHookMiddlewareClass(cls);
      if (!fusable) closeGroup();
      else if (group.length === 0) below = chain;
      const next = fusable ? nested : chain;
      const middleware = new cls(next);
      if (middleware.processView) this.viewMiddleware.unshift(middleware.processView.bind(middleware));
      if (middleware.processException) this.exceptionMiddleware.push(middleware.processException.bind(middleware));
      const step = convertExceptionToResponse((request) => middleware.handle(request));
      if (fusable && isHookMiddleware(middleware, next)) {
        group.unshift(middleware);
        nested = step;
      } else {
        closeGroup();
        chain = step;
        nested = step;
      }
    }
    closeGroup();
    this.chain = chain;
  }

  /** Answer `request` (never rejects: every step turns errors into responses). */
  getResponse(request: HttpRequest): Promise<HttpResponse> {
    return this.chain(request);
  }

  private async processExceptionByMiddleware(request: HttpRequest, error: unknown): Promise<HttpResponse | null> {
    for (const hook of this.exceptionMiddleware) {
      const response = await hook(request, error);
      if (response) return response;
    }
    return null;
  }

  /**
   * Resolve, run the view hooks and the view, and render. Errors go to the exception
   * middleware, and what it does not answer becomes the error response. Written as promise
   * steps (not `async`): the steps that answer at once cost no promise of their own.
   */
  private getResponseInner(request: HttpRequest): Promise<HttpResponse> {
    let match: ResolverMatch;
    try {
      match = resolve(request.pathInfo);
      request.resolverMatch = match;
    } catch (error) {
      return responseForException(request, error);
    }
    return this.runViewHooks(request, match, 0);
  }

  /** The `processView` hooks from `from` on; the first answer replaces the view. */
  private runViewHooks(request: HttpRequest, match: ResolverMatch, from: number): Promise<HttpResponse> {
    const hooks = this.viewMiddleware;
    for (let i = from; i < hooks.length; i++) {
      let answer: unknown;
      try {
        answer = hooks[i](request, match.func, match.args, match.kwargs);
      } catch (error) {
        return responseForException(request, error);
      }
      if (isPromiseLike(answer)) {
        return Promise.resolve(answer).then(
          (resolved: unknown) => (resolved ? this.finishResponse(request, match.func, resolved) : this.runViewHooks(request, match, i + 1)),
          (error: unknown) => responseForException(request, error),
        );
      }
      if (answer) return this.finishResponse(request, match.func, answer);
    }
    return this.callView(request, match);
  }

  /** Call the view (inside `atomic()` under `ATOMIC_REQUESTS`); its errors go to the exception middleware. */
  private callView(request: HttpRequest, match: ResolverMatch): Promise<HttpResponse> {
    const { func: view, args, kwargs } = match;
    let result: unknown;
    try {
      result = settings.ATOMIC_REQUESTS ? runAtomically(view, request, kwargs, args) : view(request, kwargs, ...args);
    } catch (error) {
      return this.rescue(request, error).then((response) => this.finishResponse(request, view, response), (failure: unknown) => responseForException(request, failure));
    }
    if (isPromiseLike(result)) {
      return Promise.resolve(result).then(
        (response: unknown) => this.finishResponse(request, view, response),
        (error: unknown) => this.rescue(request, error).then((response) => this.finishResponse(request, view, response), (failure: unknown) => responseForException(request, failure)),
      );
    }
    return this.finishResponse(request, view, result);
  }

  /** The exception middleware's answer to `error`; rejects with `error` when none answers. */
  private async rescue(request: HttpRequest, error: unknown): Promise<HttpResponse> {
    const response = await this.processExceptionByMiddleware(request, error);
    if (!response) throw error;
    return response;
  }

  /**
   * Check that the view (or a view hook) answered a response, and render it when it renders
   * late; an error while rendering goes to the exception middleware.
   */
  private finishResponse(request: HttpRequest, view: ViewFunction, response: unknown): Promise<HttpResponse> {
    if (!(response instanceof HttpResponse)) {
      const name = view.name || 'view';
      const got = response === null || response === undefined ? 'None' : 'an unexpected value';
      return responseForException(request, new TypeError(`The view ${name} didn't return an HttpResponse object. It returned ${got} instead.`));
    }
    if (!isRenderable(response)) return Promise.resolve(response);
    const rescue = (error: unknown): Promise<HttpResponse> =>
      this.rescue(request, error).then(undefined, (failure: unknown) => responseForException(request, failure));
    let rendered: ReturnType<RenderableResponse['render']>;
    try {
      rendered = response.render();
    } catch (error) {
      return rescue(error);
    }
    if (isPromiseLike(rendered)) {
      return Promise.resolve(rendered).then((value) => (value ?? response) as HttpResponse, rescue);
    }
    return Promise.resolve((rendered ?? response) as HttpResponse);
  }
}

let cachedHandler: BaseHandler | null = null;

onSettingChanged((key) => {
  if (key === 'MIDDLEWARE' || key === 'ROOT_URLCONF') cachedHandler = null;
});

/** The handler for the current settings, built on first use. */
export function getHandler(): BaseHandler {
  if (!cachedHandler) cachedHandler = new BaseHandler();
  return cachedHandler;
}

/** Answer a request in process (what the server and the test clients call). */
export function handleRequest(request: HttpRequest): Promise<HttpResponse> {
  let handler: BaseHandler;
  try {
    handler = getHandler();
  } catch (error) {
    return responseForException(request, error);
  }
  return handler.getResponse(request);
}
