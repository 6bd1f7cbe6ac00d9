/**
 * Provides various authentication policies: HTTP Basic, session (with CSRF enforcement),
 * remote user and token. Each scheme identifies the request's credentials; permission classes
 * decide what the identified user may do.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - Authentication: `authenticate(request)` returns `[user, auth] | null` (may be async);
 *   `authenticateHeader(request)` a string or null. `getAuthorizationHeader(request)` reads
 *   `META.HTTP_AUTHORIZATION` (via `metaHeader()`). `SessionAuthentication` reads `request.httpRequest.user` and calls
 *   `checkCsrf(httpRequest)` only when it found an active user. `TokenAuthentication.getModel()`
 *   loads `api_framework.authtoken.models.Token` lazily (set `model` to use another); the model
 *   needs `objects.selectRelated('user').get({ key })` giving `{ key, user }` and rejecting with
 *   `ObjectDoesNotExist` for an unknown key (DRF's `get()`, no ORDER BY).
 *   `RemoteUserAuthentication` calls `authenticate(httpRequest, { remoteUser })`.
 */
import { authenticate as authenticateCredentials } from '../contrib/auth';
import { checkCsrf } from './core/middleware/csrf';
import { ObjectDoesNotExist } from './core/exceptions';
import type { AuthUser, HttpRequest } from './core/http';
import { gettext } from './core/i18n';
import { importString } from './core/modules';
import { constantTimeCompare } from './core/signing';
import { AuthenticationFailed, PermissionDenied } from './exceptions';
import type { Request } from './request';

/** What a successful `authenticate()` returns: the user and the credential (token) or null. */
export type AuthResult = [user: AuthUser, auth: unknown];

/** An authentication class, as in `authenticationClasses` and DEFAULT_AUTHENTICATION_CLASSES. */
export type AuthenticationClass = new () => BaseAuthentication;

/**
 * Return the request's `Authorization` header as a string ('' when missing). Characters are
 * the header's ISO-8859-1 bytes, as received.
 */
export function getAuthorizationHeader(request: Request | HttpRequest): string {
  const httpRequest = 'httpRequest' in request ? request.httpRequest : request;
  return httpRequest.metaHeader('HTTP_AUTHORIZATION') ?? '';
}

// Python's bytes.split(): runs of ASCII whitespace separate the parts.
function splitHeader(header: string): string[] {
  return header.split(/[ \t\n\r\v\f]+/).filter(Boolean);
}

function latin1Bytes(text: string): Buffer | null {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return null;
  return Buffer.from(text, 'latin1');
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Buffer): string | null {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Decode base64 the way Python's non-validating `b64decode` does: characters outside the
 * alphabet are skipped, but wrong padding is an error (returns null).
 */
function decodeBase64(text: string): Buffer | null {
  const cleaned = text.replace(/[^A-Za-z0-9+/=]/g, '');
  const padAt = cleaned.indexOf('=');
  const data = padAt >= 0 ? cleaned.slice(0, padAt) : cleaned;
  const padding = padAt >= 0 ? cleaned.slice(padAt).replace(/[^=]/g, '').length : 0;
  const rest = data.length % 4;
  if (rest === 1) return null;
  if (rest !== 0 && padding < 4 - rest) return null;
  return Buffer.from(data, 'base64');
}

/**
 * All authentication classes should extend BaseAuthentication. Override `authenticate()`;
 * override `authenticateHeader()` to answer unauthenticated requests with 401 and a
 * WWW-Authenticate challenge instead of 403.
 */
export class BaseAuthentication {
  /**
   * Authenticate the request: return `[user, auth]`, or `null` when this scheme was not
   * attempted (so the next one is tried). Raise `AuthenticationFailed` when it was attempted
   * and failed.
   */
  authenticate(_request: Request): AuthResult | null | Promise<AuthResult | null> {
    throw new Error('.authenticate() must be overridden.');
  }

  /**
   * Return the `WWW-Authenticate` header value of a 401 response, or `null` to answer
   * unauthenticated requests with 403.
   */
  authenticateHeader(_request: Request): string | null {
    return null;
  }
}

/** HTTP Basic authentication against username/password (RFC 7617). */
export class BasicAuthentication extends BaseAuthentication {
  /** The realm named in the `WWW-Authenticate` challenge. */
  wwwAuthenticateRealm = 'api';

  /**
   * Return a user if a correct username and password were given in the Basic header; null at
   * once (no promise) when the request has no Basic header.
   */
  override authenticate(request: Request): AuthResult | null | Promise<AuthResult | null> {
    const header = getAuthorizationHeader(request);
    if (header === '') return null;
    const auth = splitHeader(header);
    if (auth.length === 0 || auth[0].toLowerCase() !== 'basic') return null;
    return this.authenticateHeaderParts(auth, request);
  }

  /** `authenticate()` for a request with a Basic header (split in `auth`). */
  private async authenticateHeaderParts(auth: string[], request: Request): Promise<AuthResult> {
    if (auth.length === 1) {
      throw new AuthenticationFailed(gettext('Invalid basic header. No credentials provided.'));
    } else if (auth.length > 2) {
      throw new AuthenticationFailed(gettext('Invalid basic header. Credentials string should not contain spaces.'));
    }
    const bytes = decodeBase64(auth[1]);
    if (bytes === null) {
      throw new AuthenticationFailed(gettext('Invalid basic header. Credentials not correctly base64 encoded.'));
    }
    const decoded = decodeUtf8(bytes) ?? bytes.toString('latin1');
    const colon = decoded.indexOf(':');
    const userid = colon >= 0 ? decoded.slice(0, colon) : decoded;
    const password = colon >= 0 ? decoded.slice(colon + 1) : '';
    return this.authenticateCredentials(userid, password, request);
  }

  /** Authenticate the userid and password against the configured authentication backends. */
  async authenticateCredentials(userid: string, password: string, request?: Request): Promise<AuthResult> {
    const user = await authenticateCredentials(request ? request.httpRequest : null, { username: userid, password });
    if (!user) throw new AuthenticationFailed(gettext('Invalid username/password.'));
    if (!user.is_active) throw new AuthenticationFailed(gettext('User inactive or deleted.'));
    return [user, null];
  }

  override authenticateHeader(): string {
    return `Basic realm="${this.wwwAuthenticateRealm}"`;
  }
}

/**
 * Use the host framework's session (the user set by the authentication middleware). Unsafe
 * requests of an authenticated user must pass the CSRF check; anonymous ones need not.
 */
export class SessionAuthentication extends BaseAuthentication {
  /** Return the active session user, or `null` (at once, no promise) when there is none. */
  override authenticate(request: Request): AuthResult | null | Promise<AuthResult | null> {
    const user = request.httpRequest.user;
    // Unauthenticated or inactive: CSRF validation is not needed.
    if (!user || !user.is_active) return null;
    return this.authenticateUser(user, request);
  }

  /** `authenticate()` for an active session user: the CSRF check, then the user. */
  private async authenticateUser(user: AuthUser, request: Request): Promise<AuthResult> {
    await this.enforceCsrf(request);
    // CSRF passed with an authenticated user.
    return [user, null];
  }

  /** Enforce CSRF validation for session-based authentication. */
  async enforceCsrf(request: Request): Promise<void> {
    const reason = await checkCsrf(request.httpRequest);
    if (reason) {
      // CSRF failed, bail with an explicit error message.
      throw new PermissionDenied(`CSRF Failed: ${reason}`);
    }
  }
}

/**
 * Authentication by a front-end web server that sets the `REMOTE_USER` environment value
 * (`request.META`). Needs `contrib.auth.backends.RemoteUserBackend` in AUTHENTICATION_BACKENDS,
 * which creates unknown users by default. Override `header` to read another META key.
 */
export class RemoteUserAuthentication extends BaseAuthentication {
  /** The `request.META` key holding the user name. */
  header = 'REMOTE_USER';

  override async authenticate(request: Request): Promise<AuthResult | null> {
    const remoteUser = request.httpRequest.META[this.header];
    if (!remoteUser) return null;
    const user = await authenticateCredentials(request.httpRequest, { remoteUser });
    if (user && user.is_active) return [user, null];
    return null;
  }
}

/** A token record as token authentication sees it: its key and (loaded) user. */
export interface TokenRecord {
  key: string;
  user: AuthUser;
}

/**
 * What token authentication needs from the token model: a lookup by key with its user, which
 * rejects with `ObjectDoesNotExist` (the model's `DoesNotExist`) when no token has the key.
 */
export interface TokenModel {
  objects: {
    selectRelated(...fields: string[]): {
      get(lookups: Record<string, unknown>): Promise<TokenRecord>;
    };
  };
}

/** The dotted path of the token model installed with `contrib/authtoken`. */
export const DEFAULT_TOKEN_MODEL = 'api_framework.authtoken.models.Token';

let defaultTokenModel: TokenModel | undefined;

/**
 * Simple token based authentication.
 *
 * Clients authenticate by passing the token key in the `Authorization` header, prepended
 * with the keyword: `Authorization: Token 401f7ac837da42b97f613d789819ff93537bee6a`.
 * Subclass and set `keyword = 'Bearer'` for bearer tokens, or `model` for another token model.
 */
export class TokenAuthentication extends BaseAuthentication {
  /** The scheme word of the header (compared case-insensitively). */
  keyword = 'Token';
  /** The token model (undefined: `api_framework.authtoken.models.Token`, loaded on first use). */
  model?: TokenModel;

  /** The token model; the default one is imported lazily so the token app stays optional. */
  getModel(): TokenModel {
    if (this.model !== undefined) return this.model;
    // Resolved once: the path is a constant, and resolving a module path costs a file
    // system lookup in `require` on every call.
    defaultTokenModel ??= importString<TokenModel>(DEFAULT_TOKEN_MODEL);
    return defaultTokenModel;
  }

  /** Return the token's user; null at once (no promise) when the request has no token header. */
  override authenticate(request: Request): AuthResult | null | Promise<AuthResult | null> {
    const header = getAuthorizationHeader(request);
    if (header === '') return null;
    const auth = splitHeader(header);
    if (auth.length === 0 || auth[0].toLowerCase() !== this.keyword.toLowerCase()) return null;
    return this.authenticateHeaderParts(auth);
  }

  /** `authenticate()` for a request with a token header (split in `auth`). */
  private async authenticateHeaderParts(auth: string[]): Promise<AuthResult> {
    if (auth.length === 1) {
      throw new AuthenticationFailed(gettext('Invalid token header. No credentials provided.'));
    } else if (auth.length > 2) {
      throw new AuthenticationFailed(gettext('Invalid token header. Token string should not contain spaces.'));
    }
    const bytes = latin1Bytes(auth[1]);
    const token = bytes === null ? null : decodeUtf8(bytes);
    if (token === null) {
      throw new AuthenticationFailed(gettext('Invalid token header. Token string should not contain invalid characters.'));
    }
    return this.authenticateCredentials(token);
  }

  /** Look the key up; an unknown key or an inactive user fails. */
  async authenticateCredentials(key: string): Promise<AuthResult> {
    const model = this.getModel();
    let token: TokenRecord;
    try {
      // `get()` (as DRF): no ORDER BY, which `first()` would add to a lookup by primary key.
      token = await model.objects.selectRelated('user').get({ key });
    } catch (error) {
      if (error instanceof ObjectDoesNotExist) throw new AuthenticationFailed(gettext('Invalid token.'));
      throw error;
    }
    // Compare the stored key too: MySQL's default collation matches keys case-insensitively,
    // and a constant-time comparison does not reveal how much of a guessed key was right.
    if (!constantTimeCompare(token.key, key)) throw new AuthenticationFailed(gettext('Invalid token.'));
    const user = token.user;
    if (!user || !user.is_active) throw new AuthenticationFailed(gettext('User inactive or deleted.'));
    return [user, token];
  }

  override authenticateHeader(): string {
    return this.keyword;
  }
}
