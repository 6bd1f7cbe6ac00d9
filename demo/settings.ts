/**
 * Settings of the demo project: the quickstart, the tutorial and the features app of
 * DEMO.md, served from one process.
 *
 * Environment:
 * - `DEBUG`: the demo runs with DEBUG on so that `npm start` works on a fresh clone; set
 *   `DEBUG=0` in production, together with `SECRET_KEY` (required then).
 * - `SECRET_KEY`: the signing key (sessions, CSRF tokens); without it and with DEBUG on, an
 *   insecure development key is used and a warning printed.
 * - `DATABASE_URL`: `sqlite:<file>`, `sqlite::memory:` or `mysql://user:pass@host:port/db`;
 *   default `db.sqlite3` in the project root.
 * - `CACHE_URL`: `redis://host:port/db` to share throttle counts (and cached sessions) between
 *   processes; default: process memory.
 */
import type { ProjectSettings } from 'api_framework';

const DEBUG = process.env.DEBUG !== '0';

// Typed (a closed type): a misspelt key or a wrong class fails to compile.
const settings: Partial<ProjectSettings> = {
  DEBUG,
  SECRET_KEY: process.env.SECRET_KEY ?? '',
  // The features app's HostNameVersioning view is reached as v1.example.com / v2.example.com;
  // any other Host is refused with the JSON 400 of handler400.
  ALLOWED_HOSTS: ['127.0.0.1', 'localhost', '[::1]', '.example.com'],

  // The framework's apps by their canonical names (the older `contrib.auth` spellings are
  // aliases); the demo's own apps by their folder under the project root.
  INSTALLED_APPS: [
    'api_framework.contrib.auth',
    'api_framework.contrib.sessions',
    'api_framework.contrib.authtoken',
    'api_framework.contrib.browsable',
    'demo.snippets',
    'demo.quickstart',
    'demo.features',
  ],

  // The original project's order (it also lists Django's message middleware, which answers
  // nothing here: the admin keeps its flash messages itself).
  MIDDLEWARE: [
    'api_framework.core.security.SecurityMiddleware',
    'api_framework.contrib.sessions.middleware.SessionMiddleware',
    'api_framework.core.middleware.CommonMiddleware',
    'api_framework.core.middleware.csrf.CsrfViewMiddleware',
    'api_framework.contrib.auth.middleware.AuthenticationMiddleware',
    'api_framework.core.clickjacking.XFrameOptionsMiddleware',
  ],

  ROOT_URLCONF: 'demo.urls',
  DATABASE_URL: 'sqlite:db.sqlite3',
  CACHE_URL: null,

  LANGUAGE_CODE: 'en-us',
  TIME_ZONE: 'UTC',
  USE_I18N: true,

  // The browsable API's login and logout views send the user back here by default.
  LOGIN_URL: '/api-auth/login/',
  LOGIN_REDIRECT_URL: '/',
  LOGOUT_REDIRECT_URL: '/',

  API_FRAMEWORK: {
    DEFAULT_AUTHENTICATION_CLASSES: [
      'api_framework.authentication.SessionAuthentication',
      'api_framework.authentication.BasicAuthentication',
      'api_framework.authentication.TokenAuthentication',
    ],
    // renderers, parsers, permissions (AllowAny), pagination (None): the framework's defaults.
    // Throttle classes are set per view (features app); their rates live here.
    DEFAULT_THROTTLE_RATES: {
      features_anon: '3/min',
      features_user: '5/min',
      features_burst: '2/min',
    },
  },
};

export default settings;
