/**
 * The user as the host layer sees it: the `AuthUser` interface `request.user` holds and the
 * `anonymousUser` every request starts with.
 */

/**
 * What the host layer knows about a user: implemented by `contrib/auth`'s `User` and
 * `AnonymousUser`. `request.user` always holds one.
 */
export interface AuthUser {
  pk: number | string | null;
  id: number | string | null;
  username: string;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  readonly isAuthenticated: boolean;
  readonly isAnonymous: boolean;
  /** True when the user has the permission `app_label.codename` (on `obj`, if given). */
  hasPerm(perm: string, obj?: unknown): boolean | Promise<boolean>;
  /** True when the user has every permission listed. */
  hasPerms(perms: Iterable<string>, obj?: unknown): boolean | Promise<boolean>;
}

/** The anonymous user the host layer puts on every request until authentication replaces it. */
export const anonymousUser: AuthUser = Object.freeze({
  pk: null,
  id: null,
  username: '',
  is_active: false,
  is_staff: false,
  is_superuser: false,
  isAuthenticated: false,
  isAnonymous: true,
  hasPerm: () => false,
  hasPerms: (perms: Iterable<string>) => [...perms].length === 0,
  toString: () => 'AnonymousUser',
});
