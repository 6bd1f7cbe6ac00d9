/**
 * The most important decorator in this module is `apiView`, which turns a plain function
 * into an API view (a subclass of `APIView` is generated for it).
 *
 * The view sets' `action` marker lives with the view sets.
 */
import type { ViewFunction } from './core/urls';
import type { HttpResponse } from './core/http';
import type { Request } from './request';
import { API_VIEW_POLICIES, APIView, type ApiViewPolicies, type Kwargs } from './views';

/** A function view: receives the `Request` and the URL keyword arguments. */
export type FunctionView = (request: Request, kwargs: Kwargs, ...args: string[]) => HttpResponse | Promise<HttpResponse>;

/**
 * The per-view policies of a function view (each defaults to the settings), typed as `APIView`
 * declares them, and its description.
 */
export interface ApiViewOptions extends ApiViewPolicies {
  /** The description shown in OPTIONS responses and the browsable API. */
  description?: string;
}

/**
 * Turn a function into an API view answering `httpMethodNames` (default `['GET']`) and
 * OPTIONS. The view's name is the function's name.
 *
 * @example
 * export const snippetList = apiView(['GET', 'POST'])(async function snippetList(request) {
 *   return new Response(await listSnippets());
 * });
 */
export function apiView(httpMethodNames: string[] = ['GET'], options: ApiViewOptions = {}): (func: FunctionView) => ViewFunction {
  return (func: FunctionView): ViewFunction => {
    const methods = [...new Set([...httpMethodNames.map((m) => m.toLowerCase()), 'options'])];

    class WrappedAPIView extends APIView {
      static override description = options.description ?? '';

      constructor() {
        super();
        this.httpMethodNames = methods;
        for (const key of API_VIEW_POLICIES) {
          if (options[key] !== undefined) Object.assign(this, { [key]: options[key] });
        }
      }
    }
    const handler = function (this: APIView, request: Request, kwargs: Kwargs, ...args: string[]) {
      return func(request, kwargs, ...args);
    };
    for (const method of httpMethodNames) {
      Object.defineProperty(WrappedAPIView.prototype, method.toLowerCase(), { value: handler, writable: true, configurable: true });
    }
    Object.defineProperty(WrappedAPIView, 'name', { value: func.name || 'WrappedAPIView' });
    return WrappedAPIView.asView();
  };
}
