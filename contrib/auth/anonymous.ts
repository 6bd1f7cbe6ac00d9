/**
 * `AnonymousUser`: what `request.user` is when nobody is logged in. It has the user interface
 * (so views can ask `request.user.isAuthenticated`) but no row and no rights of its own.
 */
import type { AuthUser } from '../../lib/core/http';
import { collectBackendPermissions, hasEveryPerm, userHasModulePerms, userHasPerm } from './backendPermissions';

const NO_DB = "Django doesn't provide a DB representation for AnonymousUser.";

/** The user of requests without a (valid) login. */
export class AnonymousUser implements AuthUser {
  readonly id = null;
  readonly pk = null;
  readonly username = '';
  readonly is_staff = false;
  readonly is_active = false;
  readonly is_superuser = false;
  /** No groups. */
  readonly groups: readonly never[] = [];
  /** No direct permissions. */
  readonly user_permissions: readonly never[] = [];

  /** Always false. */
  get isAuthenticated(): boolean {
    return false;
  }

  /** Always true. */
  get isAnonymous(): boolean {
    return true;
  }

  /** The empty username. */
  getUsername(): string {
    return this.username;
  }

  toString(): string {
    return 'AnonymousUser';
  }

  /** Any two anonymous users are equal. */
  equals(other: unknown): boolean {
    return other instanceof AnonymousUser;
  }

  /** Not stored: always throws. */
  async save(): Promise<never> {
    throw new Error(NO_DB);
  }

  /** Not stored: always throws. */
  async destroy(): Promise<never> {
    throw new Error(NO_DB);
  }

  /** Not stored: always throws. */
  async setPassword(_raw: string): Promise<never> {
    throw new Error(NO_DB);
  }

  /** Not stored: always throws. */
  async checkPassword(_raw: string): Promise<never> {
    throw new Error(NO_DB);
  }

  /** Permissions custom backends grant to anonymous users (none with ModelBackend). */
  getUserPermissions(obj?: unknown): Promise<Set<string>> {
    return collectBackendPermissions(this, 'getUserPermissions', obj);
  }

  /** Group permissions of anonymous users (none with ModelBackend). */
  getGroupPermissions(obj?: unknown): Promise<Set<string>> {
    return collectBackendPermissions(this, 'getGroupPermissions', obj);
  }

  /** Every permission custom backends grant to anonymous users. */
  getAllPermissions(obj?: unknown): Promise<Set<string>> {
    return collectBackendPermissions(this, 'getAllPermissions', obj);
  }

  /** False unless a custom backend grants the permission to anonymous users. */
  hasPerm(perm: string, obj?: unknown): Promise<boolean> {
    return userHasPerm(this, perm, obj);
  }

  /** True when every permission is granted (never, with ModelBackend). */
  hasPerms(perms: Iterable<string>, obj?: unknown): Promise<boolean> {
    return hasEveryPerm((perm) => this.hasPerm(perm, obj), perms);
  }

  /** False unless a custom backend grants anonymous users rights in the app. */
  hasModulePerms(appLabel: string): Promise<boolean> {
    return userHasModulePerms(this, appLabel);
  }
}
