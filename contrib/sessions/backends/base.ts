/**
 * The session store interface, after the host framework's `SessionBase`: a dictionary of
 * JSON-serialisable values per visitor, identified by a random key in a cookie, with an expiry.
 *
 * Backends (`db`, `cache`, `signedCookies`) subclass `SessionBase` and implement `load`,
 * `exists`, `create`, `save`, `destroy` and `clearExpired`. Reading and writing values is
 * synchronous once the store is loaded; `SessionMiddleware` awaits `ensureLoaded()` before the
 * view runs, and code that builds a store itself must do the same.
 */
import { settings } from '../../../lib/core/conf';
import { SuspiciousOperation } from '../../../lib/core/exceptions';
import { dumps, getRandomString, loads, saltedHmac, constantTimeCompare } from '../../../lib/core/signing';

/** Characters of generated session keys. */
export const VALID_KEY_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** The JSON object stored for a session. */
export type SessionData = Record<string, unknown>;

/** Raised by `save({ mustCreate: true })` when the key is already taken. */
export class CreateError extends Error {
  override name = 'CreateError';
}

/** Raised by `save()` when the session was deleted meanwhile (e.g. a concurrent logout). */
export class UpdateError extends Error {
  override name = 'UpdateError';
}

/** The session disappeared while the request was being handled (answered with 400). */
export class SessionInterrupted extends SuspiciousOperation {
  override name = 'SessionInterrupted';
}

/** Options of `getExpiryAge()` / `getExpiryDate()`. */
export interface ExpiryOptions {
  /** The time of the last modification (default: now). */
  modification?: Date;
  /** Use this expiry instead of the stored one. */
  expiry?: number | Date | string | null;
}

/**
 * Base class of session stores. Subclass it for a new storage; override `keySalt` only to read
 * data written under another class name.
 */
export abstract class SessionBase {
  /** The signing salt of the stored data (Django's `django.contrib.sessions.SessionStore`). */
  get keySalt(): string {
    return 'django.contrib.sessions.SessionStore';
  }

  /** True once values were read or written in this request (adds `Vary: Cookie`). */
  accessed = false;
  /** True once values were written: the middleware then saves the session. */
  modified = false;

  protected currentKey: string | null;
  protected data: SessionData | null = null;

  constructor(sessionKey: string | null = null) {
    this.currentKey = this.validateSessionKey(sessionKey) ? sessionKey : null;
  }

  // -- values -------------------------------------------------------------

  /** Load the stored values if that has not happened yet (call before reading values). */
  async ensureLoaded(): Promise<void> {
    if (this.data !== null) return;
    this.data = this.currentKey === null ? {} : await this.load();
  }

  /** The loaded values; marks the session accessed. */
  protected get session(): SessionData {
    this.accessed = true;
    if (this.data === null) {
      if (this.currentKey !== null) {
        throw new Error('The session is not loaded yet: await session.ensureLoaded() before reading it.');
      }
      this.data = {};
    }
    return this.data;
  }

  /** The value stored under `key`, or `defaultValue`. */
  get<T = unknown>(key: string, defaultValue?: T): T | undefined {
    const session = this.session;
    return Object.prototype.hasOwnProperty.call(session, key) ? (session[key] as T) : defaultValue;
  }

  /** Store a JSON-serialisable value. */
  set(key: string, value: unknown): void {
    this.session[key] = value;
    this.modified = true;
  }

  /** True when `key` is stored. */
  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.session, key);
  }

  /** Remove `key`; returns whether it was there. */
  delete(key: string): boolean {
    const session = this.session;
    if (!Object.prototype.hasOwnProperty.call(session, key)) return false;
    delete session[key];
    this.modified = true;
    return true;
  }

  /** Remove `key` and return its value (or `defaultValue`). */
  pop<T = unknown>(key: string, defaultValue?: T): T | undefined {
    const session = this.session;
    if (!Object.prototype.hasOwnProperty.call(session, key)) return defaultValue;
    const value = session[key] as T;
    delete session[key];
    this.modified = true;
    return value;
  }

  /** Return the value of `key`, storing `value` first when it is missing. */
  setDefault<T>(key: string, value: T): T {
    if (this.has(key)) return this.get(key) as T;
    this.set(key, value);
    return value;
  }

  /** Store several values. */
  update(values: SessionData): void {
    Object.assign(this.session, values);
    this.modified = true;
  }

  /** The stored keys. */
  keys(): string[] {
    return Object.keys(this.session);
  }

  /** The stored `[key, value]` pairs. */
  items(): Array<[string, unknown]> {
    return Object.entries(this.session);
  }

  /** Remove every value (the key stays: use `flush()` to end a session). */
  clear(): void {
    this.data = {};
    this.accessed = true;
    this.modified = true;
  }

  /** True when there is neither a key nor any value. */
  isEmpty(): boolean {
    return this.currentKey === null && (this.data === null || Object.keys(this.data).length === 0);
  }

  // -- keys ---------------------------------------------------------------

  /** The current session key, or null before the session was first saved. */
  get sessionKey(): string | null {
    return this.currentKey;
  }

  /** Keys shorter than 8 characters are never accepted (they could be guessed). */
  protected validateSessionKey(key: string | null | undefined): key is string {
    return typeof key === 'string' && key.length >= 8;
  }

  /** A new random key that no stored session uses yet. */
  protected async newSessionKey(): Promise<string> {
    for (;;) {
      const key = getRandomString(32, VALID_KEY_CHARS);
      if (!(await this.exists(key))) return key;
    }
  }

  /**
   * Save the session under fresh keys until one is not taken (`save(true)` throwing
   * `CreateError` means it was); the loop of the storing backends' `create()`. Returns false
   * when `maxAttempts` keys were all taken.
   */
  protected async saveUnderNewKey(maxAttempts = Infinity): Promise<boolean> {
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      this.currentKey = await this.newSessionKey();
      try {
        await this.save(true);
      } catch (error) {
        if (error instanceof CreateError) continue;
        throw error;
      }
      this.modified = true;
      return true;
    }
    return false;
  }

  /** The current key, creating (and saving) the session first when it has none. */
  async getOrCreateSessionKey(): Promise<string> {
    if (this.currentKey === null) await this.create();
    return this.currentKey as string;
  }

  // -- expiry -------------------------------------------------------------

  /** The cookie lifetime in seconds (`SESSION_COOKIE_AGE`). */
  getSessionCookieAge(): number {
    return settings.SESSION_COOKIE_AGE;
  }

  private storedExpiry(options: ExpiryOptions): number | Date | null {
    const expiry = 'expiry' in options ? options.expiry : this.get<unknown>('_session_expiry');
    if (expiry === null || expiry === undefined || expiry === 0) return null;
    if (typeof expiry === 'number') return expiry;
    if (expiry instanceof Date) return expiry;
    if (typeof expiry === 'string') {
      const date = new Date(expiry);
      return Number.isNaN(date.getTime()) ? null : date;
    }
    return null;
  }

  /** Seconds until the session expires, counted from `modification` (default now). */
  getExpiryAge(options: ExpiryOptions = {}): number {
    const expiry = this.storedExpiry(options);
    if (expiry === null) return this.getSessionCookieAge();
    if (typeof expiry === 'number') return expiry;
    const modification = options.modification ?? new Date();
    return Math.floor((expiry.getTime() - modification.getTime()) / 1000);
  }

  /** The date the session expires, counted from `modification` (default now). */
  getExpiryDate(options: ExpiryOptions = {}): Date {
    const expiry = this.storedExpiry(options);
    if (expiry instanceof Date) return expiry;
    const modification = options.modification ?? new Date();
    const age = expiry === null ? this.getSessionCookieAge() : expiry;
    return new Date(modification.getTime() + age * 1000);
  }

  /**
   * Set when the session expires: a number of seconds of inactivity, a `Date`, `0` for "when
   * the browser closes", or `null` for the global policy (`SESSION_COOKIE_AGE`).
   */
  setExpiry(value: number | Date | null): void {
    if (value === null) {
      if (this.has('_session_expiry')) this.delete('_session_expiry');
      return;
    }
    this.set('_session_expiry', value instanceof Date ? value.toISOString() : value);
  }

  /** True when the cookie should expire with the browser. */
  getExpireAtBrowserClose(): boolean {
    const expiry = this.get<unknown>('_session_expiry');
    if (expiry === undefined || expiry === null) return settings.SESSION_EXPIRE_AT_BROWSER_CLOSE;
    return expiry === 0;
  }

  // -- life cycle -----------------------------------------------------------

  /** End the session: remove its values and its stored copy, and drop the key (logout). */
  async flush(): Promise<void> {
    this.clear();
    await this.destroy();
    this.currentKey = null;
  }

  /** Keep the values under a new key, deleting the old one (login does this: no fixation). */
  async cycleKey(): Promise<void> {
    const values = this.session;
    const oldKey = this.currentKey;
    await this.create();
    this.data = values;
    this.modified = true;
    if (oldKey !== null) await this.destroy(oldKey);
  }

  // -- encoding -------------------------------------------------------------

  /** Sign and compress the values for storage (Django 3.2's format). */
  encode(values: SessionData): string {
    return dumps(values, { salt: this.keySalt, compress: true });
  }

  /** Verify and decode stored values; tampered or unreadable data yields an empty session. */
  decode(sessionData: string): SessionData {
    try {
      const value = loads(sessionData, { salt: this.keySalt });
      return isSessionData(value) ? value : {};
    } catch {
      // A bad signature (tampering, another SECRET_KEY) or the pre-3.1 format.
      return this.legacyDecode(sessionData);
    }
  }

  /** Read the pre-3.1 format (`base64(hexhmac:json)`); anything else is an empty session. */
  protected legacyDecode(sessionData: string): SessionData {
    try {
      const raw = Buffer.from(sessionData, 'base64').toString('latin1');
      const colon = raw.indexOf(':');
      if (colon < 0) return {};
      const hash = raw.slice(0, colon);
      const serialized = raw.slice(colon + 1);
      const expected = saltedHmac(`django.contrib.sessions${this.constructor.name}`, Buffer.from(serialized, 'latin1')).digest('hex');
      if (!constantTimeCompare(hash, expected)) return {};
      const value: unknown = JSON.parse(Buffer.from(serialized, 'latin1').toString('utf8'));
      return isSessionData(value) ? value : {};
    } catch {
      return {};
    }
  }

  /** The values to save: the loaded ones, or none when `noLoad` and nothing was loaded. */
  protected sessionForSave(noLoad = false): SessionData {
    if (this.data === null) {
      if (noLoad || this.currentKey === null) return {};
      throw new Error('The session is not loaded yet: await session.ensureLoaded() before saving it.');
    }
    return this.data;
  }

  // -- storage (implemented by backends) -----------------------------------

  /** Read the values stored under the current key; an empty object when missing or expired. */
  abstract load(): Promise<SessionData>;
  /** True when a session with this key is stored. */
  abstract exists(sessionKey: string): Promise<boolean>;
  /** Store a new, empty session under a fresh key. */
  abstract create(): Promise<void>;
  /** Store the values; with `mustCreate`, fail with `CreateError` when the key is taken. */
  abstract save(mustCreate?: boolean): Promise<void>;
  /** Delete the stored session with this key (default: the current one). */
  abstract destroy(sessionKey?: string | null): Promise<void>;
}

function isSessionData(value: unknown): value is SessionData {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A session store class as `SESSION_ENGINE` names it (`<module>.SessionStore`). */
export interface SessionStoreClass {
  new (sessionKey?: string | null): SessionBase;
  /** Remove expired sessions (the `clearsessions` command calls it). */
  clearExpired(): Promise<void>;
}

declare module '../../../lib/core/http' {
  interface HttpRequest {
    /** The visitor's session, set by `SessionMiddleware`. */
    session?: SessionBase;
  }
}
