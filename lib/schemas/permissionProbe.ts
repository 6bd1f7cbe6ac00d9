/**
 * Asking a view's permissions, without a real request, whether they can refuse an operation:
 * schema generation calls `hasPermission()` (and `hasObjectPermission()`) with stand-in
 * requests of an anonymous user and of an authenticated, non-staff user without rights, to
 * decide which operations document 401/403 responses and which accept anonymous callers.
 */
import type { AuthUser } from '../core/http';

/** The stand-in request a permission sees: the method, the user, no authentication. */
export interface ProbeRequest {
  method: string;
  user: AuthUser;
  auth: null;
  authenticators: never[];
  successfulAuthenticator: null;
  queryParams: Map<string, string>;
  data: Record<string, never>;
}

function probeUser(authenticated: boolean): AuthUser {
  return {
    pk: authenticated ? -1 : null,
    id: authenticated ? -1 : null,
    username: authenticated ? 'schema-probe' : '',
    is_active: authenticated,
    is_staff: false,
    is_superuser: false,
    isAuthenticated: authenticated,
    isAnonymous: !authenticated,
    hasPerm: () => false,
    hasPerms: () => false,
  };
}

/** A stand-in request of `method` from an anonymous user. */
export function anonymousRequest(method: string): ProbeRequest {
  return { method: method.toUpperCase(), user: probeUser(false), auth: null, authenticators: [], successfulAuthenticator: null, queryParams: new Map(), data: {} };
}

/** A stand-in request of `method` from a logged-in user who is not staff and holds no permissions. */
export function authenticatedRequest(method: string): ProbeRequest {
  return { ...anonymousRequest(method), user: probeUser(true) };
}

/**
 * True when the permission check may refuse: it answered false, threw, or answered
 * asynchronously (the answer cannot be known while a document is being built).
 */
export function denies(check: () => unknown): boolean {
  try {
    const answer = check();
    if (answer !== null && typeof answer === 'object' && typeof (answer as { then?: unknown }).then === 'function') {
      (answer as Promise<unknown>).catch(() => undefined);
      return true;
    }
    return !answer;
  } catch {
    return true;
  }
}
