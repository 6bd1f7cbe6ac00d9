/**
 * Login and logout views for the browsable API. Add these to your root URL conf if you're
 * using the browsable API and your API requires authentication:
 *
 * @example
 * import * as apiAuthUrls from 'contrib/browsable/urls';
 * export const urlpatterns = [
 *   ...staticfilesUrlpatterns(),
 *   path('api-auth/', include(apiAuthUrls)),   // namespace 'api_framework'
 * ];
 *
 * The namespace is `api_framework` (the original's `rest_framework`): `api_framework:login`,
 * `api_framework:logout`.
 */
import { path, type UrlPattern } from '../../lib/core/urls';
import { loginView, logoutView } from './views';

/** The application namespace of these patterns. */
export const appName = 'api_framework';

/** `login/` and `logout/`. */
export const urlpatterns: UrlPattern[] = [
  path('login/', loginView, { name: 'login' }),
  path('logout/', logoutView, { name: 'logout' }),
];
