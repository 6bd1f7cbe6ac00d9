/**
 * `AuthenticationMiddleware` sets `request.user` from the session before the view runs;
 * `RemoteUserMiddleware` logs in the user named by the web server's `REMOTE_USER`.
 */
import { ImproperlyConfigured } from '../../lib/core/conf';
import { MiddlewareMixin } from '../../lib/core/middleware';
import type { AuthUser, HttpRequest, HttpResponse } from '../../lib/core/http';
import { AnonymousUser, authenticate, getUser, login, logout, BACKEND_SESSION_KEY } from './index';
import { loadBackend } from './backendRegistry';
import { RemoteUserBackend } from './backends';

type GetResponse = (request: HttpRequest) => Promise<HttpResponse>;

/**
 * Attach the session's user to `request.user` (an `AnonymousUser` when nobody is logged in).
 * The user is loaded once, before the view, so `request.user` is a plain synchronous property.
 * Hook-style (`processRequest`), so the handler runs it without a promise step of its own.
 */
export class AuthenticationMiddleware extends MiddlewareMixin {
  /** Load the user; a promise only when the session has to be asked. */
  override processRequest(request: HttpRequest): null | Promise<null> {
    const session = request.session;
    if (!session) {
      throw new ImproperlyConfigured(
        "The Django authentication middleware requires session middleware to be installed. Edit your MIDDLEWARE setting to insert 'contrib.sessions.middleware.SessionMiddleware' before 'contrib.auth.middleware.AuthenticationMiddleware'.",
      );
    }
    const wasAccessed = session.accessed;
    // No session cookie and nothing written yet: nobody is logged in, no store to ask (and no
    // asynchronous step).
    if (session.sessionKey === null && !session.modified) {
      attachSessionUser(request, session, wasAccessed, new AnonymousUser());
      return null;
    }
    return getUser(request).then((user) => {
      attachSessionUser(request, session, wasAccessed, user);
      return null;
    });
  }
}

/**
 * Set `user` on the request. As the host framework's lazy `request.user`: the session counts
 * as read (`Vary: Cookie`) only once something reads the user, not because the middleware
 * loaded it ahead of time.
 */
function attachSessionUser(request: HttpRequest, session: NonNullable<HttpRequest['session']>, wasAccessed: boolean, user: AuthUser): void {
  if (!session.modified) session.accessed = wasAccessed;
  request.attachUser(user, () => {
    session.accessed = true;
  });
}

/**
 * Log in the user named by the `REMOTE_USER` request variable (set by a front-end server that
 * did the authentication), with `RemoteUserBackend`. Subclass it and change `header` when the
 * server passes the name in a header such as `HTTP_X_REMOTE_USER`; set
 * `forceLogoutIfNoHeader = false` when only some pages are protected by the server.
 */
export class RemoteUserMiddleware {
  /** The `META` key holding the user name. */
  header = 'REMOTE_USER';
  /** Log out a remote user whose requests no longer carry the name. */
  forceLogoutIfNoHeader = true;

  constructor(protected readonly getResponse: GetResponse) {}

  /** Authenticate from the header, then run the rest of the chain. */
  async handle(request: HttpRequest): Promise<HttpResponse> {
    await this.processRequest(request);
    return this.getResponse(request);
  }

  /** Log the remote user in (or out) for this request. */
  async processRequest(request: HttpRequest): Promise<void> {
    if (!request.session) {
      throw new ImproperlyConfigured(
        "The Django remote user auth middleware requires the authentication middleware to be installed.  Edit your MIDDLEWARE setting to insert 'contrib.auth.middleware.AuthenticationMiddleware' before the RemoteUserMiddleware class.",
      );
    }
    const username = request.META[this.header];
    if (username === undefined) {
      if (this.forceLogoutIfNoHeader && request.user.isAuthenticated) await this.removeInvalidUser(request);
      return;
    }
    if (request.user.isAuthenticated) {
      if (request.user.username === this.cleanUsername(username, request)) return;
      await this.removeInvalidUser(request);
    }
    const user = await authenticate(request, { remoteUser: username });
    if (user) {
      request.user = user;
      await login(request, user);
    }
  }

  /** The user name as the session's backend would store it. */
  cleanUsername(username: string, request: HttpRequest): string {
    const path = request.session?.get<string>(BACKEND_SESSION_KEY);
    if (!path) return username;
    try {
      const backend = loadBackend(path);
      return backend instanceof RemoteUserBackend ? backend.cleanUsername(username) : username;
    } catch {
      return username;
    }
  }

  /** Log out a user that was logged in by the remote user backend. */
  protected async removeInvalidUser(request: HttpRequest): Promise<void> {
    const path = request.session?.get<string>(BACKEND_SESSION_KEY, '') ?? '';
    let backend: unknown;
    try {
      backend = loadBackend(path);
    } catch {
      await logout(request);
      return;
    }
    if (backend instanceof RemoteUserBackend) await logout(request);
  }
}

/** `RemoteUserMiddleware` for pages where the server sets the name only on some URLs. */
export class PersistentRemoteUserMiddleware extends RemoteUserMiddleware {
  override forceLogoutIfNoHeader = false;
}
