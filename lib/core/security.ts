/**
 * `SecurityMiddleware`: the host framework's security headers and HTTPS redirect, driven by
 * settings (Django 3.2's names and defaults):
 *
 * | setting | default | effect |
 * |---|---|---|
 * | `SECURE_CONTENT_TYPE_NOSNIFF` | `true` | `X-Content-Type-Options: nosniff` |
 * | `SECURE_REFERRER_POLICY` | `'same-origin'` | `Referrer-Policy` (a string, comma-separated, or a list; null: none) |
 * | `SECURE_BROWSER_XSS_FILTER` | `false` | `X-XSS-Protection: 1; mode=block` |
 * | `SECURE_HSTS_SECONDS` | `0` | `Strict-Transport-Security: max-age=N` on HTTPS responses |
 * | `SECURE_HSTS_INCLUDE_SUBDOMAINS` | `false` | adds `; includeSubDomains` |
 * | `SECURE_HSTS_PRELOAD` | `false` | adds `; preload` |
 * | `SECURE_SSL_REDIRECT` | `false` | 301 from http:// to https:// |
 * | `SECURE_SSL_HOST` | `null` | the host to redirect to (default: the request's) |
 * | `SECURE_REDIRECT_EXEMPT` | `[]` | regexes searched in the path without its leading `/` |
 * | `SECURE_CROSS_ORIGIN_OPENER_POLICY` | `'same-origin'` | `Cross-Origin-Opener-Policy` (null: none; Django 4.0's setting and default) |
 *
 * Headers a view already set are kept. The headers are computed from the settings once, and
 * again after any setting changes (so overriding them in tests takes effect at once).
 */
import { onSettingChanged, settings, type SettingName } from './conf';
import { HttpResponsePermanentRedirect, type HttpRequest, type HttpResponse } from './http';
import { MiddlewareMixin } from './middleware';

/** Django 3.2's default `SECURE_REFERRER_POLICY`. */
export const DEFAULT_REFERRER_POLICY = 'same-origin';

/** Django 4.0's default `SECURE_CROSS_ORIGIN_OPENER_POLICY`. */
export const DEFAULT_CROSS_ORIGIN_OPENER_POLICY = 'same-origin';

function setting<T>(name: SettingName, fallback: T): T {
  const value: unknown = settings[name];
  return value === undefined ? fallback : (value as T);
}

const exemptCache = new WeakMap<readonly unknown[], RegExp[]>();

/** `SECURE_REDIRECT_EXEMPT` compiled once per list. */
function redirectExemptPatterns(): RegExp[] {
  const entries = setting<readonly unknown[]>('SECURE_REDIRECT_EXEMPT', []);
  let patterns = exemptCache.get(entries);
  if (!patterns) {
    patterns = entries.map((entry) => (entry instanceof RegExp ? entry : new RegExp(String(entry))));
    exemptCache.set(entries, patterns);
  }
  return patterns;
}

/** The `Referrer-Policy` value for a setting given as a comma-separated string or a list. */
export function referrerPolicyValue(policy: unknown): string | null {
  if (policy === null || policy === undefined || policy === false || policy === '') return null;
  const values = typeof policy === 'string' ? policy.split(',') : Array.isArray(policy) ? policy.map(String) : [String(policy)];
  return values.map((value) => value.trim()).join(',');
}

/** The security headers of the current settings, computed once per settings change. */
interface SecurityHeaders {
  /** `Strict-Transport-Security` for HTTPS responses, or null. */
  hsts: string | null;
  /** The other headers, in the order they are added (each only when the response has none). */
  defaults: ReadonlyArray<readonly [string, string]>;
}

let cachedHeaders: SecurityHeaders | null = null;
onSettingChanged(() => {
  cachedHeaders = null;
});

function securityHeaders(): SecurityHeaders {
  if (cachedHeaders) return cachedHeaders;
  const seconds = Number(setting('SECURE_HSTS_SECONDS', 0));
  let hsts: string | null = null;
  if (seconds) {
    hsts = `max-age=${seconds}`;
    if (setting('SECURE_HSTS_INCLUDE_SUBDOMAINS', false)) hsts += '; includeSubDomains';
    if (setting('SECURE_HSTS_PRELOAD', false)) hsts += '; preload';
  }
  const defaults: Array<readonly [string, string]> = [];
  if (setting('SECURE_CONTENT_TYPE_NOSNIFF', true)) defaults.push(['X-Content-Type-Options', 'nosniff']);
  if (setting('SECURE_BROWSER_XSS_FILTER', false)) defaults.push(['X-XSS-Protection', '1; mode=block']);
  const policy = referrerPolicyValue(setting<unknown>('SECURE_REFERRER_POLICY', DEFAULT_REFERRER_POLICY));
  if (policy !== null) defaults.push(['Referrer-Policy', policy]);
  const opener = setting<string | null>('SECURE_CROSS_ORIGIN_OPENER_POLICY', DEFAULT_CROSS_ORIGIN_OPENER_POLICY);
  if (opener) defaults.push(['Cross-Origin-Opener-Policy', opener]);
  cachedHeaders = { hsts, defaults };
  return cachedHeaders;
}

/**
 * Adds the security headers the settings ask for and, with `SECURE_SSL_REDIRECT`, sends plain
 * HTTP requests to HTTPS. List it first in `MIDDLEWARE`, so every answer (error pages
 * included) carries the headers.
 */
export class SecurityMiddleware extends MiddlewareMixin {
  /** Redirect to HTTPS when `SECURE_SSL_REDIRECT` is on and the path is not exempt. */
  override processRequest(request: HttpRequest): HttpResponse | null {
    if (!setting('SECURE_SSL_REDIRECT', false) || request.isSecure()) return null;
    const path = request.path.replace(/^\/+/, '');
    if (redirectExemptPatterns().some((pattern) => pattern.test(path))) return null;
    const host = setting<string | null>('SECURE_SSL_HOST', null) || request.getHost();
    return new HttpResponsePermanentRedirect(`https://${host}${request.getFullPath()}`);
  }

  /**
   * Add HSTS (HTTPS only), nosniff, the XSS filter, the referrer policy and the cross-origin
   * opener policy, unless set already.
   */
  override processResponse(request: HttpRequest, response: HttpResponse): HttpResponse {
    const headers = securityHeaders();
    if (headers.hsts !== null && request.isSecure() && !response.hasHeader('Strict-Transport-Security')) {
      response.setHeader('Strict-Transport-Security', headers.hsts);
    }
    const defaults = headers.defaults;
    for (let i = 0; i < defaults.length; i++) {
      const name = defaults[i][0];
      if (!response.hasHeader(name)) response.setHeader(name, defaults[i][1]);
    }
    return response;
  }
}
