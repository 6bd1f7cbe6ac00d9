/**
 * Clickjacking protection: `XFrameOptionsMiddleware` sets `X-Frame-Options` on every response
 * (`X_FRAME_OPTIONS`, default `'DENY'` as in Django 3.x), and the view decorators
 * `xframeOptionsDeny`, `xframeOptionsSameorigin` and `xframeOptionsExempt` choose per view.
 *
 * ```ts
 * path('embed/', xframeOptionsExempt(EmbedView.asView())),
 * ```
 */
import { settings } from './conf';
import type { HttpRequest, HttpResponse } from './http';
import { MiddlewareMixin } from './middleware';
import type { ViewFunction } from './urls';

/** Django 3.x's default `X_FRAME_OPTIONS`. */
export const DEFAULT_X_FRAME_OPTIONS = 'DENY';

const exemptResponses = new WeakSet<HttpResponse>();

/** The last `X_FRAME_OPTIONS` text seen and its upper-case form. */
let lastXFrameOptions: [string, string] = ['', ''];

/** Mark `response` so `XFrameOptionsMiddleware` leaves it without `X-Frame-Options`. */
export function markXFrameOptionsExempt(response: HttpResponse): HttpResponse {
  exemptResponses.add(response);
  return response;
}

/** True for responses of `xframeOptionsExempt` views. */
export function isXFrameOptionsExempt(response: HttpResponse): boolean {
  return exemptResponses.has(response);
}

/**
 * Wrap `view` so `fn` sees each response; the wrapper keeps the view's own properties
 * (`csrfExempt`, `viewClass`, `actions`, ...), as the host framework's `wraps()` does.
 */
function decorate<V extends ViewFunction>(view: V, fn: (response: HttpResponse) => void): V {
  const wrapped = async (request: HttpRequest, kwargs: Record<string, unknown>, ...args: string[]): Promise<HttpResponse> => {
    const response = await view(request, kwargs, ...args);
    fn(response);
    return response;
  };
  Object.defineProperties(wrapped, Object.getOwnPropertyDescriptors(view));
  return wrapped as unknown as V;
}

/** Answer `X-Frame-Options: DENY` for this view (unless the view set the header itself). */
export function xframeOptionsDeny<V extends ViewFunction>(view: V): V {
  return decorate(view, (response) => response.setDefaultHeader('X-Frame-Options', 'DENY'));
}

/** Answer `X-Frame-Options: SAMEORIGIN` for this view (unless the view set the header itself). */
export function xframeOptionsSameorigin<V extends ViewFunction>(view: V): V {
  return decorate(view, (response) => response.setDefaultHeader('X-Frame-Options', 'SAMEORIGIN'));
}

/** Let this view's pages be framed anywhere: `XFrameOptionsMiddleware` adds no header. */
export function xframeOptionsExempt<V extends ViewFunction>(view: V): V {
  return decorate(view, markXFrameOptionsExempt);
}

/**
 * Sets `X-Frame-Options` on responses that have none and are not exempt. Override
 * `getXFrameOptionsValue()` to choose the value per request or response.
 */
export class XFrameOptionsMiddleware extends MiddlewareMixin {
  /** Add the header. */
  override processResponse(request: HttpRequest, response: HttpResponse): HttpResponse {
    if (response.hasHeader('X-Frame-Options') || isXFrameOptionsExempt(response)) return response;
    response.setHeader('X-Frame-Options', this.getXFrameOptionsValue(request, response));
    return response;
  }

  /** The header value: `X_FRAME_OPTIONS` upper-cased (default `DENY`). */
  getXFrameOptionsValue(_request: HttpRequest, _response: HttpResponse): string {
    const value = settings.X_FRAME_OPTIONS;
    const text = typeof value === 'string' && value ? value : DEFAULT_X_FRAME_OPTIONS;
    // The setting rarely changes: its upper-case form is kept for the last value seen.
    if (text !== lastXFrameOptions[0]) lastXFrameOptions = [text, text.toUpperCase()];
    return lastXFrameOptions[1];
  }
}
