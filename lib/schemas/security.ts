/**
 * OpenAPI security schemes for the framework's authentication classes: HTTP Basic, the session
 * cookie (whose unsafe requests need the CSRF token in a header) and `Authorization: Token <key>`.
 * A project's own authentication class describes itself by defining
 * `getSecurityScheme(): { name, scheme } | null`.
 */
import { settings } from '../core/conf';
import { BasicAuthentication, RemoteUserAuthentication, SessionAuthentication, TokenAuthentication } from '../authentication';
import type { SecuritySchemeObject } from './types';

/** A named security scheme, as `components.securitySchemes` lists it. */
export interface NamedSecurityScheme {
  name: string;
  scheme: SecuritySchemeObject;
}

/** The header name the CSRF check reads (`HTTP_X_CSRFTOKEN` -> `X-CSRFToken`), as clients send it. */
export function csrfHeaderName(): string {
  const meta = String(settings.CSRF_HEADER_NAME ?? 'HTTP_X_CSRFTOKEN').replace(/^HTTP_/, '');
  // The host framework's default header is spelt X-CSRFToken; other names are dashed words.
  if (meta === 'X_CSRFTOKEN') return 'X-CSRFToken';
  return meta.split('_').map((word) => word.charAt(0) + word.slice(1).toLowerCase()).join('-');
}

/** The security scheme of one authenticator, or null when it cannot be described (remote user). */
export function securitySchemeFor(authenticator: object): NamedSecurityScheme | null {
  const custom = (authenticator as { getSecurityScheme?: () => NamedSecurityScheme | null }).getSecurityScheme;
  if (typeof custom === 'function') return custom.call(authenticator);
  if (authenticator instanceof TokenAuthentication) {
    return {
      name: 'tokenAuth',
      scheme: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: `Token-based authentication with required prefix "${authenticator.keyword}": \`Authorization: ${authenticator.keyword} <key>\`.`,
      },
    };
  }
  if (authenticator instanceof BasicAuthentication) {
    return { name: 'basicAuth', scheme: { type: 'http', scheme: 'basic' } };
  }
  if (authenticator instanceof SessionAuthentication) {
    const cookie = String(settings.CSRF_COOKIE_NAME ?? 'csrftoken');
    return {
      name: 'cookieAuth',
      scheme: {
        type: 'apiKey',
        in: 'cookie',
        name: String(settings.SESSION_COOKIE_NAME ?? 'sessionid'),
        description: `Session login. Unsafe requests (POST, PUT, PATCH, DELETE) must also send the CSRF token from the \`${cookie}\` cookie in the \`${csrfHeaderName()}\` header.`,
      },
    };
  }
  if (authenticator instanceof RemoteUserAuthentication) return null;
  return null;
}
