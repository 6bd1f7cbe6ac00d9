/**
 * The `Content-Security-Policy` of the framework's own HTML pages (the browsable API, its login
 * pages, the admin): their scripts, styles and images are served by the project itself, so
 * `default-src 'self'` fits, with no inline script at all. The few inline `style` attributes the
 * original's markup carries (pagination, search box, ordering tick) are allowed by their hashes
 * only.
 *
 * The `CONTENT_SECURITY_POLICY` setting replaces the policy (a string), or turns it off (null).
 * A header the view already set is kept.
 */
import crypto from 'node:crypto';
import { settings } from './conf';
import type { HttpResponse } from './http';

/**
 * The inline `style` attribute values of the original's markup kept byte for byte: the
 * pagination list (lib/templates/pagination.ts), the search filter's box and the ordering
 * filter's tick (lib/filters.ts).
 */
export const ALLOWED_INLINE_STYLES: readonly string[] = ['margin: 5px 0 10px 0', 'width: 350px', 'float: right'];

function styleHash(value: string): string {
  return `'sha256-${crypto.createHash('sha256').update(value, 'utf8').digest('base64')}'`;
}

/** The policy of the framework's pages when `CONTENT_SECURITY_POLICY` is not set. */
export const DEFAULT_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `style-src 'self' 'unsafe-hashes' ${ALLOWED_INLINE_STYLES.map(styleHash).join(' ')}`,
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** The policy to send (the setting, or the default); null when turned off. */
export function contentSecurityPolicy(): string | null {
  const value = settings.CONTENT_SECURITY_POLICY;
  if (value === undefined) return DEFAULT_CONTENT_SECURITY_POLICY;
  if (value === null || value === '') return null;
  return String(value);
}

/**
 * Give an HTML page of the framework its `Content-Security-Policy` (unless the response has one
 * or the setting turns it off). Call it from views and renderers that produce such pages.
 */
export function applyContentSecurityPolicy<R extends HttpResponse>(response: R): R {
  const policy = contentSecurityPolicy();
  if (policy !== null && !response.hasHeader('Content-Security-Policy')) response.setHeader('Content-Security-Policy', policy);
  return response;
}
