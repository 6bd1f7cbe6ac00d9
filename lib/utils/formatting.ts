/**
 * Utility functions to turn view class names and descriptions into the names and texts
 * shown by the browsable API and OPTIONS responses.
 */
import type { Marked, Tokens } from 'marked';
import { iriToUri } from '../core/encoding';
import { escapeHtml } from '../core/html';

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


// The named references that matter in URLs; any other one stays literal text (the output
// escapes `&`, so the browser never decodes what was not decoded here).
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', sol: '/', quest: '?', num: '#',
  equals: '=', percnt: '%', period: '.', Tab: '\t', NewLine: '\n', nbsp: '\u00a0',
};

/** Decode the character references a Markdown link destination may hold (`&amp;`, `&#58;`). */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([a-zA-Z]+));/g, (whole, hex?: string, dec?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? whole;
    const code = hex !== undefined ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

const SAFE_URL_SCHEMES = new Set(['http', 'https', 'mailto', 'ftp']);

/**
 * The URL a browser would follow for a Markdown link destination, or null when it is not a
 * relative URL or an http(s)/mailto/ftp one (`javascript:`, `data:`, `vbscript:`... are refused).
 * Entities are decoded and the tabs, newlines and surrounding control characters browsers
 * ignore are dropped before the scheme is read, so `java&#x09;script:` is refused too.
 */
export function safeLinkUrl(href: string): string | null {
  // eslint-disable-next-line no-control-regex
  const url = decodeEntities(href).replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1];
  if (scheme !== undefined && !SAFE_URL_SCHEMES.has(scheme.toLowerCase())) return null;
  return iriToUri(url);
}

function titleAttribute(title: string | null | undefined): string {
  return title ? ` title="${escapeHtml(decodeEntities(title))}"` : '';
}

// Raw HTML in the Markdown source is shown as text; links and images keep only safe URLs
// (otherwise their text is shown); every attribute is escaped here rather than by `marked`,
// which leaves character references in URLs for the browser to decode.
function createDescriptionMarkdown(): Marked {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Marked: MarkedClass } = require('marked') as typeof import('marked');
  return new MarkedClass({
    gfm: true,
    renderer: {
      html(token: Tokens.HTML | Tokens.Tag): string {
        return escapeHtml(token.text);
      },
      link(token: Tokens.Link): string {
        const text = this.parser.parseInline(token.tokens);
        const href = safeLinkUrl(token.href);
        return href === null ? text : `<a href="${escapeHtml(href)}"${titleAttribute(token.title)}>${text}</a>`;
      },
      image(token: Tokens.Image): string {
        const src = safeLinkUrl(token.href);
        if (src === null) return escapeHtml(token.text);
        return `<img src="${escapeHtml(src)}" alt="${escapeHtml(token.text)}"${titleAttribute(token.title)}>`;
      },
    },
  });
}

/** Built on first use: `marked` loads only when a description is rendered (browsable API). */
let descriptionMarkdown: Marked | null = null;

/**
 * Render a view description as HTML: Markdown (GitHub flavour). The result is safe to put in
 * a page: raw HTML in the description is escaped, and links or images whose URL is not
 * relative, http(s), mailto or ftp are reduced to their text. Override the
 * `VIEW_DESCRIPTION_FUNCTION` setting to render descriptions differently.
 */
export function markupDescription(description: string): string {
  if (!descriptionMarkdown) descriptionMarkdown = createDescriptionMarkdown();
  return descriptionMarkdown.parse(description, { async: false });
}
