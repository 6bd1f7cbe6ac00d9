/**
 * The small HTML helpers shared by the framework's built-in templates (pagination and filter
 * controls of the browsable API). Templates are plain functions of a typed context.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

/** Escape text for HTML element content and attribute values, as the host framework's `escape`. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

/** A template: a function from its context to an HTML fragment. */
export type TemplateFunction<C> = (context: C) => string;
