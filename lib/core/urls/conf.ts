/**
 * Declaring URL patterns: `path()`, `rePath()` and `include()`.
 *
 *     export const urlpatterns = [
 *       path('', apiRoot, { name: 'api-root' }),
 *       path('snippets/<int:pk>/', snippetDetail, { name: 'snippet-detail' }),
 *       path('quickstart/', include(quickstartUrls, { namespace: 'quickstart' })),
 *     ];
 */
import { importModule } from '../modules';
import { RegexPattern, RoutePattern, type Pattern } from './patterns';
import { URLPattern, URLResolver, type IncludeTarget, type UrlPattern } from './resolvers';
import type { UrlConfModule, ViewFunction } from './types';

/** Options of `path()` / `rePath()`. */
export interface PatternOptions {
  /** The URL name used by `reverse()`. */
  name?: string;
  /** Extra keyword arguments passed to the view. */
  kwargs?: Record<string, unknown>;
}

function isIncludeTarget(value: unknown): value is IncludeTarget {
  return typeof value === 'object' && value !== null && (value as IncludeTarget).kind === 'include';
}

function makePattern(pattern: Pattern, view: ViewFunction | IncludeTarget, options: PatternOptions): UrlPattern {
  if (isIncludeTarget(view)) {
    return new URLResolver(pattern, view.urlconf, options.kwargs ?? {}, view.appName, view.namespace);
  }
  if (typeof view !== 'function') {
    throw new TypeError('view must be a callable or a list/tuple in the case of include().');
  }
  return new URLPattern(pattern, view, options.kwargs ?? {}, options.name ?? null);
}

/** A route with `<converter:name>` parameters, bound to a view or an `include()`. */
export function path(route: string, view: ViewFunction | IncludeTarget, options: PatternOptions = {}): UrlPattern {
  return makePattern(new RoutePattern(route, !isIncludeTarget(view)), view, options);
}

/** A regular-expression route (named groups become kwargs, unnamed ones args). */
export function rePath(regex: string | RegExp, view: ViewFunction | IncludeTarget, options: PatternOptions = {}): UrlPattern {
  return makePattern(new RegexPattern(regex), view, options);
}

/**
 * Mount other patterns: a list, a module-like `{ urlpatterns, appName }` or a dotted module
 * path. The application namespace defaults to `namespace`.
 */
export function include(
  target: UrlPattern[] | UrlConfModule | string,
  options: { namespace?: string; appName?: string } = {},
): IncludeTarget {
  const urlconf: UrlConfModule | string = Array.isArray(target) ? { urlpatterns: target } : target;
  let moduleAppName: string | undefined;
  if (typeof urlconf !== 'string') moduleAppName = urlconf.appName ?? urlconf.app_name;
  else {
    const mod = importModule(urlconf) as Partial<UrlConfModule>;
    moduleAppName = mod.appName ?? mod.app_name;
  }
  const appName = options.appName ?? moduleAppName ?? options.namespace ?? null;
  const namespace = options.namespace ?? appName;
  return { kind: 'include', urlconf, appName, namespace };
}
