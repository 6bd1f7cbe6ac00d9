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

/** Wrap `method` of a raw mysql2 connection: its callback is called with a timeout error past the bound. */
function bound(connection: DriverConnection, method: 'query' | 'execute'): void {
  const original = connection[method];
  connection[method] = function (this: unknown, ...args: unknown[]): unknown {
    const ms = databaseQueryTimeoutMs();
    const index = args.findIndex((arg) => typeof arg === 'function');
    if (ms <= 0 || index < 0) return original.apply(this, args);
    const callback = args[index] as Callback;
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      const error = Object.assign(new Error(`Query timed out after ${ms / 1000} s (DATABASE_QUERY_TIMEOUT)`), {
        code: 'PROTOCOL_SEQUENCE_TIMEOUT',
        fatal: true,
      });
      // The connection's state is unknown (the server may answer later, or never): drop it.
      connection.destroy();
      callback.call(connection, error);
    }, ms);
    args[index] = function (this: unknown, ...results: unknown[]): unknown {
      if (settled) return undefined;
      settled = true;
      clearTimeout(timer);
      if (!results[0]) reportRecovery('database');
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
