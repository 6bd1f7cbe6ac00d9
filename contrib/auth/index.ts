/**
 * The authentication API: `authenticate()` checks credentials through the configured backends,
 * `login()`/`logout()` bind a user to the session, `getUser()` restores it, and the password
 * helpers hash and verify in the host framework's format.
 *
 *     const user = await authenticate(request, { username, password });
 *     if (user) await login(request, user);
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `User` (`auth_user`), `Group`, `Permission`, `ContentType` (`contrib/auth/models.ts`);
 *   `AnonymousUser` (`anonymous.ts`). Both implement `AuthUser` from `lib/core/http.ts`; the
 *   permission methods are async: `await user.hasPerm('auth.add_user', obj?)`, `hasPerms`,
 *   `hasModulePerms`, `getAllPermissions()` / `getUserPermissions()` / `getGroupPermissions()`
 *   (Sets of `app_label.codename`, cached per user instance; `refreshFromDb()` clears them).
 * - `User.objects` is a `UserManager`: `createUser(username, email?, password?, extra?)`,
 *   `createSuperuser(...)`, `getByNaturalKey(username)`. Passwords: `await user.setPassword(raw)`,
 *   `await user.checkPassword(raw)` (re-hashes and saves outdated hashes), `setUnusablePassword()`,
 *   `hasUsablePassword()`, `getSessionAuthHash()`. Relations: `groups`, `user_permissions`
 *   (belongsToMany through `UserGroup` / `UserPermission`; `Group.permissions` through
 *   `GroupPermission`); reverse query names are Django's (`Permission` `user`/`group`,
 *   `Group` `user`). `User.usernameValidator` is the `UnicodeUsernameValidator`.
 * - `contrib/auth` (index.ts): `authenticate(request | null, credentials)` (credentials
 *   `{ username, password }` for `ModelBackend`, `{ remoteUser }` for `RemoteUserBackend`) ->
 *   `AuthUser | null`; `login(request, user, backend?)` (needs `request.session`; cycles the key,
 *   stores `_auth_user_id`/`_auth_user_backend`/`_auth_user_hash`, rotates the CSRF token),
 *   `logout(request)`, `getUser(request)`, `updateSessionAuthHash(request, user)`,
 *   `getUserModel()`, signals `userLoggedIn`/`userLoggedOut`/`userLoginFailed`, and re-exports of
 *   `makePassword`, `checkPassword`, `identifyHasher`, `isPasswordUsable`.
 * - Django's backend paths (`django.contrib.auth.backends.ModelBackend`, ...) are aliases of ours
 *   (`DJANGO_BACKEND_PATHS` in `backendRegistry.ts`): sessions written by the original keep their
 *   user, and `AUTHENTICATION_BACKENDS` may name them.
 * - Backends (`backends.ts`): `ModelBackend`, `AllowAllUsersModelBackend`, `RemoteUserBackend`
 *   (`createUnknownUser = true`, `cleanUsername()`, `configureUser()`),
 *   `AllowAllUsersRemoteUserBackend`. Middleware (`middleware.ts`): `AuthenticationMiddleware`
 *   (awaits the user before the view, then exposes it through a `request.user` getter that marks
 *   the session accessed only when read, as Django's lazy user: no `Vary: Cookie` on answers that
 *   never looked at the session user), `RemoteUserMiddleware` (`header`, `forceLogoutIfNoHeader`),
 *   `PersistentRemoteUserMiddleware`.
 * - The content-type table is migrated by `auth.0001_initial` (the migration runner records one
 *   label per app, so there is no separate `contenttypes` app); a Django database already has
 *   that row. `AppConfig.postMigrate` of auth creates content types and the default
 *   add/change/delete/view permissions of every installed model (idempotent); models with
 *   `static autoCreated = true` (join tables) are skipped.
 */
import { settings, ImproperlyConfigured } from '../../lib/core/conf';
import { apps } from '../../lib/core/apps';
import type { AuthUser, HttpRequest } from '../../lib/core/http';
import { constantTimeCompare } from '../../lib/core/signing';
import { rotateToken } from '../../lib/core/middleware/csrf';
import type { SessionBase } from '../sessions/backends/base';
import { AnonymousUser } from './anonymous';
import { canonicalBackendPath, getBackendsWithPaths, type Credentials } from './backendRegistry';
import { User } from './models';
import { isModelClass } from '../../lib/core/db/modelClass';
import { userLoggedIn, userLoggedOut, userLoginFailed } from './signals';

export { makePassword, checkPassword, identifyHasher, isPasswordUsable, getHasher, getHashers } from './hashers';
export { AnonymousUser } from './anonymous';
export { User, Group, Permission, ContentType, UserManager } from './models';
export { loadBackend, getBackends, type AuthBackend, type Credentials } from './backendRegistry';
export { userLoggedIn, userLoggedOut, userLoginFailed } from './signals';

/** Session key of the logged-in user's primary key. */
export const SESSION_KEY = '_auth_user_id';
/** Session key of the dotted path of the backend that authenticated the user. */
export const BACKEND_SESSION_KEY = '_auth_user_backend';
/** Session key of the user's session auth hash (see `User.getSessionAuthHash()`). */
export const HASH_SESSION_KEY = '_auth_user_hash';
/** Query parameter carrying the page to go to after login. */
export const REDIRECT_FIELD_NAME = 'next';

const backendOfUser = new WeakMap<object, string>();

/** The dotted path of the backend that authenticated `user` (set by `authenticate()`). */
export function userBackend(user: object): string | undefined {
  return backendOfUser.get(user);
}

/** Record which backend authenticated `user` (for `login()` without `backend`). */
export function setUserBackend(user: object, backendPath: string): void {
  backendOfUser.set(user, backendPath);
}

const SENSITIVE = /api|token|key|secret|password|signature/i;
const SUBSTITUTE = '********************';

function cleanCredentials(credentials: Credentials): Credentials {
  const out: Credentials = {};
  for (const [key, value] of Object.entries(credentials)) out[key] = SENSITIVE.test(key) ? SUBSTITUTE : value;
  return out;
}

/**
 * Try each backend of `AUTHENTICATION_BACKENDS` in turn and return the first user one of them
 * accepts, or null (then `userLoginFailed` is sent). A backend throwing `PermissionDenied` stops
 * the search.
 */
export async function authenticate(request: HttpRequest | null, credentials: Credentials): Promise<AuthUser | null> {
  for (const [backend, path] of getBackendsWithPaths()) {
    if (typeof backend.authenticate !== 'function') continue;
    let user: object | null;
    try {
      user = await backend.authenticate(request, credentials);
    } catch (error) {
      if ((error as Error).name === 'PermissionDenied') break;
      throw error;
    }
    if (!user) continue;
    setUserBackend(user, path);
    return user as AuthUser;
  }
  await userLoginFailed.send('contrib.auth', { credentials: cleanCredentials(credentials), request });
  return null;
}

function sessionOf(request: HttpRequest): SessionBase {
  if (!request.session) {
    throw new ImproperlyConfigured(
      'The authentication API needs request.session: add contrib.sessions.middleware.SessionMiddleware to MIDDLEWARE.',
    );
  }
  return request.session;
}

interface SessionUser {
  pk: unknown;
  getSessionAuthHash?: () => string;
}

function sessionHashOf(user: object): string {
  const fn = (user as SessionUser).getSessionAuthHash;
  return typeof fn === 'function' ? fn.call(user) : '';
}

/**
 * Remember `user` in the session: a new session key (no fixation), the user's id, backend and
 * session auth hash, and a new CSRF token. `backend` defaults to the one that authenticated the
 * user, or the only configured one.
 */
export async function login(request: HttpRequest, user: AuthUser, backend?: string): Promise<void> {
  const session = sessionOf(request);
  const hash = sessionHashOf(user);
  const pk = String((user as SessionUser).pk);
  if (session.has(SESSION_KEY)) {
    const stored = session.get<string>(HASH_SESSION_KEY, '') ?? '';
    if (String(session.get(SESSION_KEY)) !== pk || (hash && !constantTimeCompare(stored, hash))) {
      // Another user (or another password) was logged in: start from an empty session.
      await session.flush();
    }
  } else {
    await session.cycleKey();
  }
  let backendPath = backend ?? userBackend(user);
  if (!backendPath) {
    const backends = getBackendsWithPaths();
    if (backends.length !== 1) {
      throw new TypeError(
        'You have multiple authentication backends configured and therefore must provide the `backend` argument or set the `backend` attribute on the user.',
      );
    }
    backendPath = backends[0][1];
  }
  session.set(SESSION_KEY, pk);
  session.set(BACKEND_SESSION_KEY, backendPath);
  session.set(HASH_SESSION_KEY, hash);
  request.user = user;
  rotateToken(request);
  await userLoggedIn.send(user.constructor, { request, user });
}

/** Log the user out: send `userLoggedOut`, flush the session, make `request.user` anonymous. */
export async function logout(request: HttpRequest): Promise<void> {
  const current = request.user;
  const user = current && current.isAuthenticated ? current : null;
  await userLoggedOut.send(user ? user.constructor : null, { request, user });
  if (request.session) await request.session.flush();
  request.user = new AnonymousUser();
}

/**
 * The user the session belongs to, or an `AnonymousUser`. A session whose stored hash no longer
 * matches the user's (the password changed) is flushed.
 */
export async function getUser(request: HttpRequest): Promise<AuthUser> {
  const session = request.session;
  if (!session) return new AnonymousUser();
  const userId = session.get<unknown>(SESSION_KEY);
  const backendPath = session.get<unknown>(BACKEND_SESSION_KEY);
  if (userId === undefined || typeof backendPath !== 'string') return new AnonymousUser();
  // A session written by the original names Django's path of the same backend.
  const wanted = canonicalBackendPath(backendPath);
  const entry = getBackendsWithPaths().find(([, path]) => canonicalBackendPath(path) === wanted);
  if (!entry || typeof entry[0].getUser !== 'function') return new AnonymousUser();
  let user = (await entry[0].getUser(userId)) as AuthUser | null;
  if (user && typeof (user as SessionUser).getSessionAuthHash === 'function') {
    const stored = session.get<unknown>(HASH_SESSION_KEY);
    const verified = typeof stored === 'string' && stored !== '' && constantTimeCompare(stored, sessionHashOf(user));
    if (!verified) {
      await session.flush();
      user = null;
    }
  }
  if (user) setUserBackend(user, backendPath);
  return user ?? new AnonymousUser();
}

/**
 * Keep the current session valid after `user` changed their password (otherwise the new hash
 * would log them out): cycle the key and store the new hash.
 */
export async function updateSessionAuthHash(request: HttpRequest, user: AuthUser): Promise<void> {
  const session = sessionOf(request);
  await session.cycleKey();
  if (request.user && String(request.user.pk) === String(user.pk)) session.set(HASH_SESSION_KEY, sessionHashOf(user));
}

/**
 * True for a user model: a model class whose users check passwords (`User`, or a project's
 * model standing in for it through AUTH_USER_MODEL).
 */
function isUserModel(model: unknown): model is typeof User {
  return isModelClass(model) && (model === User || typeof Reflect.get(model.prototype, 'checkPassword') === 'function');
}

/** The user model named by `AUTH_USER_MODEL` (`auth.User` by default). */
export function getUserModel(): typeof User {
  const name = settings.AUTH_USER_MODEL;
  const dot = name.indexOf('.');
  if (dot <= 0 || name.indexOf('.', dot + 1) >= 0) {
    throw new ImproperlyConfigured("AUTH_USER_MODEL must be of the form 'app_label.model_name'");
  }
  const appLabel = name.slice(0, dot);
  const modelName = name.slice(dot + 1).toLowerCase();
  for (const model of apps.getModels()) {
    if (isUserModel(model) && model.meta.appLabel === appLabel && model.name.toLowerCase() === modelName) return model;
  }
  throw new ImproperlyConfigured(`AUTH_USER_MODEL refers to model '${name}' that has not been installed`);
}

/** `userLoggedIn` receiver: store the login time (connected by the auth app). */
export async function updateLastLogin({ user }: { user: object | null }): Promise<void> {
  if (!(user instanceof User)) return;
  user.last_login = new Date();
  await user.save({ fields: ['last_login'] });
}
