/**
 * Sessions kept in `caches.default` only (memory, or Redis shared by every server process):
 * fast, but a cache flush or eviction logs everybody out. Select it with
 * `SESSION_ENGINE = 'contrib.sessions.backends.cache'`.
 */
import { caches, type BaseCache } from '../../../lib/core/cache';
import { CreateError, SessionBase, UpdateError, type SessionData } from './base';

/** Prefix of the cache keys of sessions. */
export const KEY_PREFIX = 'django.contrib.sessions.cache';

/** A session store backed by the project's cache. Override `cache` to use another one. */
export class SessionStore extends SessionBase {
  /** The cache holding the sessions (read at call time so CACHE_URL changes apply). */
  get cache(): BaseCache {
    return caches.default;
  }

  /** The cache key of the current session. */
  get cacheKey(): string {
    return KEY_PREFIX + (this.currentKey ?? '');
  }

  override async load(): Promise<SessionData> {
    let data: unknown = null;
    try {
      data = await this.cache.get(this.cacheKey);
    } catch {
      // An unreachable cache reads as "no session", as in the original.
      data = null;
    }
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) return data as SessionData;
    this.currentKey = null;
    return {};
  }

  override async exists(sessionKey: string): Promise<boolean> {
    return Boolean(sessionKey) && (await this.cache.has(KEY_PREFIX + sessionKey));
  }

  override async create(): Promise<void> {
    // Cache keys can be evicted at any time, so `exists()` is not enough: `add` is atomic.
    if (await this.saveUnderNewKey(10000)) return;
    throw new Error('Unable to create a new session key. It is likely that the cache is unavailable.');
  }

  override async save(mustCreate = false): Promise<void> {
    if (this.currentKey === null) {
      await this.create();
      return;
    }
    const data = this.sessionForSave(mustCreate);
    const age = this.getExpiryAge();
    if (mustCreate) {
      if (!(await this.cache.add(this.cacheKey, data, age))) throw new CreateError('Session key already exists.');
      return;
    }
    if (!(await this.cache.has(this.cacheKey))) throw new UpdateError('The session was deleted meanwhile.');
    await this.cache.set(this.cacheKey, data, age);
  }

  override async destroy(sessionKey: string | null = null): Promise<void> {
    const key = sessionKey ?? this.currentKey;
    if (key === null) return;
    await this.cache.delete(KEY_PREFIX + key);
  }

  /** Nothing to do: the cache expires sessions by itself. */
  static async clearExpired(): Promise<void> {
    // Entries carry their own timeout.
  }
}
