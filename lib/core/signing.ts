/**
 * Cryptographic signing, compatible with Django 3.2's `django.core.signing`: values signed
 * here verify there and vice versa (same salts, separators, base64 and base62 encodings).
 *
 * `Signer` appends an HMAC of the value; `TimestampSigner` also appends the signing time so
 * `unsign(value, maxAge)` can reject old values; `dumps()`/`loads()` sign JSON (optionally
 * zlib-compressed) for cookies, password-reset links and the like. The key defaults to
 * `settings.SECRET_KEY`, read at call time.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * Byte-compatible with Django 3.2: `saltedHmac(keySalt, value, secret?, algorithm = 'sha1')`
 * (a node `Hmac`), `constantTimeCompare(a, b)`, `getRandomString(length, chars?)`,
 * `b64Encode`/`b64Decode`, `new Signer({ key?, sep?, salt?, algorithm? })` (`sign`/`unsign`,
 * sha256, accepts legacy sha1), `TimestampSigner` (`unsign(value, maxAgeSeconds)`, `timer`),
 * `dumps(obj, { key, salt, compress })` / `loads(s, { key, salt, maxAge })`; errors
 * `BadSignature`, `SignatureExpired`. The key defaults to `settings.SECRET_KEY` at call time.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { settings } from './conf';

/** Raised when a signature does not match its value, or the value is malformed. */
export class BadSignature extends Error {
  override name = 'BadSignature';
}

/** Raised by `TimestampSigner.unsign()` / `loads()` when the signature is older than `maxAge`. */
export class SignatureExpired extends BadSignature {
  override name = 'SignatureExpired';
}

/** Raised when a hash algorithm is unknown to node's crypto module. */
export class InvalidAlgorithm extends Error {
  override name = 'InvalidAlgorithm';
}

/** Hash algorithms accepted by `saltedHmac` and the signers. */
export type SigningAlgorithm = 'sha1' | 'sha256' | 'sha512' | (string & {});

type BytesLike = string | Buffer;

function toBytes(value: BytesLike): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

function secretKey(): string {
  const key = settings.SECRET_KEY;
  if (!key) throw new Error('The SECRET_KEY setting must not be empty.');
  return key;
}

/**
 * Return the HMAC of `value`, keyed by a hash of `keySalt + secret`, as Django's
 * `salted_hmac` does; a different `keySalt` gives an independent key per use.
 */
export function saltedHmac(
  keySalt: BytesLike,
  value: BytesLike,
  secret?: BytesLike,
  algorithm: SigningAlgorithm = 'sha1',
): crypto.Hmac {
  if (!crypto.getHashes().includes(algorithm)) {
    throw new InvalidAlgorithm(`${algorithm} is not an algorithm accepted by the hashlib module.`);
  }
  const key = crypto
    .createHash(algorithm)
    .update(Buffer.concat([toBytes(keySalt), toBytes(secret ?? secretKey())]))
    .digest();
  return crypto.createHmac(algorithm, key).update(toBytes(value));
}

/**
 * Compare two strings or buffers in time independent of where they differ. Values of
 * different lengths are unequal (the comparison still runs over a same-sized buffer).
 */
export function constantTimeCompare(a: BytesLike, b: BytesLike): boolean {
  const left = toBytes(a);
  const right = toBytes(b);
  if (left.length !== right.length) {
    crypto.timingSafeEqual(left, left);
    return false;
  }
  return crypto.timingSafeEqual(left, right);
}

/** Django's default alphabet for random strings. */
export const RANDOM_STRING_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Return a cryptographically secure random string of `length` characters from `allowedChars`. */
export function getRandomString(length: number, allowedChars: string = RANDOM_STRING_CHARS): string {
  if (!Number.isInteger(length) || length < 0) throw new RangeError('length must be a non-negative integer');
  const chars = Array.from(allowedChars);
  if (chars.length === 0) throw new RangeError('allowedChars must not be empty');
  let out = '';
  for (let i = 0; i < length; i++) out += chars[crypto.randomInt(chars.length)];
  return out;
}

/** URL-safe base64 without padding (Django's `b64_encode`). */
export function b64Encode(data: BytesLike): string {
  return toBytes(data).toString('base64url');
}

/** Decode URL-safe base64, padded or not (Django's `b64_decode`); rejects foreign characters. */
export function b64Decode(text: string): Buffer {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new BadSignature('Invalid base64 data');
  return Buffer.from(text, 'base64url');
}

/** Base64 of the salted HMAC digest, as used in signatures (Django's `base64_hmac`). */
export function base64Hmac(salt: string, value: string, key: BytesLike, algorithm: SigningAlgorithm = 'sha1'): string {
  return b64Encode(saltedHmac(salt, value, key, algorithm).digest());
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Encode a (possibly negative) integer in base 62, as Django's `baseconv.base62`. */
export function base62Encode(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError('base62Encode needs a safe integer');
  if (value === 0) return '0';
  const negative = value < 0;
  let n = Math.abs(value);
  let out = '';
  while (n > 0) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return negative ? `-${out}` : out;
}

/** Decode a base-62 string; throws `BadSignature` on characters outside the alphabet. */
export function base62Decode(text: string): number {
  const negative = text.startsWith('-');
  const digits = negative ? text.slice(1) : text;
  if (digits === '') throw new BadSignature(`Invalid base62 value '${text}'`);
  let n = 0;
  for (const ch of digits) {
    const d = BASE62.indexOf(ch);
    if (d < 0) throw new BadSignature(`Invalid base62 value '${text}'`);
    n = n * 62 + d;
  }
  return negative ? -n : n;
}

// Separators made of characters that can appear in base64 signatures would be ambiguous.
const SEP_UNSAFE = /^[A-Za-z0-9\-_=[\\\]^`]*$/;

/** Options shared by `Signer` and `TimestampSigner`. */
export interface SignerOptions {
  /** Signing key; defaults to `settings.SECRET_KEY` at signing time. */
  key?: string;
  /** Separator between value and signature; default `:`. */
  sep?: string;
  /** Namespace for the key; defaults to Django's `django.core.signing.<ClassName>`. */
  salt?: string;
  /** Hash for new signatures; default `sha256`. `sha1` signatures still verify (legacy). */
  algorithm?: SigningAlgorithm;
}

/**
 * Sign strings: `sign('hello')` returns `hello:<signature>`; `unsign()` returns the value or
 * throws `BadSignature`. Subclass to change the salt default or the signature scheme.
 */
export class Signer {
  readonly sep: string;
  readonly salt: string;
  readonly algorithm: SigningAlgorithm;
  /** Signatures made with this algorithm are still accepted (Django 3.2 verifies sha1 ones). */
  readonly legacyAlgorithm: SigningAlgorithm | null = 'sha1';
  readonly #key: string | undefined;

  constructor(options: SignerOptions = {}) {
    this.#key = options.key || undefined;
    this.sep = options.sep ?? ':';
    if (SEP_UNSAFE.test(this.sep)) {
      throw new Error(
        `Unsafe Signer separator: '${this.sep}' (cannot be empty or consist of only A-z0-9-_=)`,
      );
    }
    this.salt = options.salt || `django.core.signing.${this.defaultSaltName()}`;
    this.algorithm = options.algorithm ?? 'sha256';
  }

  /** Class name used in the default salt; subclasses outside Django's names may override. */
  protected defaultSaltName(): string {
    return 'Signer';
  }

  /** The key in use: the constructor's, or `settings.SECRET_KEY` now. */
  get key(): string {
    return this.#key ?? secretKey();
  }

  /** Return the signature of `value` (no separator, no value). */
  signature(value: string, algorithm: SigningAlgorithm = this.algorithm): string {
    return base64Hmac(`${this.salt}signer`, value, this.key, algorithm);
  }

  /** Return `value` followed by the separator and its signature. */
  sign(value: string): string {
    return `${value}${this.sep}${this.signature(value)}`;
  }

  /** Return the original value if the signature matches; otherwise throw `BadSignature`. */
  unsign(signedValue: string): string {
    const at = signedValue.lastIndexOf(this.sep);
    if (at < 0) throw new BadSignature(`No "${this.sep}" found in value`);
    const value = signedValue.slice(0, at);
    const sig = signedValue.slice(at + this.sep.length);
    const current = constantTimeCompare(sig, this.signature(value));
    const legacy = this.legacyAlgorithm !== null && constantTimeCompare(sig, this.signature(value, this.legacyAlgorithm));
    if (current || legacy) return value;
    throw new BadSignature(`Signature "${sig}" does not match`);
  }
}

/**
 * A `Signer` that adds a base-62 timestamp, so `unsign(value, maxAge)` can refuse values
 * signed more than `maxAge` seconds ago (`SignatureExpired`). Override `timer` in tests.
 */
export class TimestampSigner extends Signer {
  /** Current time in milliseconds; replace to control the clock. */
  timer: () => number = () => Date.now();

  protected override defaultSaltName(): string {
    return 'TimestampSigner';
  }

  /** The current time in whole seconds, base-62 encoded. */
  timestamp(): string {
    return base62Encode(Math.floor(this.timer() / 1000));
  }

  /** Sign `value:<timestamp>`. */
  override sign(value: string): string {
    return super.sign(`${value}${this.sep}${this.timestamp()}`);
  }

  /**
   * Verify the signature and, when `maxAge` (seconds) is given, the age; return the value
   * without its timestamp.
   */
  override unsign(signedValue: string, maxAge?: number | null): string {
    const result = super.unsign(signedValue);
    const at = result.lastIndexOf(this.sep);
    if (at < 0) throw new BadSignature(`No "${this.sep}" found in value`);
    const value = result.slice(0, at);
    const timestamp = base62Decode(result.slice(at + this.sep.length));
    if (maxAge !== undefined && maxAge !== null) {
      const age = this.timer() / 1000 - timestamp;
      if (age > maxAge) throw new SignatureExpired(`Signature age ${age} > ${maxAge} seconds`);
    }
    return value;
  }
}

/**
 * Serialise like Python's `json.dumps(obj, separators=(',', ':'))`: compact and ASCII-only
 * (non-ASCII escaped as `\uXXXX`), so signed payloads are byte-identical to Django's.
 */
function pythonCompatibleJson(obj: unknown): string {
  const text = JSON.stringify(obj);
  if (text === undefined) throw new TypeError('Object is not JSON serializable');
  return text.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Options of `dumps()`. */
export interface DumpsOptions {
  key?: string;
  /** Namespace; default `django.core.signing`. */
  salt?: string;
  /** zlib-compress the JSON when that makes it shorter (marked by a leading `.`). */
  compress?: boolean;
  /** Clock for the timestamp, in milliseconds. */
  timer?: () => number;
}

/** Options of `loads()`. */
export interface LoadsOptions {
  key?: string;
  salt?: string;
  /** Maximum age in seconds; older values throw `SignatureExpired`. */
  maxAge?: number | null;
  timer?: () => number;
}

function timestampSigner(key: string | undefined, salt: string, timer?: () => number): TimestampSigner {
  const signer = new TimestampSigner({ key, salt });
  if (timer) signer.timer = timer;
  return signer;
}

/**
 * Return a URL-safe, signed, timestamped string holding `obj` as JSON. Anyone can read the
 * data (it is only base64), nobody can change it without the key.
 */
export function dumps(obj: unknown, options: DumpsOptions = {}): string {
  let data = Buffer.from(pythonCompatibleJson(obj), 'latin1');
  let compressed = false;
  if (options.compress) {
    const packed = zlib.deflateSync(data);
    if (packed.length < data.length - 1) {
      data = packed;
      compressed = true;
    }
  }
  const encoded = (compressed ? '.' : '') + b64Encode(data);
  return timestampSigner(options.key, options.salt ?? 'django.core.signing', options.timer).sign(encoded);
}

/** Reverse `dumps()`: verify the signature (and age) and return the decoded JSON value. */
export function loads(signed: string, options: LoadsOptions = {}): unknown {
  const signer = timestampSigner(options.key, options.salt ?? 'django.core.signing', options.timer);
  let encoded = signer.unsign(signed, options.maxAge);
  const decompress = encoded.startsWith('.');
  if (decompress) encoded = encoded.slice(1);
  let data = b64Decode(encoded);
  if (decompress) {
    try {
      data = zlib.inflateSync(data);
    } catch {
      throw new BadSignature('Invalid compressed payload');
    }
  }
  return JSON.parse(data.toString('latin1'));
}
