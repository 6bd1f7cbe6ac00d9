/**
 * Conversions between IRIs (URLs that may hold any Unicode text) and URIs (ASCII only), as the
 * host framework's `django.utils.encoding` does them.
 */

// RFC 3986 reserved characters (gen-delims and sub-delims), the unreserved ones, and `%`
// (RFC 3987 section 3.1: an existing escape is never converted again). Anything else is
// percent-encoded as UTF-8.
const NOT_ALLOWED_IN_URI = /[^A-Za-z0-9_.\-~/#%[\]=:;$&()+,!?*@']+/g;

const PERCENT_BYTE: readonly string[] = Array.from({ length: 256 }, (_, byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`);

function percentEncode(run: string): string {
  let out = '';
  // Buffer.from encodes a lone surrogate as U+FFFD rather than throwing.
  for (const byte of Buffer.from(run, 'utf8')) out += PERCENT_BYTE[byte];
  return out;
}

/**
 * Convert an IRI (or any URL text) into a URI that can go into a header such as `Location`:
 * characters a URI may not hold (spaces, quotes, `<>`, `\`, `^`, `{|}`, control characters,
 * non-ASCII) are percent-encoded as UTF-8, while reserved characters and existing `%XX`
 * escapes are kept, so `/login/?next=%2Fadmin%2F` stays as it is and `/café/` becomes
 * `/caf%C3%A9/`. The result is idempotent: converting it again changes nothing. Use it when
 * a URL built from user or database text is sent to a client.
 */
export function iriToUri(iri: string): string;
/** `null` and `undefined` pass through unchanged. */
export function iriToUri(iri: string | null | undefined): string | null | undefined;
export function iriToUri(iri: string | null | undefined): string | null | undefined {
  if (iri === null || iri === undefined) return iri;
  return String(iri).replace(NOT_ALLOWED_IN_URI, percentEncode);
}

// The characters a path keeps when it is escaped for a URL: letters, digits, `_.-~` and the
// host framework's safe set `/:@&+$,-_.!~*'()`. `%` is not among them, so an existing escape is
// escaped again (the path being escaped is already decoded text).
const PATH_SAFE = /^[A-Za-z0-9_.\-~/:@&+$,!*'()]*$/;
const NOT_PATH_SAFE = /[^A-Za-z0-9_.\-~/:@&+$,!*'()]+/g;

/**
 * Escape the unsafe characters of a decoded URL path, as the host framework's
 * `escape_uri_path()` does: everything but letters, digits and `/:@&+$,-_.!~*'()` is
 * percent-encoded as UTF-8 (`%` and `?`, `#`, `;`, `=` included), so `/a b/%00` becomes
 * `/a%20b/%2500` and `/café/` becomes `/caf%C3%A9/`. Control characters never survive.
 */
export function escapeUriPath(path: string): string {
  if (PATH_SAFE.test(path)) return path;
  return path.replace(NOT_PATH_SAFE, percentEncode);
}

/** The valid range of the byte after `lead` in UTF-8 (excludes overlong forms and surrogates). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/**
 * The length of the UTF-8 sequence starting at `i`: positive when it is valid, negative (minus
 * the length of the broken part, as a strict UTF-8 decoder reports it) when it is not.
 */
function utf8SequenceAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i];
  if (lead < 0x80) return 1;
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length === 0) return -1;
  for (let k = 1; k < length; k++) {
    if (i + k >= bytes.length) return -(bytes.length - i);
    const [low, high] = k === 1 ? secondByteRange(lead) : [0x80, 0xbf];
    if (bytes[i + k] < low || bytes[i + k] > high) return -k;
  }
  return length;
}

/**
 * Percent-encode (`%FF`, upper case) every byte of `bytes` that is not part of a valid UTF-8
 * sequence, keeping the rest, as the host framework's `repercent_broken_unicode()` does (RFC
 * 3987 section 3.2, step three of converting a URI into an IRI): the result always decodes.
 */
export function repercentBrokenUnicode(bytes: Uint8Array): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; ) {
    const length = utf8SequenceAt(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    parts.push(Buffer.from(bytes.subarray(start, i)));
    let escaped = '';
    for (const byte of bytes.subarray(i, i - length)) escaped += PERCENT_BYTE[byte];
    parts.push(Buffer.from(escaped, 'latin1'));
    i -= length;
    start = i;
  }
  if (start === 0) return Buffer.from(bytes);
  parts.push(Buffer.from(bytes.subarray(start)));
  return Buffer.concat(parts);
}

/**
 * The text of a request path as the host framework reads it: `%XX` escapes are decoded to
 * bytes (a malformed escape such as `%zz` is kept as it is), the bytes read as UTF-8, and the
 * bytes that are not valid UTF-8 percent-encoded again, so `/€/%ff/` reads `/€/%FF/`.
 * Characters of the path itself are taken as UTF-8.
 */
export function uriToPathText(rawPath: string): string {
  if (!/[%\u0080-\uffff]/.test(rawPath)) return rawPath;
  const bytes: number[] = [];
  for (let i = 0; i < rawPath.length; ) {
    if (rawPath[i] === '%' && /^[0-9a-fA-F]{2}$/.test(rawPath.slice(i + 1, i + 3))) {
      bytes.push(parseInt(rawPath.slice(i + 1, i + 3), 16));
      i += 3;
      continue;
    }
    const codePoint = rawPath.codePointAt(i) as number;
    const char = String.fromCodePoint(codePoint);
    for (const byte of Buffer.from(char, 'utf8')) bytes.push(byte);
    i += char.length;
  }
  return repercentBrokenUnicode(Uint8Array.from(bytes)).toString('utf8');
}
