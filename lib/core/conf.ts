/**
 * Project settings: one settings module per project, chosen by the environment variable
 * `SETTINGS_MODULE` (default: the demo's), merged over the host layer's defaults.
 *
 * Read settings at call time (`settings.DEBUG`), never capture them at import time, so that
 * `overrideSettings()` in tests takes effect everywhere.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `settings` is the live project settings object: `settings.DEBUG`, `settings.SECRET_KEY`,
 *   `settings.API_FRAMEWORK`, ... typed by `ProjectSettings`, a closed type (a doc comment per key;
 *   `API_FRAMEWORK` is `ApiFrameworkSettings` from lib/settings.ts). A new setting is declared
 *   there; a project's own keys go on `ProjectSettingsExtension` (declaration merging). Code that
 *   gets a setting's name at run time reads it with `readSetting(name)`.
 * - `setupSettings(moduleName?)` loads the settings module named by env `SETTINGS_MODULE`
 *   (default `demo/settings`) once (`manage.ts`, `spec/setup.ts` and `bench/run.ts` call it);
 *   `configureSettings(values)` installs values over `DEFAULT_SETTINGS` directly. Both let env
 *   `DATABASE_URL`, `DATABASE_REPLICA_URLS` (comma-separated) and `CACHE_URL` win, and refuse an
 *   empty `SECRET_KEY` unless `DEBUG` (then a development key and a warning).
 * - `overrideSettings(values, fn)` runs `fn` (sync or async) with some keys replaced and
 *   restores them afterwards; `overrideSettings.enter(values)` returns a `restore()` function
 *   for suites that override in `before`/`after`.
 * - `onSettingChanged((key) => void)` registers a listener, called per changed key (the API
 *   settings, URL conf, handler, database connection, cache, hashers and templates reset through
 *   it); it returns an unsubscribe function.
 * - Two roots. `FRAMEWORK_ROOT` is the framework's code (the repository under ts-node, `dist/`
 *   compiled, also inside `node_modules/api_framework`): its apps, templates, static files and
 *   catalogs are read from there (`npm run build` copies non-.ts files of lib/ and contrib/ into
 *   `dist/`). The project: `SOURCE_ROOT` is where the project's modules load from (the folder of
 *   its manage.ts, set by `executeFromCommandLine(argv, { projectDir: __dirname })` /
 *   `setProjectRoot()`, else env `API_FRAMEWORK_PROJECT_ROOT`, else the working directory;
 *   `dist/` when running `node dist/manage.js`); `PROJECT_ROOT` is the folder with its
 *   package.json (data files: `sqlite:db.sqlite3`, `TEMPLATE_DIRS`, `STATICFILES_DIRS`). Both are
 *   `let` exports: read them at call time. `FRAMEWORK_PACKAGE_ROOT` holds the framework's
 *   package.json (version).
 * - `importString('api_framework.renderers.JSONRenderer')` resolves a dotted path
 *   (`lib/core/modules.ts`). Framework prefixes, under `FRAMEWORK_ROOT`:
 *   `api_framework.contrib.` -> `contrib/`, `api_framework.authtoken.` / `.browsable.` ->
 *   `contrib/authtoken/` / `contrib/browsable/` (the original's names), `api_framework.` ->
 *   `lib/` (`api_framework.core.security.SecurityMiddleware`), and the older aliases `contrib.`
 *   and `lib.`; every other path is a project module under `SOURCE_ROOT`. A missing module
 *   throws `ModuleNotFound` naming the file looked for. `canonicalModulePath()` gives the
 *   `api_framework.*` spelling; compare app names through it. Aliases of single names are
 *   registered with `registerAlias(path, target)` (`api_framework.renderers.BrowsableAPIRenderer`;
 *   Django's auth backend paths).
 * - Public entry points (`lib/core/entryPoints.ts`; package.json `exports`/`typesVersions` and
 *   tsconfig `paths` list the same, spec/core/startproject checks it): `api_framework`,
 *   `api_framework/db`, `api_framework/test`, `api_framework/management`,
 *   `api_framework/contrib/<app>`. `lib/core/selfReference.ts` (loaded by conf) makes these
 *   names resolve to the running copy of the framework, so the demo imports only them. The
 *   repository's `manage.ts` imports `./lib/core/commandLine` because it is what loads conf.
 */
import fs from 'node:fs';
import path from 'node:path';
import './selfReference';
import type { PasswordValidatorConfig } from '../../contrib/auth/passwordValidation';
import type { ApiFrameworkSettings } from '../settings';
import type { MiddlewareClass } from './middleware';

/**
 * Keys a project adds to its settings, declared by declaration merging so they are typed
 * wherever `settings` is read (and a misspelt one still fails to compile):
 *
 *     declare module 'api_framework' {
 *       interface ProjectSettingsExtension {
 *         // Where invoices are archived.
 *         INVOICE_ARCHIVE_DIR?: string;
 *       }
 *     }
 *
 * Empty in the framework; every key of `ProjectSettings` is known without it.
 */
export interface ProjectSettingsExtension {}

/** One entry of `AUTH_PASSWORD_VALIDATORS`: a validator class (or its dotted path) and its options. */
export interface PasswordValidatorSetting {
  /** The validator class or its dotted path, e.g. `api_framework.contrib.auth.passwordValidation.MinimumLengthValidator`. */
  NAME: PasswordValidatorConfig['NAME'];
  /** Keyword options of the validator's constructor, e.g. `{ min_length: 12 }`. */
  OPTIONS?: Record<string, unknown>;
}

/**
 * The project settings: what a project's settings module sets (as `Partial<ProjectSettings>`)
 * and what `settings` holds once the defaults are merged in. A closed type: a key it does not
 * list (`INSTALED_APPS`) fails to compile; a project's own keys are declared on
 * `ProjectSettingsExtension`. Optional keys have no default value: unset, the code that reads
 * them applies Django's default.
 */
export interface ProjectSettings extends ProjectSettingsExtension {
  /** Key for signing sessions, CSRF tokens and cookies; required with DEBUG off (env `SECRET_KEY`). */
  SECRET_KEY: string;
  /** Development mode: technical error pages, the development SECRET_KEY allowed. Never on in production. */
  DEBUG: boolean;
  /** Host names this site may serve; `.example.com` matches the domain and its subdomains. */
  ALLOWED_HOSTS: string[];
  /** Module paths of installed apps, e.g. `api_framework.contrib.auth`, `demo.snippets`. */
  INSTALLED_APPS: string[];
  /** Middleware classes or dotted paths, outermost first. */
  MIDDLEWARE: Array<string | MiddlewareClass>;
  /** Dotted module path of the URL conf (exports `urlpatterns`). */
  ROOT_URLCONF: string;
  /**
   * The database (this framework's `DATABASES['default']`): `sqlite:<file>`, `sqlite::memory:`
   * or `mysql://user:pass@host:port/db`. Env `DATABASE_URL` wins over the module's value.
   */
  DATABASE_URL: string;
  /**
   * Read replicas of a MySQL/MariaDB `DATABASE_URL` (`mysql://...` URLs, default none): reads
   * outside `atomic()` go to them in turn, writes and reads inside `atomic()` to the primary.
   * Env `DATABASE_REPLICA_URLS` (comma-separated) wins over the module's value.
   */
  DATABASE_REPLICA_URLS: string[];
  /**
   * MySQL/MariaDB connection pool (per server role: one pool for the primary, one shared by
   * the replicas): `{ max, min, idle, acquire }`, idle/acquire in ms; unset keys keep the
   * defaults `{ max: 10, min: 0, idle: 10000, acquire: 30000 }`. SQLite ignores it.
   */
  DATABASE_POOL: { max?: number; min?: number; idle?: number; acquire?: number };
  /**
   * Run every view in one transaction (`atomic()`), committed when the view returns and rolled
   * back when it raises, or when the API framework's exception handler answered an error.
   * Views marked with `nonAtomicRequests()` are left out.
   */
  ATOMIC_REQUESTS: boolean;
  /** The cache (this framework's `CACHES['default']`): unset for in-process memory, or `redis://host:port/db`. Env `CACHE_URL` wins. */
  CACHE_URL: string | null;
  /** The default language (`en-us`), used when a request asks for none the project supports. */
  LANGUAGE_CODE: string;
  /** The languages requests may choose, as codes or `[code, name]` pairs; unset: every language with a catalog. */
  LANGUAGES?: Array<string | readonly [string, string]>;
  /** The cookie that carries a chosen language (`django_language`). */
  LANGUAGE_COOKIE_NAME?: string;
  /** Translate messages into the request's language (`Accept-Language`, the language cookie). */
  USE_I18N: boolean;
  /** Numbers (fields with `localize`) read and written in the active language's format. */
  USE_L10N: boolean;
  /** With `USE_L10N`, group thousands when writing localized numbers. */
  USE_THOUSAND_SEPARATOR: boolean;
  /** The decimal separator used when `USE_L10N` is off or a locale leaves it unset. */
  DECIMAL_SEPARATOR: string;
  /** The thousand separator used when `USE_L10N` is off or a locale leaves it unset. */
  THOUSAND_SEPARATOR: string;
  /** Digits per group (or the groups from the right) when thousands are grouped; 0: no grouping. */
  NUMBER_GROUPING: number | number[];
  /** The time zone datetimes are written in (`UTC`). */
  TIME_ZONE: string;
  /** Datetimes are time-zone aware (unset or true); false writes naive datetimes, as Django with `USE_TZ = False`. */
  USE_TZ?: boolean;
  /** Redirect `/path` to `/path/` when only the latter matches a URL pattern (CommonMiddleware). */
  APPEND_SLASH: boolean;
  /** Redirect `example.com` to `www.example.com` (CommonMiddleware). */
  PREPEND_WWW?: boolean;
  /** Maximum request body size held in memory, in bytes (null: unlimited). */
  DATA_UPLOAD_MAX_MEMORY_SIZE: number | null;
  /** Uploaded files larger than this are streamed to a temporary file. */
  FILE_UPLOAD_MAX_MEMORY_SIZE: number;
  /**
   * Bound (bytes) of a whole multipart or file-upload body (files stream to disk, so
   * `DATA_UPLOAD_MAX_MEMORY_SIZE` bounds only the in-memory part: JSON/form bodies and
   * multipart non-file fields). Beyond it: 413. `null` disables the check (leave the bound to
   * a proxy in front, as a Django deployment does).
   */
  FILE_UPLOAD_MAX_SIZE: number | null;
  /** The most fields a form or query string may carry (400 past it); null: unlimited. */
  DATA_UPLOAD_MAX_NUMBER_FIELDS: number | null;
  /** Where uploads larger than `FILE_UPLOAD_MAX_MEMORY_SIZE` are written; null: the system's temporary folder. */
  FILE_UPLOAD_TEMP_DIR: string | null;
  /** Dotted paths of the authentication backends `authenticate()` tries in order. */
  AUTHENTICATION_BACKENDS: string[];
  /** The user model as `app_label.ModelName` (`auth.User`). */
  AUTH_USER_MODEL: string;
  /** The validators `createsuperuser`, `changepassword` and `validatePassword()` apply; unset: none. */
  AUTH_PASSWORD_VALIDATORS?: PasswordValidatorSetting[];
  /** Dotted paths of the password hashers; the first hashes new passwords, all verify. */
  PASSWORD_HASHERS: string[];
  /** Dotted path of the session store module (`contrib.sessions.backends.db`). */
  SESSION_ENGINE: string;
  /** The session cookie's name (`sessionid`). */
  SESSION_COOKIE_NAME: string;
  /** The session cookie's lifetime in seconds (two weeks). */
  SESSION_COOKIE_AGE: number;
  /** Send the session cookie over HTTPS only. */
  SESSION_COOKIE_SECURE: boolean;
  /** Hide the session cookie from scripts. */
  SESSION_COOKIE_HTTPONLY: boolean;
  /** The session cookie's `SameSite` attribute; false: none. */
  SESSION_COOKIE_SAMESITE: 'Lax' | 'Strict' | 'None' | false;
  /** The session cookie's path. */
  SESSION_COOKIE_PATH: string;
  /** The session cookie's domain; null: the request's host only. */
  SESSION_COOKIE_DOMAIN: string | null;
  /** Sessions end when the browser closes (a cookie without expiry). */
  SESSION_EXPIRE_AT_BROWSER_CLOSE: boolean;
  /** Save the session on every request, not only when it changed. */
  SESSION_SAVE_EVERY_REQUEST: boolean;
  /** The CSRF cookie's name (`csrftoken`). */
  CSRF_COOKIE_NAME: string;
  /** The request header (in `META` form) that carries the CSRF token (`HTTP_X_CSRFTOKEN`). */
  CSRF_HEADER_NAME: string;
  /** The CSRF cookie's lifetime in seconds (a year). */
  CSRF_COOKIE_AGE: number;
  /** The CSRF cookie's domain; unset or null: the request's host only. */
  CSRF_COOKIE_DOMAIN?: string | null;
  /** The CSRF cookie's path; unset: `/`. */
  CSRF_COOKIE_PATH?: string;
  /** Send the CSRF cookie over HTTPS only. */
  CSRF_COOKIE_SECURE: boolean;
  /** Hide the CSRF cookie from scripts. */
  CSRF_COOKIE_HTTPONLY: boolean;
  /** The CSRF cookie's `SameSite` attribute; false: none. */
  CSRF_COOKIE_SAMESITE: 'Lax' | 'Strict' | 'None' | false;
  /** Origins (`https://example.com`, `https://*.example.com`) trusted for unsafe requests besides the host itself. */
  CSRF_TRUSTED_ORIGINS: string[];
  /** Keep the CSRF token in the session instead of a cookie. */
  CSRF_USE_SESSIONS: boolean;
  /** Dotted path of the view answering CSRF failures; null: the built-in 403 page. */
  CSRF_FAILURE_VIEW: string | null;
  /** Where `loginRequired` and the browsable API send anonymous users. */
  LOGIN_URL: string;
  /** Where the login view sends a user without a `next` parameter. */
  LOGIN_REDIRECT_URL: string;
  /** Where the logout view sends a user; null: it shows the logged-out page. */
  LOGOUT_REDIRECT_URL: string | null;
  /** The URL prefix of static files (`/static/`). */
  STATIC_URL: string;
  /** The folder `collectstatic` copies static files to (relative to the project root); unset or null: none. */
  STATIC_ROOT?: string | null;
  /** Extra folders of static files (relative to the project root), searched after the apps'. */
  STATICFILES_DIRS?: string[];
  /** Extra template folders (relative to the project root), searched before the framework's. */
  TEMPLATE_DIRS?: string[];
  /** Extra fixture folders (relative to the project root) for `loaddata`. */
  FIXTURE_DIRS?: string[];
  /** System check ids not to report, e.g. `['security.W004']`. */
  SILENCED_SYSTEM_CHECKS?: string[];
  /** True when a proxy in front sets `X-Forwarded-Proto: https` for HTTPS requests. */
  SECURE_PROXY_SSL_HEADER: [string, string] | null;
  /** Use the `X-Forwarded-Host` header (set by a trusted proxy) as the request's host. */
  USE_X_FORWARDED_HOST: boolean;
  /** SecurityMiddleware: redirect plain HTTP requests to HTTPS. */
  SECURE_SSL_REDIRECT?: boolean;
  /** SecurityMiddleware: the host HTTPS redirects go to; unset: the request's host. */
  SECURE_SSL_HOST?: string | null;
  /** SecurityMiddleware: paths (regular expressions, without the leading slash) never redirected to HTTPS. */
  SECURE_REDIRECT_EXEMPT?: Array<string | RegExp>;
  /** SecurityMiddleware: the `Strict-Transport-Security` max-age in seconds; unset or 0: no header. */
  SECURE_HSTS_SECONDS?: number;
  /** SecurityMiddleware: add `includeSubDomains` to the HSTS header. */
  SECURE_HSTS_INCLUDE_SUBDOMAINS?: boolean;
  /** SecurityMiddleware: add `preload` to the HSTS header. */
  SECURE_HSTS_PRELOAD?: boolean;
  /** SecurityMiddleware: send `X-Content-Type-Options: nosniff` (unset: true). */
  SECURE_CONTENT_TYPE_NOSNIFF?: boolean;
  /** SecurityMiddleware: send `X-XSS-Protection: 1; mode=block`. */
  SECURE_BROWSER_XSS_FILTER?: boolean;
  /** SecurityMiddleware: the `Referrer-Policy` (a value, a comma-separated list or a list; unset: `same-origin`; null: none). */
  SECURE_REFERRER_POLICY?: string | string[] | null;
  /** SecurityMiddleware: the `Cross-Origin-Opener-Policy` (unset: `same-origin`; null: none). */
  SECURE_CROSS_ORIGIN_OPENER_POLICY?: string | null;
  /** XFrameOptionsMiddleware: the `X-Frame-Options` value (unset: `DENY`). */
  X_FRAME_OPTIONS?: string;
  /** Seconds a client may take to send its headers. */
  SERVER_HEADERS_TIMEOUT: number;
  /** Seconds a client may take to send its whole request. */
  SERVER_REQUEST_TIMEOUT: number;
  /** Seconds an idle keep-alive connection stays open. */
  SERVER_KEEP_ALIVE_TIMEOUT: number;
  /**
   * Requests in progress at once in one process; past it a request is answered 503 with
   * `Retry-After` at once (never queued). 0 or null: no cap.
   */
  SERVER_MAX_CONCURRENT_REQUESTS: number | null;
  /** Requests in progress at once on one (pipelining) connection; past it 503 likewise. 0 or null: no cap. */
  SERVER_MAX_PIPELINED_REQUESTS: number | null;
  /** The `Retry-After` seconds of the 503 given past those caps. */
  SERVER_BUSY_RETRY_AFTER: number;
  /**
   * The `Content-Security-Policy` of the framework's HTML pages (browsable API, admin); unset:
   * `DEFAULT_CONTENT_SECURITY_POLICY` of lib/core/csp (`default-src 'self'` ...); null: none.
   */
  CONTENT_SECURITY_POLICY?: string | null;
  /** Seconds to open a database connection (MySQL/MariaDB) before failing (a 503). */
  DATABASE_CONNECT_TIMEOUT: number;
  /** Seconds one statement may take (MySQL/MariaDB) before it fails (a 503) and its connection is dropped; 0: no bound. */
  DATABASE_QUERY_TIMEOUT: number;
  /** Seconds to connect to the Redis cache before failing. */
  CACHE_CONNECT_TIMEOUT: number;
  /** Seconds one Redis command may take before it fails (a 503, or throttling fails open). */
  CACHE_COMMAND_TIMEOUT: number;
  /** The `Retry-After` seconds of the 503 answered while the database or the cache is down. */
  SERVICE_UNAVAILABLE_RETRY_AFTER: number;
  /**
   * The one-line access log (remote, method, path, status, bytes, ms) on stderr, buffered:
   * `true` in every server, `false` in none, `null` (the default) in `runserver` only — `serve`
   * logs with `--access-log`, as gunicorn's access log is off unless asked for.
   */
  ACCESS_LOG: boolean | null;
  /**
   * Log 500s (`Internal Server Error: <path>` and the stack) and suspicious 400s to stderr, as
   * Django's `django.request` logger does. `null` (the default) logs unless the environment sets
   * `API_FRAMEWORK_QUIET=1` (the test setup does, so expected failures stay out of test output).
   */
  LOG_SERVER_ERRORS: boolean | null;
  /**
   * The API framework's settings (DRF's `REST_FRAMEWORK`), read through `lib/settings.ts`'s
   * `apiSettings`; a closed type (`ApiFrameworkSettings`), classes by value or dotted path.
   */
  API_FRAMEWORK: ApiFrameworkSettings;
}

/** The name of a setting (`ProjectSettings`' keys, with a project's `ProjectSettingsExtension`). */
export type SettingName = keyof ProjectSettings;

/** A development-only secret; any non-DEBUG process refuses to start with it. */
export const DEVELOPMENT_SECRET_KEY = 'api-framework-insecure-development-key-do-not-use-in-production';

/** The host layer's defaults, overlaid by the project's settings module. */
export const DEFAULT_SETTINGS: ProjectSettings = {
  SECRET_KEY: '',
  DEBUG: false,
  ALLOWED_HOSTS: [],
  INSTALLED_APPS: [],
  MIDDLEWARE: [],
  ROOT_URLCONF: '',
  DATABASE_URL: '',
  DATABASE_REPLICA_URLS: [],
  DATABASE_POOL: {},
  ATOMIC_REQUESTS: false,
  CACHE_URL: null,
  LANGUAGE_CODE: 'en-us',
  USE_I18N: true,
  USE_L10N: false,
  USE_THOUSAND_SEPARATOR: false,
  DECIMAL_SEPARATOR: '.',
  THOUSAND_SEPARATOR: ',',
  NUMBER_GROUPING: 0,
  TIME_ZONE: 'UTC',
  APPEND_SLASH: true,
  DATA_UPLOAD_MAX_MEMORY_SIZE: 2621440,
  FILE_UPLOAD_MAX_MEMORY_SIZE: 2621440,
  // 50 MiB: room for photos, PDFs and office documents, while one request cannot fill the
  // disk of a small host (Django itself has no bound and relies on the web server's).
  FILE_UPLOAD_MAX_SIZE: 50 * 1024 * 1024,
  DATA_UPLOAD_MAX_NUMBER_FIELDS: 1000,
  FILE_UPLOAD_TEMP_DIR: null,
  AUTHENTICATION_BACKENDS: ['contrib.auth.backends.ModelBackend'],
  AUTH_USER_MODEL: 'auth.User',
  PASSWORD_HASHERS: ['contrib.auth.hashers.PBKDF2PasswordHasher'],
  SESSION_ENGINE: 'contrib.sessions.backends.db',
  SESSION_COOKIE_NAME: 'sessionid',
  SESSION_COOKIE_AGE: 60 * 60 * 24 * 7 * 2,
  SESSION_COOKIE_SECURE: false,
  SESSION_COOKIE_HTTPONLY: true,
  SESSION_COOKIE_SAMESITE: 'Lax',
  SESSION_COOKIE_PATH: '/',
  SESSION_COOKIE_DOMAIN: null,
  SESSION_EXPIRE_AT_BROWSER_CLOSE: false,
  SESSION_SAVE_EVERY_REQUEST: false,
  CSRF_COOKIE_NAME: 'csrftoken',
  CSRF_HEADER_NAME: 'HTTP_X_CSRFTOKEN',
  CSRF_COOKIE_AGE: 60 * 60 * 24 * 7 * 52,
  CSRF_COOKIE_SECURE: false,
  CSRF_COOKIE_HTTPONLY: false,
  CSRF_COOKIE_SAMESITE: 'Lax',
  CSRF_TRUSTED_ORIGINS: [],
  CSRF_USE_SESSIONS: false,
  CSRF_FAILURE_VIEW: null,
  LOGIN_URL: '/accounts/login/',
  LOGIN_REDIRECT_URL: '/accounts/profile/',
  LOGOUT_REDIRECT_URL: null,
  STATIC_URL: '/static/',
  SECURE_PROXY_SSL_HEADER: null,
  USE_X_FORWARDED_HOST: false,
  SERVER_HEADERS_TIMEOUT: 20,
  SERVER_REQUEST_TIMEOUT: 60,
  SERVER_KEEP_ALIVE_TIMEOUT: 5,
  SERVER_MAX_CONCURRENT_REQUESTS: 128,
  SERVER_MAX_PIPELINED_REQUESTS: 16,
  SERVER_BUSY_RETRY_AFTER: 1,
  DATABASE_CONNECT_TIMEOUT: 5,
  DATABASE_QUERY_TIMEOUT: 20,
  CACHE_CONNECT_TIMEOUT: 2,
  CACHE_COMMAND_TIMEOUT: 2,
  SERVICE_UNAVAILABLE_RETRY_AFTER: 5,
  ACCESS_LOG: null,
  LOG_SERVER_ERRORS: null,
  API_FRAMEWORK: {},
};

/**
 * Environment variable set once the development SECRET_KEY warning was printed, so child
 * processes (the reloader's server) and later steps of one `npm start` stay quiet.
 */
export const SECRET_KEY_WARNED = 'API_FRAMEWORK_SECRET_KEY_WARNED';

/** Raised when the settings are missing or inconsistent; the message names the fix. */
export class ImproperlyConfigured extends Error {
  override name = 'ImproperlyConfigured';
}

type Listener = (key: string) => void;

const listeners = new Set<Listener>();

/** The live settings. Mutated only through `configureSettings` and `overrideSettings`. */
export const settings: ProjectSettings = { ...DEFAULT_SETTINGS };

let configuredFrom: string | null = null;

function notify(keys: Iterable<string>): void {
  for (const key of keys) {
    for (const listener of listeners) listener(key);
  }
}

/**
 * The value of a setting named at run time (a listing such as the DEBUG page's, a name taken
 * from input); `undefined` when unset. Code that knows the name reads `settings.NAME`, typed.
 */
export function readSetting(name: string): unknown {
  return Object.prototype.hasOwnProperty.call(settings, name) ? (Reflect.get(settings, name) as unknown) : undefined;
}

/** Register a listener called with the key of every setting that changes. */
export function onSettingChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A comma-separated list of URLs (env values): trimmed, empty items dropped. */
export function splitUrlList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * Install a project's settings over the defaults. `DATABASE_URL`, `DATABASE_REPLICA_URLS`
 * (comma-separated) and `CACHE_URL` from the environment win over the module's values, so one
 * project runs on SQLite or MySQL unchanged.
 */
export function configureSettings(values: Partial<ProjectSettings>, source = '<inline>'): ProjectSettings {
  const merged: ProjectSettings = { ...DEFAULT_SETTINGS, ...values };
  if (process.env.DATABASE_URL) merged.DATABASE_URL = process.env.DATABASE_URL;
  if (process.env.DATABASE_REPLICA_URLS !== undefined) {
    merged.DATABASE_REPLICA_URLS = splitUrlList(process.env.DATABASE_REPLICA_URLS);
  }
  if (process.env.CACHE_URL) merged.CACHE_URL = process.env.CACHE_URL;
  if (!merged.SECRET_KEY) {
    if (process.env.SECRET_KEY) {
      merged.SECRET_KEY = process.env.SECRET_KEY;
    } else if (merged.DEBUG) {
      merged.SECRET_KEY = DEVELOPMENT_SECRET_KEY;
      // Once per process tree: the reloader's server child (and any command run after
      // `npm start` sets the variable) inherits the marker instead of repeating the line.
      if (!process.env.API_FRAMEWORK_QUIET && !process.env[SECRET_KEY_WARNED]) {
        process.stderr.write('warning: SECRET_KEY is not set; using an insecure development key (DEBUG only).\n');
        process.env[SECRET_KEY_WARNED] = '1';
      }
    } else {
      throw new ImproperlyConfigured(
        'The SECRET_KEY setting must not be empty: set the SECRET_KEY environment variable (or DEBUG = true for development).',
      );
    }
  }
  const changed = new Set<string>([...Object.keys(settings), ...Object.keys(merged)]);
  for (const key of Object.keys(settings)) Reflect.deleteProperty(settings, key);
  Object.assign(settings, merged);
  configuredFrom = source;
  notify(changed);
  return settings;
}

/** True when `folder` is a compiled build folder (`dist/` without a package.json of its own). */
function isBuildFolder(folder: string): boolean {
  return path.basename(folder) === 'dist' && !fs.existsSync(path.join(folder, 'package.json'));
}

/**
 * Where the framework's own code is (the folder holding its `lib/` and `contrib/`): the
 * repository under ts-node, its `dist/` when compiled (also inside `node_modules/api_framework`).
 * The framework's apps, templates, static files and catalogs are found from here, never from
 * the project.
 */
export const FRAMEWORK_ROOT = path.resolve(__dirname, '..', '..');

/** The framework package's folder (its package.json, for the version). */
export const FRAMEWORK_PACKAGE_ROOT = isBuildFolder(FRAMEWORK_ROOT) ? path.dirname(FRAMEWORK_ROOT) : FRAMEWORK_ROOT;

/** The environment variable that names a project's root folder for processes without manage.ts. */
export const PROJECT_ROOT_ENV = 'API_FRAMEWORK_PROJECT_ROOT';

function initialSourceRoot(): string {
  const fromEnv = process.env[PROJECT_ROOT_ENV];
  return fromEnv ? path.resolve(fromEnv) : process.cwd();
}

/**
 * Where the project's modules are loaded from: the folder of the project's `manage.ts`
 * (`setProjectRoot(__dirname)`), `dist/` when it runs compiled. Without a manage.ts (a test
 * runner, a script), `API_FRAMEWORK_PROJECT_ROOT` or else the working directory.
 * `SETTINGS_MODULE`, INSTALLED_APPS, ROOT_URLCONF and dotted paths of project modules resolve
 * against it. Read it at call time: `setProjectRoot()` changes it.
 */
export let SOURCE_ROOT = initialSourceRoot();

/**
 * The project root: the folder holding the project's manage.ts and package.json (also when
 * running the compiled `dist/manage.js`), where data files such as `db.sqlite3` and relative
 * TEMPLATE_DIRS / STATICFILES_DIRS live.
 */
export let PROJECT_ROOT = isBuildFolder(SOURCE_ROOT) ? path.dirname(SOURCE_ROOT) : SOURCE_ROOT;

/**
 * Make `sourceRoot` (the folder of the project's manage.ts, or its `dist/`) the project the
 * process serves; also exported to child processes (server workers, the reloader's child)
 * through `API_FRAMEWORK_PROJECT_ROOT`. Call it before the settings are loaded.
 */
export function setProjectRoot(sourceRoot: string): void {
  SOURCE_ROOT = path.resolve(sourceRoot);
  PROJECT_ROOT = isBuildFolder(SOURCE_ROOT) ? path.dirname(SOURCE_ROOT) : SOURCE_ROOT;
  process.env[PROJECT_ROOT_ENV] = SOURCE_ROOT;
}

/** The file Node would load for `file` (tried with the extensions it knows), or null. */
function resolvesTo(file: string): string | null {
  try {
    return require.resolve(file);
  } catch {
    return null;
  }
}

/**
 * Load the settings module named by `SETTINGS_MODULE` (a path relative to the project's source
 * root, such as `demo/settings` or `mysite.settings`), unless settings were configured already.
 */
export function setupSettings(moduleName = process.env.SETTINGS_MODULE || 'demo/settings'): ProjectSettings {
  if (configuredFrom !== null) return settings;
  const file = path.resolve(SOURCE_ROOT, moduleName.replace(/\./g, '/'));
  if (resolvesTo(file) === null) {
    throw new ImproperlyConfigured(
      `Could not load the settings module '${moduleName}' (SETTINGS_MODULE): there is no ${file}.ts or ${file}.js. ` +
        `Project modules resolve from ${SOURCE_ROOT} (the folder of the project's manage.ts, else ${PROJECT_ROOT_ENV} or the working directory).`,
    );
  }
  let loaded: { default?: Partial<ProjectSettings> } & Partial<ProjectSettings>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require(file);
  } catch (error) {
    throw new ImproperlyConfigured(
      `Could not load the settings module '${moduleName}' (SETTINGS_MODULE) from ${file}: ${(error as Error).message}`,
    );
  }
  return configureSettings(loaded.default ?? loaded, moduleName);
}

/** True once a settings module (or inline values) has been installed. */
export function settingsConfigured(): boolean {
  return configuredFrom !== null;
}

function applyOverride(values: Partial<ProjectSettings>): () => void {
  const previous = new Map<string, { present: boolean; value: unknown }>();
  for (const key of Object.keys(values)) {
    previous.set(key, { present: key in settings, value: readSetting(key) });
    Reflect.set(settings, key, Reflect.get(values, key));
  }
  notify(previous.keys());
  return () => {
    for (const [key, { present, value }] of previous) {
      if (present) Reflect.set(settings, key, value);
      else Reflect.deleteProperty(settings, key);
    }
    notify(previous.keys());
  };
}

/**
 * Run `fn` with some settings replaced, restoring them afterwards (also when `fn` throws).
 * `overrideSettings.enter(values)` applies the change and returns the restore function.
 */
export function overrideSettings<T>(values: Partial<ProjectSettings>, fn: () => T): T {
  const restore = applyOverride(values);
  let result: T;
  try {
    result = fn();
  } catch (error) {
    restore();
    throw error;
  }
  if (result instanceof Promise) {
    return result.finally(restore) as T;
  }
  restore();
  return result;
}

overrideSettings.enter = applyOverride;
