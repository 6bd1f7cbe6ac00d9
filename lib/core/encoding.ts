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
