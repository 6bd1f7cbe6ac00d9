/**
 * Turning the driver's rows of a compiled SELECT into what `findAll()` answers, without
 * Sequelize's per-query result handling: a decoder is compiled once per statement shape and
 * column list, then applied per row.
 *
 * - Values: on SQLite, each column whose declared type (`PRAGMA table_info`, as Sequelize reads
 *   it per query; answered from the per-connection cache) has a parser in Sequelize's SQLite
 *   parser store (DATETIME, JSON, REAL, ...) is parsed by it — Sequelize's own parse functions,
 *   chosen per column once instead of per value; MySQL/MariaDB values come parsed from the
 *   driver (Sequelize's `typeCast` is set on the connection).
 * - Nesting: `owner.username` columns become `{ owner: { username } }` as Sequelize's
 *   `_groupJoinData` nests them (to-one joins: by a path compiled once; joins that can repeat
 *   rows — to-many includes — go through `_groupJoinData` itself, which merges them).
 * - Instances: built as the model's `bulkBuild` with the options `findAll()` passes builds them
 *   (not new, raw, includes attached; instanceBuilder.ts, `bulkBuild` itself where a model
 *   customises building), or the stand-in reader's `bulkBuild` (plain rows); raw queries
 *   (`values()`) answer copies of the rows.
 */
import { createRequire } from 'node:module';
import { buildInstances, buildPlan, type BuildOptions } from './instanceBuilder';
import { compilePlainRowBuilder, compileRowBuilder, sameBuilt, type RowBuilder } from './rowBuilder';
import { plainRowSpecOf } from './plainRows';

type Row = Record<string, unknown>;
type Parse = (value: unknown, options: { timezone: unknown }) => unknown;

/** The options of a compiled SELECT the decoder reads (as `findAll()` prepared them). */
export interface DecodeOptions {
  model: DecodeModel;
  raw?: boolean;
  hasJoin?: boolean;
  hasMultiAssociation?: boolean;
  include?: DecodeInclude[];
  includeNames?: unknown;
  includeMap?: unknown;
  attributes?: unknown;
  originalAttributes?: unknown;
  tableNames?: string[];
}

/** An include as `findAll()` validated it. */
interface DecodeInclude {
  as: string;
  model: DecodeModel;
  include?: DecodeInclude[];
}

/** The model statics the decoder uses. */
interface DecodeModel {
  getTableName(): unknown;
  rawAttributes: Record<string, { field?: string }>;
  bulkBuild(rows: Row[], options: Record<string, unknown>): unknown[];
}

/** A compiled decoder: per column, its parser (SQLite) and its place in the nested row. */
interface Decoder {
  /** The `PRAGMA table_info` answers it was built from (compared by identity). */
  tableInfo: readonly unknown[];
  /** The columns of the shape's rows, in the driver's order. */
  columns: readonly string[];
  parsers: Array<[string, (value: unknown) => unknown]>;
  /**
   * When rows are nested here: per column in order, the column, the path of objects it goes
   * into (null: a root column) and its attribute name.
   */
  nested: Array<[string, string[] | null, string]> | null;
  /** The generated builder of the shape's instances (rowBuilder.ts); null: none; undefined: not tried. */
  build?: RowBuilder | null;
}

const decoders = new WeakMap<object, Decoder>();

const runtimeRequire = createRequire(__filename);
let sqliteParsers: { get(type: string): Parse | undefined } | null = null;

/** Sequelize's SQLite parser store (what its SQLite `Query#applyParsers` looks types up in). */
function parserStore(): { get(type: string): Parse | undefined } {
  return (sqliteParsers ??= (runtimeRequire('sequelize/lib/dialects/parserStore') as (dialect: string) => { get(type: string): Parse | undefined })('sqlite'));
}

/** The parser `Query#applyParsers` would use for a column declared as `declared`. */
function parserFor(declared: string, timezone: unknown): ((value: unknown) => unknown) | null {
  let type = declared;
  if (type.includes('(')) type = type.slice(0, type.indexOf('('));
  type = type.replace('UNSIGNED', '').replace('ZEROFILL', '').trim().toUpperCase();
  const parse = parserStore().get(type);
  if (!parse) return null;
  const options = { timezone };
  return (value) => (value !== null ? parse(value, options) : value);
}

/** `as` path -> model of the includes, as Sequelize's SQLite `_collectModels` maps them. */
function collectModels(include: DecodeInclude[] | undefined, prefix: string | null, into: Map<string, DecodeModel>): Map<string, DecodeModel> {
  for (const entry of include ?? []) {
    const key = prefix === null ? entry.as : `${prefix}.${entry.as}`;
    into.set(key, entry.model);
    collectModels(entry.include, key, into);
  }
  return into;
}

/** The column types of a table from its `PRAGMA table_info` rows (null: the pragma failed). */
function columnTypes(rows: unknown): Record<string, string> {
  const types: Record<string, string> = {};
  if (Array.isArray(rows)) for (const row of rows as Array<{ name: string; type: string }>) types[row.name] = row.type;
  return types;
}

function compile(options: DecodeOptions, columns: string[], tableInfo: readonly unknown[], timezone: unknown): Decoder {
  const parsers: Decoder['parsers'] = [];
  if (tableInfo.length) {
    const byTable: Record<string, Record<string, string>> = {};
    (options.tableNames ?? []).forEach((table, index) => {
      byTable[table.replace(/`/g, '')] = columnTypes(tableInfo[index]);
    });
    const prefixes = collectModels(options.include, null, new Map());
    for (const column of columns) {
      let name = column;
      let model: DecodeModel | undefined = options.model;
      if (name.includes('.')) {
        const last = name.lastIndexOf('.');
        model = prefixes.get(name.slice(0, last));
        name = name.slice(last + 1);
      }
      if (!model) continue;
      const types = byTable[String(model.getTableName()).replace(/`/g, '')] ?? {};
      if (!(name in types)) {
        for (const [key, attribute] of Object.entries(model.rawAttributes)) {
          if (name === key && attribute.field) {
            name = attribute.field;
            break;
          }
        }
      }
      const parse = Object.prototype.hasOwnProperty.call(types, name) ? parserFor(types[name], timezone) : null;
      if (parse) parsers.push([column, parse]);
    }
  }
  let nested: Decoder['nested'] = null;
  if (options.hasJoin && !options.hasMultiAssociation) {
    nested = columns.map((column) => {
      const last = column.lastIndexOf('.');
      return last < 0 ? [column, null, column] : [column, column.slice(0, last).split('.'), column.slice(last + 1)];
    });
  }
  return { tableInfo, columns, parsers, nested };
}

/**
 * The decoder of `shape` for its table types (compiled on first use). A shape is one SELECT
 * list, so its rows always have the same columns (those of its first row); the table types
 * are the per-connection `PRAGMA table_info` answers, compared by identity.
 */
function decoderFor(shape: object, options: DecodeOptions, rows: Row[], tableInfo: readonly unknown[], timezone: unknown): Decoder {
  const known = decoders.get(shape);
  if (known && known.tableInfo.length === tableInfo.length && sameInfo(known.tableInfo, tableInfo)) return known;
  const decoder = compile(options, Object.keys(rows[0]), tableInfo, timezone);
  decoders.set(shape, decoder);
  return decoder;
}

function sameInfo(a: readonly unknown[], b: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `{ a, 'owner.id', 'owner.name' }` -> `{ a, owner: { id, name } }`, keys in column order. */
function nest(row: Row, steps: NonNullable<Decoder['nested']>): Row {
  const out: Row = {};
  for (const [column, path, name] of steps) {
    if (path === null) {
      out[column] = row[column];
      continue;
    }
    let target = out;
    for (const part of path) {
      let child = target[part] as Row | undefined;
      if (child === undefined) target[part] = child = {};
      target = child;
    }
    target[name] = row[column];
  }
  return out;
}

/** The access to Sequelize's `_groupJoinData` (joins that can repeat rows). */
interface GroupJoinData {
  _groupJoinData(rows: Row[], includeOptions: Record<string, unknown>, options: { checkExisting: boolean }): Row[];
}

let abstractQuery: GroupJoinData | null = null;

/**
 * What `findAll()` answers for the driver's `rows` of a compiled SELECT: instances (or the
 * reader's objects) built from parsed, nested rows; the rows themselves for raw queries.
 * `shape` keys the decoder cache; `tableInfo` holds the SQLite `PRAGMA table_info` answers of
 * `options.tableNames` (empty on MySQL).
 */
export function decodeRows(shape: object, options: DecodeOptions, rows: Row[], tableInfo: readonly unknown[], timezone: unknown): unknown[] {
  if (options.raw) return rows.map((row) => ({ ...row }));
  if (!rows.length) return [];
  const decoder = decoderFor(shape, options, rows, tableInfo, timezone);
  if (decoder.build === undefined) decoder.build = rowBuilderFor(shape, decoder, options, rows[0]);
  const build = decoder.build;
  if (build) {
    const out = new Array<unknown>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = build(rows[i]);
    return out;
  }
  parseRows(rows, decoder);
  if (!options.hasJoin) {
    return buildInstances(shape, options.model, rows, { isNewRecord: false, raw: true, attributes: options.originalAttributes || options.attributes });
  }
  return buildInstances(shape, options.model, groupRows(rows, decoder, options), joinedBuildOptions(options));
}

/** Parse the values of the parsed columns in place. */
function parseRows(rows: Row[], decoder: Decoder): void {
  const parsers = decoder.parsers;
  if (parsers.length) {
    for (const row of rows) for (const [column, parse] of parsers) row[column] = parse(row[column]);
  }
}

/** Parsed rows of a joined SELECT nested as `findAll()` nests them. */
function groupRows(rows: Row[], decoder: Decoder, options: DecodeOptions): Row[] {
  if (decoder.nested) {
    const grouped = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) grouped[i] = nest(rows[i], decoder.nested);
    return grouped;
  }
  abstractQuery ??= runtimeRequire('sequelize/lib/dialects/abstract/query') as GroupJoinData;
  return abstractQuery._groupJoinData(
    rows,
    { model: options.model, includeMap: options.includeMap, includeNames: options.includeNames },
    { checkExisting: Boolean(options.hasMultiAssociation) },
  );
}

/** The `bulkBuild` options of a joined SELECT's instances, as `findAll()` passes them. */
function joinedBuildOptions(options: DecodeOptions): BuildOptions {
  return {
    isNewRecord: false,
    include: options.include,
    includeNames: options.includeNames,
    includeMap: options.includeMap,
    includeValidated: true,
    attributes: options.originalAttributes || options.attributes,
    raw: true,
  };
}

/**
 * The generated builder of a shape whose instances are built by a recipe (joined to-one
 * SELECTs) or whose rows are `readOnlyRows()` objects, checked against the generic path on a
 * copy of the shape's first row; null when the shape has none, is not covered, or the two differ.
 */
function rowBuilderFor(shape: object, decoder: Decoder, options: DecodeOptions, first: Row): RowBuilder | null {
  const joined = Boolean(options.hasJoin);
  if (joined && !decoder.nested) return null;
  const raw = { ...first };
  const generic = { ...first };
  parseRows([generic], decoder);
  const spec = plainRowSpecOf(options.model);
  if (spec) {
    // readOnlyRows(): the reader's bulkBuild adopts the (nested) rows in place.
    const builder = compilePlainRowBuilder(spec, decoder.columns, joined, new Map(decoder.parsers));
    if (!builder) return null;
    const [reference] = options.model.bulkBuild(joined ? groupRows([generic], decoder, options) : [generic], {});
    return sameBuilt(builder(raw), reference) ? builder : null;
  }
  if (!joined) return null;
  const [grouped] = groupRows([generic], decoder, options);
  const buildOptions = joinedBuildOptions(options);
  const plan = buildPlan(shape, options.model, grouped, buildOptions);
  if (!plan) return null;
  const builder = compileRowBuilder(plan, decoder.columns, true, new Map(decoder.parsers));
  if (!builder) return null;
  const [reference] = buildInstances(shape, options.model, [grouped], buildOptions);
  return sameBuilt(builder(raw), reference) ? builder : null;
}
