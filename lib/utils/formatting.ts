/**
 * Utility functions to turn view class names and descriptions into the names and texts
 * shown by the browsable API and OPTIONS responses.
 */
import { marked } from 'marked';

/** Remove `trailing` from the end of `content`, unless that would leave nothing. */
export function removeTrailingString(content: string, trailing: string): string {
  if (content.endsWith(trailing) && content !== trailing) return content.slice(0, -trailing.length);
  return content;
}

/**
 * Remove leading indent from a block of text: the smallest indent of the lines after the
 * first (blank lines ignored) is removed from every line, then the text is stripped.
 */
export function dedent(content: string): string {
  const lines = content.split(/\r\n|\r|\n/).slice(1).filter((line) => line.trimStart());
  let result = content;
  if (lines.length > 0) {
    const spaces = Math.min(...lines.map((line) => line.length - line.replace(/^ +/, '').length));
    const tabs = Math.min(...lines.map((line) => line.length - line.replace(/^\t+/, '').length));
    if (spaces) result = result.replace(new RegExp(`^ {${spaces}}`, 'gm'), '');
    else if (tabs) result = result.replace(new RegExp(`^\\t{${tabs}}`, 'gm'), '');
  }
  return result.trim();
}

/** Python's `str.title()`: upper-case the first letter of every run of letters, lower the rest. */
export function titleCase(text: string): string {
  return text.replace(/\p{L}+/gu, (word) => word[0].toUpperCase() + word.slice(1).toLowerCase());
}

/** Translate 'CamelCaseNames' to 'Camel Case Names'; underscores become spaces too. */
export function camelcaseToSpaces(content: string): string {
  const spaced = content.replace(/((?<=[a-z])[A-Z])|([A-Z](?![A-Z]|$))/g, ' $&').trim();
  return titleCase(spaced.split('_').join(' '));
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** Escape text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

/** Render a description as HTML: Markdown through `marked`. */
export function markupDescription(description: string): string {
  return marked.parse(description, { async: false });
}
