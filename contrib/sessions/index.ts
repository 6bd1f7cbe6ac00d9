/**
 * The sessions app's public API (`api_framework/contrib/sessions`, the host framework's
 * `django.contrib.sessions` and `django.middleware.csrf`): the session middleware and stores,
 * the CSRF middleware and its helpers, the session model.
 */
export { SessionMiddleware, getSessionStore } from './middleware';
export { SessionBase, CreateError, UpdateError, SessionInterrupted, type SessionData, type SessionStoreClass, type ExpiryOptions } from './backends/base';
export { Session } from './models';
export { CsrfViewMiddleware, csrfExempt, getToken, rotateToken, checkCsrf } from '../../lib/core/middleware/csrf';
export { csrfFailure, type CsrfFailureView } from '../../lib/core/middleware/csrfFailure';
