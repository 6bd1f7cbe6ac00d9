/**
 * Compiles Django lookups (`owner__username__icontains`) and `Q` trees into SQL `WHERE`
 * fragments. Every name is resolved against model metadata first (unknown -> `FieldError`);
 * values never enter the SQL text: each becomes a `$n` placeholder and is appended to the
 * context's `params`, sent to the driver as a bound parameter (a NUL byte or a quote is just a
 * value). Relations are followed with `IN (SELECT ...)` subqueries, so multi-valued relations
 * never duplicate rows and slicing stays exact.
 */
import type { Sequelize, ModelCtor } from 'sequelize-typescript';
import { Q } from './q';
import { getFieldInfo, type FieldInfo, type RelationInfo } from './fieldInfo';
import { FieldError, NotSupportedError, ValueError } from './errors';
import { formatDbDatetime } from './connection';
import { integerRange } from './integerRange';
import { pythonRepr } from '../pythonRepr';

/** The lookups this layer understands. */
export const LOOKUPS = new Set([
  'exact', 'iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith',
  'regex', 'iregex', 'in', 'gt', 'gte', 'lt', 'lte', 'isnull', 'range',
]);

/** Identifier quoting for one connection (values are bound, never quoted into SQL). */
export interface SqlDialect {
  vendor: 'sqlite' | 'mysql';
  quote(identifier: string): string;
  quoteTable(model: ModelCtor): string;
}

const dialects = new WeakMap<Sequelize, SqlDialect>();

/**
 * The dialect helpers for a Sequelize instance, made once per instance; identifiers are
 * quoted once each (the quoting depends on the dialect and the name only).
 */
export function dialectFor(sequelize: Sequelize): SqlDialect {
  let dialect = dialects.get(sequelize);
  if (dialect) return dialect;
  const generator = sequelize.getQueryInterface().queryGenerator as {
    quoteIdentifier(name: string): string;
    quoteTable(table: unknown): string;
  };
  const quoted = new Map<string, string>();
  dialect = {
    vendor: sequelize.getDialect() === 'sqlite' ? 'sqlite' : 'mysql',
    quote: (identifier) => {
      let text = quoted.get(identifier);
      if (text === undefined) quoted.set(identifier, text = generator.quoteIdentifier(identifier));
      return text;
    },
    quoteTable: (model) => generator.quoteTable(model.getTableName()),
  };
  dialects.set(sequelize, dialect);
  return dialect;
}

/**
 * A value as the drivers bind it: dates as Django's UTC text, booleans as 1/0, big integers
 * as decimal text; everything else unchanged.
 */
export function driverValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return formatDbDatetime(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** Append `value` to the bound parameters and return its placeholder (`$3`). */
export function bindParameter(params: unknown[], value: unknown): string {
  params.push(driverValue(value));
  return `$${params.length}`;
}

/** Something usable as the right-hand side of `__in` (a QuerySet). */
export interface Subquery {
  /** The subquery's SQL; its values are appended to `ctx.params`. */
  toSubquerySql(ctx: CompileContext): string;
}

function isSubquery(value: unknown): value is Subquery {
  return typeof value === 'object' && value !== null && typeof (value as Subquery).toSubquerySql === 'function';
}

const INTEGER_TYPES = new Set(['INTEGER', 'BIGINT', 'SMALLINT', 'TINYINT', 'MEDIUMINT']);
const NUMBER_TYPES = new Set(['FLOAT', 'REAL', 'DOUBLE', 'DECIMAL']);

function pkOf(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !(value instanceof Date) && 'pk' in value) {
    return (value as { pk: unknown }).pk;
  }
  return value;
}

/**
 * An integer lookup value the column cannot hold (`above` its maximum or below its minimum):
 * the comparison is decided without SQL, as Django 5 does, instead of overflowing the driver.
 */
class OutOfRange {
  constructor(readonly above: boolean) {}
}

function integerValue(field: FieldInfo, value: unknown, vendor: SqlDialect['vendor']): unknown {
  let whole: bigint;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isInteger(value)) whole = BigInt(value);
  else if (typeof value === 'number' && (value === Infinity || value === -Infinity)) return new OutOfRange(value > 0);
  else if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) whole = BigInt(value.trim());
  else if (typeof value === 'bigint') whole = value;
  else throw new ValueError(`Field '${field.name}' expected a number but got ${pythonRepr(value)}.`);
  const range = integerRange(field, vendor);
  if (range && (whole < range.min || whole > range.max)) return new OutOfRange(whole > range.max);
  const number = Number(whole);
  return Number.isSafeInteger(number) ? number : whole.toString();
}

/**
 * Convert a lookup value to what the column stores; raises `ValueError` like Django. An
 * integer outside the column's range comes back as an `OutOfRange` marker.
 */
function convertValue(field: FieldInfo, raw: unknown, vendor: SqlDialect['vendor']): unknown {
  const value = pkOf(raw);
  if (value === null || value === undefined) return null;
  if (INTEGER_TYPES.has(field.type)) return integerValue(field, value, vendor);
  if (NUMBER_TYPES.has(field.type)) {
    const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
    if (Number.isFinite(number)) return field.type === 'DECIMAL' && typeof value === 'string' ? value.trim() : number;
    if (field.type === 'DECIMAL') throw new ValueError(`“${String(value)}” value must be a decimal number.`);
    throw new ValueError(`Field '${field.name}' expected a number but got ${pythonRepr(value)}.`);
  }
  if (field.type === 'BOOLEAN') {
    if (typeof value === 'boolean') return value;
    if (value === 1 || value === 0) return value === 1;
    if (typeof value === 'string') {
      const lowered = value.toLowerCase();
      if (['true', 't', '1'].includes(lowered)) return true;
      if (['false', 'f', '0'].includes(lowered)) return false;
    }
    throw new ValueError(`“${String(value)}” value must be either True or False.`);
  }
  if (field.type === 'DATE') {
    const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : new Date(NaN);
    if (Number.isNaN(date.getTime())) {
      throw new ValueError(`“${String(value)}” value has an invalid format. It must be in YYYY-MM-DD HH:MM[:ss[.uuuuuu]][TZ] format.`);
    }
    return date;
  }
  if (field.type === 'DATEONLY') {
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
    throw new ValueError(`“${String(value)}” value has an invalid date format. It must be in YYYY-MM-DD format.`);
  }
  if (typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
    if (field.type === 'JSON') return JSON.stringify(value);
    throw new ValueError(`Field '${field.name}' expected a string but got ${pythonRepr(value)}.`);
  }
  return value;
}

function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function globEscape(text: string): string {
  return text.replace(/[*?[]/g, (c) => `[${c}]`);
}

/**
 * `regex` / `iregex`. MySQL and MariaDB (PCRE / ICU) honour the inline `(?-i)` / `(?i)` flags
 * whatever the column's collation, so the case rule does not depend on the schema. Django makes
 * SQLite answer by registering a REGEXP function in Python; node's sqlite3 driver cannot register
 * functions and the bundled SQLite has none, so the lookup is refused there with a clear error.
 */
function regexSql(ctx: CompileContext, ref: string, lookup: 'regex' | 'iregex', pattern: string): string {
  if (ctx.dialect.vendor === 'sqlite') {
    throw new NotSupportedError(
      `The '${lookup}' lookup is not supported by the SQLite backend: node's sqlite3 driver cannot ` +
        'register a REGEXP function. Use MySQL/MariaDB, or a contains/startswith lookup.',
    );
  }
  return `${ref} REGEXP ${bindParameter(ctx.params, `${lookup === 'regex' ? '(?-i)' : '(?i)'}${pattern}`)}`;
}

/**
 * SQLite's LIKE and GLOB read their pattern only up to a NUL byte, so a value holding one is
 * matched on the bytes instead (`instr`/`substr` over BLOBs compare the whole value).
 */
function sqliteNulPatternSql(ctx: CompileContext, ref: string, lookup: string, text: string): string {
  const insensitive = lookup.startsWith('i');
  const column = `CAST(${insensitive ? `LOWER(${ref})` : ref} AS BLOB)`;
  const value = `CAST(${insensitive ? `LOWER(${bindParameter(ctx.params, text)})` : bindParameter(ctx.params, text)} AS BLOB)`;
  if (lookup.endsWith('contains')) return `INSTR(${column}, ${value}) > 0`;
  if (lookup.endsWith('startswith')) return `INSTR(${column}, ${value}) = 1`;
  return `SUBSTR(${column}, -${Buffer.byteLength(text)}) = ${value}`;
}

/** `ref <op> value`; beyond the column's range every row (not NULL) or none compares true. */
function comparisonSql(ctx: CompileContext, ref: string, operator: '>' | '>=' | '<' | '<=', value: unknown): string {
  if (!(value instanceof OutOfRange)) return `${ref} ${operator} ${bindParameter(ctx.params, value)}`;
  const greater = operator.startsWith('>');
  return greater === value.above ? '1=0' : `${ref} IS NOT NULL`;
}

/** The SQL for one lookup on one column reference. */
function leafSql(ctx: CompileContext, ref: string, field: FieldInfo, lookup: string, raw: unknown): string {
  const dialect = ctx.dialect;
  const e = (v: unknown): string => bindParameter(ctx.params, v);
  if (lookup === 'isnull') {
    const flag = typeof raw === 'string' ? ['true', '1', 't'].includes(raw.toLowerCase()) : Boolean(raw);
    return flag ? `${ref} IS NULL` : `${ref} IS NOT NULL`;
  }
  if (lookup === 'in') {
    if (isSubquery(raw)) return `${ref} IN (${raw.toSubquerySql({ ...ctx, alias: null })})`;
    const list = raw instanceof Set ? [...raw] : Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : null;
    if (!list) throw new ValueError(`Field '${field.name}' expected a list for the 'in' lookup but got ${pythonRepr(raw)}.`);
    const values = list.map((v) => convertValue(field, v, dialect.vendor)).filter((v) => v !== null && !(v instanceof OutOfRange));
    if (!values.length) return '1=0';
    return `${ref} IN (${values.map(e).join(', ')})`;
  }
  if (lookup === 'range') {
    if (!Array.isArray(raw) || raw.length !== 2) throw new ValueError(`The 'range' lookup on '${field.name}' needs a [low, high] pair.`);
    const low = convertValue(field, raw[0], dialect.vendor);
    const high = convertValue(field, raw[1], dialect.vendor);
    if (low instanceof OutOfRange || high instanceof OutOfRange) {
      const parts = [comparisonSql(ctx, ref, '>=', low), comparisonSql(ctx, ref, '<=', high)];
      return parts.includes('1=0') ? '1=0' : parts.join(' AND ');
    }
    return `${ref} BETWEEN ${e(low)} AND ${e(high)}`;
  }
  if (raw === null || raw === undefined) {
    if (lookup === 'exact' || lookup === 'iexact') return `${ref} IS NULL`;
    throw new ValueError('Cannot use None as a query value');
  }
  switch (lookup) {
    case 'exact': {
      const value = convertValue(field, raw, dialect.vendor);
      return value instanceof OutOfRange ? '1=0' : `${ref} = ${e(value)}`;
    }
    case 'gt': return comparisonSql(ctx, ref, '>', convertValue(field, raw, dialect.vendor));
    case 'gte': return comparisonSql(ctx, ref, '>=', convertValue(field, raw, dialect.vendor));
    case 'lt': return comparisonSql(ctx, ref, '<', convertValue(field, raw, dialect.vendor));
    case 'lte': return comparisonSql(ctx, ref, '<=', convertValue(field, raw, dialect.vendor));
    default: break;
  }
  const text = String(pkOf(raw));
  if (lookup === 'regex' || lookup === 'iregex') return regexSql(ctx, ref, lookup, text);
  if (lookup === 'iexact') return `LOWER(${ref}) = LOWER(${e(text)})`;
  if (dialect.vendor === 'sqlite' && text.includes('\0')) return sqliteNulPatternSql(ctx, ref, lookup, text);
  const [before, after] =
    lookup.endsWith('contains') ? ['%', '%'] : lookup.endsWith('startswith') ? ['', '%'] : ['%', ''];
  if (lookup.startsWith('i')) {
    const pattern = `${before}${likeEscape(text)}${after}`;
    const escapeClause = dialect.vendor === 'sqlite' ? ` ESCAPE '\\'` : '';
    return `LOWER(${ref}) LIKE LOWER(${e(pattern)})${escapeClause}`;
  }
  if (dialect.vendor === 'sqlite') {
    return `${ref} GLOB ${e(`${before.replace('%', '*')}${globEscape(text)}${after.replace('%', '*')}`)}`;
  }
  return `${ref} LIKE BINARY ${e(`${before}${likeEscape(text)}${after}`)}`;
}

/** The result of resolving a lookup path against a model. */
export interface ResolvedPath {
  hops: RelationInfo[];
  field: FieldInfo;
  lookup: string;
}

function cannotResolve(model: ModelCtor, name: string): FieldError {
  return new FieldError(`Cannot resolve keyword '${name}' into field. Choices are: ${getFieldInfo(model).lookupNames.join(', ')}`);
}

/** Resolved paths per model metadata (a new `ModelInfo` after models are bound again starts afresh). */
const resolvedPaths = new WeakMap<object, Map<string, ResolvedPath>>();

/**
 * Resolve `owner__username__icontains` into relation hops, a final field and a lookup
 * (worked out once per model and key; unknown names raise `FieldError` every time).
 */
export function resolveLookupPath(model: ModelCtor, key: string): ResolvedPath {
  const info = getFieldInfo(model);
  let known = resolvedPaths.get(info);
  if (!known) resolvedPaths.set(info, known = new Map());
  let resolved = known.get(key);
  if (!resolved) {
    resolved = resolvePath(model, key);
    Object.freeze(resolved.hops);
    known.set(key, Object.freeze(resolved));
  }
  return resolved;
}

function resolvePath(model: ModelCtor, key: string): ResolvedPath {
  const parts = key.split('__');
  const hops: RelationInfo[] = [];
  let current = model;
  let field: FieldInfo | undefined;
  let index = 0;
  while (index < parts.length) {
    const info = getFieldInfo(current);
    const name = parts[index];
    const direct = info.getField(name);
    if (direct && !(direct.relation && direct.name === name && info.getRelation(name))) {
      field = direct;
      index++;
      break;
    }
    const relation = info.getRelation(name);
    if (!relation) throw cannotResolve(current, name);
    hops.push(relation);
    current = relation.target;
    index++;
    const next = parts[index];
    const targetInfo = getFieldInfo(current);
    if (next === undefined || (LOOKUPS.has(next) && !targetInfo.getField(next) && !targetInfo.getRelation(next))) {
      field = targetInfo.getField(relation.kind === 'belongsTo' ? relation.targetKey : targetInfo.pk.name) ?? targetInfo.pk;
      break;
    }
  }
  if (!field) throw cannotResolve(current, parts[parts.length - 1]);
  const rest = parts.slice(index);
  const lookup = rest.length ? rest.join('__') : 'exact';
  if (!LOOKUPS.has(lookup)) {
    throw new FieldError(`Unsupported lookup '${lookup}' for ${field.fieldType} or join on the field not permitted.`);
  }
  return { hops, field, lookup };
}

function columnOf(model: ModelCtor, attribute: string): string {
  return getFieldInfo(model).getField(attribute)?.column ?? attribute;
}

/**
 * Where-compilation context: the dialect, the main table's alias (null inside subqueries /
 * UPDATE) and the bound parameters collected so far (shared by nested contexts).
 */
export interface CompileContext {
  dialect: SqlDialect;
  alias: string | null;
  params: unknown[];
}

function ref(ctx: CompileContext, column: string): string {
  return ctx.alias ? `${ctx.dialect.quote(ctx.alias)}.${ctx.dialect.quote(column)}` : ctx.dialect.quote(column);
}

/** Wrap `inner` (a condition on `hop.target`) as a condition on the hop's source model. */
function hopSql(ctx: CompileContext, source: ModelCtor, hop: RelationInfo, inner: string): string {
  const d = ctx.dialect;
  const target = hop.target;
  if (hop.kind === 'belongsTo') {
    return `${ref(ctx, columnOf(source, hop.foreignKey))} IN (SELECT ${d.quote(columnOf(target, hop.targetKey))} FROM ${d.quoteTable(target)} WHERE ${inner})`;
  }
  if (hop.kind === 'belongsToMany' && hop.through && hop.otherKey) {
    const through = hop.through;
    const targetPk = getFieldInfo(target).pk.column;
    return `${ref(ctx, getFieldInfo(source).pk.column)} IN (SELECT ${d.quote(columnOf(through, hop.foreignKey))} FROM ${d.quoteTable(through)} WHERE ${d.quote(columnOf(through, hop.otherKey))} IN (SELECT ${d.quote(targetPk)} FROM ${d.quoteTable(target)} WHERE ${inner}))`;
  }
  const fk = d.quote(columnOf(target, hop.foreignKey));
  return `${ref(ctx, columnOf(source, hop.sourceKey))} IN (SELECT ${fk} FROM ${d.quoteTable(target)} WHERE ${fk} IS NOT NULL AND (${inner}))`;
}

/** Compile one `[key, value]` lookup on `model`. `negated` is the NOT-parity around it. */
function compileLookup(model: ModelCtor, key: string, value: unknown, ctx: CompileContext, negated: boolean): string {
  const resolved = resolveLookupPath(model, key);
  const { lookup } = resolved;
  if (!resolved.hops.length) {
    // A column of `model` itself (`pk`, `title__icontains`): no joins to compile.
    const field = resolved.field;
    const columnRef = ref(ctx, field.column);
    const sql = leafSql(ctx, columnRef, field, lookup, value);
    // Django's exclude() keeps rows whose column is NULL.
    return negated && field.allowNull && lookup !== 'isnull' ? `(${sql} AND ${columnRef} IS NOT NULL)` : sql;
  }
  const hops = [...resolved.hops];
  let field = resolved.field;
  // A belongsTo hop ending on the target's key compares the foreign-key column directly.
  const last = hops[hops.length - 1];
  if (last && last.kind === 'belongsTo' && field.name === last.targetKey) {
    hops.pop();
    const owner = hops.length ? hops[hops.length - 1].target : model;
    field = getFieldInfo(owner).getField(last.foreignKey) ?? field;
  }
  const owners: ModelCtor[] = [model, ...hops.map((h) => h.target)];
  const innerCtx = (i: number): CompileContext => (i === 0 ? ctx : { ...ctx, alias: null });
  if (lookup === 'isnull' && hops.length && field.primaryKey) {
    // `snippets__isnull`: does any related row exist?
    const wantNull = typeof value === 'string' ? ['true', '1', 't'].includes(value.toLowerCase()) : Boolean(value);
    let exists = '1=1';
    for (let i = hops.length - 1; i >= 0; i--) exists = hopSql(innerCtx(i), owners[i], hops[i], exists);
    return wantNull ? `NOT (${exists})` : exists;
  }
  const columnRef = ref(hops.length ? { ...ctx, alias: null } : ctx, field.column);
  let sql = leafSql(ctx, columnRef, field, lookup, value);
  if (negated && field.allowNull && lookup !== 'isnull' && !hops.length) {
    // Django's exclude() keeps rows whose column is NULL.
    sql = `(${sql} AND ${columnRef} IS NOT NULL)`;
  }
  for (let i = hops.length - 1; i >= 0; i--) {
    sql = hopSql(innerCtx(i), owners[i], hops[i], sql);
    if (i === 0 && negated && hops[0].kind === 'belongsTo') {
      const fkField = getFieldInfo(owners[0]).getField(hops[0].foreignKey);
      if (fkField?.allowNull) sql = `(${sql} AND ${ref(ctx, fkField.column)} IS NOT NULL)`;
    }
  }
  return sql;
}

/** Compile a `Q` tree on `model`; returns null when it matches every row. */
export function compileQ(model: ModelCtor, q: Q, ctx: CompileContext, negated = false): string | null {
  const innerNegated = negated !== q.negated;
  const parts: string[] = [];
  const boundBefore = ctx.params.length;
  for (const child of q.children) {
    const sql = child instanceof Q ? compileQ(model, child, ctx, innerNegated) : compileLookup(model, child[0], child[1], ctx, innerNegated);
    if (sql === null) {
      if (q.connector === 'OR') {
        // The siblings compiled so far are dropped, and so are their bound values.
        ctx.params.length = boundBefore;
        return q.negated ? '1=0' : null;
      }
      continue;
    }
    parts.push(sql);
  }
  if (!parts.length) return q.negated ? '1=0' : null;
  const joined = parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(q.connector === 'AND' ? ' AND ' : ' OR ');
  return q.negated ? `NOT (${joined})` : joined;
}
