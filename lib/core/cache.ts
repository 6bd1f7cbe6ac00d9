/**
 * Cache backends, after Django's cache framework: `caches.default` is chosen by the
 * `CACHE_URL` setting — unset (or `locmem://`) for an in-process memory cache, or
 * `redis://host:port/db` for Redis shared by every server process.
 *
 * Both backends have the same async interface and store JSON-serialisable values under
 * Django-style keys (`<KEY_PREFIX>:<version>:<key>`). Timeouts are in seconds: `undefined`
 * means the backend's default (300 s, as Django's), `null` means never expire, and `0` or
 * less means expire at once. Options may be given as query parameters of the URL:
 * `timeout` (seconds or `none`), `key_prefix`, `version`, `max_entries`, `cull_frequency`.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * `caches.default` (from `CACHE_URL`: unset or `locmem://` -> `LocMemCache`; `redis://...` ->
 * `RedisCache` via ioredis, lazy connect) with async `get(key, default = null)`,
 * `set(key, value, timeout?)`, `add` (-> stored?), `delete` (-> existed?), `incr(key, delta = 1)` /
 * `decr` (throw `CacheKeyMissing` "Key 'k' not found" on a missing key, keep the TTL), `has`,
 * `touch(key, timeout?)`, `getMany`, `setMany`, `deleteMany`, `getOrSet`, `clear` (only this
 * cache's key prefix, never FLUSHDB), `close()`. Timeouts in seconds as Django's: omitted ->
 * default 300, `null` -> never expire, `<= 0` -> not stored. Keys are stored as
 * `<key_prefix>:<version>:<key>`. Values must be JSON-serialisable: Redis stores JSON text;
 * `LocMemCache` keeps what a JSON round trip would give and hands out copies, so both answer the
 * same values and a caller changing a got value leaves the cache alone. URL query options: `timeout`, `key_prefix`, `version`, `max_entries`, `cull_frequency`.
 * `createCache(url, options)` builds an extra cache (e.g. a spec's own key prefix); the default is
 * rebuilt when `CACHE_URL` changes; `closeCaches()` closes it (specs' `after()`).
 * `LocMemCache.timer` (ms clock) can be replaced in specs.
 */
import type { Redis } from 'ioredis';
import { ImproperlyConfigured, onSettingChanged, settings, type SettingName } from './conf';
import { isUnavailable, reportRecovery } from './outage';

/** Seconds until expiry: `undefined` for the default, `null` for never. */
export type CacheTimeout = number | null | undefined;

/** Options shared by all backends. */
export interface CacheOptions {
  /** Default timeout in seconds (`null`: never expire). Default 300. */
  defaultTimeout?: number | null;
  /** Prepended to every key, to share one store between projects or test suites. */
  keyPrefix?: string;
  /** Default key version; bump it to invalidate every key at once. */
  version?: number;
}

/** Raised by `incr`/`decr` on a missing key, as Django's `ValueError`. */
export class CacheKeyMissing extends Error {
  override name = 'ValueError';
}

function serialize(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`Cannot cache a value of type ${typeof value}`);
  return text;
}

/** Plain JSON data: what `JSON.parse` gives. */
type JsonData = null | boolean | number | string | JsonData[] | { [key: string]: JsonData };

/**
 * `JSON.parse(JSON.stringify(value))` without the text in between: the same data (`toJSON()`
 * called, boxed primitives unboxed, non-finite numbers as null, `undefined`/functions/symbols
 * dropped from objects and null in arrays, a BigInt or a cycle rejected with the same errors),
 * but no number is formatted or parsed. Returns undefined where `JSON.stringify` would.
 */
function toJsonData(value: unknown, key: string, stack: object[]): JsonData | undefined {
  let current = value;
  if ((typeof current === 'object' && current !== null) || typeof current === 'bigint') {
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') current = toJSON.call(current, key) as unknown;
  }
  if (current instanceof Number) current = Number(current);
  else if (current instanceof String) current = String(current);
  else if (current instanceof Boolean) current = current.valueOf();
  switch (typeof current) {
    case 'string':
    case 'boolean':
      return current;
    case 'number':
      return Number.isFinite(current) ? current + 0 : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      break;
    default:
      return undefined;
  }
  if (current === null) return null;
  if (stack.includes(current)) throw new TypeError('Converting circular structure to JSON');
  stack.push(current);
  let out: JsonData;
  if (Array.isArray(current)) {
    const list: JsonData[] = new Array<JsonData>(current.length);
    for (let i = 0; i < current.length; i++) list[i] = toJsonData(current[i], String(i), stack) ?? null;
    out = list;
  } else {
    const object: { [key: string]: JsonData } = {};
    const source = current as Record<string, unknown>;
    for (const name of Object.keys(source)) {
      const item = toJsonData(source[name], name, stack);
      if (item === undefined) continue;
      // An own "__proto__" key stays a key, as JSON.parse makes it.
      if (name === '__proto__') Object.defineProperty(object, name, { value: item, enumerable: true, writable: true, configurable: true });
      else object[name] = item;
    }
    out = object;
  }
  stack.pop();
  return out;
}

/** A deep copy of JSON data (plain arrays and objects only, so a structural copy suffices). */
function copyJsonData(data: JsonData): JsonData {
  if (typeof data !== 'object' || data === null) return data;
  if (Array.isArray(data)) {
    const list: JsonData[] = data.slice();
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (typeof item === 'object' && item !== null) list[i] = copyJsonData(item);
    }
    return list;
  }
  const object: { [key: string]: JsonData } = {};
  for (const name of Object.keys(data)) {
    const item = copyJsonData(data[name]);
    if (name === '__proto__') Object.defineProperty(object, name, { value: item, enumerable: true, writable: true, configurable: true });
    else object[name] = item;
  }
  return object;
}

/** What the memory cache keeps for `value`: its JSON data, as a JSON round trip would give. */
function snapshot(value: unknown): JsonData {
  const data = toJsonData(value, '', []);
  if (data === undefined) throw new TypeError(`Cannot cache a value of type ${typeof value}`);
  return data;
}

/**
 * The interface every backend implements; subclass it (and implement the abstract methods)
 * to add a backend. Keys are strings; values are anything `JSON.stringify` accepts.
 */
export abstract class BaseCache {
  readonly defaultTimeout: number | null;
  readonly keyPrefix: string;
  readonly version: number;

  constructor(options: CacheOptions = {}) {
    this.defaultTimeout = options.defaultTimeout === undefined ? 300 : options.defaultTimeout;
    this.keyPrefix = options.keyPrefix ?? '';
    this.version = options.version ?? 1;
  }

  /** The stored key for `key`: `<prefix>:<version>:<key>`. Override to change the scheme. */
  makeKey(key: string, version?: number): string {
    return `${this.keyPrefix}:${version ?? this.version}:${key}`;
  }

  /** Seconds until expiry for a caller's timeout: `null` never, `<= 0` already expired. */
  protected backendTimeout(timeout: CacheTimeout): number | null {
    return timeout === undefined ? this.defaultTimeout : timeout;
  }

  /** Return the cached value, or `defaultValue` (null) when missing or expired. */
  abstract get<T = unknown>(key: string, defaultValue?: T | null): Promise<T | null>;
  /** Store `value` under `key`, replacing any existing value. */
  abstract set(key: string, value: unknown, timeout?: CacheTimeout): Promise<void>;
  /** Store `value` only if `key` is not already present; return whether it was stored. */
  abstract add(key: string, value: unknown, timeout?: CacheTimeout): Promise<boolean>;
  /** Remove `key`; return whether it existed. */
  abstract delete(key: string): Promise<boolean>;
  /** Add `delta` to the integer at `key` (keeping its expiry) and return the new value. */
  abstract incr(key: string, delta?: number): Promise<number>;
  /** Whether `key` is present and not expired. */
  abstract has(key: string): Promise<boolean>;
  /** Set a new timeout on an existing key; return whether the key existed. */
  abstract touch(key: string, timeout?: CacheTimeout): Promise<boolean>;
  /** Remove every key of this cache. */
  abstract clear(): Promise<void>;
  /** Release connections; the cache must not be used afterwards. */
  abstract close(): Promise<void>;

  /** Subtract `delta` from the integer at `key`. */
  decr(key: string, delta = 1): Promise<number> {
    return this.incr(key, -delta);
  }

  /** Return an object of the keys that are present, mapped to their values. */
  async getMany(keys: string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const missing = Symbol('missing');
      const value = await this.get<unknown>(key, missing);
      if (value !== missing) out[key] = value;
    }
    return out;
  }

  /** Store every entry of `values` with the same timeout. */
  async setMany(values: Record<string, unknown>, timeout?: CacheTimeout): Promise<void> {
    for (const [key, value] of Object.entries(values)) await this.set(key, value, timeout);
  }

  /** Delete every key in `keys`. */
  async deleteMany(keys: string[]): Promise<void> {
    for (const key of keys) await this.delete(key);
  }

  /** Return the cached value, or compute it with `compute()`, cache it and return it. */
  async getOrSet<T>(key: string, compute: () => T | Promise<T>, timeout?: CacheTimeout): Promise<T> {
    const missing = Symbol('missing');
    const cached = await this.get<T | symbol>(key, missing);
    if (cached !== missing) return cached as T;
    const value = await compute();
    await this.add(key, value, timeout);
    // Another process may have won the race: answer what the cache now holds.
    return (await this.get<T>(key, value)) as T;
  }
}

interface MemoryEntry {
  value: JsonData;
  expiresAt: number | null;
}

/** Options of the in-process cache. */
export interface LocMemCacheOptions extends CacheOptions {
  /** Entries kept before culling; default 300. */
  maxEntries?: number;
  /** When full, remove 1/cullFrequency of the entries (least recently used first); default 3. */
  cullFrequency?: number;
}

/**
 * The in-process memory cache (Django's `LocMemCache`): per process, least recently used
 * entries are culled when `maxEntries` is reached. Values are kept as the data a JSON round
 * trip gives (as Redis gives them back), copied on the way out, so callers never share
 * mutable objects with the cache. Replace `timer` to control the clock.
 */
export class LocMemCache extends BaseCache {
  readonly maxEntries: number;
  readonly cullFrequency: number;
  /** Current time in milliseconds. */
  timer: () => number = () => Date.now();
  readonly #entries = new Map<string, MemoryEntry>();

  constructor(options: LocMemCacheOptions = {}) {
    super(options);
    this.maxEntries = options.maxEntries ?? 300;
    this.cullFrequency = options.cullFrequency ?? 3;
  }

  #expiry(timeout: CacheTimeout): number | null {
    const seconds = this.backendTimeout(timeout);
    return seconds === null ? null : this.timer() + seconds * 1000;
  }

  #live(stored: string): MemoryEntry | undefined {
    const entry = this.#entries.get(stored);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= this.timer()) {
      this.#entries.delete(stored);
      return undefined;
    }
    return entry;
  }

  #store(stored: string, value: JsonData, expiresAt: number | null): void {
    if (!this.#entries.has(stored) && this.#entries.size >= this.maxEntries) this.#cull();
    this.#entries.delete(stored);
    this.#entries.set(stored, { value, expiresAt });
  }

  #cull(): void {
    if (this.cullFrequency === 0) {
      this.#entries.clear();
      return;
    }
    let count = Math.max(1, Math.floor(this.#entries.size / this.cullFrequency));
    for (const key of this.#entries.keys()) {
      if (count-- <= 0) break;
      this.#entries.delete(key);
    }
  }

  /** Number of entries held (including expired ones not yet evicted). */
  get size(): number {
    return this.#entries.size;
  }

  override async get<T = unknown>(key: string, defaultValue: T | null = null): Promise<T | null> {
    const stored = this.makeKey(key);
    const entry = this.#live(stored);
    if (!entry) return defaultValue;
    this.#entries.delete(stored);
    this.#entries.set(stored, entry);
    return copyJsonData(entry.value) as T;
  }

  override async set(key: string, value: unknown, timeout?: CacheTimeout): Promise<void> {
    this.#store(this.makeKey(key), snapshot(value), this.#expiry(timeout));
  }

  override async add(key: string, value: unknown, timeout?: CacheTimeout): Promise<boolean> {
    const stored = this.makeKey(key);
    if (this.#live(stored)) return false;
    this.#store(stored, snapshot(value), this.#expiry(timeout));
    return true;
  }

  override async delete(key: string): Promise<boolean> {
    const stored = this.makeKey(key);
    const existed = this.#live(stored) !== undefined;
    this.#entries.delete(stored);
    return existed;
  }

  override async incr(key: string, delta = 1): Promise<number> {
    const stored = this.makeKey(key);
    const entry = this.#live(stored);
    if (!entry) throw new CacheKeyMissing(`Key '${key}' not found`);
    const current = entry.value;
    if (typeof current !== 'number') throw new TypeError(`The value of key '${key}' is not a number`);
    const next = current + delta;
    entry.value = snapshot(next);
    this.#entries.delete(stored);
    this.#entries.set(stored, entry);
    return next;
  }

  override async has(key: string): Promise<boolean> {
    return this.#live(this.makeKey(key)) !== undefined;
  }

  override async touch(key: string, timeout?: CacheTimeout): Promise<boolean> {
    const entry = this.#live(this.makeKey(key));
    if (!entry) return false;
    entry.expiresAt = this.#expiry(timeout);
    return true;
  }

  override async clear(): Promise<void> {
    this.#entries.clear();
  }

  override async close(): Promise<void> {
    // Nothing to release: Django's LocMemCache keeps its data until the process ends.
  }
}

// Add only to an existing key, keeping its TTL (INCRBY does), in one atomic step.
const INCR_EXISTING = `if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return redis.call('INCRBY', KEYS[1], ARGV[1])`;

/** A timeout setting in seconds (`fallback` when unset or malformed; 0: none). */
function secondsSetting(name: SettingName, fallback: number): number {
  const value: unknown = settings[name];
  if (value === null) return 0;
  const seconds = Number(value);
  return value === undefined || !Number.isFinite(seconds) || seconds < 0 ? fallback : seconds;
}

/**
 * End a cache outage (see lib/core/outage) at the first command that succeeds after it; costs
 * nothing while the cache is up.
 */
function watchRecovery(client: Redis): void {
  const send = client.sendCommand.bind(client) as (command: { name: string; promise: Promise<unknown> }, ...rest: unknown[]) => unknown;
  (client as unknown as { sendCommand: typeof send }).sendCommand = (command, ...rest) => {
    const result = send(command, ...rest);
    if (isUnavailable('cache') && command.name !== 'quit') command.promise.then(() => reportRecovery('cache'), () => undefined);
    return result;
  };
}

/** The Redis client library, loaded on first use: processes without `CACHE_URL` never load it. */
function loadIoredis(): typeof import('ioredis') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('ioredis') as typeof import('ioredis');
}

/** Options of the Redis cache. */
export interface RedisCacheOptions extends CacheOptions {
  /** A ready client to use instead of connecting to `url`. */
  client?: Redis;
}

/**
 * Redis cache over ioredis, shared by every process using the same server and key prefix.
 * The connection opens on first use; `add` is `SET NX`, `incr` an atomic script that keeps
 * the expiry; `clear()` deletes only this cache's keys (by prefix), never the whole database.
 */
export class RedisCache extends BaseCache {
  readonly client: Redis;

  constructor(url: string, options: RedisCacheOptions = {}) {
    super(options);
    this.client =
      options.client ??
      new (loadIoredis().Redis)(url, {
        lazyConnect: true,
        maxRetriesPerRequest: 2,
        enableAutoPipelining: true,
        connectTimeout: secondsSetting('CACHE_CONNECT_TIMEOUT', 2) * 1000 || undefined,
        commandTimeout: secondsSetting('CACHE_COMMAND_TIMEOUT', 2) * 1000 || undefined,
      });
    // ioredis reports connection problems as events; commands reject with the same error.
    this.client.on('error', () => undefined);
    watchRecovery(this.client);
  }

  #ttlArgs(timeout: CacheTimeout): ['PX', number] | [] | null {
    const seconds = this.backendTimeout(timeout);
    if (seconds === null) return [];
    const ms = Math.round(seconds * 1000);
    return ms <= 0 ? null : ['PX', ms];
  }

  override async get<T = unknown>(key: string, defaultValue: T | null = null): Promise<T | null> {
    const raw = await this.client.get(this.makeKey(key));
    return raw === null ? defaultValue : (JSON.parse(raw) as T);
  }

  override async set(key: string, value: unknown, timeout?: CacheTimeout): Promise<void> {
    const stored = this.makeKey(key);
    const data = serialize(value);
    const ttl = this.#ttlArgs(timeout);
    if (ttl === null) await this.client.del(stored);
    else if (ttl.length === 0) await this.client.set(stored, data);
    else await this.client.set(stored, data, ttl[0], ttl[1]);
  }

  override async add(key: string, value: unknown, timeout?: CacheTimeout): Promise<boolean> {
    const stored = this.makeKey(key);
    const data = serialize(value);
    const ttl = this.#ttlArgs(timeout);
    if (ttl === null) return (await this.client.exists(stored)) === 0;
    const reply = ttl.length === 0 ? await this.client.set(stored, data, 'NX') : await this.client.set(stored, data, ttl[0], ttl[1], 'NX');
    return reply === 'OK';
  }

  override async delete(key: string): Promise<boolean> {
    return (await this.client.del(this.makeKey(key))) > 0;
  }

  override async incr(key: string, delta = 1): Promise<number> {
    let reply: unknown;
    try {
      reply = await this.client.eval(INCR_EXISTING, 1, this.makeKey(key), String(Math.trunc(delta)));
    } catch (error) {
      if (error instanceof Error && /not an integer/.test(error.message)) {
        throw new TypeError(`The value of key '${key}' is not an integer`);
      }
      throw error;
    }
    if (reply === null || reply === undefined) throw new CacheKeyMissing(`Key '${key}' not found`);
    return Number(reply);
  }

  override async has(key: string): Promise<boolean> {
    return (await this.client.exists(this.makeKey(key))) > 0;
  }

  override async touch(key: string, timeout?: CacheTimeout): Promise<boolean> {
    const stored = this.makeKey(key);
    const ttl = this.#ttlArgs(timeout);
    if (ttl === null) return (await this.client.del(stored)) > 0;
    if (ttl.length === 0) return (await this.client.exists(stored)) > 0 && ((await this.client.persist(stored)) >= 0);
    return (await this.client.pexpire(stored, ttl[1])) === 1;
  }

  override async getMany(keys: string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    if (keys.length === 0) return out;
    const values = await this.client.mget(keys.map((key) => this.makeKey(key)));
    keys.forEach((key, i) => {
      const raw = values[i];
      if (raw !== null && raw !== undefined) out[key] = JSON.parse(raw);
    });
    return out;
  }

  override async setMany(values: Record<string, unknown>, timeout?: CacheTimeout): Promise<void> {
    const ttl = this.#ttlArgs(timeout);
    const multi = this.client.multi();
    for (const [key, value] of Object.entries(values)) {
      const stored = this.makeKey(key);
      const data = serialize(value);
      if (ttl === null) multi.del(stored);
      else if (ttl.length === 0) multi.set(stored, data);
      else multi.set(stored, data, ttl[0], ttl[1]);
    }
    await multi.exec();
  }

  override async deleteMany(keys: string[]): Promise<void> {
    if (keys.length) await this.client.del(...keys.map((key) => this.makeKey(key)));
  }

  override async clear(): Promise<void> {
    const pattern = `${this.keyPrefix.replace(/[*?[\]\\]/g, '\\$&')}:*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      if (keys.length) await this.client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  override async close(): Promise<void> {
    if (this.client.status === 'wait' || this.client.status === 'end') {
      this.client.disconnect();
      return;
    }
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

const OPTION_PARAMS = ['timeout', 'key_prefix', 'version', 'max_entries', 'cull_frequency'];

function numberParam(params: URLSearchParams, name: string, url: string): number | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (raw === '' || !Number.isFinite(value)) {
    throw new ImproperlyConfigured(`CACHE_URL '${url}': '${name}' must be a number, not '${raw}'.`);
  }
  return value;
}

/**
 * Build a cache from a URL: empty or `locmem://` for memory, `redis://` / `rediss://` for
 * Redis. Extra `options` win over the URL's query parameters.
 */
export function createCache(url: string | null | undefined, options: LocMemCacheOptions = {}): BaseCache {
  const text = (url ?? '').trim();
  let parsed: URL | null = null;
  if (text) {
    try {
      parsed = new URL(text);
    } catch {
      throw new ImproperlyConfigured(`CACHE_URL '${text}' is not a valid URL (use redis://host:port/db or leave it unset).`);
    }
  }
  const params = parsed?.searchParams ?? new URLSearchParams();
  const timeoutParam = params.get('timeout');
  const fromUrl: LocMemCacheOptions = {
    defaultTimeout: timeoutParam === null ? undefined : timeoutParam.toLowerCase() === 'none' ? null : numberParam(params, 'timeout', text),
    keyPrefix: params.get('key_prefix') ?? undefined,
    version: numberParam(params, 'version', text),
    maxEntries: numberParam(params, 'max_entries', text),
    cullFrequency: numberParam(params, 'cull_frequency', text),
  };
  const merged: LocMemCacheOptions = { ...fromUrl };
  for (const [name, value] of Object.entries(options) as Array<[keyof LocMemCacheOptions, never]>) {
    if (value !== undefined) merged[name] = value;
  }
  if (!parsed || parsed.protocol === 'locmem:') return new LocMemCache(merged);
  if (parsed.protocol === 'redis:' || parsed.protocol === 'rediss:') {
    for (const name of OPTION_PARAMS) parsed.searchParams.delete(name);
    return new RedisCache(parsed.toString(), merged);
  }
  throw new ImproperlyConfigured(
    `CACHE_URL '${text}' has an unsupported scheme '${parsed.protocol}' (use redis://, rediss:// or locmem://).`,
  );
}

/**
 * The configured caches. `caches.default` is created from `settings.CACHE_URL` on first use
 * and re-created when that setting changes (the old one is closed).
 */
class CacheHandler {
  #default: BaseCache | null = null;

  /** The project's cache. */
  get default(): BaseCache {
    if (!this.#default) this.#default = createCache(settings.CACHE_URL);
    return this.#default;
  }

  /** Forget the current cache (closing it) so the next access builds a new one. */
  async reset(): Promise<void> {
    const current = this.#default;
    this.#default = null;
    if (current) await current.close();
  }
}

/** The project's caches; only `default` for now. */
export const caches = new CacheHandler();

/** Close every open cache connection (tests' `after()`, server shutdown). */
export function closeCaches(): Promise<void> {
  return caches.reset();
}

onSettingChanged((key) => {
  if (key === 'CACHE_URL') {
    caches.reset().catch(() => undefined);
  }
});
