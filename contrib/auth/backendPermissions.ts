/**
 * Permission questions asked of every configured authentication backend: the code `User` and
 * `AnonymousUser` share for `getAllPermissions()`, `hasPerm()`, `hasPerms()` and
 * `hasModulePerms()`. A backend that does not implement a question is skipped.
 */
import { getBackends, type AuthBackend } from './backendRegistry';

/** The backend methods that return a set of permission strings. */
export type PermissionSetKind = 'getUserPermissions' | 'getGroupPermissions' | 'getAllPermissions';

/** The union of the permission strings (`app_label.codename`) every backend gives `user`. */
export async function collectBackendPermissions(user: object, kind: PermissionSetKind, obj?: unknown): Promise<Set<string>> {
  const out = new Set<string>();
  for (const backend of getBackends()) {
    const method = backend[kind] as AuthBackend[PermissionSetKind];
    if (typeof method !== 'function') continue;
    for (const perm of await method.call(backend, user, obj)) out.add(perm);
  }
  return out;
}

/**
 * True as soon as one backend answers yes; a backend throwing `PermissionDenied` answers no for
 * all of them.
 */
async function anyBackendGrants(ask: (backend: AuthBackend) => Promise<boolean> | undefined): Promise<boolean> {
  for (const backend of getBackends()) {
    try {
      if (await ask(backend)) return true;
    } catch (error) {
      if ((error as Error).name === 'PermissionDenied') return false;
      throw error;
    }
  }
  return false;
}

/** Ask each backend whether `user` has `perm`; a backend throwing `PermissionDenied` stops the search. */
export function userHasPerm(user: object, perm: string, obj?: unknown): Promise<boolean> {
  return anyBackendGrants((backend) => backend.hasPerm?.(user, perm, obj));
}

/** Ask each backend whether `user` has any permission in the app `appLabel`. */
export function userHasModulePerms(user: object, appLabel: string): Promise<boolean> {
  return anyBackendGrants((backend) => backend.hasModulePerms?.(user, appLabel));
}

/** True when `hasPerm(perm)` holds for every permission in `perms` (asked in order, stopping at a no). */
export async function hasEveryPerm(
  hasPerm: (perm: string) => Promise<boolean>,
  perms: Iterable<string>,
): Promise<boolean> {
  for (const perm of perms) if (!(await hasPerm(perm))) return false;
  return true;
}
