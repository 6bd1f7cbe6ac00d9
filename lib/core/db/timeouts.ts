/**
 * Time bounds on the database (MySQL/MariaDB): `DATABASE_CONNECT_TIMEOUT` bounds opening a
 * connection (the driver's `connectTimeout`, handshake included) and `DATABASE_QUERY_TIMEOUT`
 * every statement sent on a connection (seconds; 0 turns a bound off). A statement past its bound
 * fails with `PROTOCOL_SEQUENCE_TIMEOUT` and its connection is destroyed (the server may still be
 * working on it, or be frozen), so the pool opens a fresh one; the handler answers 503.
 *
 * The query bound is applied to the raw driver connection as Sequelize opens it, so every
 * path that borrows a connection from Sequelize (its queries, transactions, the framework's own
 * prepared statements) is bounded. SQLite needs none: it is in process; a locked database fails
 * after its busy timeout with Sequelize's `TimeoutError`, also a 503.
 */
import type { Sequelize } from 'sequelize';
import { settings, type SettingName } from '../conf';
import { isUnavailable, reportRecovery } from '../outage';

/** Seconds of a timeout setting as milliseconds; `fallback` when unset or malformed; 0 off. */
function milliseconds(name: SettingName, fallback: number): number {
  const value: unknown = settings[name];
  if (value === null || value === 0) return 0;
  const seconds = Number(value);
  return Math.round((value === undefined || !Number.isFinite(seconds) || seconds < 0 ? fallback : seconds) * 1000);
}

/** The driver's connect timeout in milliseconds (`DATABASE_CONNECT_TIMEOUT`, default 5 s). */
export function databaseConnectTimeoutMs(): number {
  return milliseconds('DATABASE_CONNECT_TIMEOUT', 5) || 5000;
}

/** The statement timeout in milliseconds (`DATABASE_QUERY_TIMEOUT`, default 20 s; 0: none). */
export function databaseQueryTimeoutMs(): number {
  return milliseconds('DATABASE_QUERY_TIMEOUT', 20);
}

type Callback = (this: unknown, ...results: unknown[]) => unknown;

interface DriverConnection {
  query: (...args: unknown[]) => unknown;
  execute: (...args: unknown[]) => unknown;
  destroy(): void;
}

/** True for a raw mysql2 connection (what the MySQL pool hands out). */
function isDriverConnection(value: object): value is DriverConnection {
  return 'query' in value && typeof value.query === 'function' && 'execute' in value && typeof value.execute === 'function';
}

/** A statement under way on a bounded connection: when it is due, and how to fail it. */
export interface PendingStatement {
  deadline: number;
  ms: number;
  connection: DriverConnection;
  callback: Callback;
  settled: boolean;
}

/**
 * The statements under way, checked by one shared timer (`sweep()`), not a timer each: a
 * timer per statement costs its creation and clearing on every statement, and each held its
 * statement's callback (and with it the request's rows) until it was collected, so that the
 * rows of every request outlived a young-generation collection and were copied and promoted.
 */
const pending = new Set<PendingStatement>();
let sweeper: NodeJS.Timeout | null = null;

/** How often the sweeper looks: a tenth of the bound, between 50 ms and 1 s. */
function sweepInterval(ms: number): number {
  return Math.min(1000, Math.max(50, Math.floor(ms / 10)));
}

/** Fail the statements past their bound; stop once none is under way. */
function sweep(): void {
  if (pending.size === 0) {
    if (sweeper) clearInterval(sweeper);
    sweeper = null;
    return;
  }
  const now = performance.now();
  for (const statement of pending) {
    if (statement.deadline > now) continue;
    pending.delete(statement);
    statement.settled = true;
    const error = Object.assign(new Error(`Query timed out after ${statement.ms / 1000} s (DATABASE_QUERY_TIMEOUT)`), {
      code: 'PROTOCOL_SEQUENCE_TIMEOUT',
      fatal: true,
    });
    // The connection's state is unknown (the server may answer later, or never): drop it.
    statement.connection.destroy();
    statement.callback.call(statement.connection, error);
  }
}

let sweepEvery = 0;

function watch(statement: PendingStatement): void {
  pending.add(statement);
  const every = sweepInterval(statement.ms);
  if (sweeper && every < sweepEvery) {
    clearInterval(sweeper);
    sweeper = null;
  }
  if (!sweeper) {
    sweepEvery = every;
    sweeper = setInterval(sweep, every);
    sweeper.unref();
  }
}

/**
 * The mark of a driver call whose caller bounds the statement itself (`boundStatement()`): the
 * framework's statement runner. Its callback is its own, so nothing wraps it: a wrapped
 * callback, held by the driver's command, kept each statement's rows reachable from the old
 * generation until the next full collection (the rows of every request were copied and promoted).
 */
export const SELF_BOUND: unique symbol = Symbol('api_framework.selfBoundStatement');

/**
 * Bound one statement that `connection` is about to run (the caller marks the driver call
 * with `SELF_BOUND`): past `DATABASE_QUERY_TIMEOUT`, the connection is destroyed and `callback`
 * is called with the timeout error. The caller's own callback must first pass the returned
 * handle to `statementAnswered()`, and ignore the answer when it returns false. Null when no
 * bound applies.
 */
export function boundStatement(connection: object, callback: Callback): PendingStatement | null {
  const ms = databaseQueryTimeoutMs();
  if (ms <= 0 || !isDriverConnection(connection)) return null;
  const statement: PendingStatement = { deadline: performance.now() + ms, ms, connection, callback, settled: false };
  watch(statement);
  return statement;
}

/** The statement bounded by `boundStatement()` answered: false when it had timed out already. */
export function statementAnswered(statement: PendingStatement | null, failed: boolean): boolean {
  if (statement === null) return true;
  if (statement.settled) return false;
  statement.settled = true;
  pending.delete(statement);
  if (!failed) reportRecovery('database');
  return true;
}

function isSelfBound(call: unknown): boolean {
  return typeof call === 'object' && call !== null && (call as { [SELF_BOUND]?: boolean })[SELF_BOUND] === true;
}

/** Wrap `method` of a raw mysql2 connection: its callback is called with a timeout error past the bound. */
function bound(connection: DriverConnection, method: 'query' | 'execute'): void {
  const original = connection[method];
  connection[method] = function (this: unknown, ...args: unknown[]): unknown {
    if (isSelfBound(args[0])) return original.apply(this, args);
    const index = args.findIndex((arg) => typeof arg === 'function');
    const callback = args[index] as Callback | undefined;
    const statement = callback ? boundStatement(connection, callback) : null;
    if (!callback || !statement) return original.apply(this, args);
    args[index] = function (this: unknown, ...results: unknown[]): unknown {
      if (!statementAnswered(statement, Boolean(results[0]))) return undefined;
      return callback.apply(this, results);
    };
    return original.apply(this, args);
  };
}

/**
 * Bound every statement of the MySQL connections `sequelize` opens (wrapped once, as its
 * connection manager opens each one, not per statement as the pool hands it out).
 */
export function applyQueryTimeouts(sequelize: Sequelize): void {
  const manager = sequelize.connectionManager as unknown as { connect(config: unknown): Promise<unknown> };
  const connect = manager.connect.bind(manager);
  const wrapped = new WeakSet<DriverConnection>();
  manager.connect = async (config: unknown): Promise<unknown> => {
    const connection = await connect(config);
    if (connection !== null && typeof connection === 'object' && isDriverConnection(connection) && !wrapped.has(connection)) {
      wrapped.add(connection);
      bound(connection, 'query');
      bound(connection, 'execute');
    }
    return connection;
  };
}

/**
 * End a database outage at the first query through `sequelize` that succeeds after it (any
 * vendor: SQLite's locked-database outages too). Costs one check per query while the database
 * is up.
 */
export function watchDatabaseRecovery(sequelize: Sequelize): void {
  const query = sequelize.query;
  // Replaced as an own property: Sequelize's overloads of query() are one function at run time.
  Object.defineProperty(sequelize, 'query', {
    configurable: true,
    enumerable: true,
    writable: true,
    value(...args: Parameters<Sequelize['query']>): Promise<unknown> {
      const result = query.apply(sequelize, args);
      if (isUnavailable('database')) result.then(() => reportRecovery('database'), () => undefined);
      return result;
    },
  });
}
