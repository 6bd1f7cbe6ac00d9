/**
 * Token authentication's app: the `Token` model (one key per user), the view that hands a
 * user their token for a username and password, and its serializer.
 *
 * @example
 * import { obtainAuthToken } from 'contrib/authtoken';
 * export const urlpatterns = [path('api-token-auth/', obtainAuthToken)];
 */
export { Token } from './models';
export { AuthTokenSerializer } from './serializers';
export { ObtainAuthToken, obtainAuthToken } from './views';
