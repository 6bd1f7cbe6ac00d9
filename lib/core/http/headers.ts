/**
 * Reading request headers: the Content-Type's media type and parameters, and the names of
 * headers in `META` (`HTTP_X_FORWARDED_FOR`, `CONTENT_TYPE`).
 */

// The host's `bytes.strip()` / `bytes.lower()`: ASCII whitespace and ASCII letters only.
const ASCII_SPACE = /^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g;

function asciiStrip(text: string): string {
  return text.replace(ASCII_SPACE, '');
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/**
 * The `;`-separated pieces of a header value, stripped: a `;` inside a quoted string (an odd
 * number of `"` before it) does not separate, as in the host's `_parse_header_params()`.
 */
function headerPieces(line: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === '"') inQuotes = !inQuotes;
    else if (char === ';' && !inQuotes) {
      pieces.push(asciiStrip(line.slice(start, i)));
      start = i + 1;
    }
  }
  pieces.push(asciiStrip(line.slice(start)));
  return pieces;
}

/** The decoder of a charset label, also under the host's spellings (`latin-1`, `utf_8`). */
function decoderFor(charset: string): TextDecoder | null {
  const label = charset.toLowerCase().replace(/_/g, '-');
  for (const candidate of [label, label.replace(/-/g, '')]) {
    try {
      return new TextDecoder(candidate);
    } catch {
      // not a label the runtime knows; try the next spelling
    }
  }
  return null;
}

/** `%XX` escapes decoded as bytes of `charset` (undecodable bytes become U+FFFD). */
function percentDecode(text: string, charset: string): string | null {
  const decoder = decoderFor(charset);
  if (decoder === null) return null;
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => decoder.decode(Uint8Array.from(run.slice(1).split('%'), (hex) => parseInt(hex, 16))));
}

/** Options of `parseHeader()`. */
export interface ParseHeaderOptions {
  /**
   * Read RFC 2231 extended parameters (`name*=UTF-8''caf%C3%A9`) as the host's multipart
   * parser does: the `*` is dropped and the value percent-decoded in its charset (a charset
   * the runtime does not know leaves the value as written). Default true; false reads them as
   * plain parameters named `name*`, as the host's `cgi.parse_header()` does.
   */
  extendedNames?: boolean;
}

/**
 * Parse a header value of the form `main; name=value; name="quoted; value"` into its main value
 * (stripped, lower case) and parameters, as the host framework's `parse_header()` does (RFC
 * 7231 section 3.1.1.1): parameters are split on `;` outside quoted strings, names are
 * stripped and lower-cased, a value in double quotes loses them and its `\\` / `\"` escapes,
 * a piece without `=` is ignored, and a repeated name keeps its last value.
 */
export function parseHeader(line: string, options: ParseHeaderOptions = {}): { key: string; params: Record<string, string> } {
  const [main, ...pieces] = headerPieces(line);
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const piece of pieces) {
    const eq = piece.indexOf('=');
    if (eq < 0) continue;
    let name = asciiLower(asciiStrip(piece.slice(0, eq)));
    let extended = false;
    if (options.extendedNames !== false && name.endsWith('*')) {
      name = name.slice(0, -1);
      extended = piece.split("'").length === 3;
    }
    let value = asciiStrip(piece.slice(eq + 1));
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1).replace(/\\\\/g, '\\').replace(/\\"/g, '"');
    }
    const parts = extended ? value.split("'") : [];
    if (parts.length === 3) value = percentDecode(parts[2], parts[0]) ?? value;
    params[name] = value;
  }
  return { key: asciiLower(main), params };
}

/** The media type (lower case) and parameters of a Content-Type header value. */
export function splitContentType(value: string): { type: string; params: Record<string, string> } {
  const { key, params } = parseHeader(value, { extendedNames: false });
  return { type: key, params: { ...params } };
}

// Header names repeat from request to request: their META keys are computed once (bounded,
// so a client inventing names cannot grow it without limit).
const metaKeys = new Map<string, string>();
const MAX_META_KEYS = 1000;

/** The META key of a (lower-case) header name: `HTTP_X_FORWARDED_FOR`, `CONTENT_TYPE`. */
export function metaKey(name: string): string {
  let key = metaKeys.get(name);
  if (key === undefined) {
    const upper = name.toUpperCase().replace(/-/g, '_');
    key = upper === 'CONTENT_TYPE' || upper === 'CONTENT_LENGTH' ? upper : `HTTP_${upper}`;
    if (metaKeys.size < MAX_META_KEYS) metaKeys.set(name, key);
  }
  return key;
}

// The META keys code asks for repeat too: their header names are computed once (bounded).
const headerNames = new Map<string, string | null>();

/** The lower-case header name a META key stands for (`HTTP_ACCEPT` -> `accept`), or null. */
export function headerNameFor(key: string): string | null {
  let name = headerNames.get(key);
  if (name === undefined) {
    if (key === 'CONTENT_TYPE' || key === 'CONTENT_LENGTH') name = key.toLowerCase().replace('_', '-');
    else if (!key.startsWith('HTTP_') || key === 'HTTP_CONTENT_TYPE' || key === 'HTTP_CONTENT_LENGTH') name = null;
    else name = key.slice(5).toLowerCase().replace(/_/g, '-');
    if (headerNames.size < MAX_META_KEYS) headerNames.set(key, name);
  }
  return name;
}
