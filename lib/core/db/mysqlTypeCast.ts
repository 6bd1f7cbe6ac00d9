/**
 * Sequelize's MySQL/MariaDB value casting, chosen per statement instead of per connection.
 *
 * Sequelize gives every mysql2 connection a `typeCast` function (its parser store: DATETIME to
 * `Date`, DATE as text, GEOMETRY to GeoJSON). With a typeCast function, mysql2's compiled row
 * parser calls it for every value of every row, and for prepared statements (the binary
 * protocol) first builds a field wrapper per value (the column's metadata copied, three
 * closures): most of the driver's cost of reading a row. So the function moves from the
 * connection's configuration into its calls: a `query()` or `execute()` that names no `typeCast`
 * (Sequelize's own queries, anyone else's) gets Sequelize's, exactly as before, and the
 * statement runner's reads name their own (`PLAIN_READ`: mysql2's own conversions, DATE and
 * DATETIME as text) and apply Sequelize's parsers of those two types themselves, per column
 * (`castAsSequelize`) — the values Sequelize's typeCast answers. A result with a column whose
 * Sequelize parser cannot be applied afterwards (GEOMETRY, or a parser replaced in its store)
 * is reported, so that the runner reads it again with Sequelize's typeCast; so is, for a
 * statement without bound values read as a prepared statement (where Sequelize sends a plain
 * query), a column of a type the two protocols answer differently (FLOAT, DOUBLE, TIME,
 * TIMESTAMP).
 *
 * Not covered: statements prepared with the driver's own `connection.prepare()` and run with
 * the prepared statement's `execute()` (mysql2 builds those commands without the connection's
 * `execute`); neither Sequelize nor the framework does that.
 */
import { createRequire } from 'node:module';
import type { Sequelize } from 'sequelize';
import { DataTypes } from 'sequelize';
import { dateTimeReaderFor, type DateTimeReader } from './dateParsing';

/** A column of a mysql2 result, as the driver describes it (the fields a callback gets). */
export interface DriverField {
  name: string;
  columnType: number;
}

/** A raw mysql2 connection, as this module changes it. */
interface CastConnection {
  config: { typeCast?: unknown };
  query: (...args: unknown[]) => unknown;
  execute: (...args: unknown[]) => unknown;
}

/** A Sequelize value parser of the MySQL dialect: `(field, sequelize options, next)`. */
type Parser = (field: { string(): unknown }, options: unknown, next: () => unknown) => unknown;

/** Sequelize's MySQL connection manager, as far as this module wraps it. */
interface ConnectionManager {
  connect(config: unknown): Promise<unknown>;
}

const runtimeRequire = createRequire(__filename);

/**
 * What the statement runner's reads pass to `query()`/`execute()`: mysql2's own conversions
 * (no typeCast function), DATE and DATETIME columns as the text Sequelize's parsers take.
 */
export const PLAIN_READ: Readonly<{ typeCast: true; dateStrings: readonly string[] }> = Object.freeze({
  typeCast: true,
  dateStrings: Object.freeze(['DATE', 'DATETIME']),
});

/** The connections whose typeCast moved into their calls (only these can read `PLAIN_READ`). */
const moved = new WeakSet<object>();

/** True if `connection`'s Sequelize typeCast is applied per call (so `PLAIN_READ` reads are allowed). */
export function castsPerCall(connection: object): boolean {
  return moved.has(connection);
}

/** The driver arguments of a `query()`/`execute()` call, with `typeCast` added where the call names none. */
function withTypeCast(args: unknown[], typeCast: unknown): unknown[] {
  const first = args[0];
  if (typeof first === 'string') {
    const copy = args.slice();
    copy[0] = { sql: first, typeCast };
    return copy;
  }
  if (first === null || typeof first !== 'object' || 'typeCast' in first) return args;
  const command = first as { _queryOptions?: Record<string, unknown> };
  if (Object.getPrototypeOf(first) !== Object.prototype && command._queryOptions) {
    // a mysql2 Query command built elsewhere (its options are read when it starts)
    if (!('typeCast' in command._queryOptions)) command._queryOptions.typeCast = typeCast;
    return args;
  }
  const copy = args.slice();
  copy[0] = { ...(first as object), typeCast };
  return copy;
}

/** Move `connection`'s typeCast function from its configuration into every call that names none. */
function moveTypeCast(connection: CastConnection): void {
  const typeCast = connection.config.typeCast;
  if (typeof typeCast !== 'function' || moved.has(connection)) return;
  for (const method of ['query', 'execute'] as const) {
    const original = connection[method];
    connection[method] = function (this: unknown, ...args: unknown[]): unknown {
      return original.apply(this, withTypeCast(args, typeCast));
    };
  }
  // mysql2's default: its own conversions, for the calls that name `typeCast: true`
  connection.config.typeCast = true;
  moved.add(connection);
}

/** True for a raw mysql2 connection (what Sequelize's MySQL connection manager opens). */
function isCastConnection(value: unknown): value is CastConnection {
  if (value === null || typeof value !== 'object') return false;
  const connection = value as Partial<CastConnection>;
  return typeof connection.query === 'function' && typeof connection.execute === 'function' && typeof connection.config === 'object' && connection.config !== null;
}

/**
 * Apply Sequelize's MySQL typeCast per call on every connection `sequelize` opens from now on
 * (its connection manager's `connect`, once per connection, not per statement).
 */
export function castPerCall(sequelize: Sequelize): void {
  const manager = sequelize.connectionManager as unknown as ConnectionManager;
  const connect = manager.connect.bind(manager);
  manager.connect = async (config: unknown): Promise<unknown> => {
    const connection = await connect(config);
    if (isCastConnection(connection)) moveTypeCast(connection);
    return connection;
  };
}

let typeNames: string[] | null = null;
let parserStore: { get(type: string): Parser | undefined } | null = null;

/** mysql2's type names by column type number (the `field.type` Sequelize's typeCast looks parsers up by). */
function typeNameOf(columnType: number): string | undefined {
  if (!typeNames) {
    const types = runtimeRequire('mysql2').Types as Record<string, number>;
    typeNames = [];
    for (const [name, value] of Object.entries(types)) typeNames[value] = name;
  }
  return typeNames[columnType];
}

/** Sequelize's parser for a mysql2 type name (its MySQL parser store, as its typeCast reads it). */
function parserOf(type: string | undefined): Parser | undefined {
  parserStore ??= (runtimeRequire('sequelize/lib/dialects/parserStore') as (dialect: string) => { get(type: string): Parser | undefined })('mysql');
  return type === undefined ? undefined : parserStore.get(type);
}

/** A field as Sequelize's DATE parser reads it: only its text. */
class TextField {
  value: unknown = null;

  /** The column's value as text (what mysql2's `field.string()` answers). */
  string(): unknown {
    return this.value;
  }
}

/** Sequelize's MySQL DATE (DATETIME columns) and DATEONLY (DATE columns) parsers. */
function sequelizeParsers(): { date: Parser | undefined; dateOnly: Parser | undefined } {
  const mysql = (DataTypes as unknown as { mysql?: Record<string, { parse?: Parser } | undefined> }).mysql;
  return { date: mysql?.DATE?.parse, dateOnly: mysql?.DATEONLY?.parse };
}

function next(): unknown {
  return null;
}

/**
 * Types whose values the binary protocol (a prepared statement) and the text protocol (a plain
 * query) may answer differently: FLOAT (the float's own digits, not the server's rounding),
 * DOUBLE, TIME (fraction digits), TIMESTAMP (read as a `Date` by two different routines).
 */
const TEXT_ONLY_TYPES: ReadonlySet<string> = new Set(['FLOAT', 'DOUBLE', 'TIME', 'TIMESTAMP']);

/**
 * Give the rows of a `PLAIN_READ` the values Sequelize's typeCast would have given them:
 * DATETIME columns through Sequelize's DATE parser (DATE ones stay the text its DATEONLY parser
 * answers; columns of types Sequelize has no parser for already hold mysql2's own values).
 * False, with the rows left as they are, when a column cannot be cast afterwards (a type whose
 * parser is another, or DATE/DATETIME without Sequelize's): read those rows with the typeCast.
 * `preparedForText`: the rows come from a prepared statement where Sequelize would have sent a
 * plain query (no bound values); false also for a column of a type the two protocols may
 * answer differently (`TEXT_ONLY_TYPES`).
 */
export function castAsSequelize(rows: Array<Record<string, unknown>>, fields: readonly DriverField[] | undefined, options: unknown, preparedForText = false): boolean {
  if (!fields) return true;
  const { date, dateOnly } = sequelizeParsers();
  let dates: string[] | null = null;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    const type = typeNameOf(field.columnType);
    const parser = parserOf(type);
    if (preparedForText && type !== undefined && TEXT_ONLY_TYPES.has(type)) return false;
    if (type === 'DATETIME') {
      if (!date || parser !== date) return false;
      // a name taken twice holds its last column's value
      if (!fields.some((other, j) => j > i && other.name === field.name)) (dates ??= []).push(field.name);
    } else if (type === 'DATE') {
      if (!dateOnly || parser !== dateOnly) return false;
    } else if (parser) {
      return false;
    }
  }
  if (!dates || !date) return true;
  const text = new TextField();
  const read = readerFor(options);
  for (const row of rows) {
    for (const name of dates) {
      const value = row[name];
      if (value === null) continue;
      const fast = read !== null && typeof value === 'string' ? read(value) : undefined;
      if (fast !== undefined) {
        row[name] = fast;
        continue;
      }
      text.value = value;
      row[name] = date(text, options, next);
    }
  }
  return true;
}

/** The DATETIME reader of the connection options' time zone, kept per zone. */
const readers = new Map<unknown, DateTimeReader | null>();

function readerFor(options: unknown): DateTimeReader | null {
  const timezone = (options as { timezone?: unknown } | null)?.timezone;
  let reader = readers.get(timezone);
  if (reader === undefined) {
    reader = dateTimeReaderFor(timezone);
    if (readers.size < 16) readers.set(timezone, reader);
  }
  return reader;
}
