/**
 * Middleware: classes constructed once with the next handler (`new M(getResponse)`) and called
 * per request through `handle(request)`. `MiddlewareMixin` gives the request/response hook
 * style; `CommonMiddleware` implements APPEND_SLASH.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - Middleware is Django-shaped: a class `new M(getResponse)` with `handle(request):
 *   Promise<HttpResponse>` and optional `processView(request, view, args, kwargs)` and
 *   `processException(request, error)`; listed in settings `MIDDLEWARE` as classes or dotted paths.
 *   `lib/core/middleware.ts` exports `MiddlewareMixin` (override `processRequest(request)` /
 *   `processResponse(request, response)`) and `CommonMiddleware` (APPEND_SLASH).
 *   `lib/core/security.ts`: `SecurityMiddleware` (Django 3.2's settings and defaults:
 *   `SECURE_CONTENT_TYPE_NOSNIFF` true, `SECURE_REFERRER_POLICY` `'same-origin'`,
 *   `SECURE_BROWSER_XSS_FILTER`, `SECURE_HSTS_SECONDS` 0 / `_INCLUDE_SUBDOMAINS` / `_PRELOAD`,
 *   `SECURE_SSL_REDIRECT` false, `SECURE_SSL_HOST`, `SECURE_REDIRECT_EXEMPT`; read per request).
 *   `lib/core/clickjacking.ts`: `XFrameOptionsMiddleware` (`X_FRAME_OPTIONS`, default `'DENY'`)
 *   and the view decorators `xframeOptionsDeny`, `xframeOptionsSameorigin`, `xframeOptionsExempt`
 *   (they wrap the view and keep its properties).
 */
import { settings, ImproperlyConfigured } from './conf';
import { importString } from './modules';
import { HttpResponsePermanentRedirect, type HttpRequest, type HttpResponse } from './http';
import { resolve, Resolver404, type ViewFunction } from './urls';

/** The next step of the chain. */
export type GetResponse = (request: HttpRequest) => Promise<HttpResponse>;

/** A middleware instance. */
export interface Middleware {
  /** Answer the request, usually by calling the next handler. */
  handle(request: HttpRequest): Promise<HttpResponse>;
  /** Called just before the view with its arguments; a response short-circuits the view. */
  processView?(
    request: HttpRequest,
    view: ViewFunction,
    args: string[],
    kwargs: Record<string, unknown>,
  ): Promise<HttpResponse | null | undefined> | HttpResponse | null | undefined;
  /** Called when the view raised; a response replaces the error. */
  processException?(request: HttpRequest, error: unknown): Promise<HttpResponse | null | undefined> | HttpResponse | null | undefined;
}

/** A middleware class as listed in `MIDDLEWARE`. */
export type MiddlewareClass = new (getResponse: GetResponse) => Middleware;

/**
 * Base class for middleware written as hooks: override `processRequest` (a response
 * short-circuits) and/or `processResponse`.
 */
export class MiddlewareMixin implements Middleware {
  constructor(protected readonly getResponse: GetResponse) {}

  /** Called before the rest of the chain; return a response to answer at once. */
  processRequest(_request: HttpRequest): Promise<HttpResponse | null | undefined> | HttpResponse | null | undefined {
    return null;
  }

  /** Called with the response on its way out; return the (possibly new) response. */
  processResponse(_request: HttpRequest, response: HttpResponse): Promise<HttpResponse> | HttpResponse {
    return response;
  }

  /**
   * Runs the hooks around the next handler (a hook's answer is awaited only when it is a
   * promise). Errors of the hooks reject the returned promise.
   */
  handle(request: HttpRequest): Promise<HttpResponse> {
    let early: ReturnType<MiddlewareMixin['processRequest']>;
    try {
      early = this.processRequest(request);
    } catch (error) {
      return Promise.reject(error);
    }
    if (isPromiseLike(early)) return Promise.resolve(early).then((answer) => respond(this, request, answer));
    return respond(this, request, early);
  }
}

const mixinHandle = MiddlewareMixin.prototype.handle;

/**
 * True for a class of hook-style middleware: a `MiddlewareMixin` keeping its `handle()`, so its
 * behaviour is its `processRequest()` and `processResponse()` hooks (the handler may run them
 * without calling `handle()`).
 */
export function isHookMiddlewareClass(cls: MiddlewareClass): boolean {
  return cls.prototype instanceof MiddlewareMixin && (cls.prototype as MiddlewareMixin).handle === mixinHandle;
}

/** True when `middleware` is hook-style and calls `next` (its constructor kept the `getResponse` it was given). */
export function isHookMiddleware(middleware: Middleware, next: GetResponse): middleware is MiddlewareMixin {
  return middleware instanceof MiddlewareMixin && middleware.handle === mixinHandle && middleware['getResponse'] === next;
}

/** The rest of `MiddlewareMixin.handle()` once `processRequest()` answered `early`. */
function respond(middleware: MiddlewareMixin, request: HttpRequest, early: HttpResponse | null | undefined): Promise<HttpResponse> {
  const pending = early !== null && early !== undefined ? Promise.resolve(early) : Promise.resolve(middleware['getResponse'](request));
  return pending.then((response) => middleware.processResponse(request, response));
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Turn a `MIDDLEWARE` entry (class or dotted path) into a class. */
export function resolveMiddleware(entry: string | (new (...args: never[]) => unknown)): MiddlewareClass {
  const value = typeof entry === 'string' ? importString<unknown>(entry, 'MIDDLEWARE') : entry;
  if (typeof value !== 'function') {
    throw new ImproperlyConfigured(`MIDDLEWARE entry '${String(entry)}' is not a middleware class.`);
  }
  return value as MiddlewareClass;
}

/** The classes listed in `settings.MIDDLEWARE`, outermost first. */
export function loadMiddlewareClasses(entries = settings.MIDDLEWARE): MiddlewareClass[] {
  return entries.map(resolveMiddleware);
}

function isValidPath(pathInfo: string): boolean {
  try {
    resolve(pathInfo);
    return true;
  } catch (error) {
    if (error instanceof Resolver404) return false;
    throw error;
  }
}

/**
 * "Common" behaviour: validates the Host header (a bad one is a 400), redirects to `www.`
 * with `PREPEND_WWW`, and with `APPEND_SLASH` redirects (301) a request for `/path` that
 * found nothing to `/path/` when that resolves; the query string is kept. As in the host
 * framework, any method is redirected (with DEBUG on, a POST/PUT/PATCH raises instead, since
 * the client would drop its body).
 */
export class CommonMiddleware extends MiddlewareMixin {
  /** Check the host (raises `DisallowedHost`) and apply `PREPEND_WWW`. */
  override processRequest(request: HttpRequest): HttpResponse | null {
    const host = request.getHost();
    if (settings.PREPEND_WWW === true && host && !host.startsWith('www.')) {
      const path = this.shouldRedirectWithSlash(request) ? this.getFullPathWithSlash(request) : request.getFullPath();
      return new HttpResponsePermanentRedirect(`${request.scheme}://www.${host}${path}`);
    }
    return null;
  }

  /** True when a slash-less path 404'd and the same path with a slash resolves. */
  shouldRedirectWithSlash(request: HttpRequest): boolean {
    if (!settings.APPEND_SLASH || request.pathInfo.endsWith('/')) return false;
    return !isValidPath(request.pathInfo) && isValidPath(`${request.pathInfo}/`);
  }

  /**
   * The full path with a slash appended to the path part. With DEBUG on, a POST, PUT or
   * PATCH raises: the redirect would lose its body.
   */
  getFullPathWithSlash(request: HttpRequest): string {
    // A leading `//` would make the Location scheme-relative (another host).
    const path = request.getFullPath(true).replace(/^\/\//, '/%2F');
    if (settings.DEBUG && ['POST', 'PUT', 'PATCH'].includes(request.method)) {
      throw new Error(
        `You called this URL via ${request.method}, but the URL doesn't end in a slash and you have APPEND_SLASH set. ` +
        `Django can't redirect to the slash URL while maintaining ${request.method} data. Change your form to point to ` +
        `${request.getHost()}${path} (note the trailing slash), or set APPEND_SLASH=False in your Django settings.`,
      );
    }
    return path;
  }

  /** Redirects 404s that only lacked a trailing slash. */
  override processResponse(request: HttpRequest, response: HttpResponse): HttpResponse {
    if (response.status === 404 && this.shouldRedirectWithSlash(request)) {
      return new HttpResponsePermanentRedirect(this.getFullPathWithSlash(request));
    }
    return response;
  }
}
