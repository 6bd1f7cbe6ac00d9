/**
 * Handling of media types, as found in HTTP Content-Type and Accept headers.
 *
 * See RFC 9110, section 12.5.1 (Accept).
 */
import { parseHeader } from '../core/http/headers';

/** Split an Accept header's value into its media types. */
export function parseAcceptHeader(header: string): string[] {
  return header
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
}

/** A media type with its parameters, as parsed from a header. */
export class MediaType {
  readonly mainType: string;
  readonly subType: string;
  /**
   * Parameters (`q`, `charset`, `indent`, `version`, ...), names lower case, quoted values
   * unquoted (`parseHeader()`).
   */
  readonly params: Record<string, string>;
  readonly origString: string;

  constructor(mediaTypeStr: string | null | undefined) {
    this.origString = mediaTypeStr ?? '';
    // `;` inside a quoted parameter value (`version="1;0"`) does not separate parameters.
    const { key: full, params } = parseHeader(this.origString);
    this.params = params;
    const slash = full.indexOf('/');
    this.mainType = slash < 0 ? full : full.slice(0, slash);
    this.subType = slash < 0 ? '' : full.slice(slash + 1);
    const keys = Object.keys(params);
    if (this.mainType === '*') this.#precedence = 0;
    else if (this.subType === '*') this.#precedence = 1;
    else if (keys.length === 0 || (keys.length === 1 && keys[0] === 'q')) this.#precedence = 2;
    else this.#precedence = 3;
  }

  readonly #precedence: number;

  /** True when this media type satisfies `other`; this one's parameters (but `q`) must be in `other`. */
  match(other: MediaType): boolean {
    for (const key of Object.keys(this.params)) {
      if (key !== 'q' && other.params[key] !== this.params[key]) return false;
    }
    if (this.subType !== '*' && other.subType !== '*' && other.subType !== this.subType) return false;
    if (this.mainType !== '*' && other.mainType !== '*' && other.mainType !== this.mainType) return false;
    return true;
  }

  /**
   * How specific the media type is: 0 for `* / *`, 1 for `type/*`, 2 for `type/subtype`,
   * 3 for `type/subtype; param=value`.
   */
  get precedence(): number {
    return this.#precedence;
  }

  /** The full type, `main/sub`. */
  get fullType(): string {
    return `${this.mainType}/${this.subType}`;
  }

  toString(): string {
    let ret = this.fullType;
    for (const [key, value] of Object.entries(this.params)) ret += `; ${key}=${value}`;
    return ret;
  }
}

/**
 * True when the media type `lhs` (a parser's or renderer's) satisfies `rhs` (the request's
 * content type or an accepted type); wildcards match on either side, and every parameter of
 * `lhs` must appear in `rhs`.
 */
export function mediaTypeMatches(lhs: string, rhs: string): boolean {
  return parseMediaType(lhs).match(parseMediaType(rhs));
}

// Parsed media types by their text. Renderers' and parsers' types are a handful of constants
// and clients send the same few Accept and Content-Type values, so each text is parsed once;
// the cache is emptied when it grows past its bound (hostile clients can send any text).
const parsed = new Map<string, MediaType>();
const PARSED_LIMIT = 512;

/**
 * The `MediaType` of `text`, parsed once and shared: treat the result (and its `params`) as
 * read-only. Content negotiation and parser selection call this on every request.
 */
export function parseMediaType(text: string): MediaType {
  let mediaType = parsed.get(text);
  if (mediaType === undefined) {
    mediaType = new MediaType(text);
    Object.freeze(mediaType.params);
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    parsed.set(text, mediaType);
  }
  return mediaType;
}

/**
 * Group media types by precedence, most specific first: `[[type/sub; p=v], [type/sub],
 * [type/*], [* /*]]` (empty groups are left out).
 */
export function orderByPrecedence(mediaTypeLst: string[]): string[][] {
  const ret: string[][] = [[], [], [], []];
  for (const mediaType of mediaTypeLst) {
    const precedence = parseMediaType(mediaType).precedence;
    ret[3 - precedence].push(mediaType);
  }
  return ret.filter((group) => group.length > 0);
}
