/**
 * Authentication backends: `ModelBackend` checks a username and password against `auth_user`
 * and answers permission questions from the permission tables; `RemoteUserBackend` trusts the
 * user name a front-end web server put in `REMOTE_USER`.
 */
import type { HttpRequest } from '../../lib/core/http';
import { ObjectDoesNotExist, Q } from '../../lib/core/db';
import type { AuthBackend, Credentials } from './backendRegistry';
import { Permission, User, type PermissionCaches } from './models';

interface PermUser {
  id?: unknown;
  is_active?: boolean;
  is_superuser?: boolean;
  isAnonymous?: boolean;
  permCaches?: PermissionCaches;
}

function asPermUser(user: object): PermUser {
  return user as PermUser;
}

function permStrings(perms: Permission[]): Set<string> {
  return new Set(perms.map((p) => `${p.content_type?.app_label ?? ''}.${p.codename}`));
}

/**
 * Authenticate against the user table with a username and password, and grant the permissions
 * stored for users and their groups. Subclass it and override `userCanAuthenticate()` to
 * change who may log in.
 */
export class ModelBackend implements AuthBackend {
  /** Return the user when the username and password match and the user may log in. */
  async authenticate(_request: HttpRequest | null, credentials: Credentials): Promise<User | null> {
    let username = credentials.username;
    if (username === undefined || username === null) username = credentials[User.USERNAME_FIELD];
    const password = credentials.password;
    if (typeof username !== 'string' || typeof password !== 'string') return null;
    let user: User;
    try {
      user = await User.objects.getByNaturalKey(username);
    } catch (error) {
      if (!(error instanceof ObjectDoesNotExist)) throw error;
      // Run the hasher once anyway so unknown usernames take as long as wrong passwords.
      await User.build({}).setPassword(password);
      return null;
    }
    if ((await user.checkPassword(password)) && this.userCanAuthenticate(user)) return user;
    return null;
  }

  /** Refuse inactive users (users without an `is_active` field are allowed). */
  userCanAuthenticate(user: object | null): boolean {
    if (!user) return false;
    const isActive = asPermUser(user).is_active;
    return isActive === undefined || isActive === null || Boolean(isActive);
  }

  /** The user with this primary key when they may log in, else null. */
  async getUser(userId: unknown): Promise<User | null> {
    const user = await User.objects.filter(new Q({ pk: userId })).first();
    return user && this.userCanAuthenticate(user) ? user : null;
  }

  /** Permissions given to the user directly (query; override to change the source). */
  protected async loadUserPermissions(user: PermUser): Promise<Set<string>> {
    return permStrings(await Permission.objects.filter(new Q({ user__id: user.id })).selectRelated('content_type').fetch());
  }

  /** Permissions the user has through groups (query; override to change the source). */
  protected async loadGroupPermissions(user: PermUser): Promise<Set<string>> {
    return permStrings(await Permission.objects.filter(new Q({ group__user__id: user.id })).selectRelated('content_type').fetch());
  }

  private async permissions(userObj: object, obj: unknown, from: 'user' | 'group'): Promise<Set<string>> {
    const user = asPermUser(userObj);
    if (!user.is_active || user.isAnonymous || (obj !== undefined && obj !== null)) return new Set();
    const caches = (user.permCaches ??= {});
    let perms = caches[from];
    if (!perms) {
      if (user.is_superuser) {
        perms = permStrings(await Permission.objects.all().selectRelated('content_type').fetch());
      } else {
        perms = from === 'user' ? await this.loadUserPermissions(user) : await this.loadGroupPermissions(user);
      }
      caches[from] = perms;
    }
    return perms;
  }

  /** `app_label.codename` strings granted to the user directly (cached on the user). */
  getUserPermissions(user: object, obj?: unknown): Promise<Set<string>> {
    return this.permissions(user, obj, 'user');
  }

  /** `app_label.codename` strings granted through the user's groups (cached on the user). */
  getGroupPermissions(user: object, obj?: unknown): Promise<Set<string>> {
    return this.permissions(user, obj, 'group');
  }

  /** Every permission string of the user; none for inactive or anonymous users or objects. */
  async getAllPermissions(userObj: object, obj?: unknown): Promise<Set<string>> {
    const user = asPermUser(userObj);
    if (!user.is_active || user.isAnonymous || (obj !== undefined && obj !== null)) return new Set();
    const caches = (user.permCaches ??= {});
    if (!caches.all) {
      caches.all = new Set([...(await this.getUserPermissions(userObj)), ...(await this.getGroupPermissions(userObj))]);
    }
    return caches.all;
  }

  /** True for active users holding `perm`. */
  async hasPerm(userObj: object, perm: string, obj?: unknown): Promise<boolean> {
    return Boolean(asPermUser(userObj).is_active) && (await this.getAllPermissions(userObj, obj)).has(perm);
  }

  /** True for active users holding any permission of the app. */
  async hasModulePerms(userObj: object, appLabel: string): Promise<boolean> {
    if (!asPermUser(userObj).is_active) return false;
    for (const perm of await this.getAllPermissions(userObj)) {
      if (perm.slice(0, perm.indexOf('.')) === appLabel) return true;
    }
    return false;
  }
}

/** Like `ModelBackend`, but inactive users may authenticate (the check is left to views). */
export class AllowAllUsersModelBackend extends ModelBackend {
  override userCanAuthenticate(user: object | null): boolean {
    return user !== null;
  }
}

/**
 * Trust the user name in `REMOTE_USER` (set by a front-end web server that authenticated the
 * visitor). Unknown users are created unless `createUnknownUser` is false; override
 * `cleanUsername()` to map the server's names (strip a realm) and `configureUser()` to set up
 * new users.
 */
export class RemoteUserBackend extends ModelBackend {
  /** Create a user row for names seen for the first time. */
  createUnknownUser = true;

  /** Authenticate `credentials.remoteUser` (also accepted: `remote_user`). */
  override async authenticate(request: HttpRequest | null, credentials: Credentials): Promise<User | null> {
    const remoteUser = credentials.remoteUser ?? credentials.remote_user;
    if (typeof remoteUser !== 'string' || !remoteUser) return null;
    const username = this.cleanUsername(remoteUser);
    let user: User | null = null;
    if (this.createUnknownUser) {
      const [found, created] = await User.objects.getOrCreate({ [User.USERNAME_FIELD]: username });
      user = created ? await this.configureUser(request, found, created) : found;
    } else {
      user = await User.objects.filter({ [User.USERNAME_FIELD]: username }).first();
    }
    return this.userCanAuthenticate(user) ? user : null;
  }

  /** Turn the server's user name into a username (identity by default). */
  cleanUsername(username: string): string {
    return username;
  }

  /** Set up a newly created user (nothing by default); return it. */
  async configureUser(_request: HttpRequest | null, user: User, _created = true): Promise<User> {
    return user;
  }
}

/** `RemoteUserBackend` that also lets inactive users in. */
export class AllowAllUsersRemoteUserBackend extends RemoteUserBackend {
  override userCanAuthenticate(user: object | null): boolean {
    return user !== null;
  }
}
