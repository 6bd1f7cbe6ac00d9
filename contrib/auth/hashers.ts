/**
 * Password hashers, storing passwords in the host framework's format
 * `<algorithm>$<iterations>$<salt>$<hash>` (e.g. `pbkdf2_sha256$260000$...$...=`), so a
 * database written by the original can be served unchanged and the other way round.
 *
 * `settings.PASSWORD_HASHERS` lists the hasher classes by dotted path; the first one hashes new
 * passwords, the others can still verify (and upgrade) stored hashes.
 */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { settings, onSettingChanged, ImproperlyConfigured } from '../../lib/core/conf';
import { importString } from '../../lib/core/modules';
import { constantTimeCompare, getRandomString, RANDOM_STRING_CHARS } from '../../lib/core/signing';

const pbkdf2Async = promisify(crypto.pbkdf2);

/** Prefix of the password stored by `setUnusablePassword()`; such a password never matches. */
export const UNUSABLE_PASSWORD_PREFIX = '!';
/** Number of random characters after the prefix of an unusable password. */
export const UNUSABLE_PASSWORD_SUFFIX_LENGTH = 40;
/** The parts of a stored hash, as `decode()` returns them. */
export interface DecodedHash {
  algorithm: string;
  hash: string;
  salt: string;
  iterations?: number;
}

/** True when a salt carries less entropy than the hasher asks for (it is then re-hashed). */
function mustUpdateSalt(salt: string, expectedEntropy: number): boolean {
  return salt.length * Math.log2(RANDOM_STRING_CHARS.length) < expectedEntropy;
}

/** Show only the first characters of a secret, masking the rest with asterisks. */
export function maskHash(hash: string, show = 6, char = '*'): string {
  return hash.slice(0, show) + char.repeat(Math.max(0, hash.length - show));
}

/**
 * Abstract base of password hashers. Subclass it to add an algorithm: set `algorithm`, implement
 * `encode`, `decode` and `safeSummary`; override `mustUpdate`/`hardenRuntime` for work factors.
 */
export abstract class BasePasswordHasher {
  /** The name stored as the first `$`-separated part of the hash. */
  abstract readonly algorithm: string;
  /** Bits of entropy of generated salts. */
  saltEntropy = 128;

  /** A new random salt with at least `saltEntropy` bits. */
  salt(): string {
    const count = Math.ceil(this.saltEntropy / Math.log2(RANDOM_STRING_CHARS.length));
    return getRandomString(count);
  }

  /** Check the password against an encoded hash made by this hasher. */
  async verify(password: string, encoded: string): Promise<boolean> {
    const decoded = this.decode(encoded);
    const encoded2 = await this.encode(password, decoded.salt, decoded.iterations);
    return constantTimeCompare(encoded, encoded2);
  }

  /** Hash a password with the given salt (and work factor, when the algorithm has one). */
  abstract encode(password: string, salt: string, iterations?: number): Promise<string>;

  /** Split an encoded hash into its parts. */
  abstract decode(encoded: string): DecodedHash;

  /** A description of the hash with the secret parts masked, for display. */
  abstract safeSummary(encoded: string): Record<string, string | number>;

  /** True when the stored hash should be re-made with the current parameters. */
  mustUpdate(_encoded: string): boolean {
    return false;
  }

  /**
   * Spend the time a verification with the current work factor would take, so a wrong
   * password on an old hash is not faster than on a current one.
   */
  async hardenRuntime(_password: string, _encoded: string): Promise<void> {
    // No work factor: nothing to do.
  }

  protected checkEncodeArgs(password: string, salt: string): void {
    if (password === null || password === undefined) throw new TypeError('password must be provided.');
    if (!salt || salt.includes('$')) throw new TypeError('salt must be provided and cannot contain $.');
  }
}

/**
 * PBKDF2 with HMAC-SHA256, 260000 iterations: the host framework's default. Subclass it and
 * change `iterations` to raise the work factor; stored hashes are upgraded on the next login.
 */
export class PBKDF2PasswordHasher extends BasePasswordHasher {
  readonly algorithm: string = 'pbkdf2_sha256';
  /** Iterations for new hashes; older hashes with another count are upgraded. */
  iterations = 260000;
  /** The HMAC digest. */
  digest = 'sha256';

  override async encode(password: string, salt: string, iterations?: number): Promise<string> {
    this.checkEncodeArgs(password, salt);
    const rounds = iterations || this.iterations;
    const keyLength = crypto.createHash(this.digest).digest().length;
    const derived = await pbkdf2Async(Buffer.from(password, 'utf8'), Buffer.from(salt, 'utf8'), rounds, keyLength, this.digest);
    return `${this.algorithm}$${rounds}$${salt}$${derived.toString('base64')}`;
  }

  override decode(encoded: string): DecodedHash {
    const parts = encoded.split('$');
    if (parts.length < 4 || parts[0] !== this.algorithm) {
      throw new TypeError(`'${this.algorithm}' cannot decode this hash.`);
    }
    const [algorithm, iterations, salt] = parts;
    return { algorithm, iterations: Number.parseInt(iterations, 10), salt, hash: parts.slice(3).join('$') };
  }

  override safeSummary(encoded: string): Record<string, string | number> {
    const decoded = this.decode(encoded);
    return {
      algorithm: decoded.algorithm,
      iterations: decoded.iterations ?? 0,
      salt: maskHash(decoded.salt),
      hash: maskHash(decoded.hash),
    };
  }

  override mustUpdate(encoded: string): boolean {
    const decoded = this.decode(encoded);
    return decoded.iterations !== this.iterations || mustUpdateSalt(decoded.salt, this.saltEntropy);
  }

  override async hardenRuntime(password: string, encoded: string): Promise<void> {
    const decoded = this.decode(encoded);
    const extra = this.iterations - (decoded.iterations ?? 0);
    if (extra > 0) await this.encode(password, decoded.salt, extra);
  }
}

/** PBKDF2 with HMAC-SHA1, for hashes made by other systems (`pbkdf2_sha1$...`). */
export class PBKDF2SHA1PasswordHasher extends PBKDF2PasswordHasher {
  override readonly algorithm: string = 'pbkdf2_sha1';
  override digest = 'sha1';
}

/**
 * Salted MD5. Insecure: only for legacy hashes and for test settings, where it keeps a suite
 * fast (`PASSWORD_HASHERS: ['contrib.auth.hashers.MD5PasswordHasher']`).
 */
export class MD5PasswordHasher extends BasePasswordHasher {
  readonly algorithm = 'md5';

  override async encode(password: string, salt: string): Promise<string> {
    this.checkEncodeArgs(password, salt);
    const hash = crypto.createHash('md5').update(salt + password, 'utf8').digest('hex');
    return `${this.algorithm}$${salt}$${hash}`;
  }

  override decode(encoded: string): DecodedHash {
    const [algorithm, salt, hash] = encoded.split('$', 3);
    if (algorithm !== this.algorithm || hash === undefined) {
      throw new TypeError(`'${this.algorithm}' cannot decode this hash.`);
    }
    return { algorithm, salt, hash };
  }

  override safeSummary(encoded: string): Record<string, string | number> {
    const decoded = this.decode(encoded);
    return { algorithm: decoded.algorithm, salt: maskHash(decoded.salt, 2), hash: maskHash(decoded.hash) };
  }

  override mustUpdate(encoded: string): boolean {
    return mustUpdateSalt(this.decode(encoded).salt, this.saltEntropy);
  }
}

type HasherClass = new () => BasePasswordHasher;

let hasherCache: { key: string; hashers: BasePasswordHasher[] } | null = null;

onSettingChanged((key) => {
  if (key === 'PASSWORD_HASHERS') hasherCache = null;
});

/** Instances of the hashers listed in `settings.PASSWORD_HASHERS`, in order (cached). */
export function getHashers(): BasePasswordHasher[] {
  const entries = settings.PASSWORD_HASHERS;
  const key = entries.join(',');
  if (hasherCache && hasherCache.key === key) return hasherCache.hashers;
  const hashers = entries.map((entry) => {
    const Cls = importString<HasherClass>(entry, 'PASSWORD_HASHERS');
    const hasher = new Cls();
    if (!hasher.algorithm) {
      throw new ImproperlyConfigured(`hasher doesn't specify an algorithm name: ${entry}`);
    }
    return hasher;
  });
  if (hashers.length === 0) throw new ImproperlyConfigured('PASSWORD_HASHERS must list at least one hasher.');
  hasherCache = { key, hashers };
  return hashers;
}

/**
 * The hasher named `algorithm`, or the preferred one (`'default'`, the first listed). Throws
 * for an algorithm that is not configured.
 */
export function getHasher(algorithm: string | BasePasswordHasher = 'default'): BasePasswordHasher {
  if (typeof algorithm !== 'string') return algorithm;
  const hashers = getHashers();
  if (algorithm === 'default') return hashers[0];
  const found = hashers.find((h) => h.algorithm === algorithm);
  if (!found) {
    throw new TypeError(
      `Unknown password hashing algorithm '${algorithm}'. Did you specify it in the PASSWORD_HASHERS setting?`,
    );
  }
  return found;
}

/** The hasher that made `encoded`; throws for an unknown algorithm or an unusable password. */
export function identifyHasher(encoded: string): BasePasswordHasher {
  let algorithm: string;
  if ((encoded.length === 32 && !encoded.includes('$')) || (encoded.length === 37 && encoded.startsWith('md5$$'))) {
    algorithm = 'unsalted_md5';
  } else if (encoded.length === 40 && !encoded.includes('$')) {
    algorithm = 'unsalted_sha1';
  } else {
    algorithm = encoded.split('$', 1)[0];
  }
  return getHasher(algorithm);
}

/** False for passwords made by `makePassword(null)` (`setUnusablePassword()`). */
export function isPasswordUsable(encoded: string | null | undefined): boolean {
  return encoded === null || encoded === undefined || !encoded.startsWith(UNUSABLE_PASSWORD_PREFIX);
}

/**
 * Hash a raw password for storage. `null` makes an unusable password (`!` + 40 random
 * characters) that no input matches.
 */
export async function makePassword(
  password: string | null,
  salt?: string,
  hasher: string | BasePasswordHasher = 'default',
): Promise<string> {
  if (password === null) {
    return UNUSABLE_PASSWORD_PREFIX + getRandomString(UNUSABLE_PASSWORD_SUFFIX_LENGTH);
  }
  if (typeof password !== 'string') {
    throw new TypeError(`Password must be a string or bytes, got ${typeof password}.`);
  }
  const chosen = getHasher(hasher);
  return chosen.encode(password, salt || chosen.salt());
}

/**
 * Check a raw password against a stored hash. When it matches and the hash is outdated (other
 * algorithm, fewer iterations, short salt), `setter(password)` is awaited to store a new hash.
 */
export async function checkPassword(
  password: string | null | undefined,
  encoded: string | null | undefined,
  setter?: (password: string) => Promise<void> | void,
  preferred: string | BasePasswordHasher = 'default',
): Promise<boolean> {
  if (password === null || password === undefined || !encoded || !isPasswordUsable(encoded)) return false;
  const preferredHasher = getHasher(preferred);
  let hasher: BasePasswordHasher;
  try {
    hasher = identifyHasher(encoded);
  } catch {
    return false;
  }
  const hasherChanged = hasher.algorithm !== preferredHasher.algorithm;
  let mustUpdate: boolean;
  let isCorrect: boolean;
  try {
    mustUpdate = hasherChanged || preferredHasher.mustUpdate(encoded);
    isCorrect = await hasher.verify(password, encoded);
  } catch {
    // A malformed hash of a known algorithm never matches.
    return false;
  }
  if (!isCorrect && !hasherChanged && mustUpdate) await hasher.hardenRuntime(password, encoded);
  if (setter && isCorrect && mustUpdate) await setter(password);
  return isCorrect;
}
