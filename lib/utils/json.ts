/**
 * The one JSON module of the framework: output byte-identical to the original's JSON
 * renderer (Python's `json.dumps` with its encoder), and a parser that reports errors with
 * Python's messages. Both are strict by default, as the original's `utils/json` wrapper:
 * `NaN`/`Infinity` raise unless `strict: false` (STRICT_JSON off for the renderer and parser).
 *
 * Numbers: JavaScript cannot tell `1` from `1.0`, so integral numbers print as integers
 * (`1`) and others like Python's float repr (`1e-05`, `1.5e+16`). Wrap a value in
 * `new JsonFloat(1)` to force the float spelling (`1.0`). `bigint` prints as an integer.
 *
 * Other values: `Date` -> ISO 8601 with `Z` and milliseconds (the original encoder's
 * datetime rule); `Buffer` -> its UTF-8 text; `Map` -> object; `Set` and other iterables ->
 * list; objects with `toJSON()` -> its result; `String`/`Number`/`Boolean` objects (such as
 * `ErrorDetail`) -> the primitive.
 */
import { isPlainObject } from '../core/typeGuards';

/** Options of `dumps`. */
export interface DumpsOptions {
  /** Pretty-print with this many spaces per level (Python's `indent`). */
  indent?: number | null;
  /** Escape every non-ASCII character as `\uXXXX` (default true, like Python). */
  ensureAscii?: boolean;
  /** Use `,` and `:` without spaces (the original's COMPACT_JSON). Ignored with `indent`. */
  compact?: boolean;
  /**
   * Reject NaN and infinities (default true, as the original's json wrapper sets
   * `allow_nan=False`); `strict: false` writes `NaN`/`Infinity`. The renderer passes STRICT_JSON.
   */
  strict?: boolean;
  /**
   * The deepest nesting of lists and objects written (default `DEFAULT_JSON_RENDER_MAX_DEPTH`); past it
   * a `JSONDepthError` is thrown instead of exhausting the stack.
   */
  maxDepth?: number;
}

/** The default nesting bound of `loads()` (the API framework's `JSON_MAX_DEPTH`). */
export const DEFAULT_JSON_MAX_DEPTH = 512;

/**
 * The default nesting bound of `dumps()`: deeper than anything `loads()` accepts by default
 * (a response may wrap parsed input), well within the stack.
 */
export const DEFAULT_JSON_RENDER_MAX_DEPTH = 1000;

/** Raised by `dumps()` past its `maxDepth`. */
export class JSONDepthError extends RangeError {
  override name = 'JSONDepthError';
  constructor(readonly maxDepth: number) {
    super(`Maximum nesting depth of ${maxDepth} exceeded`);
  }
}

/** A number that must print as a float (`1.0`), as Python prints its floats. */
export class JsonFloat {
  constructor(readonly value: number) {}

  /** The number. */
  valueOf(): number {
    return this.value;
  }
}

/** Raised by `loads` with Python's message, position, line and column. */
export class JSONDecodeError extends Error {
  override name = 'JSONDecodeError';

  constructor(
    readonly msg: string,
    readonly doc: string,
    readonly pos: number,
  ) {
    const lineno = doc.slice(0, pos).split('\n').length;
    const lastNewline = doc.lastIndexOf('\n', pos - 1);
    const colno = pos - lastNewline;
    super(`${msg}: line ${lineno} column ${colno} (char ${pos})`);
  }
}

const OUT_OF_RANGE = 'Out of range float values are not JSON compliant';

/** Format a float as Python's `repr()` does (shortest round-trip digits). */
export function floatRepr(value: number, strict = false): string {
  if (!Number.isFinite(value)) {
    if (strict) throw new RangeError(OUT_OF_RANGE);
    return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  }
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = value.toExponential().split('e');
  const exponent = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? '-' : '+';
    return `${sign}${mant}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const intLen = exponent + 1;
  if (digits.length <= intLen) return `${sign}${digits}${'0'.repeat(intLen - digits.length)}.0`;
  return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
}

function numberRepr(value: number, strict: boolean): string {
  if (Number.isSafeInteger(value)) return Object.is(value, -0) ? '0' : String(value);
  return floatRepr(value, strict);
}

/** The original encoder's datetime rule: ISO 8601, `Z` for UTC, milliseconds at most. */
export function isoDatetime(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new TypeError('Object of type Date is not JSON serializable (invalid date)');
  const iso = date.toISOString();
  return date.getUTCMilliseconds() === 0 ? `${iso.slice(0, 19)}Z` : iso;
}

const NON_ASCII = /[\u007f-\uffff]/g;

function quote(text: string, ensureAscii: boolean): string {
  const json = JSON.stringify(text);
  return ensureAscii ? escapeNonAscii(json) : json;
}

function isIterable(value: object): value is Iterable<unknown> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

type Entry = [string, unknown];

/** Reduce a value to a JSON primitive, a list or key/value entries. */
type Normalised = { kind: 'list'; items: unknown[] } | { kind: 'dict'; entries: Entry[] } | { kind: 'value'; value: unknown };

function normalise(value: unknown): Normalised {
  if (value instanceof JsonFloat) return { kind: 'value', value };
  if (value instanceof String || value instanceof Number || value instanceof Boolean) {
    return { kind: 'value', value: value.valueOf() };
  }
  if (value instanceof Date) return { kind: 'value', value: isoDatetime(value) };
  if (Buffer.isBuffer(value)) return { kind: 'value', value: value.toString('utf8') };
  if (value instanceof Uint8Array) return { kind: 'value', value: Buffer.from(value).toString('utf8') };
  if (Array.isArray(value)) return { kind: 'list', items: value };
  if (value instanceof Map) {
    return { kind: 'dict', entries: [...value].map(([k, v]: [unknown, unknown]) => [keyString(k), v] as Entry) };
  }
  if (value !== null && typeof value === 'object') {
    const withToJSON = value as { toJSON?: unknown };
    if (typeof withToJSON.toJSON === 'function') {
      return { kind: 'value', value: (withToJSON.toJSON as () => unknown).call(value) };
    }
    if (isIterable(value)) return { kind: 'list', items: [...value] };
    return { kind: 'dict', entries: Object.entries(value) };
  }
  return { kind: 'value', value };
}

function keyString(key: unknown): string {
  if (typeof key === 'string') return key;
  if (typeof key === 'number') return numberRepr(key, false);
  if (typeof key === 'boolean') return key ? 'true' : 'false';
  if (key === null) return 'null';
  if (key instanceof String) return key.valueOf();
  throw new TypeError(`keys must be str, int, float, bool or None, not ${typeof key}`);
}

function typeName(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'function';
  if (typeof value === 'symbol') return 'symbol';
  return typeof value;
}

/** A plain object the encoder writes as a JSON object key by key: no `toJSON`, not iterable. */
function isJsonMapping(value: object): value is Record<string, unknown> {
  return isPlainObject(value) && typeof value.toJSON !== 'function' && !isIterable(value);
}

function isSkipped(item: unknown): boolean {
  return item === undefined || typeof item === 'function' || typeof item === 'symbol';
}

/** True for numbers that `JSON.stringify` spells as Python's `repr()` does. */
function isPlatformNumber(value: number): boolean {
  if (Number.isSafeInteger(value)) return !Object.is(value, -0);
  // Both print the shortest round-trip digits; they agree on plain decimal notation here.
  const magnitude = Math.abs(value);
  return Number.isFinite(value) && !Number.isInteger(value) && magnitude >= 1e-4 && magnitude < 1e16;
}

const PLATFORM_DEPTH_LIMIT = 64;

/**
 * True when `JSON.stringify` writes the same text as the encoder below: primitives (numbers
 * as above), arrays and plain objects only, nothing with `toJSON`, no cycles (deep values are
 * left to the encoder, which reports cycles).
 */
function isPlatformEncodable(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return isPlatformNumber(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= PLATFORM_DEPTH_LIMIT) return false;
  if (Array.isArray(value)) {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // Both write `null` for undefined list items.
      if (item !== undefined && !isPlatformEncodable(item, depth + 1)) return false;
    }
    return true;
  }
  if (!isJsonMapping(value)) return false;
  for (const key of Object.keys(value)) {
    const item = value[key];
    // Both leave out keys whose value is undefined, a function or a symbol.
    if (!isSkipped(item) && !isPlatformEncodable(item, depth + 1)) return false;
  }
  return true;
}

/**
 * True when every character of `text` is ASCII below DEL (what `ensureAscii` leaves as it is):
 * its UTF-8 length is its length exactly when no code unit is 0x80 or above. Both checks run
 * natively, several times faster than a regular expression scan of a long text.
 */
function isPlainAscii(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length && !text.includes('\u007f');
}

function escapeNonAscii(text: string): string {
  return text.replace(NON_ASCII, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Serialise `value` as Python's `json.dumps` would with the original's encoder.
 * Throws `RangeError('Out of range float values are not JSON compliant')` for NaN and
 * infinities unless `strict: false`, and `TypeError` for values JSON cannot represent.
 */
export function dumps(value: unknown, options: DumpsOptions = {}): string {
  const ensureAscii = options.ensureAscii ?? true;
  const strict = options.strict ?? true;
  const indent = options.indent ?? null;
  const maxDepth = options.maxDepth ?? DEFAULT_JSON_RENDER_MAX_DEPTH;
  const itemSep = indent !== null ? ',' : options.compact ? ',' : ', ';
  const keySep = options.compact && indent === null ? ':' : ': ';
  // The platform serialiser writes Python's compact and indented layouts (not the default
  // `, ` separators, nor indents of 0 or past 10) and is several times faster; use it when
  // the value holds nothing it would spell differently.
  const platformLayout = indent === null ? options.compact === true : indent >= 1 && indent <= 10;
  if (platformLayout && value !== undefined && isPlatformEncodable(value, 0)) {
    const text = indent === null ? JSON.stringify(value) : JSON.stringify(value, null, indent);
    return ensureAscii && !isPlainAscii(text) ? escapeNonAscii(text) : text;
  }
  const seen = new Set<object>();
  // Newline plus indentation per nesting level, built once per level ('' without indent).
  const newlines: string[] = [];
  const newline = (level: number): string => {
    if (indent === null) return '';
    let text = newlines[level];
    if (text === undefined) {
      text = `\n${' '.repeat(indent * level)}`;
      newlines[level] = text;
    }
    return text;
  };

  // Lists and dicts are built by concatenation, without intermediate arrays: a list
  // response renders thousands of them.
  const encodeList = (items: readonly unknown[], level: number): string => {
    if (items.length === 0) return '[]';
    const inner = newline(level + 1);
    const separator = itemSep + inner;
    let text = `[${inner}${encode(items[0], level + 1)}`;
    for (let i = 1; i < items.length; i++) text += separator + encode(items[i], level + 1);
    return `${text}${newline(level)}]`;
  };

  const encodeObject = (object: Record<string, unknown>, level: number): string => {
    const inner = newline(level + 1);
    let text = '';
    for (const key of Object.keys(object)) {
      const item = object[key];
      if (isSkipped(item)) continue;
      text += `${text === '' ? '' : itemSep}${inner}${quote(key, ensureAscii)}${keySep}${encode(item, level + 1)}`;
    }
    return text === '' ? '{}' : `{${text}${newline(level)}}`;
  };

  const encodeEntries = (entries: Entry[], level: number): string => {
    const inner = newline(level + 1);
    let text = '';
    for (const [key, item] of entries) {
      if (isSkipped(item)) continue;
      text += `${text === '' ? '' : itemSep}${inner}${quote(key, ensureAscii)}${keySep}${encode(item, level + 1)}`;
    }
    return text === '' ? '{}' : `{${text}${newline(level)}}`;
  };

  const encode = (input: unknown, level: number): string => {
    if (input === null || input === undefined) return 'null';
    switch (typeof input) {
      case 'string':
        return quote(input, ensureAscii);
      case 'number':
        return numberRepr(input, strict);
      case 'bigint':
        return input.toString();
      case 'boolean':
        return input ? 'true' : 'false';
      case 'object':
        break;
      default:
        throw new TypeError(`Object of type ${typeName(input)} is not JSON serializable`);
    }
    // Arrays and plain objects (what serializers produce) skip `normalise()`, which would
    // classify them the same way.
    let list: readonly unknown[] | null = null;
    let plain: Record<string, unknown> | null = null;
    let entries: Entry[] | null = null;
    if (Array.isArray(input)) list = input;
    else if (isJsonMapping(input)) plain = input;
    else {
      const norm = normalise(input);
      if (norm.kind === 'value') {
        if (norm.value instanceof JsonFloat) return floatRepr(norm.value.value, strict);
        return encode(norm.value, level);
      }
      if (norm.kind === 'list') list = norm.items;
      else entries = norm.entries;
    }
    if (seen.has(input)) throw new TypeError('Circular reference detected');
    if (level >= maxDepth) throw new JSONDepthError(maxDepth);
    seen.add(input);
    const text = list !== null ? encodeList(list, level) : plain !== null ? encodeObject(plain, level) : encodeEntries(entries ?? [], level);
    seen.delete(input);
    return text;
  };

  return encode(value, 0);
}

/** Options of `loads`. */
export interface LoadsOptions {
  /**
   * Reject `NaN`, `Infinity` and `-Infinity` (default true, as the original's json wrapper's
   * `strict_constant`), and numbers too large for a float such as `1e400`; `strict: false` reads
   * them. The parser passes STRICT_JSON.
   */
  strict?: boolean;
  /** The deepest nesting of lists and objects accepted (default `DEFAULT_JSON_MAX_DEPTH`). */
  maxDepth?: number;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** A small recursive-descent decoder with Python's error messages and constants. */
class Decoder {
  constructor(
    private readonly doc: string,
    private readonly strict: boolean,
  ) {}

  private skip(pos: number): number {
    while (pos < this.doc.length && WS.has(this.doc[pos])) pos += 1;
    return pos;
  }

  private fail(msg: string, pos: number): never {
    throw new JSONDecodeError(msg, this.doc, pos);
  }

  decode(): unknown {
    const start = this.skip(0);
    const [value, end] = this.value(start);
    const rest = this.skip(end);
    if (rest !== this.doc.length) this.fail('Extra data', rest);
    return value;
  }

  private constant(name: string, value: number): number {
    if (this.strict) throw new RangeError(`${OUT_OF_RANGE}: '${name}'`);
    return value;
  }

  private value(pos: number): [unknown, number] {
    const doc = this.doc;
    const ch = doc[pos];
    if (ch === '"') return this.string(pos + 1);
    if (ch === '{') return this.object(pos + 1);
    if (ch === '[') return this.array(pos + 1);
    if (ch === 'n' && doc.startsWith('null', pos)) return [null, pos + 4];
    if (ch === 't' && doc.startsWith('true', pos)) return [true, pos + 4];
    if (ch === 'f' && doc.startsWith('false', pos)) return [false, pos + 5];
    if (ch === 'N' && doc.startsWith('NaN', pos)) return [this.constant('NaN', NaN), pos + 3];
    if (ch === 'I' && doc.startsWith('Infinity', pos)) return [this.constant('Infinity', Infinity), pos + 8];
    if (ch === '-' && doc.startsWith('-Infinity', pos)) return [this.constant('-Infinity', -Infinity), pos + 9];
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(doc);
    if (match && match.index === pos) {
      const number = Number(match[0]);
      if (this.strict && !Number.isFinite(number)) {
        throw new RangeError(`${OUT_OF_RANGE}: '${match[0].length > 40 ? `${match[0].slice(0, 37)}...` : match[0]}'`);
      }
      return [number, pos + match[0].length];
    }
    return this.fail('Expecting value', pos);
  }

  private string(pos: number): [string, number] {
    const doc = this.doc;
    const begin = pos - 1;
    let out = '';
    for (;;) {
      let end = pos;
      while (end < doc.length && doc[end] !== '"' && doc[end] !== '\\' && doc.charCodeAt(end) >= 0x20) end += 1;
      out += doc.slice(pos, end);
      if (end >= doc.length) this.fail('Unterminated string starting at', begin);
      const ch = doc[end];
      if (ch === '"') return [out, end + 1];
      if (ch !== '\\') this.fail('Invalid control character at', end);
      const esc = doc[end + 1];
      if (esc === undefined) this.fail('Unterminated string starting at', begin);
      if (esc === 'u') {
        let code = this.hex4(end + 2, end);
        pos = end + 6;
        if (code >= 0xd800 && code <= 0xdbff && doc.startsWith('\\u', pos)) {
          const low = this.hex4(pos + 2, pos);
          if (low >= 0xdc00 && low <= 0xdfff) {
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
            pos += 6;
          }
        }
        out += String.fromCodePoint(code);
        continue;
      }
      const mapped = ESCAPES[esc];
      if (mapped === undefined) this.fail('Invalid \\escape', end);
      out += mapped;
      pos = end + 2;
    }
  }

  private hex4(pos: number, escPos: number): number {
    const text = this.doc.slice(pos, pos + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(text)) this.fail('Invalid \\uXXXX escape', escPos + 1);
    return parseInt(text, 16);
  }

  private object(pos: number): [Record<string, unknown>, number] {
    const result: Record<string, unknown> = {};
    pos = this.skip(pos);
    if (this.doc[pos] === '}') return [result, pos + 1];
    for (;;) {
      if (this.doc[pos] !== '"') this.fail('Expecting property name enclosed in double quotes', pos);
      const [key, afterKey] = this.string(pos + 1);
      pos = this.skip(afterKey);
      if (this.doc[pos] !== ':') this.fail("Expecting ':' delimiter", pos);
      pos = this.skip(pos + 1);
      const [value, afterValue] = this.value(pos);
      Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      pos = this.skip(afterValue);
      if (this.doc[pos] === '}') return [result, pos + 1];
      if (this.doc[pos] !== ',') this.fail("Expecting ',' delimiter", pos);
      pos = this.skip(pos + 1);
    }
  }

  private array(pos: number): [unknown[], number] {
    const result: unknown[] = [];
    pos = this.skip(pos);
    if (this.doc[pos] === ']') return [result, pos + 1];
    for (;;) {
      const [value, after] = this.value(pos);
      result.push(value);
      pos = this.skip(after);
      if (this.doc[pos] === ']') return [result, pos + 1];
      if (this.doc[pos] !== ',') this.fail("Expecting ',' delimiter", pos);
      pos = this.skip(pos + 1);
    }
  }
}

/**
 * The offset of the first `[` or `{` nested deeper than `maxDepth` in `text`, or -1. Brackets
 * inside strings do not count. A text shorter than the bound cannot pass it and is not scanned.
 */
export function excessiveNesting(text: string, maxDepth: number): number {
  if (text.length <= maxDepth) return -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i += 1; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return i;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return -1;
}

/**
 * True when `value` (parsed by the platform) nests deeper than `maxDepth` or, with `strict`,
 * holds a number that overflowed to an infinity. Stops at the first finding.
 */
function needsDecoder(value: unknown, depth: number, maxDepth: number, strict: boolean): boolean {
  if (typeof value === 'number') return strict && !Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth >= maxDepth) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (needsDecoder(value[i], depth + 1, maxDepth, strict)) return true;
    return false;
  }
  for (const key in value) {
    if (needsDecoder((value as Record<string, unknown>)[key], depth + 1, maxDepth, strict)) return true;
  }
  return false;
}

/**
 * Parse JSON text like the original's `json.loads`: `NaN`, `Infinity` and `-Infinity` throw a
 * `RangeError` naming the constant unless `strict: false` (then they are read), and so do numbers
 * too large for a float such as `1e400`; malformed text throws `JSONDecodeError` with Python's
 * message (`Expecting value: line 1 column 1 (char 0)`), and so does nesting deeper than
 * `maxDepth` (`Maximum nesting depth of 512 exceeded: line 1 column 513 (char 512)`).
 */
export function loads(text: string, options: LoadsOptions = {}): unknown {
  const strict = options.strict ?? true;
  const maxDepth = options.maxDepth ?? DEFAULT_JSON_MAX_DEPTH;
  let parsed: unknown;
  try {
    // Fast path: the platform parser accepts exactly the valid documents without constants
    // (and nests as deep as it is given, without recursion).
    parsed = JSON.parse(text);
    if (!needsDecoder(parsed, 0, maxDepth, strict)) return parsed;
  } catch {
    // Malformed, or with constants: the decoder below says which.
  }
  // Too deep for the decoder's recursion: refuse before decoding.
  const tooDeep = excessiveNesting(text, maxDepth);
  if (tooDeep >= 0) throw new JSONDecodeError(`Maximum nesting depth of ${maxDepth} exceeded`, text, tooDeep);
  return new Decoder(text, strict).decode();
}
