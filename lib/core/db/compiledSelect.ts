/**
 * Compiled SELECTs: the statement for one QuerySet shape (model, select-related joins,
 * ordering, whether it filters) is generated once — by Sequelize's own generator, so the
 * columns, aliases and join handling match what `findAll()` reads back — and cached with its
 * validated options. Each run fills in the WHERE condition and LIMIT/OFFSET and runs the
 * statement on the driver with its values bound (statementRunner.ts: a prepared statement on
 * both engines, in the current transaction, routed to a replica or the primary); the rows are
 * decoded by a decoder compiled once per shape (rowDecoder.ts: Sequelize's value parsers per
 * column, joins nested) and built into instances by the model's `bulkBuild` exactly as
 * `findAll()` builds them. What is skipped per call is the option cloning, include validation,
 * SQL generation and Sequelize's per-query result handling.
 */
import { Op, QueryTypes, Utils, literal, type FindOptions } from 'sequelize';
import type { Model, ModelCtor } from 'sequelize-typescript';
import { bindGeneration, ensureModel } from './connection';
import { decodeRows, type DecodeOptions } from './rowDecoder';
import { runStatement } from './statementRunner';

/** The text Sequelize renders where the per-call WHERE condition goes. */
const WHERE_MARKER = '__api_framework_where__';

/** The largest LIMIT both engines accept, for an OFFSET without a LIMIT. */
const NO_LIMIT = 2 ** 53 - 1;

/** One compiled shape: the SQL around the WHERE condition and the options to run it with. */
interface CompiledShape {
  generation: number;
  head: string;
  tail: string;
  options: Record<string, unknown>;
  /**
   * The statement texts run so far, by WHERE condition and slice: a repeated query (a lookup by
   * key) runs the same string, whose hash the driver-text and prepared-statement caches keep.
   */
  texts: Map<string, string>;
}

/** The most statement texts kept per shape (a shape run with many conditions starts afresh). */
const MAX_TEXTS = 64;

/** The model Sequelize's result handling builds rows with, per compiled shape (see `reader`). */
const readers = new WeakMap<CompiledShape, ModelCtor>();

/** The parts of Sequelize's `Model` static API that `findAll()` uses to prepare its options. */
interface SequelizeModelInternals {
  queryInterface: { queryGenerator: { selectQuery(table: unknown, options: unknown, model: unknown): string } };
  rawAttributes: Record<string, unknown>;
  primaryKeyAttribute: string;
  getTableName(options?: unknown): unknown;
  _injectScope(options: unknown): void;
  _conformIncludes(options: unknown, self: unknown): void;
  _expandAttributes(options: unknown): void;
  _expandIncludeAll(options: unknown): void;
  _injectDependentVirtualAttributes(attributes: unknown): unknown;
  _validateIncludedElements(options: unknown, tableNames: Record<string, boolean>): void;
  _paranoidClause(model: unknown, options: unknown): Record<string, unknown>;
}

const shapes = new WeakMap<object, Map<string, ShapePair>>();

/** A shape key's compiled SELECTs, with a WHERE condition and without (kept apart, the key string not rebuilt per run). */
interface ShapePair {
  filtered: CompiledShape | null;
  unfiltered: CompiledShape | null;
}

/**
 * Prepare `findOptions` the way `Model.findAll()` does (scopes, includes, attributes, paranoid
 * clause) and render the SELECT with a marker in place of the WHERE condition.
 */
function compileShape(model: ModelCtor, findOptions: FindOptions, filtered: boolean): CompiledShape {
  const internals = model as unknown as SequelizeModelInternals;
  const tableNames: Record<string, boolean> = { [String(internals.getTableName())]: true };
  let options = Utils.cloneDeep({ ...findOptions, hooks: false }) as Record<string, unknown>;
  if (filtered) options.where = { [Op.and]: [literal(WHERE_MARKER)] };
  internals._injectScope(options);
  internals._conformIncludes(options, model);
  internals._expandAttributes(options);
  internals._expandIncludeAll(options);
  options.originalAttributes = internals._injectDependentVirtualAttributes(options.attributes);
  if (options.include) {
    options.hasJoin = true;
    internals._validateIncludedElements(options, tableNames);
    // As findAll(): instances need their primary key; raw rows (values()) get what was asked for.
    const attributes = options.attributes as string[] | undefined;
    if (attributes && !options.raw && !attributes.includes(internals.primaryKeyAttribute) && (!options.group || !options.hasSingleAssociation || options.hasMultiAssociation)) {
      options.attributes = [internals.primaryKeyAttribute, ...attributes];
    }
  }
  if (!options.attributes) {
    options.attributes = Object.keys(internals.rawAttributes);
    options.originalAttributes = internals._injectDependentVirtualAttributes(options.attributes);
  }
  (Utils as unknown as { mapFinderOptions(options: unknown, model: unknown): void }).mapFinderOptions(options, model);
  options = internals._paranoidClause(model, options);
  const selectOptions = { ...options, tableNames: Object.keys(tableNames), type: QueryTypes.SELECT, model };
  const sql = internals.queryInterface.queryGenerator.selectQuery(internals.getTableName(selectOptions), selectOptions, model).replace(/;\s*$/, '');
  const at = sql.indexOf(WHERE_MARKER);
  if (filtered && at < 0) throw new Error(`compiled SELECT for ${model.name}: the WHERE marker is missing from ${sql}`);
  const { where: _where, transaction: _transaction, ...runOptions } = selectOptions as Record<string, unknown>;
  void _where;
  void _transaction;
  return {
    generation: bindGeneration(),
    head: filtered ? sql.slice(0, at) : sql,
    tail: filtered ? sql.slice(at + WHERE_MARKER.length) : '',
    options: runOptions,
    texts: new Map(),
  };
}

/** The statement text of `compiled` for this run's WHERE condition and slice (one string per distinct text). */
function statementText(compiled: CompiledShape, run: CompiledSelectRun): string {
  const sliced = run.limit !== null || run.offset !== 0;
  const key = sliced ? `${run.where ?? ''}\u0000${run.limit ?? ''}\u0000${run.offset}` : run.where ?? '';
  let text = compiled.texts.get(key);
  if (text === undefined) {
    let sql = run.where !== null ? `${compiled.head}${run.where}${compiled.tail}` : compiled.head;
    if (sliced) sql += ` LIMIT ${run.limit ?? NO_LIMIT}${run.offset ? ` OFFSET ${run.offset}` : ''}`;
    text = `${sql};`;
    if (compiled.texts.size >= MAX_TEXTS) compiled.texts.clear();
    compiled.texts.set(key, text);
  }
  return text;
}

/** What one run of a compiled shape needs besides the shape. */
export interface CompiledSelectRun {
  /** The shape's cache key (model excluded): joins, ordering, whether it filters. */
  key: string;
  /** Builds the shape's Sequelize options (order, include) when it is not compiled yet. */
  shape: () => FindOptions;
  /**
   * Builds the stand-in model the rows are handed to instead of the model (plain rows), once
   * per shape; null: instances.
   */
  reader: (() => ModelCtor) | null;
  /** The WHERE condition (null: none) and its bound values. */
  where: string | null;
  params: unknown[];
  limit: number | null;
  offset: number;
}

/** Run a compiled SELECT; returns model instances as `findAll()` would (or the reader's rows). */
export function runCompiledSelect<M extends Model>(model: ModelCtor<M>, run: CompiledSelectRun): Promise<M[]> {
  // Not `async`: the statement's own promise, decoded in one reaction; errors raised while
  // compiling reject it, as from an async function.
  try {
    return runCompiledSelectNow(model, run);
  } catch (error) {
    return Promise.reject(error);
  }
}

function runCompiledSelectNow<M extends Model>(model: ModelCtor<M>, run: CompiledSelectRun): Promise<M[]> {
  const { sequelize } = ensureModel(model);
  const filtered = run.where !== null;
  let byKey = shapes.get(model);
  if (!byKey) {
    byKey = new Map();
    shapes.set(model, byKey);
  }
  let pair = byKey.get(run.key);
  if (!pair) {
    pair = { filtered: null, unfiltered: null };
    byKey.set(run.key, pair);
  }
  let compiled = filtered ? pair.filtered : pair.unfiltered;
  if (!compiled || compiled.generation !== bindGeneration()) {
    compiled = compileShape(model, run.shape(), filtered);
    if (filtered) pair.filtered = compiled;
    else pair.unfiltered = compiled;
  }
  const sql = statementText(compiled, run);
  let options = compiled.options as unknown as DecodeOptions;
  if (run.reader) {
    let reader = readers.get(compiled);
    if (!reader) readers.set(compiled, reader = run.reader());
    options = { ...options, model: reader as unknown as DecodeOptions['model'] };
  }
  const shape = compiled;
  return runStatement(sequelize, sql, run.params, { type: 'SELECT', model, tables: options.raw ? undefined : options.tableNames }).then(
    (result) => decodeRows(shape, options, result.rows, result.tableInfo, sequelize.options.timezone) as M[],
  );
}
