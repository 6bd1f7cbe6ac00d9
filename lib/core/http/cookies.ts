/**
 * Response cookies: the options `setCookie()` takes and the `Set-Cookie` header a cookie is
 * written as. (Reading the request's `Cookie` header is `../cookie.ts`.)
 */
import { serialize as serializeCookie } from 'cookie';
import { quoteCookieValue } from '../cookie';

/** Options of `setCookie()`: seconds for `maxAge`, like the host framework. */
export interface CookieOptions {
  maxAge?: number | null;
  expires?: Date | null;
  path?: string;
  domain?: string | null;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: 'Lax' | 'Strict' | 'None' | 'lax' | 'strict' | 'none' | false | null;
}

/** A cookie to be sent with a response. */
export interface ResponseCookie {
  value: string;
  options: CookieOptions;
}

/** The `Set-Cookie` header value of one cookie: `name=value; Path=/; ...`. */
export function setCookieHeader(name: string, { value, options }: ResponseCookie): string {
  const sameSite = options.sameSite ? (options.sameSite.toLowerCase() as 'lax' | 'strict' | 'none') : undefined;
  // The value is quoted as the host framework's cookie module does (an empty one is `""`,
  // `a b` is `"a b"`), which the cookie package refuses: it writes the attributes only.
  const attributes = serializeCookie(name, '', {
    maxAge: options.maxAge ?? undefined,
    expires: options.expires ?? undefined,
    path: options.path,
    domain: options.domain ?? undefined,
    secure: options.secure || undefined,
    httpOnly: options.httpOnly || undefined,
    sameSite,
  }).slice(name.length + 1);
  return `${name}=${quoteCookieValue(value)}${attributes}`;
}
