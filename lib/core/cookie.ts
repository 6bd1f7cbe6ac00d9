/**
 * Cookie values as the host framework reads and writes them: `parseCookie()` is its
 * `parse_cookie()` (the request's `Cookie:` header to a name -> value map), and
 * `quoteCookieValue()`/`unquoteCookieValue()` are the quoting rules of its cookie module, so a
 * value written in a `Set-Cookie` header reads back unchanged.
 */

// The characters the host's `str.strip()` removes (its `str.isspace()` set), which differs
// from `String.prototype.trim()` (U+001C-U+001F and U+0085 are spaces there, U+FEFF is not).
const PY_SPACE = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000';
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

function strip(text: string): string {
  return text.replace(STRIP, '');
}

// A value made only of these characters is written as it is; any other value is quoted.
const LEGAL_VALUE = /^[A-Za-z0-9!#$%&'*+\-.^_`|~:]+$/;
// Inside quotes these are kept as they are; `"` and `\` are backslash-escaped and every other
// character below U+0100 becomes a three-digit octal escape (`;` -> `\073`, `é` -> `\351`).
const UNESCAPED = /[A-Za-z0-9!#$%&'*+\-.^_`|~: ()/<=>?@[\]{}]/;

/**
 * Quote a cookie value for a `Set-Cookie` header as the host's cookie module does: a value of
 * token characters is kept, anything else (including the empty value) is written in double
 * quotes with `"`/`\` escaped and other special characters as octal escapes.
 */
export function quoteCookieValue(value: string): string {
  if (LEGAL_VALUE.test(value)) return value;
  let out = '"';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code < 0x100 && !UNESCAPED.test(char)) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/**
 * Undo `quoteCookieValue()`: a value in double quotes loses them and its `\ooo` octal and
 * `\x` escapes are resolved; any other value is returned unchanged.
 */
export function unquoteCookieValue(value: string): string {
  if (value.length < 2 || value[0] !== '"' || value[value.length - 1] !== '"') return value;
  const inner = value.slice(1, -1);
  let out = '';
  for (let i = 0; i < inner.length; ) {
    const char = inner[i];
    if (char === '\\') {
      const octal = /^[0-3][0-7][0-7]/.exec(inner.slice(i + 1, i + 4));
      if (octal) {
        out += String.fromCharCode(parseInt(octal[0], 8));
        i += 4;
        continue;
      }
      // A backslash escapes the next character, except a line feed (or nothing at all).
      if (i + 1 < inner.length && inner[i + 1] !== '\n') {
        out += inner[i + 1];
        i += 2;
        continue;
      }
    }
    out += char;
    i += 1;
  }
  return out;
}

/**
 * The cookies of a `Cookie:` header, as the host framework's `parse_cookie()` reads them: the
 * header is split on `;`, each chunk on its first `=` (a chunk without one is a value with an
 * empty name), names and values are stripped of spaces, quoted values unquoted, and a repeated
 * name keeps its LAST value. Values are not percent-decoded. The result has no prototype, so
 * names such as `__proto__` or `constructor` are plain keys.
 */
export function parseCookie(header: string): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const chunk of header.split(';')) {
    const eq = chunk.indexOf('=');
    const key = strip(eq >= 0 ? chunk.slice(0, eq) : '');
    const value = strip(eq >= 0 ? chunk.slice(eq + 1) : chunk);
    if (key || value) cookies[key] = unquoteCookieValue(value);
  }
  return cookies;
}

/**
 * The `Cookie:` header as text, as the host framework reads it from the server: node hands
 * header bytes over as latin-1 characters, which are read again as UTF-8 (undecodable bytes
 * become U+FFFD). A header holding characters above U+00FF was built in-process from a
 * JavaScript string and is kept as it is.
 */
export function cookieHeaderText(header: string | string[] | undefined): string {
  if (header === undefined) return '';
  const text = Array.isArray(header) ? header.join('; ') : header;
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text) || /[^\x00-\xff]/.test(text)) return text;
  return Buffer.from(text, 'latin1').toString('utf8');
}
