/**
 * `AnonymousUser`: what `request.user` is when nobody is logged in. It has the user interface
 * (so views can ask `request.user.isAuthenticated`) but no row and no rights of its own.
 */
import type { AuthUser } from '../../lib/core/http';
import { userHasModulePerms, userHasPerm } from './models';
import { getBackends } from './backendRegistry';

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

  private async collect(kind: 'getUserPermissions' | 'getGroupPermissions' | 'getAllPermissions', obj?: unknown): Promise<Set<string>> {
    const out = new Set<string>();
    for (const backend of getBackends()) {
      const method = backend[kind];
      if (typeof method !== 'function') continue;
      for (const perm of await method.call(backend, this, obj)) out.add(perm);
    }
    return out;
  }

  /** Permissions custom backends grant to anonymous users (none with ModelBackend). */
  getUserPermissions(obj?: unknown): Promise<Set<string>> {
    return this.collect('getUserPermissions', obj);
  }

  /** Group permissions of anonymous users (none with ModelBackend). */
  getGroupPermissions(obj?: unknown): Promise<Set<string>> {
    return this.collect('getGroupPermissions', obj);
  }

  /** Every permission custom backends grant to anonymous users. */
  getAllPermissions(obj?: unknown): Promise<Set<string>> {
    return this.collect('getAllPermissions', obj);
  }

  /** False unless a custom backend grants the permission to anonymous users. */
  hasPerm(perm: string, obj?: unknown): Promise<boolean> {
    return userHasPerm(this, perm, obj);
  }

  /** True when every permission is granted (never, with ModelBackend). */
  async hasPerms(perms: Iterable<string>, obj?: unknown): Promise<boolean> {
    for (const perm of perms) if (!(await this.hasPerm(perm, obj))) return false;
    return true;
  }

  /** False unless a custom backend grants anonymous users rights in the app. */
  hasModulePerms(appLabel: string): Promise<boolean> {
    return userHasModulePerms(this, appLabel);
  }
}
