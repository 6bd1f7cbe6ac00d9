/**
 * Where a login or logout may send the browser next: only to this site. A `next` value is
 * accepted when it is a path on this host (`/snippets/?page=2`) or an absolute http(s) URL
 * whose host is the request's own (https only when the request is secure); anything else —
 * other hosts, `//evil.example`, `/\evil.example`, `javascript:` URLs, control characters —
 * is ignored (the host framework's `url_has_allowed_host_and_scheme`).
 */
import type { HttpRequest } from '../../lib/core/http';

/** True when redirecting to `url` keeps the browser on the request's own site. */
export function isSafeRedirect(url: string | null | undefined, request: HttpRequest): boolean {
  if (!url) return false;
  const candidate = url.trim();
  // Browsers drop control characters and treat backslashes as slashes.
  // eslint-disable-next-line no-control-regex
  if (!candidate || /[\u0000-\u001f\u007f]/.test(candidate)) return false;
  const normalised = candidate.replace(/\\/g, '/');
  if (normalised.startsWith('/')) return !normalised.startsWith('//');
  let parsed: URL;
  try {
    parsed = new URL(normalised);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (request.isSecure() && parsed.protocol !== 'https:') return false;
  let host: string;
  try {
    host = request.getHost();
  } catch {
    return false;
  }
  return parsed.host.toLowerCase() === host.toLowerCase() && !parsed.username && !parsed.password;
}

/** `next` when it is safe, else `fallback`. */
export function safeRedirectTarget(next: string | null | undefined, request: HttpRequest, fallback = '/'): string {
  return next && isSafeRedirect(next, request) ? next.trim() : fallback;
}
