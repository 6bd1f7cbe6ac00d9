/**
 * The sessions app's public API (`api_framework/contrib/sessions`, the host framework's
 * `django.contrib.sessions` and `django.middleware.csrf`): the session middleware and stores,
 * the CSRF middleware and its helpers, the session model.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `request.session` (declared on `HttpRequest` by module augmentation in
 *   `contrib/sessions/backends/base.ts`) is a `SessionBase`, set by `SessionMiddleware`, which
 *   awaits `session.ensureLoaded()` first. Code that builds a store itself
 *   (`new SessionStore(key)`) must `await store.ensureLoaded()` before reading values. Values are
 *   synchronous: `get(key, default?)`, `set`, `has`, `delete`, `pop`, `setDefault`, `update`,
 *   `keys`, `items`, `clear`; flags `accessed`/`modified`; async `save()`, `cycleKey()`,
 *   `flush()`, `destroy(key?)`, `exists(key)`; expiry `setExpiry(seconds | Date | 0 | null)`,
 *   `getExpiryAge()`, `getExpiryDate()`, `getExpireAtBrowserClose()`. A new store's `create()`
 *   goes through `saveUnderNewKey()` (the fresh-key retry loop shared by the engines).
 * - Engines (`SESSION_ENGINE`): `contrib.sessions.backends.db` (`django_session`, data signed as
 *   Django 3.2's `signing.dumps(..., salt='django.contrib.sessions.SessionStore', compress=True)`;
 *   tampered data reads as an empty session) and `contrib.sessions.backends.cache`
 *   (`caches.default`), and `contrib.sessions.backends.signedCookies` (the data signed in the cookie).
 *   `getSessionStore()` in `middleware.ts` returns the engine's class.
 */
export { SessionMiddleware, getSessionStore } from './middleware';
export { SessionBase, CreateError, UpdateError, SessionInterrupted, type SessionData, type SessionStoreClass, type ExpiryOptions } from './backends/base';
export { Session } from './models';
export { CsrfViewMiddleware, csrfExempt, getToken, rotateToken, checkCsrf } from '../../lib/core/middleware/csrf';
export { csrfFailure, type CsrfFailureView } from '../../lib/core/middleware/csrfFailure';
