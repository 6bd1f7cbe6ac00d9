/**
 * The shapes a URL conf is made of: views, error handlers and the URL conf module itself.
 */
import type { HttpRequest, HttpResponse } from '../http';
import type { UrlPattern } from './resolvers';

/** A view: called with the request, the keyword arguments and the positional arguments. */
export type ViewFunction = ((
  request: HttpRequest,
  kwargs: Record<string, unknown>,
  ...args: string[]
) => Promise<HttpResponse> | HttpResponse) & {
  csrfExempt?: boolean;
  viewClass?: unknown;
  viewInitkwargs?: Record<string, unknown>;
  actions?: Record<string, string>;
};

/** An error view a URL conf may export as `handler400`, `handler403`, `handler404`, `handler500`. */
export type ErrorHandler = (request: HttpRequest, error?: unknown) => Promise<HttpResponse> | HttpResponse;

/** A module (or object) that can serve as URL conf. */
export interface UrlConfModule {
  urlpatterns: UrlPattern[];
  appName?: string;
  app_name?: string;
  handler400?: ErrorHandler | string;
  handler403?: ErrorHandler | string;
  handler404?: ErrorHandler | string;
  handler500?: ErrorHandler | string;
}
