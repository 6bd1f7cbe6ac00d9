/**
 * HTML helpers of the browsable API: the response body with its URLs turned into links
 * (everything else escaped). View descriptions are rendered safely by `markupDescription`
 * (lib/utils/formatting.ts).
 */
import { escapeHtml } from '../../lib/core/html';

// Absolute http(s) URLs as they appear in rendered JSON: they end at a quote, whitespace,
// an angle bracket or a backslash (an escape sequence inside a JSON string).
const URL_PATTERN = /https?:\/\/[^\s"'<>\\]+/g;

/**
 * Escape `content` for an HTML `<pre>` and turn absolute URLs into links, as the original's
 * `urlize_quoted_links` does. Both the link text and the `href` are escaped, so a value such
 * as `</script><img onerror=...>` is shown, never run.
 */
export function urlizeQuotedLinks(content: string): string {
  let out = '';
  let last = 0;
  for (const match of content.matchAll(URL_PATTERN)) {
    const index = match.index ?? 0;
    let url = match[0];
    // Trailing punctuation belongs to the text, not the link.
    const trailing = /[.,;:!?)\]}]+$/.exec(url);
    if (trailing) url = url.slice(0, -trailing[0].length);
    out += escapeHtml(content.slice(last, index));
    const escaped = escapeHtml(url);
    out += `<a href="${escaped}" rel="nofollow">${escaped}</a>`;
    last = index + url.length;
  }
  return out + escapeHtml(content.slice(last));
}
