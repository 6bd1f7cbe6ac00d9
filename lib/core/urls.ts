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
