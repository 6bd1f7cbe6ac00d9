/**
 * The executor of the statements the framework writes itself (compiled SELECT/INSERT/UPDATE,
 * QuerySet `update()`/`delete()`, `count()`/`exists()`): SQL with `$n` placeholders and its
 * bound values run on the driver directly, not through `sequelize.query` — no option cloning,
 * no per-query `new Error()` stack, no result post-processing the caller does not ask for.
 *
 * What `sequelize.query` guarantees is kept, the same way it does it:
 * - the connection: the transaction's own (the explicit `transaction` option, else the CLS one
 *   of `atomic()`; `null` means none), else one from Sequelize's connection manager — so read
 *   replicas get the reads outside a transaction (`usePrimary()` honoured), writes go to the
 *   primary, the pool's limits and the MySQL statement timeout (timeouts.ts) hold — released
 *   afterwards; a finished transaction is refused with Sequelize's message;
 * - the driver call: SQLite `all`/`run` on the node-sqlite3 handle (through its per-connection
 *   prepared statements, sqliteStatements.ts; parameters bound by name `$n`, BigInt as text);
 *   MySQL/MariaDB mysql2 `execute` (prepared; `query` for writes without parameters), `$n`
 *   rewritten to `?`, SELECT rows read with mysql2's own conversions and cast as Sequelize's
 *   typeCast casts them (mysqlTypeCast.ts);
 * - errors: mapped by the dialect's own `Query#formatError` (UniqueConstraintError,
 *   ForeignKeyConstraintError, TimeoutError for SQLITE_BUSY, ...), a MySQL deadlock rolls the
 *   transaction back, and Sequelize's `retry` option (by default: SQLITE_BUSY up to 5 times) applies;
 * - logging: the `logging` function of the Sequelize options (query capture, `API_FRAMEWORK_SQL_DEBUG`)
 *   gets `Executing (<connection>): <sql>` for every statement, as from Sequelize;
 * - outages: the first success after a database outage reports its recovery (outage.ts).
 */
import type { Sequelize } from 'sequelize';
import { Transaction } from 'sequelize';
import { clsNamespace } from './clsNamespace';
import { logQuery, queriesLogged, readySqliteConnection } from './connection';
import { isUnavailable, reportRecovery } from '../outage';
import { castAsSequelize, castsPerCall, PLAIN_READ, type DriverField } from './mysqlTypeCast';
import { boundStatement, SELF_BOUND, statementAnswered } from './timeouts';

/** What a statement is, as Sequelize's query types name it (routing and driver method follow from it). */
export type StatementType = 'SELECT' | 'INSERT' | 'UPDATE' | 'BULKUPDATE' | 'BULKDELETE';

/** How to run one statement. */
export interface StatementOptions {
  type: StatementType;
  /** The transaction to run in; undefined: the current `atomic()` one; null: none. */
  transaction?: unknown;
  /** The model (and instance) the statement is about: only for the error messages of `formatError`. */
  model?: unknown;
  instance?: unknown;
  /**
   * SQLite SELECTs: the tables whose `PRAGMA table_info` the caller parses values by (answered
   * in `tableInfo`, from the per-connection cache, as Sequelize reads them before a SELECT).
   */
  tables?: readonly string[];
}

/** What the driver answered: the rows of a SELECT; the changed rows and the new row id of a write. */
export interface StatementResult {
  rows: Array<Record<string, unknown>>;
  /** Rows changed (SQLite `changes`, MySQL `affectedRows`; matched rows with FOUND_ROWS). */
  changes: number;
  /** SQLite `lastID`, MySQL `insertId`. */
  insertId: unknown;
  /** SQLite: the `PRAGMA table_info` rows of `options.tables` (null where it failed); else empty. */
  tableInfo: unknown[];
}

type DriverCallback = (this: unknown, error: (Error & Record<string, unknown>) | null, result?: unknown, fields?: unknown) => void;

/** A node-sqlite3 `Database` as this module calls it. */
interface SqliteConnection {
  all(sql: string, params: unknown, callback: DriverCallback): unknown;
  all(sql: string, callback: DriverCallback): unknown;
  run(sql: string, params: unknown, callback: DriverCallback): unknown;
  uuid?: string;
}

/** A mysql2 connection as this module calls it (a callback also gets the result's columns). */
interface MysqlConnection {
  execute(options: string | MysqlCall, params: unknown[], callback: DriverCallback): unknown;
  query(options: MysqlCall, callback: DriverCallback): unknown;
  uuid?: string;
}

/** The options of a mysql2 `query()`/`execute()` call. */
interface MysqlCall {
  sql: string;
  typeCast?: unknown;
  dateStrings?: readonly string[];
  /** Bounded by the runner itself (timeouts.ts `boundStatement()`). */
  [SELF_BOUND]?: boolean;
}

/** The parts of Sequelize's (partly untyped) instance this module uses. */
interface SequelizeInternals {
  options: {
    dialect: string;
    logging?: unknown;
    benchmark?: boolean;
    retry?: { max?: number; match?: unknown[]; backoffBase?: number; backoffExponent?: number };
  };
  connectionManager: {
    getConnection(options: Record<string, unknown>): Promise<unknown>;
    releaseConnection(connection: unknown): unknown;
  };
  dialect: {
    Query: {
      new (connection: unknown, sequelize: unknown, options: Record<string, unknown>): { sql: string; formatError(error: Error, stack?: string): Error };
      formatBindParameters(sql: string, values: unknown[], dialect: string): [string, unknown];
    };
  };
}

/** A transaction as Sequelize keeps it. */
interface TransactionInternals {
  connection: unknown;
  finished?: string;
  id?: string;
  rollback(): Promise<void>;
}

const ER_DEADLOCK = 1213;

/** A statement's text for the driver and, per driver placeholder, the index of its value. */
interface DriverText {
  /** The number of values it was worked out for. */
  count: number;
  sql: string;
  order: number[];
}

/**
 * Driver texts per dialect: two dialects may render the same `$n` text (Sequelize quotes with
 * backticks on MySQL and SQLite alike) but rewrite its placeholders differently, and a process
 * can switch `DATABASE_URL` from one engine to the other.
 */
const driverTextsByDialect = new Map<string, Map<string, DriverText>>();
const MAX_DRIVER_TEXTS = 1024;

/**
 * The driver's text of a `$n` statement, rewritten by the dialect's own
 * `Query.formatBindParameters` exactly as `sequelize.query` rewrites it (MySQL: `?` in value
 * order; SQLite: `$n` kept), worked out once per text by binding the value indices. Keyed by
 * the text itself: a caller that runs the same string again (compiled SELECTs keep theirs)
 * finds it without hashing a new key.
 */
function driverText(sequelize: SequelizeInternals, sql: string, count: number): DriverText {
  const dialect = String(sequelize.options.dialect);
  let driverTexts = driverTextsByDialect.get(dialect);
  if (!driverTexts) driverTextsByDialect.set(dialect, driverTexts = new Map());
  let known = driverTexts.get(sql);
  if (known && known.count === count) return known;
  const trimmed = sql.trim();
  if (!count) known = { count, sql: trimmed, order: [] };
  else {
    const indices = Array.from({ length: count }, (_, index) => index);
    const [text, order] = sequelize.dialect.Query.formatBindParameters(trimmed, indices, sequelize.options.dialect);
    known = { count, sql: text, order: Array.isArray(order) ? (order as number[]) : indices };
  }
  if (driverTexts.size >= MAX_DRIVER_TEXTS) driverTexts.clear();
  driverTexts.set(sql, known);
  return known;
}

/** Answers one statement: the driver's error, or what it answered. */
type Settle = (error: (Error & Record<string, unknown>) | null, result?: StatementResult) => void;

/** Run a statement on a node-sqlite3 handle: `all` for a SELECT, else `run` (changes, last id). */
function runSqlite(connection: SqliteConnection, sql: string, params: readonly unknown[], type: StatementType, tableInfo: unknown[], settle: Settle): void {
  const callback: DriverCallback = function (this: unknown, error, rows) {
    if (error) {
      settle(error);
      return;
    }
    const statement = this as { changes?: number; lastID?: unknown } | null;
    settle(null, { rows: (rows as Array<Record<string, unknown>> | undefined) ?? [], changes: statement?.changes ?? 0, insertId: statement?.lastID, tableInfo });
  };
  const bound = sqliteParameters(params);
  if (type === 'SELECT') connection.all(sql, bound, callback);
  else connection.run(sql, bound, callback);
}

/**
 * MySQL driver texts whose results Sequelize's typeCast must read (a column type
 * `castAsSequelize` cannot cast afterwards): read with it from the start, without a plain read first.
 */
const typeCastTexts = new Set<string>();
const MAX_TYPECAST_TEXTS = 1024;

/** Remember that `sql`'s results need Sequelize's typeCast (bounded: forgotten wholesale when full). */
function needsTypeCast(sql: string): void {
  if (typeCastTexts.size >= MAX_TYPECAST_TEXTS) typeCastTexts.clear();
  typeCastTexts.add(sql);
}

/**
 * Run a statement on a mysql2 connection: `execute` (prepared) with values, else `query` (as
 * Sequelize runs it). A plain read (SELECTs, on connections whose Sequelize typeCast is applied
 * per call) is always prepared — the server parses and plans its text once per connection, not
 * per run —, reads with mysql2's own conversions and casts the rows as Sequelize's typeCast
 * would (mysqlTypeCast.ts); a result it cannot give Sequelize's values so is read again the
 * way Sequelize reads it (SELECTs only: reading twice changes nothing), and its text remembered.
 */
function runMysql(connection: MysqlConnection, sql: string, values: unknown[] | null, plain: boolean, sequelizeOptions: unknown, tableInfo: unknown[], settle: Settle): void {
  const callback: DriverCallback = (error, data, fields) => {
    if (!statementAnswered(bound, Boolean(error))) return;
    if (error) {
      settle(error);
      return;
    }
    if (Array.isArray(data)) {
      const rows = data as Array<Record<string, unknown>>;
      if (plain && !castAsSequelize(rows, fields as DriverField[] | undefined, sequelizeOptions, values === null)) {
        needsTypeCast(sql);
        try {
          runMysql(connection, sql, values, false, sequelizeOptions, tableInfo, settle);
        } catch (rereadError) {
          settle(rereadError as Error & Record<string, unknown>);
        }
        return;
      }
      settle(null, { rows, changes: 0, insertId: undefined, tableInfo });
    } else {
      const header = data as { affectedRows?: number; insertId?: unknown };
      settle(null, { rows: [], changes: header.affectedRows ?? 0, insertId: header.insertId, tableInfo });
    }
  };
  // DATABASE_QUERY_TIMEOUT, applied here rather than by wrapping the callback (timeouts.ts).
  const bound = boundStatement(connection, callback as (this: unknown, ...results: unknown[]) => unknown);
  if (plain) connection.execute({ sql, typeCast: PLAIN_READ.typeCast, dateStrings: PLAIN_READ.dateStrings, [SELF_BOUND]: true }, values ?? [], callback);
  else if (values) connection.execute({ sql, [SELF_BOUND]: true }, values, callback);
  else connection.query({ sql, [SELF_BOUND]: true }, callback);
}

/** `$1`, `$2`, ...: the SQLite parameter names, made once (as keys they need no lookup per statement). */
const parameterNames: string[] = [];

function parameterName(index: number): string {
  return parameterNames[index] ??= `$${index + 1}`;
}

/** The SQLite parameters of `$n` values: by name, BigInts as text (what Sequelize binds). */
function sqliteParameters(params: readonly unknown[]): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    named[parameterName(i)] = typeof value === 'bigint' ? value.toString() : value;
  }
  return named;
}

/** `PRAGMA table_info` statements by table name: one string per table, as the per-connection cache keys them. */
const tableInfoTexts = new Map<string, string>();

function tableInfoSql(table: string): string {
  let sql = tableInfoTexts.get(table);
  if (sql === undefined) {
    sql = `PRAGMA table_info(\`${table.replace(/`/g, '')}\`)`;
    if (tableInfoTexts.size >= MAX_DRIVER_TEXTS) tableInfoTexts.clear();
    tableInfoTexts.set(table, sql);
  }
  return sql;
}

/**
 * The `PRAGMA table_info` rows of `tables` on `connection` (null for a table whose pragma
 * failed, as Sequelize ignores it); synchronous when the per-connection cache answers them all.
 */
function tableInfoOf(connection: SqliteConnection, tables: readonly string[]): unknown[] | Promise<unknown[]> {
  const answers: unknown[] = new Array<unknown>(tables.length);
  let pending = tables.length;
  let wake: (() => void) | null = null;
  tables.forEach((table, index) => {
    connection.all(tableInfoSql(table), (error, rows) => {
      answers[index] = error ? null : rows;
      pending -= 1;
      if (!pending && wake) wake();
    });
  });
  if (!pending) return answers;
  return new Promise<unknown[]>((resolve) => {
    wake = () => resolve(answers);
  });
}

/** The transaction a statement runs in: the explicit one, else the CLS one (`atomic()`). */
function transactionOf(option: unknown): TransactionInternals | null {
  const transaction = option === undefined ? clsNamespace.get('transaction') : option;
  return transaction instanceof Transaction ? (transaction as unknown as TransactionInternals) : null;
}

function log(sequelize: SequelizeInternals, connection: { uuid?: string }, sql: string, type: StatementType, phase: 'Executing' | 'Executed', started: number): void {
  const logging = sequelize.options.logging;
  if (typeof logging !== 'function' || (logging === logQuery && !queriesLogged())) return;
  const text = `${phase} (${connection.uuid || 'default'}): ${sql}`;
  if (sequelize.options.benchmark) {
    if (phase === 'Executed') (logging as (message: string, ms: number, options: object) => void)(text, Date.now() - started, { type });
  } else if (phase === 'Executing') {
    (logging as (message: string, options: object) => void)(text, { type });
  }
}

/** Whether Sequelize's `retry.match` entry matches `error` (as retry-as-promised tests it). */
function retryMatches(match: unknown, error: Error): boolean {
  if (typeof match === 'function') {
    try {
      if (error instanceof (match as new () => unknown)) return true;
    } catch {
      // not a class
    }
    return Boolean((match as (error: Error) => unknown)(error));
  }
  if (match === error.toString() || match === error.message) return true;
  return match instanceof RegExp && (match.test(error.message) || match.test(error.toString()));
}

/** The error of a statement on a transaction that is over (Sequelize's message). */
function finishedTransactionError(transaction: TransactionInternals, sql: string): Error {
  const error = new Error(
    `${transaction.finished} has been called on this transaction(${transaction.id}), you can no longer use it. (The rejected query is attached as the 'sql' property of this error)`,
  );
  return Object.assign(error, { sql });
}

/**
 * Attempt number `current` of a statement: its connection (the transaction's; else, on SQLite,
 * the open connection at once, `readySqliteConnection()`; else one from the connection
 * manager), then `onConnection()`.
 */
function attempt(sequelize: SequelizeInternals, sql: string, params: readonly unknown[], options: StatementOptions, current: number): Promise<StatementResult> {
  const transaction = transactionOf(options.transaction);
  if (transaction) {
    if (transaction.finished) return Promise.reject(finishedTransactionError(transaction, sql));
    return onConnection(sequelize, transaction.connection, transaction, sql, params, options, current);
  }
  const manager = sequelize.connectionManager;
  const ready = readySqliteConnection(manager);
  if (ready !== null) return onConnection(sequelize, ready, null, sql, params, options, current);
  return manager.getConnection({ type: options.type }).then(
    (connection) => onConnection(sequelize, connection, null, sql, params, options, current),
    (error: Error) => retryAfter(sequelize, sql, params, options, error, current),
  );
}

/**
 * The statement on `connection`, as one promise: the driver call, the log lines, the error
 * mapping (and the rollback of a deadlocked MySQL transaction), the release of a connection
 * that is not the transaction's, and Sequelize's `retry` of a failed attempt.
 */
function onConnection(
  sequelize: SequelizeInternals,
  connection: unknown,
  transaction: TransactionInternals | null,
  sql: string,
  params: readonly unknown[],
  options: StatementOptions,
  current: number,
): Promise<StatementResult> {
  const driver = connection as SqliteConnection & MysqlConnection;
  const manager = sequelize.connectionManager;
  const sqlite = sequelize.options.dialect === 'sqlite';
  return new Promise<StatementResult>((resolve, reject) => {
    let text: DriverText | null = null;
    let started = 0;
    let released = false;
    const release = (): void => {
      if (transaction || released) return;
      released = true;
      manager.releaseConnection(connection);
    };
    const fail = (caught: unknown): void => {
      try {
        if (text) log(sequelize, driver, text.sql, options.type, 'Executed', started);
        const error = caught as Error & Record<string, unknown>;
        const failure = (): Error => {
          if (!text) return error;
          error.sql = text.sql;
          if (!sqlite) error.parameters = text.order.map((index) => params[index]);
          const query = new sequelize.dialect.Query(connection, sequelize, { type: options.type, model: options.model, instance: options.instance });
          query.sql = text.sql;
          return query.formatError(error, new Error().stack);
        };
        if (!sqlite && transaction && error.errno === ER_DEADLOCK) {
          // As Sequelize: the transaction is rolled back, and the deadlock is what is reported.
          const rolledBack = (): void => {
            transaction.finished = 'rollback';
            settleFailure(failure());
          };
          transaction.rollback().then(rolledBack, rolledBack);
          return;
        }
        settleFailure(failure());
      } catch (unexpected) {
        release();
        reject(unexpected);
      }
    };
    const settleFailure = (failure: Error): void => {
      release();
      resolve(retryAfter(sequelize, sql, params, options, failure, current));
    };
    const settle: Settle = (error, result) => {
      if (error) {
        fail(error);
        return;
      }
      try {
        log(sequelize, driver, (text as DriverText).sql, options.type, 'Executed', started);
        if (isUnavailable('database')) reportRecovery('database');
      } catch (unexpected) {
        release();
        reject(unexpected);
        return;
      }
      release();
      resolve(result as StatementResult);
    };
    const run = (tableInfo: unknown[]): void => {
      const known = text as DriverText;
      if (sqlite) runSqlite(driver, known.sql, params, options.type, tableInfo, settle);
      else {
        const values = known.order.length ? known.order.map((index) => params[index]) : null;
        const plain = options.type === 'SELECT' && castsPerCall(driver) && !typeCastTexts.has(known.sql);
        runMysql(driver, known.sql, values, plain, sequelize.options, tableInfo, settle);
      }
    };
    try {
      text = driverText(sequelize, sql, params.length);
      started = Date.now();
      log(sequelize, driver, text.sql, options.type, 'Executing', started);
      if (sqlite && options.tables?.length) {
        const answered = tableInfoOf(driver, options.tables);
        if (!Array.isArray(answered)) {
          answered.then(run).then(undefined, fail);
          return;
        }
        run(answered);
      } else {
        run([]);
      }
    } catch (caught) {
      fail(caught);
    }
  });
}

/**
 * After attempt number `current` failed with `error`: the next attempt when Sequelize's `retry`
 * option asks for one (by default: SQLITE_BUSY, up to 5 attempts, after its backoff), else the
 * rejection with `error`.
 */
function retryAfter(sequelize: SequelizeInternals, sql: string, params: readonly unknown[], options: StatementOptions, error: Error, current: number): Promise<StatementResult> {
  const retry = sequelize.options.retry ?? {};
  const max = retry.max ?? 0;
  const match = retry.match ?? [];
  if (current >= max || !(error instanceof Error) || (match.length && !match.some((entry) => retryMatches(entry, error)))) return Promise.reject(error);
  const delay = (retry.backoffBase ?? 100) * Math.pow(retry.backoffExponent ?? 1.1, current - 1);
  const next = (): Promise<StatementResult> => attempt(sequelize, sql, params, options, current + 1);
  return delay ? new Promise((resolve) => setTimeout(resolve, delay)).then(next) : next();
}

/**
 * Run `sql` (placeholders `$1`, `$2`, ... for `params`) on the driver, in the current
 * transaction or on a connection routed as Sequelize routes `options.type`. Rejects with the
 * error Sequelize's `query()` would raise for the same failure.
 *
 * One promise per statement while the connection is at hand (a transaction's, or SQLite's open
 * one): the work around the driver call runs in its callback, not in async steps.
 */
export function runStatement(sequelize: Sequelize, sql: string, params: readonly unknown[], options: StatementOptions): Promise<StatementResult> {
  try {
    return attempt(sequelize as unknown as SequelizeInternals, sql, params, options, 1);
  } catch (error) {
    return Promise.reject(error);
  }
}
