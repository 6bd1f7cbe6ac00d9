/**
 * The authentication backends of `settings.AUTHENTICATION_BACKENDS`, loaded by dotted path and
 * cached per setting value. Kept apart from `backends.ts` so models can ask backends about
 * permissions without importing them.
 */
import { settings, onSettingChanged, ImproperlyConfigured } from '../../lib/core/conf';
import type { HttpRequest } from '../../lib/core/http';
import { importString, registerAlias } from '../../lib/core/modules';

/** Credentials passed to `authenticate()`: `{ username, password }`, `{ remoteUser }` ... */
export type Credentials = Record<string, unknown>;

/**
 * What an authentication backend may implement. `authenticate` returns the user, or null when
 * the credentials are not for this backend or are wrong; throw `PermissionDenied` to stop
 * trying the following backends.
 */
export interface AuthBackend {
  authenticate?(request: HttpRequest | null, credentials: Credentials): Promise<object | null> | object | null;
  /** The user with this primary key, or null (used to restore the user of a session). */
  getUser?(userId: unknown): Promise<object | null>;
  getUserPermissions?(user: object, obj?: unknown): Promise<Set<string>>;
  getGroupPermissions?(user: object, obj?: unknown): Promise<Set<string>>;
  getAllPermissions?(user: object, obj?: unknown): Promise<Set<string>>;
  hasPerm?(user: object, perm: string, obj?: unknown): Promise<boolean>;
  hasModulePerms?(user: object, appLabel: string): Promise<boolean>;
}

type BackendClass = new () => AuthBackend;

/**
 * The host framework's dotted paths of the backends this app re-creates. Sessions written by
 * the original store `_auth_user_backend = 'django.contrib.auth.backends.ModelBackend'`, and a
 * ported settings module may list these paths in `AUTHENTICATION_BACKENDS`: both resolve here.
 */
export const DJANGO_BACKEND_PATHS: ReadonlyMap<string, string> = new Map(
  ['ModelBackend', 'AllowAllUsersModelBackend', 'RemoteUserBackend', 'AllowAllUsersRemoteUserBackend'].map(
    (name): [string, string] => [`django.contrib.auth.backends.${name}`, `contrib.auth.backends.${name}`],
  ),
);

for (const [djangoPath, ours] of DJANGO_BACKEND_PATHS) registerAlias(djangoPath, ours);

/** The path `path` stands for: ours for a host-framework backend path, else `path` itself. */
export function canonicalBackendPath(path: string): string {
  return DJANGO_BACKEND_PATHS.get(path) ?? path;
}

let cache: { key: string; backends: Array<[AuthBackend, string]> } | null = null;

onSettingChanged((key) => {
  if (key === 'AUTHENTICATION_BACKENDS') cache = null;
});

/** Instantiate the backend class at `path` (a dotted path such as `contrib.auth.backends.ModelBackend`). */
export function loadBackend(path: string): AuthBackend {
  const Cls = importString<BackendClass>(path, 'AUTHENTICATION_BACKENDS');
  return new Cls();
}

/** `[backend, dottedPath]` for every configured backend, in order. */
export function getBackendsWithPaths(): Array<[AuthBackend, string]> {
  const paths = settings.AUTHENTICATION_BACKENDS;
  const key = paths.join(',');
  if (cache && cache.key === key) return cache.backends;
  const backends = paths.map((path): [AuthBackend, string] => [loadBackend(path), path]);
  if (backends.length === 0) {
    throw new ImproperlyConfigured('No authentication backends have been defined. Does AUTHENTICATION_BACKENDS contain anything?');
  }
  cache = { key, backends };
  return backends;
}

/** The configured backend instances, in order. */
export function getBackends(): AuthBackend[] {
  return getBackendsWithPaths().map(([backend]) => backend);
}
