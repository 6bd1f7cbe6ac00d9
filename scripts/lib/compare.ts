/**
 * Comparing one request's answers from the reference and from the demo: status, body bytes
 * and a fixed set of headers, after normalising the values that legitimately differ between
 * two servers (token keys, datetimes of the run, cursor tokens, CSRF tokens, session ids,
 * cookie expiry dates).
 */
import type { Case, Side } from './cases';

/** What one side answered. */
export interface Observed {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[]>;
  setCookie: string[];
  body: Buffer;
}

/** The outcome of one comparison: what differs, and (for --verbose) what was compared. */
export interface Report {
  differences: string[];
  details: string[];
}

/** The headers compared on every request. */
export const COMPARED_HEADERS = [
  'content-type', 'allow', 'vary', 'www-authenticate', 'retry-after', 'location', 'link',
  'x-frame-options', 'x-content-type-options', 'referrer-policy', 'content-language',
];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `YYYY-MM-DD` of yesterday, today and tomorrow (UTC): dates a run can stamp on rows. */
function runDates(): string[] {
  const now = Date.now();
  return [-1, 0, 1].map((offset) => {
    const date = new Date(now + offset * 86_400_000);
    return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  });
}

const DATES = runDates();
const DATETIME = /(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g;

/**
 * Replace what differs between two honest servers: the side's token keys, datetimes of this
 * run (`created`; fixed inputs such as `2024-01-02T03:04:05Z` stay), cursor tokens, CSRF
 * tokens and session ids.
 */
export function normalise(text: string, side: Side): string {
  let out = text;
  if (side.token) out = out.split(side.token).join('<TOKEN:alice>');
  if (side.carolToken) out = out.split(side.carolToken).join('<TOKEN:carol>');
  for (const [name, value] of Object.entries(side.vars)) if (value && name.startsWith('secret:')) out = out.split(value).join(`<${name.slice(7)}>`);
  out = out.replace(/("token":\s*")[0-9a-f]{40}"/g, '$1<TOKEN>"');
  out = out.replace(DATETIME, (match, date: string) => (DATES.includes(date) ? '<DATETIME>' : match));
  out = out.replace(/([?&](?:amp;)?cursor=)[A-Za-z0-9%_.=-]+/g, '$1<CURSOR>');
  out = out.replace(/(name="csrfmiddlewaretoken" value=")[^"]*"/g, '$1<CSRF>"');
  out = out.replace(/(csrfToken["']?\s*[:=]\s*["'])[^"']*["']/g, '$1<CSRF>"');
  return out;
}

/** A Set-Cookie header with its value and expiry normalised: `name=<value>; Max-Age=...; Path=/`. */
export function normaliseCookie(header: string): string {
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  const eq = pair.indexOf('=');
  const name = pair.slice(0, eq);
  const value = pair.slice(eq + 1);
  const shown = value === '' || value === '""' ? value : '<value>';
  const attrs = attributes
    .filter(Boolean)
    .map((attribute) => (/^expires=/i.test(attribute) ? 'expires=<date>' : attribute))
    .map((attribute) => attribute.replace(/^(\w[\w-]*)/, (key) => key.toLowerCase()))
    .sort();
  return [`${name}=${shown}`, ...attrs].join('; ');
}

function headerValue(observed: Observed, name: string, side: Side): string | null {
  const value = observed.headers[name];
  if (value === undefined) return null;
  return normalise(Array.isArray(value) ? value.join(', ') : value, side);
}

function sortList(value: string | null): string | null {
  return value === null ? null : value.split(',').map((item) => item.trim()).sort().join(', ');
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '');
}

/**
 * What is compared of an HTML page (browsable API, login): the text of its
 * `<pre class="prettyprint">` panes (request line, status, headers, body), or, for pages
 * without them, the names of its form fields.
 */
export function pageSummary(html: string): string {
  const panes = [...html.matchAll(/<pre class="prettyprint[^"]*">([\s\S]*?)<\/pre>/g)].map((match) => stripTags(match[1]).trim());
  if (panes.length) return panes.join('\n----\n');
  const fields = [...new Set([...html.matchAll(/<(?:input|textarea|select|button)\b[^>]*\bname="([^"]+)"/g)].map((match) => match[1]))].sort();
  return `form fields: ${fields.join(', ')}`;
}

/** The visible text of an HTML page: no head, styles or scripts, tags stripped, spaces collapsed. */
export function visibleText(html: string): string {
  return stripTags(html.replace(/<head>[\s\S]*?<\/head>|<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

function bodyText(testCase: Case, observed: Observed, side: Side): string {
  const text = observed.body.toString('utf8');
  if (testCase.compareBody === 'none') return '<not compared>';
  if (testCase.compareBody === 'page') return normalise(pageSummary(text), side);
  if (testCase.compareBody === 'text') return normalise(visibleText(text), side);
  return normalise(text, side);
}

function show(text: string, limit = 400): string {
  const json = JSON.stringify(text);
  return json.length > limit ? `${json.slice(0, limit)}…(${text.length} chars)` : json;
}

/** The two texts around their first difference. */
export function firstDifference(a: string, b: string, context = 80): [string, string, number] {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const start = Math.max(0, i - context);
  const cut = (text: string) => `${start > 0 ? '…' : ''}${text.slice(start, i + context)}${i + context < text.length ? '…' : ''}`;
  return [cut(a), cut(b), i];
}

/** Compare the reference's answer (`expected`) with the demo's (`actual`). */
export function compareResponses(testCase: Case, refSide: Side, expected: Observed, demoSide: Side, actual: Observed): Report {
  const differences: string[] = [];
  const details: string[] = [];
  details.push(`status ${expected.status}`);
  if (expected.status !== actual.status) differences.push(`status: reference ${expected.status}, demo ${actual.status}`);

  for (const name of COMPARED_HEADERS) {
    let want = headerValue(expected, name, refSide);
    let got = headerValue(actual, name, demoSide);
    if (name === 'allow' && testCase.allowUnordered) [want, got] = [sortList(want), sortList(got)];
    if (want !== null) details.push(`${name}: ${want}`);
    if (want !== got) differences.push(`${name}: reference ${show(String(want))}, demo ${show(String(got))}`);
  }
  const wantCookies = expected.setCookie.map(normaliseCookie).sort();
  const gotCookies = actual.setCookie.map(normaliseCookie).sort();
  if (wantCookies.length) details.push(`set-cookie: ${wantCookies.join(' | ')}`);
  if (wantCookies.join('\n') !== gotCookies.join('\n')) {
    differences.push(`set-cookie: reference ${show(wantCookies.join(' | '))}, demo ${show(gotCookies.join(' | '))}`);
  }

  const want = bodyText(testCase, expected, refSide);
  const got = bodyText(testCase, actual, demoSide);
  details.push(`body: ${show(want, 1000)}`);
  if (want !== got) {
    if (want.length + got.length <= 600) {
      differences.push(`body: reference ${show(want)}`, `      demo      ${show(got)}`);
    } else {
      const [a, b, at] = firstDifference(want, got);
      differences.push(`body differs at char ${at} (lengths ${want.length} / ${got.length}):`, `      reference ${show(a, 1000)}`, `      demo      ${show(b, 1000)}`);
    }
  }
  return { differences, details };
}
