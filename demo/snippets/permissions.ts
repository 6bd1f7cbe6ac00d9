/**
 * The tutorial's custom object-level permission.
 */
import { permissions, type Request, type APIView } from 'api_framework';
import type { Snippet } from './models';

/**
 * Custom permission to only allow owners of an object to edit it.
 */
export class IsOwnerOrReadOnly extends permissions.BasePermission {
  /** Reads are allowed to anyone; writes only to the snippet's owner. */
  override hasObjectPermission(request: Request, _view: APIView, obj: Snippet): boolean {
    // Read permissions are allowed to any request,
    // so we'll always allow GET, HEAD or OPTIONS requests.
    if (permissions.SAFE_METHODS.includes(request.method)) return true;

    // Write permissions are only allowed to the owner of the snippet.
    const user = request.user;
    return user !== null && user.isAuthenticated && obj.owner_id === user.pk;
  }
}
