/**
 * `SessionMiddleware`: gives every request a `request.session` from the store named by
 * `SESSION_ENGINE`, keyed by the `SESSION_COOKIE_NAME` cookie, and saves it (and sets the
 * cookie) when it changed.
 */
import { settings } from '../../lib/core/conf';
import { patchVaryHeaders, type HttpRequest, type HttpResponse } from '../../lib/core/http';
import { importModule } from '../../lib/core/modules';
import { MiddlewareMixin } from '../../lib/core/middleware';
import { ImproperlyConfigured } from '../../lib/core/exceptions';
import { SessionInterrupted, UpdateError, type SessionStoreClass } from './backends/base';

let engineCache: { engine: string; store: SessionStoreClass } | null = null;

/** The `SessionStore` class of the `SESSION_ENGINE` module (cached per setting value). */
export function getSessionStore(engine: string = settings.SESSION_ENGINE): SessionStoreClass {
  if (engineCache && engineCache.engine === engine) return engineCache.store;
  let mod: Record<string, unknown>;
  try {
    mod = importModule(engine);
  } catch (error) {
    throw new ImproperlyConfigured(`SESSION_ENGINE '${engine}' could not be imported: ${(error as Error).message.split('\n')[0]}`);
  }
  const store = mod.SessionStore;
  if (typeof store !== 'function') {
    throw new ImproperlyConfigured(`SESSION_ENGINE '${engine}' does not define a 'SessionStore' class.`);
  }
  engineCache = { engine, store: store as SessionStoreClass };
  return engineCache.store;
}

/**
 * Load the session before the view, save it after. Override `storeClass()` to pick the store
 * per request. Hook-style (`processRequest`/`processResponse`), so the handler runs it without
 * a promise step of its own.
 */
export class SessionMiddleware extends MiddlewareMixin {
  /** The store class for this request (default: from `SESSION_ENGINE`). */
  storeClass(_request: HttpRequest): SessionStoreClass {
    return getSessionStore();
  }

  /**
   * Attach `request.session`. Without a session cookie there is nothing to load (the store
   * starts empty): no asynchronous step; else the session is attached once loaded.
   */
  override processRequest(request: HttpRequest): null | Promise<null> {
    const Store = this.storeClass(request);
    const key = request.cookie(settings.SESSION_COOKIE_NAME) ?? null;
    const session = new Store(key);
    if (key === null) {
      request.session = session;
      return null;
    }
    return session.ensureLoaded().then(() => {
      request.session = session;
      return null;
    });
  }

  /**
   * Save a modified session and set its cookie; delete the cookie of a session that was
   * emptied; add `Vary: Cookie` when the session was read. Answers a promise only when the
   * session is saved.
   */
  override processResponse(request: HttpRequest, response: HttpResponse): HttpResponse | Promise<HttpResponse> {
    const session = request.session;
    if (!session) return response;
    const { accessed, modified } = session;
    const empty = session.isEmpty();
    const cookieName = settings.SESSION_COOKIE_NAME;
    if (empty && request.cookie(cookieName) !== undefined) {
      response.deleteCookie(cookieName, {
        path: settings.SESSION_COOKIE_PATH,
        domain: settings.SESSION_COOKIE_DOMAIN,
        sameSite: settings.SESSION_COOKIE_SAMESITE,
      });
      patchVaryHeaders(response, ['Cookie']);
      return response;
    }
    if (accessed) patchVaryHeaders(response, ['Cookie']);
    if ((modified || settings.SESSION_SAVE_EVERY_REQUEST) && !empty && response.status !== 500) {
      return this.saveSession(session, response);
    }
    return response;
  }

  /** Save the session and set its cookie. */
  private async saveSession(session: NonNullable<HttpRequest['session']>, response: HttpResponse): Promise<HttpResponse> {
    const cookieName = settings.SESSION_COOKIE_NAME;
    let maxAge: number | null = null;
    let expires: Date | null = null;
    if (!session.getExpireAtBrowserClose()) {
      maxAge = session.getExpiryAge();
      expires = new Date(Date.now() + maxAge * 1000);
    }
    try {
      await session.save();
    } catch (error) {
      if (error instanceof UpdateError) {
        throw new SessionInterrupted(
          "The request's session was deleted before the request completed. The user may have logged out in a concurrent request, for example.",
        );
      }
      throw error;
    }
    response.setCookie(cookieName, session.sessionKey ?? '', {
      maxAge,
      expires,
      domain: settings.SESSION_COOKIE_DOMAIN,
      path: settings.SESSION_COOKIE_PATH,
      secure: settings.SESSION_COOKIE_SECURE,
      httpOnly: settings.SESSION_COOKIE_HTTPONLY,
      sameSite: settings.SESSION_COOKIE_SAMESITE,
    });
    return response;
  }
}
