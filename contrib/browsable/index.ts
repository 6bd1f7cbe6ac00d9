/**
 * The browsable API: its HTML renderer, the login and logout URL conf (`urls`, application
 * namespace `api_framework`) and the URL patterns serving its CSS and JavaScript.
 *
 * @example
 * import { staticfilesUrlpatterns, urls as apiAuthUrls } from 'contrib/browsable';
 * export const urlpatterns = [
 *   ...staticfilesUrlpatterns(),
 *   path('api-auth/', include(apiAuthUrls, { namespace: 'api_framework' })),
 * ];
 */
export { BrowsableAPIRenderer } from './renderers';
export { staticfilesUrlpatterns } from './staticfiles';
export * as urls from './urls';
