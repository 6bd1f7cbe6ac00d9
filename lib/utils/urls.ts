/**
 * Query-string helpers used by pagination links and the browsable API: set, replace or remove
 * one query parameter of an absolute URL while keeping the others.
 *
 * The output matches the original's: the parameters are re-encoded with `+` for spaces and
 * sorted by name, so a link is byte-for-byte what a client of the original sees.
 */

/** Percent-encode like Python's `quote_plus` (only `A-Za-z0-9_.-~` stay as they are). */
export function quotePlus(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

const utf8 = new TextDecoder('utf-8');

/**
 * Decode like Python's `unquote_plus`: `+` is a space, `%XX` escapes are bytes read as UTF-8
 * with each invalid sequence replaced by U+FFFD (so `%FF` becomes `\uFFFD`, re-encoded later
 * as `%EF%BF%BD`, never `%25FF`); a `%` not followed by two hex digits stays as it is.
 */
export function unquotePlus(value: string): string {
  const text = value.replace(/\+/g, ' ');
  if (!text.includes('%')) return text;
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    return utf8.decode(bytes);
  });
}

/** Parse a query string into name -> values, keeping blank values (Python's `parse_qs`). */
export function parseQuery(query: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const field of query.split('&')) {
    if (!field) continue;
    const eq = field.indexOf('=');
    const name = unquotePlus(eq === -1 ? field : field.slice(0, eq));
    const value = eq === -1 ? '' : unquotePlus(field.slice(eq + 1));
    const values = result.get(name);
    if (values) values.push(value);
    else result.set(name, [value]);
  }
  return result;
}

/** Encode name -> values sorted by name (Python's `urlencode(sorted(...), doseq=True)`). */
export function encodeQuery(params: Map<string, string[]>): string {
  const names = [...params.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const parts: string[] = [];
  for (const name of names) {
    for (const value of params.get(name) ?? []) parts.push(`${quotePlus(name)}=${quotePlus(value)}`);
  }
  return parts.join('&');
}

interface SplitUrl {
  base: string;
  query: string;
  fragment: string;
}

function splitUrl(url: string): SplitUrl {
  let rest = url;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash !== -1) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  const question = rest.indexOf('?');
  if (question === -1) return { base: rest, query: '', fragment };
  return { base: rest.slice(0, question), query: rest.slice(question + 1), fragment };
}

function joinUrl({ base, query, fragment }: SplitUrl): string {
  return `${base}${query ? `?${query}` : ''}${fragment ? `#${fragment}` : ''}`;
}

/** Return `url` with the query parameter `key` set to `value` (replacing any values it had). */
export function replaceQueryParam(url: string, key: string, value: string | number): string {
  const parts = splitUrl(url);
  const params = parseQuery(parts.query);
  params.set(key, [String(value)]);
  return joinUrl({ ...parts, query: encodeQuery(params) });
}

/** Return `url` without the query parameter `key`. */
export function removeQueryParam(url: string, key: string): string {
  const parts = splitUrl(url);
  const params = parseQuery(parts.query);
  params.delete(key);
  return joinUrl({ ...parts, query: encodeQuery(params) });
}
