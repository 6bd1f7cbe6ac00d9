/**
 * Provides various throttling policies: limits on how many requests a client may make in a
 * period, keyed by IP address, user or view scope. Request histories live in the project's
 * cache (`caches.default`), so with a Redis `CACHE_URL` every server process shares one limit.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - Throttles: `SimpleRateThrottle` fields `cache` (default `caches.default`), `timer` (seconds),
 *   `rate`, `scope`, `throttleRates`; views give `throttleScope` for `ScopedRateThrottle`. On a
 *   `RedisCache` the history update is one Lua script (atomic across processes); other caches
 *   serialise per key in process.
 */
import { ImproperlyConfigured } from './core/conf';
import { caches, RedisCache, type BaseCache } from './core/cache';
import { outageOf, reportOutage } from './core/outage';
import { apiSettings } from './settings';
import type { Request } from './request';
import type { APIView } from './views';

/** A throttle class, as listed in `throttleClasses` and `DEFAULT_THROTTLE_CLASSES`. */
export type ThrottleClass = new () => BaseThrottle;

/**
 * Rate throttling of requests. Subclass it and implement `allowRequest()` (and `wait()`, to
 * tell the client when to retry).
 */
export class BaseThrottle {
  /** Return `true` if the request should be allowed, `false` otherwise. */
  allowRequest(_request: Request, _view: APIView): boolean | Promise<boolean> {
    throw new Error('.allowRequest() must be overridden');
  }

  /**
   * Identify the machine making the request: the X-Forwarded-For address picked by
   * NUM_PROXIES if present (the whole header, spaces removed, when NUM_PROXIES is null),
   * otherwise REMOTE_ADDR.
   */
  getIdent(request: Request): string {
    const httpRequest = request.httpRequest;
    const xff = httpRequest.metaHeader('HTTP_X_FORWARDED_FOR');
    const remoteAddr = httpRequest.metaHeader('REMOTE_ADDR') ?? '';
    const numProxies = apiSettings.NUM_PROXIES;
    if (numProxies !== null && numProxies !== undefined) {
      if (numProxies === 0 || xff === undefined) return remoteAddr;
      const addrs = xff.split(',');
      const clientAddr = addrs[addrs.length - Math.min(numProxies, addrs.length)];
      return clientAddr.trim();
    }
    return xff ? xff.split(/\s+/).join('') : remoteAddr;
  }

  /** Seconds to wait before the next request may be allowed, or `null` if unknown. */
  wait(): number | null {
    return null;
  }
}

/** The number of requests and the period in seconds of a rate such as `100/day`. */
export type ParsedRate = [numRequests: number | null, duration: number | null];

const PERIODS: Readonly<Record<string, number>> = Object.freeze({ s: 1, m: 60, h: 3600, d: 86400 });

// Prune entries older than the period, then record `now` only when under the limit; one
// atomic step, so servers sharing Redis never both take the last slot. Returns
// {allowed, history as JSON}.
const UPDATE_HISTORY = `local raw = redis.call('GET', KEYS[1])
local history = {}
if raw then history = cjson.decode(raw) end
local now = tonumber(ARGV[1])
local duration = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
while #history > 0 and tonumber(history[#history]) <= now - duration do table.remove(history) end
if #history >= limit then
  if #history == 0 then return {0, '[]'} end
  return {0, cjson.encode(history)}
end
table.insert(history, 1, now)
local encoded = cjson.encode(history)
redis.call('SET', KEYS[1], encoded, 'PX', math.floor(duration * 1000))
return {1, encoded}`;

// In-process serialisation of read-modify-write per key, for caches without atomic scripts.
const keyLocks = new Map<string, Promise<unknown>>();

async function withKeyLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = keyLocks.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  keyLocks.set(key, settled);
  try {
    return await run;
  } finally {
    if (keyLocks.get(key) === settled) keyLocks.delete(key);
  }
}

/**
 * A simple cache implementation that requires `getCacheKey()` to be overridden.
 *
 * The rate (requests / period) is `rate`, or the DEFAULT_THROTTLE_RATES entry named by
 * `scope`. The period is seconds, minutes, hours or days (`s`, `m`, `h`, `d`, or any word
 * starting with them: `5/min`, `1000/day`). Past request times are kept in the cache, newest
 * first.
 */
export class SimpleRateThrottle extends BaseThrottle {
  /** The cache holding request histories (undefined: `caches.default`). */
  cache?: BaseCache;
  /** The clock, in seconds; replace it in tests. */
  timer: () => number = () => Date.now() / 1000;
  /** The cache key template. */
  cacheFormat = 'throttle_%(scope)s_%(ident)s';
  /** Names the rate in the rates table. */
  scope?: string | null;
  /** The rate, overriding the scope's (undefined: looked up by scope; null: no limit). */
  rate?: string | null;
  /** The rates table (undefined: the DEFAULT_THROTTLE_RATES setting). */
  throttleRates?: Readonly<Record<string, string | null>>;

  /** The number of requests allowed per period (known once the rate is resolved). */
  numRequests: number | null = null;
  /** The period, in seconds. */
  duration: number | null = null;
  /** The cache key of the current request. */
  key: string | null = null;
  /** Request times of the current key, newest first. */
  history: number[] = [];
  /** When the current request was seen. */
  now = 0;

  private rateResolved = false;

  /**
   * Return a unique cache key for throttling this request, or `null` to not throttle it.
   * Every subclass implements this.
   */
  getCacheKey(_request: Request, _view: APIView): string | null | Promise<string | null> {
    throw new Error('.getCacheKey() must be overridden');
  }

  /** Fill the cache key template (`%(scope)s`, `%(ident)s`). */
  formatCacheKey(values: { scope: string; ident: string | number | null }): string {
    return this.cacheFormat.replace(/%\(scope\)s/g, values.scope).replace(/%\(ident\)s/g, String(values.ident));
  }

  /** Determine the string representation of the allowed request rate. */
  getRate(): string | null {
    if (!this.scope) {
      throw new ImproperlyConfigured(`You must set either \`.scope\` or \`.rate\` for '${this.constructor.name}' throttle`);
    }
    const rates = this.throttleRates ?? apiSettings.DEFAULT_THROTTLE_RATES;
    if (!Object.prototype.hasOwnProperty.call(rates, this.scope)) {
      throw new ImproperlyConfigured(`No default throttle rate set for '${this.scope}' scope`);
    }
    return rates[this.scope] ?? null;
  }

  /** Parse `'100/day'` into `[100, 86400]`; a null rate gives `[null, null]`. */
  parseRate(rate: string | null): ParsedRate {
    if (rate === null) return [null, null];
    const parts = rate.split('/');
    const num = parts.length === 2 ? Number(parts[0].trim()) : NaN;
    const period = parts.length === 2 ? PERIODS[parts[1].trim().charAt(0)] : undefined;
    if (!Number.isInteger(num) || num < 0 || period === undefined) {
      throw new ImproperlyConfigured(
        `Invalid throttle rate '${rate}' for '${this.constructor.name}': use '<number>/<period>' with a period of s, m, h or d.`,
      );
    }
    return [num, period];
  }

  /** Resolve the rate, number of requests and duration once per instance. */
  protected resolveRate(): void {
    if (this.rateResolved) return;
    if (this.rate === undefined) this.rate = this.getRate();
    [this.numRequests, this.duration] = this.parseRate(this.rate);
    this.rateResolved = true;
  }

  /** The cache used for histories. */
  getCache(): BaseCache {
    return this.cache ?? caches.default;
  }

  /**
   * Implement the check to see if the request should be throttled: on success, the request's
   * time is recorded in the history and `throttleSuccess()` answers; otherwise
   * `throttleFailure()` does.
   */
  override async allowRequest(request: Request, view: APIView): Promise<boolean> {
    this.resolveRate();
    if (this.rate === null || this.numRequests === null || this.duration === null) return true;
    this.key = await this.getCacheKey(request, view);
    if (this.key === null) return true;
    this.now = this.timer();
    let allowed: boolean;
    try {
      allowed = await this.updateHistory(this.key, this.now, this.numRequests, this.duration);
    } catch (error) {
      // The cache is down or timing out: THROTTLE_FAIL_OPEN (the default) lets the request
      // through (the outage is logged once); off, the request answers 503.
      if (outageOf(error) !== 'cache' || !apiSettings.THROTTLE_FAIL_OPEN) throw error;
      reportOutage('cache', error);
      this.history = [];
      return true;
    }
    return allowed ? this.throttleSuccess() : this.throttleFailure();
  }

  /**
   * Drop history entries older than the period and, when fewer than `limit` remain, record
   * `now`. Sets `this.history` and returns whether the request was recorded. On Redis this is
   * one atomic script, so concurrent servers share the limit exactly.
   */
  protected async updateHistory(key: string, now: number, limit: number, duration: number): Promise<boolean> {
    const cache = this.getCache();
    if (cache instanceof RedisCache) {
      const reply = (await cache.client.eval(UPDATE_HISTORY, 1, cache.makeKey(key), String(now), String(duration), String(limit))) as [
        number,
        string,
      ];
      this.history = (JSON.parse(reply[1]) as unknown[]).map(Number);
      return Number(reply[0]) === 1;
    }
    return withKeyLock(`${cache.keyPrefix}:${key}`, async () => {
      const history = ((await cache.get<unknown[]>(key, [])) ?? []).map(Number);
      while (history.length && history[history.length - 1] <= now - duration) history.pop();
      this.history = history;
      if (history.length >= limit) return false;
      history.unshift(now);
      await cache.set(key, history, duration);
      return true;
    });
  }

  /** Called when the request is allowed (its time is already recorded); returns `true`. */
  throttleSuccess(): boolean {
    return true;
  }

  /** Called when the request is throttled; returns `false`. */
  throttleFailure(): boolean {
    return false;
  }

  /**
   * Return the recommended next request time in seconds: the time until the oldest request
   * leaves the window, spread over the requests still available.
   */
  override wait(): number | null {
    const duration = this.duration ?? 0;
    const remaining = this.history.length ? duration - (this.now - this.history[this.history.length - 1]) : duration;
    const available = (this.numRequests ?? 0) - this.history.length + 1;
    if (available <= 0) return null;
    return remaining / available;
  }
}

function isAuthenticatedUser(request: Request): boolean {
  const user = request.user;
  return Boolean(user && user.isAuthenticated);
}

/**
 * Limits the rate of API calls that may be made by anonymous users, keyed by IP address.
 * The rate is DEFAULT_THROTTLE_RATES['anon'].
 */
export class AnonRateThrottle extends SimpleRateThrottle {
  override scope: string | null = 'anon';

  override getCacheKey(request: Request): string | null {
    if (isAuthenticatedUser(request)) return null; // Only throttle unauthenticated requests.
    return this.formatCacheKey({ scope: this.scope ?? '', ident: this.getIdent(request) });
  }
}

/**
 * Limits the rate of API calls by a user: authenticated requests are keyed by user id,
 * anonymous ones by IP address. The rate is DEFAULT_THROTTLE_RATES['user'].
 */
export class UserRateThrottle extends SimpleRateThrottle {
  override scope: string | null = 'user';

  override getCacheKey(request: Request): string | null {
    const ident = isAuthenticatedUser(request) ? (request.user?.pk ?? null) : this.getIdent(request);
    return this.formatCacheKey({ scope: this.scope ?? '', ident });
  }
}

/**
 * Limits the rate of API calls to parts of the API: views with a `throttleScope` are limited
 * by the DEFAULT_THROTTLE_RATES entry of that scope, per user or per IP. Views without one
 * are not throttled.
 */
export class ScopedRateThrottle extends SimpleRateThrottle {
  /** The view attribute naming the scope. */
  scopeAttr = 'throttleScope';

  override async allowRequest(request: Request, view: APIView): Promise<boolean> {
    // The rate depends on the view, so it is resolved here rather than once per instance.
    const scope: unknown = Reflect.get(view, this.scopeAttr);
    if (typeof scope !== 'string' || !scope) return true;
    this.scope = scope;
    this.rate = this.getRate();
    [this.numRequests, this.duration] = this.parseRate(this.rate);
    return super.allowRequest(request, view);
  }

  override getCacheKey(request: Request): string | null {
    const ident = isAuthenticatedUser(request) ? (request.user?.pk ?? null) : this.getIdent(request);
    return this.formatCacheKey({ scope: this.scope ?? '', ident });
  }
}
