/**
 * Prepared statements kept per SQLite connection: a statement with bound parameters
 * (`SELECT`/`INSERT`/`UPDATE`/`DELETE`, as the framework and Sequelize send them) is prepared
 * once per connection and re-run with new values (`Statement#all`/`#run`) instead of being
 * parsed and planned on every call — what mysql2's `execute` does on MySQL. At most
 * `MAX_STATEMENTS` per connection (the least recently used is finalized); all are finalized
 * before the connection closes. SQLite re-prepares a kept statement by itself after a schema
 * change; a statement that fails to prepare is not kept, and its calls run the uncached way
 * (which reports the error as before).
 */

type Callback = (this: unknown, error: Error | null, ...results: unknown[]) => void;

/** The node-sqlite3 statement methods used here. */
interface SqliteStatement {
  all(params: unknown, callback: Callback): unknown;
  run(params: unknown, callback: Callback): unknown;
  finalize(callback?: (error: Error | null) => void): unknown;
}

/** The node-sqlite3 database methods wrapped here. */
export interface StatementCachingHandle {
  all(sql: string, ...rest: unknown[]): unknown;
  run(sql: string, ...rest: unknown[]): unknown;
  prepare(sql: string, ...rest: unknown[]): unknown;
  close(callback?: (error: Error | null) => void): unknown;
}

interface Entry {
  statement: SqliteStatement;
  state: 'preparing' | 'ready' | 'failed';
  /** Calls that arrived while the statement was being prepared. */
  waiting: Array<() => void>;
  /** When the statement was last used (a counter): the least recently used is evicted. */
  used: number;
}

const MAX_STATEMENTS = 256;
const CACHEABLE = /^\s*(?:SELECT|INSERT|UPDATE|DELETE)\b/i;

function hasParameters(params: unknown): boolean {
  if (Array.isArray(params)) return params.length > 0;
  return typeof params === 'object' && params !== null && Object.keys(params).length > 0;
}

/** Serve `all`/`run` calls that carry parameters from per-connection prepared statements. */
export function cacheStatements(handle: StatementCachingHandle): void {
  const entries = new Map<string, Entry>();
  const originals = { all: handle.all, run: handle.run };
  // A use stamps the entry instead of moving it to the end of the map: deleting and re-adding
  // a key on every statement churns the map; the oldest is searched for only when it is full.
  let clock = 0;

  const evictOldest = (): void => {
    let oldest: [string, Entry] | null = null;
    for (const pair of entries) {
      if (pair[1].state === 'ready' && (oldest === null || pair[1].used < oldest[1].used)) oldest = pair;
    }
    if (oldest === null) return;
    entries.delete(oldest[0]);
    oldest[1].statement.finalize();
  };

  const entryFor = (sql: string): Entry => {
    const known = entries.get(sql);
    if (known) {
      known.used = ++clock;
      return known;
    }
    if (entries.size >= MAX_STATEMENTS) evictOldest();
    const entry: Entry = { statement: null as unknown as SqliteStatement, state: 'preparing', waiting: [], used: ++clock };
    entries.set(sql, entry);
    entry.statement = handle.prepare(sql, (error: Error | null) => {
      entry.state = error ? 'failed' : 'ready';
      if (error && entries.get(sql) === entry) entries.delete(sql);
      const waiting = entry.waiting;
      entry.waiting = [];
      for (const resume of waiting) resume();
    }) as SqliteStatement;
    return entry;
  };

  for (const method of ['all', 'run'] as const) {
    handle[method] = function (this: StatementCachingHandle, sql: string, ...rest: unknown[]): unknown {
      const params = rest[0];
      const callback = rest[1];
      if (rest.length !== 2 || typeof callback !== 'function' || !hasParameters(params) || !CACHEABLE.test(sql)) {
        return originals[method].call(this, sql, ...rest);
      }
      const entry = entryFor(sql);
      if (entry.state === 'ready') {
        entry.statement[method](params, callback as Callback);
        return this;
      }
      const execute = (): void => {
        if (entry.state === 'failed') {
          originals[method].call(handle, sql, params, callback);
          return;
        }
        entry.statement[method](params, callback as Callback);
      };
      if (entry.state === 'preparing') entry.waiting.push(execute);
      else execute();
      return this;
    };
  }

  const close = handle.close;
  handle.close = function (this: StatementCachingHandle, callback?: (error: Error | null) => void): unknown {
    const kept = [...entries.values()].filter((entry) => entry.state === 'ready');
    entries.clear();
    let left = kept.length;
    if (!left) return close.call(this, callback);
    for (const entry of kept) {
      entry.statement.finalize(() => {
        left -= 1;
        if (!left) close.call(handle, callback);
      });
    }
    return this;
  };
}
