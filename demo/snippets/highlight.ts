/**
 * Renders a snippet as the full HTML document stored in `Snippet.highlighted`: the code
 * highlighted by highlight.js, the style's CSS inline, the title (when set) and a line-number
 * table (when `linenos`). Like the original's Pygments `HtmlFormatter(full=True)`.
 */
import { highlightHtml, highlightLanguage } from './languages';
import { themeCss } from './themes';

/** What `highlightDocument()` needs of a snippet. */
export interface HighlightOptions {
  code: string;
  language: string;
  style: string;
  linenos: boolean;
  title?: string | null;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** Layout of the line-number table and the page; the theme's CSS follows it. */
const LAYOUT_CSS = [
  'body{margin:1em;font-family:sans-serif}',
  'pre{margin:0;line-height:125%;font-family:monospace}',
  'table.highlighttable{border-spacing:0;border-collapse:collapse}',
  'td.linenos{vertical-align:top;padding:1em .5em 1em 1em;text-align:right;color:#999;background:#f5f5f5;user-select:none}',
  'td.code{vertical-align:top;padding:0;width:100%}',
].join('\n');

/**
 * The highlighted HTML body: `<pre><code class="hljs">...</code></pre>`, in a line-number
 * table when `linenos` is set. Everything from the snippet is escaped by highlight.js.
 */
export function highlightCode(options: HighlightOptions): string {
  // Pygments' lexers end the text with a newline; trailing blank lines are kept as it keeps them.
  const code = options.code.endsWith('\n') ? options.code : `${options.code}\n`;
  const language = highlightLanguage(options.language);
  const value = highlightHtml(code, language);
  const block = `<div class="highlight"><pre><code class="hljs language-${escapeHtml(language)}">${value}</code></pre></div>`;
  if (!options.linenos) return block;
  const lines = code.slice(0, -1).split('\n').length;
  const numbers = Array.from({ length: lines }, (_, index) => String(index + 1)).join('\n');
  return '<table class="highlighttable"><tr>'
    + `<td class="linenos"><div class="linenodiv"><pre>${numbers}</pre></div></td>`
    + `<td class="code">${block}</td>`
    + '</tr></table>';
}

/** The document from `</title>` to `<body>`, per style: its layout and theme CSS. */
const headTails = new Map<string, string>();

function headTail(style: string): string {
  let tail = headTails.get(style);
  if (tail === undefined) {
    tail = ['</title>', '  <style>', LAYOUT_CSS, themeCss(style), '  </style>', '</head>', '<body>', ''].join('\n');
    // Bounded: a style outside the choices (set by code) is rendered each time past this many.
    if (headTails.size < 64) headTails.set(style, tail);
  }
  return tail;
}

/** The whole HTML document stored as `Snippet.highlighted`. */
export function highlightDocument(options: HighlightOptions): string {
  const title = options.title ? escapeHtml(options.title) : '';
  return '<!DOCTYPE html>\n<html>\n<head>\n  <meta charset="utf-8">\n  <title>' + title + headTail(options.style)
    + (title ? `<h2>${title}</h2>\n` : '') + '\n' + highlightCode(options) + '\n</body>\n</html>\n';
}
