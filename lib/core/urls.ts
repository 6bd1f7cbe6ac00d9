/**
 * URL configuration: `path('snippets/<int:pk>/', view, { name: 'snippet-detail' })`,
 * `rePath`, `include(..., { namespace })`, `reverse()` and `resolve()`.
 *
 *     export const urlpatterns = [
 *       path('', apiRoot, { name: 'api-root' }),
 *       path('snippets/<int:pk>/', snippetDetail, { name: 'snippet-detail' }),
 *       path('quickstart/', include(quickstartUrls, { namespace: 'quickstart' })),
 *     ];
 *
 * The parts live in `urls/`: `conf.ts` (declaring patterns), `converters.ts`, `patterns.ts`
 * (compiled routes and regexes), `resolvers.ts` (matching, the root resolver and `resolve()`),
 * `reverse.ts`, `exceptions.ts` and `types.ts`. Import from here.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - A view is `type ViewFunction = (request: HttpRequest, kwargs: Record<string, unknown>, ...args: string[]) => Promise<HttpResponse> | HttpResponse`
 *   with optional properties `csrfExempt?: boolean`, `viewClass?`, `viewInitkwargs?`, `actions?`.
 * - `path(route, view | include(...), { name })`, `rePath(regex, view, { name })`,
 *   `include(patterns | { urlpatterns, appName }, { namespace })`, `reverse(name | view, { args,
 *   kwargs, request?, currentApp?, urlconf? })` (with `request` the URL is absolute),
 *   `resolve(path) -> ResolverMatch { func, args, kwargs, urlName, appName, appNames, namespace,
 *   namespaces, viewName, route }`, `Resolver404`, `NoReverseMatch`, `registerConverter()`.
 * - Import all of it from `lib/core/urls`, which re-exports the parts in `lib/core/urls/`
 *   (`conf.ts` path/rePath/include, `converters.ts`, `patterns.ts`, `regexHelper.ts`,
 *   `candidates.ts`, `resolvers.ts` with `resolve()`/`getResolver()`, `reverse.ts`,
 *   `exceptions.ts`, `types.ts`). A pattern's `pattern` is a `RoutePattern` (`path()`) or a
 *   `RegexPattern` (`rePath()`); test with `instanceof` (`formatSuffixPatterns` does).
 * - The URL conf is a module exporting `urlpatterns` (and optionally `handler400`, `handler403`,
 *   `handler404`, `handler500`: functions or dotted paths), named by the setting `ROOT_URLCONF`.
 * - `resolve()` and `reverse()` remember their answers per root resolver (`urls/resolveMemo.ts`,
 *   `urls/reverseMemo.ts`; `resolve()` only for URL confs made of the framework's patterns and
 *   converters, and every answer is a copy): a URL conf edited in place after use needs
 *   `clearUrlCaches()`; any setting change forgets both.
 */
export type { ErrorHandler, UrlConfModule, ViewFunction } from './urls/types';
export { NoReverseMatch, Resolver404 } from './urls/exceptions';
export {
  IntConverter, PathSegmentsConverter, registerConverter, SlugConverter, StringConverter, UUIDConverter,
  type PathConverter,
} from './urls/converters';
export { Pattern, RegexPattern, RoutePattern } from './urls/patterns';
export {
  clearUrlCaches, getResolver, resolve, ResolverMatch, URLPattern, URLResolver, type IncludeTarget, type UrlPattern,
} from './urls/resolvers';
export { include, path, rePath, type PatternOptions } from './urls/conf';
export { reverse, type ReverseOptions } from './urls/reverse';
export { reverseMemoGeneration } from './urls/reverseMemo';
