/**
 * HTML escaping, the host framework's `django.utils.html.escape`: the one copy every page of
 * the framework (the DEBUG and error pages, the CSRF failure page, the browsable API, the
 * admin, the schema docs) escapes text with.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

/** Escape text (any value, through `String()`) for HTML element content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}
