/**
 * `QuerySet`: an immutable, lazy, chainable query over one model, compiled to a single
 * Sequelize `findAll`/`count` (plus one query per `prefetchRelated` relation) when awaited.
 *
 *     const qs = Snippet.objects.filter({ owner__username__icontains: 'an' }).orderBy('-created').slice(0, 10);
 *     for await (const snippet of qs) { ... }
 *
 * Names and values are checked at compile time against the model's attributes (`lookupTypes.ts`);
 * names known only at run time go through `Q` and `orderByNames()`.
 */
import { Op, QueryTypes, literal, type FindOptions, type IncludeOptions, type OrderItem, type WhereOptions } from 'sequelize';
import type { Model, ModelCtor } from 'sequelize-typescript';
import { Q } from './q';
import type { DynamicLookups, QueryShape, QueryShapeOf } from './lookupTypes';
import { bindParameter, compileQ, dialectFor, resolveLookupPath, type CompileContext, type SqlDialect, type Subquery } from './lookups';
import { getFieldInfo, type RelationInfo } from './fieldInfo';
import { ensureModel } from './connection';
import { FieldError, ObjectDoesNotExist, MultipleObjectsReturned, QuerySetError } from './errors';
import { atomic } from './transaction';
import { deleteQuerySetRows } from './deletion';
import { prefetchRelatedObjects } from './prefetch';
import { columnValue, runBulkWrite } from './boundWrite';
import { runCompiledSelect } from './compiledSelect';
import { runStatement } from './statementRunner';
import { narrowedRowTree, plainRowReader, plainRowShape } from './plainRows';
import { deferUnloaded, type DeferredNode } from './deferredAttributes';

const MAX_GET_RESULTS = 21;

/** What a QuerySet needs from its model class (satisfied by every `BaseModel` subclass). */
export interface QueryableModel<M> {
  new (...args: never[]): M;
  readonly name: string;
  meta?: { ordering?: readonly string[] };
  DoesNotExist?: typeof ObjectDoesNotExist;
  MultipleObjectsReturned?: typeof MultipleObjectsReturned;
}

interface QueryState {
  where: readonly Q[];
  ordering: readonly string[] | null;
  reversed: boolean;
  offset: number;
  limit: number | null;
  selectRelated: readonly string[];
  prefetchRelated: readonly string[];
  distinct: boolean;
  empty: boolean;
  /** Column paths for `readOnlyRows()` (null: model instances). */
  readPaths: ReadonlyArray<readonly string[]> | null;
  /** Column paths `deferExcept()` loads (null: every column). */
  loadedPaths: ReadonlyArray<readonly string[]> | null;
}

const INITIAL_STATE: QueryState = {
  where: [],
  ordering: null,
  reversed: false,
  offset: 0,
  limit: null,
  selectRelated: [],
  prefetchRelated: [],
  distinct: false,
  empty: false,
  readPaths: null,
  loadedPaths: null,
};

/** What a `deferExcept()` path list means for a model: its loaded-attribute tree and its part of the shape key. */
interface Narrowing {
  model: object;
  tree: DeferredNode;
  key: string;
}

/** A shape key worked out for one combination of a query's shape parts (compared by identity). */
interface ShapeKeyMemo {
  model: object;
  ordering: readonly string[];
  reversed: boolean;
  readPaths: ReadonlyArray<readonly string[]> | null;
  narrowing: Narrowing | null;
  key: string;
}

/**
 * Shape keys by `selectRelated` list: a query cloned from another shares its lists, so its key
 * is found again instead of being serialized on every run. At most `MAX_SHAPE_KEYS` per list.
 */
const shapeKeys = new WeakMap<readonly string[], ShapeKeyMemo[]>();
const MAX_SHAPE_KEYS = 16;

/** No `selectRelated()` list. */
const NO_RELATIONS: readonly string[] = Object.freeze([]);

/**
 * One frozen list per distinct `selectRelated()` list (at most `MAX_INTERNED` kept): the
 * queries a view builds per request share their lists, so their shape keys are found again.
 */
const internedLists = new Map<string, readonly string[]>();
const MAX_INTERNED = 256;

function internedRelations(relations: string[]): readonly string[] {
  const name = relations.join('\u0000');
  let list = internedLists.get(name);
  if (list === undefined) {
    if (internedLists.size >= MAX_INTERNED) internedLists.clear();
    list = Object.freeze(relations);
    internedLists.set(name, list);
  }
  return list;
}

/** The ordering of a `get()`: none (one frozen list, so its shape key is found again). */
const NO_ORDERING: readonly string[] = Object.freeze([]);

/** The narrowing of each `deferExcept()` path list (a per-class list is worked out once). */
const narrowings = new WeakMap<object, Narrowing>();

function narrowingOf(model: ModelCtor, paths: ReadonlyArray<readonly string[]>): Narrowing {
  let narrowing = narrowings.get(paths);
  if (!narrowing || narrowing.model !== model) {
    narrowing = { model, tree: narrowedRowTree(model, paths), key: JSON.stringify(paths) };
    narrowings.set(paths, narrowing);
  }
  return narrowing;
}

interface IncludeNode {
  selected: boolean;
  children: Map<string, IncludeNode>;
}

/** Sequelize's order item for a column reached through `relations` (`['owner', 'username', 'DESC']`). */
function associationOrder(relations: readonly string[], column: string, direction: string): OrderItem {
  // Sequelize types these paths as fixed-length tuples; the path is any length here.
  return [...relations, column, direction] as OrderItem;
}

function flip(term: string): string {
  return term.startsWith('-') ? term.slice(1) : `-${term}`;
}

/** A lazy query over model `M`. Every chaining method returns a new QuerySet. */
export class QuerySet<M extends Model, T extends QueryShape = QueryShapeOf<M>> implements Subquery {
  private readonly ownState: QueryState;

  constructor(readonly model: QueryableModel<M>, state: QueryState = INITIAL_STATE) {
    this.ownState = state;
  }

  /** The query's parts (a Manager answers its `getQueryset()`'s). */
  protected get state(): QueryState {
    return this.ownState;
  }

  /** @internal The state of another QuerySet (for Manager). */
  protected static stateOf<R extends Model, S extends QueryShape>(qs: QuerySet<R, S>): QueryState {
    return qs.state;
  }

  /** The model as Sequelize's static API sees it. */
  protected get modelCtor(): ModelCtor<M> {
    return this.model as ModelCtor<M>;
  }

  protected clone(changes: Partial<QueryState>): QuerySet<M, T> {
    return new QuerySet<M, T>(this.model, { ...this.state, ...changes });
  }

  private assertNotSliced(action: string): void {
    if (this.state.limit !== null || this.state.offset) throw new QuerySetError(`Cannot ${action} a query once a slice has been taken.`);
  }

  /** A copy of this QuerySet (Django's `all()`). */
  all(): QuerySet<M, T> {
    return this.clone({});
  }

  /**
   * Rows matching every lookup (and Q) given; lookups are Django's (`title__icontains`),
   * checked against the model's attributes at compile time. Lookups built from strings at run
   * time go in a `Q`: `filter(new Q({ [`${field}__icontains`]: term }))`.
   */
  filter(...conditions: Array<T['lookups'] | Q>): QuerySet<M, T> {
    this.assertNotSliced('filter');
    if (!conditions.length) return this.clone({});
    return this.clone({ where: [...this.state.where, Q.and(...conditions)] });
  }

  /** Rows NOT matching the lookups (Django's `exclude()`; NULLs are kept, as there). */
  exclude(...conditions: Array<T['lookups'] | Q>): QuerySet<M, T> {
    this.assertNotSliced('filter');
    if (!conditions.length) return this.clone({});
    return this.clone({ where: [...this.state.where, Q.and(...conditions).not()] });
  }

  /** Replace the ordering: `'-created'`, `'owner__username'`, `'pk'`. No arguments clears it. */
  orderBy(...fields: Array<T['ordering']>): QuerySet<M, T> {
    return this.orderedBy(fields);
  }

  /**
   * `orderBy()` with terms known only at run time (a request's `?ordering=`): unknown names
   * raise `FieldError` when the query runs. Prefer `orderBy()`, which checks them at compile time.
   */
  orderByNames(fields: readonly string[]): QuerySet<M, T> {
    return this.orderedBy(fields);
  }

  private orderedBy(fields: readonly string[]): QuerySet<M, T> {
    this.assertNotSliced('reorder');
    return this.clone({ ordering: [...fields], reversed: false });
  }

  /** Reverse the (explicit or default) ordering. */
  reverse(): QuerySet<M, T> {
    return this.clone({ reversed: !this.state.reversed });
  }

  /** Rows `start` (inclusive) to `end` (exclusive): LIMIT/OFFSET. Slices compose. */
  slice(start = 0, end?: number | null): QuerySet<M, T> {
    if (start < 0 || (end !== undefined && end !== null && end < 0)) throw new QuerySetError('Negative indexing is not supported.');
    const offset = this.state.offset + start;
    let limit: number | null = end === undefined || end === null ? null : Math.max(0, end - start);
    if (this.state.limit !== null) {
      const remaining = Math.max(0, this.state.limit - start);
      limit = limit === null ? remaining : Math.min(limit, remaining);
    }
    return this.clone({ offset, limit });
  }

  /**
   * Load these belongsTo relations in the same query (JOIN): `'owner'`, `'owner__profile'`.
   * A path already selected is not added again; no arguments clears the list.
   */
  selectRelated(...relations: string[]): QuerySet<M, T> {
    if (!relations.length) return this.clone({ selectRelated: NO_RELATIONS });
    const current = this.state.selectRelated;
    let selected: string[] | null = null;
    for (const relation of relations) {
      if ((selected ?? current).includes(relation)) continue;
      (selected ??= [...current]).push(relation);
    }
    return selected === null ? this.clone({}) : this.clone({ selectRelated: internedRelations(selected) });
  }

  /** Load these relations with one extra query each: `'snippets'`, `'groups'`, `'owner'`. */
  prefetchRelated(...relations: string[]): QuerySet<M, T> {
    return this.clone({ prefetchRelated: relations.length ? [...this.state.prefetchRelated, ...relations] : [] });
  }

  /** Remove duplicate rows (relation lookups never duplicate rows here; matters for `values()`). */
  distinct(): QuerySet<M, T> {
    return this.clone({ distinct: true });
  }

  /**
   * Answer plain read-only rows instead of model instances: only the columns `paths` name
   * (`[['title'], ['owner', 'username']]`; to-one relations, then a column) plus the primary
   * keys, joined relations as nested objects, each row answering `pk`; values exactly as on
   * instances. For representation only (no `save()`, signals or custom getters); ignored when
   * `prefetchRelated()` is set. Unknown names or to-many relations raise `FieldError`.
   */
  readOnlyRows(paths: ReadonlyArray<readonly string[]>): QuerySet<M, T> {
    return this.clone({ readPaths: paths.map((path) => [...path]) });
  }

  /**
   * @internal Model instances that load only the columns `paths` name (as `readOnlyRows()`:
   * to-one relations, then a column; primary and foreign keys always), reading any other
   * attribute throws `DeferredAttributeError` (lib/core/db/deferredAttributes.ts). For code that
   * knows every attribute it reads (`retrieve()` with a serializer of plain columns); ignored
   * with `readOnlyRows()` or `prefetchRelated()`.
   */
  deferExcept(paths: ReadonlyArray<readonly string[]>): QuerySet<M, T> {
    // A frozen list (a per-class cache's) is kept as it is: its tree is worked out once.
    return this.clone({ loadedPaths: Object.isFrozen(paths) ? paths : paths.map((path) => [...path]) });
  }

  /** A QuerySet that matches nothing and never queries the database. */
  none(): QuerySet<M, T> {
    return this.clone({ empty: true });
  }

  /** The effective ordering terms (explicit, else the model's `meta.ordering`), reversal applied. */
  getOrdering(): string[] {
    const base = this.state.ordering ?? this.model.meta?.ordering ?? [];
    return this.state.reversed ? base.map(flip) : [...base];
  }

  /** True when the QuerySet has an ordering (explicit or default). */
  get isOrdered(): boolean {
    return this.getOrdering().length > 0;
  }

  /** True once `none()` was applied. */
  get isEmpty(): boolean {
    return this.state.empty;
  }

  // ---------------------------------------------------------------- compilation

  /** The dialect of the model's connection. */
  protected get dialect(): SqlDialect {
    return dialectFor(ensureModel(this.modelCtor).sequelize);
  }

  /**
   * The WHERE condition as SQL (null: no condition), qualified with `ctx.alias`; its values
   * are appended to `ctx.params` as bound parameters.
   */
  protected whereSql(ctx: CompileContext): string | null {
    const parts: string[] = [];
    for (const q of this.state.where) {
      const sql = compileQ(this.modelCtor, q, ctx);
      if (sql !== null) parts.push(`(${sql})`);
    }
    return parts.length ? parts.join(' AND ') : null;
  }

  /** The WHERE condition as Sequelize options: a literal plus its `bind` parameters. */
  private whereOptions(alias: string | null): { where?: WhereOptions; bind?: unknown[] } {
    const ctx: CompileContext = { dialect: this.dialect, alias, params: [] };
    const sql = this.whereSql(ctx);
    if (sql === null) return {};
    return ctx.params.length ? { where: { [Op.and]: [literal(sql)] }, bind: ctx.params } : { where: { [Op.and]: [literal(sql)] } };
  }

  private includeTree(orderingPaths: string[][]): Map<string, IncludeNode> {
    const root = new Map<string, IncludeNode>();
    const add = (model: ModelCtor, path: string[], selected: boolean, origin: string): void => {
      let level = root;
      let current = model;
      for (const name of path) {
        const relation = getFieldInfo(current).getRelation(name);
        if (!relation) {
          throw new FieldError(`Invalid field name(s) given in selectRelated(): '${name}'. Choices are: ${getFieldInfo(current).relations.filter((r) => !r.many).map((r) => r.name).join(', ') || '(none)'}`);
        }
        if (relation.many) throw new FieldError(`Cannot use '${origin}' across the multi-valued relation '${name}'; use prefetchRelated().`);
        let node = level.get(relation.name);
        if (!node) {
          node = { selected: false, children: new Map() };
          level.set(relation.name, node);
        }
        if (selected) node.selected = true;
        level = node.children;
        current = relation.target;
      }
    };
    for (const path of this.state.selectRelated) add(this.modelCtor, path.split('__'), true, path);
    for (const path of orderingPaths) add(this.modelCtor, path, false, path.join('__'));
    return root;
  }

  private includeOptions(tree: Map<string, IncludeNode>): IncludeOptions[] {
    return [...tree].map(([name, node]) => ({
      association: name,
      required: false,
      ...(node.selected ? {} : { attributes: [] }),
      include: this.includeOptions(node.children),
    }));
  }

  /** Resolve ordering terms into Sequelize order items and the relation paths they need. */
  private orderOptions(): { order: OrderItem[]; paths: string[][] } {
    const order: OrderItem[] = [];
    const paths: string[][] = [];
    for (const term of this.getOrdering()) {
      if (term === '?') throw new FieldError("Random ordering ('?') is not supported.");
      const direction = term.startsWith('-') ? 'DESC' : 'ASC';
      const name = term.replace(/^-/, '');
      const parts = name.split('__');
      let current: ModelCtor = this.modelCtor;
      const relations: string[] = [];
      for (let i = 0; i < parts.length; i++) {
        const info = getFieldInfo(current);
        const part = parts[i];
        const field = info.getField(part);
        const relation = info.getRelation(part);
        if (field && !(relation && field.name !== part)) {
          if (i !== parts.length - 1) throw new FieldError(`Cannot resolve keyword '${parts[i + 1]}' into field. Join on '${part}' not permitted.`);
          const column = field.column;
          order.push(relations.length ? associationOrder(relations, column, direction) : [column, direction]);
          break;
        }
        if (!relation) {
          throw new FieldError(`Cannot resolve keyword '${part}' into field. Choices are: ${info.lookupNames.join(', ')}`);
        }
        if (relation.many) throw new FieldError(`Cannot order by '${name}': ordering across the multi-valued relation '${part}' is not supported.`);
        if (i === parts.length - 1) {
          // Ordering by a relation orders by its foreign key, as Django does without a target ordering.
          const fk = getFieldInfo(current).getField(relation.foreignKey);
          order.push(relations.length ? associationOrder(relations, fk?.column ?? relation.foreignKey, direction) : [fk?.column ?? relation.foreignKey, direction]);
          break;
        }
        relations.push(relation.name);
        current = relation.target;
      }
      if (relations.length) paths.push(relations);
    }
    return { order, paths };
  }

  /** The shape of the SELECT without its WHERE and slice: ordering and joins (select-related, ordering paths). */
  private shapeOptions(): FindOptions {
    const { order, paths } = this.orderOptions();
    const include = this.includeOptions(this.includeTree(paths));
    const options: FindOptions = { order, subQuery: false };
    if (include.length) options.include = include;
    return options;
  }

  /** The Sequelize options of this query (exposed for debugging; `fetch()` runs the compiled shape). */
  protected findOptions(): FindOptions {
    const options: FindOptions = { ...this.whereOptions(this.model.name), ...this.shapeOptions() };
    if (this.state.limit !== null) options.limit = this.state.limit;
    if (this.state.offset) {
      options.offset = this.state.offset;
      if (options.limit === undefined) options.limit = 2 ** 53 - 1;
    }
    return options;
  }

  /** `SELECT <field column> FROM <table> WHERE ...` for use inside `__in` lookups. */
  toSubquerySql(ctx: CompileContext, fieldName = 'pk'): string {
    const dialect = ctx.dialect;
    if (this.state.limit !== null || this.state.offset) throw new QuerySetError('Sliced querysets cannot be used as subqueries.');
    if (this.state.empty) return `SELECT NULL WHERE 1=0`;
    const field = getFieldInfo(this.modelCtor).getField(fieldName);
    if (!field) throw new FieldError(`Cannot resolve keyword '${fieldName}' into field. Choices are: ${getFieldInfo(this.modelCtor).lookupNames.join(', ')}`);
    const where = this.whereSql({ ...ctx, alias: null });
    return `SELECT ${dialect.quote(field.column)} FROM ${dialect.quoteTable(this.modelCtor)}${where ? ` WHERE ${where}` : ''}`;
  }

  // ---------------------------------------------------------------- terminal operations

  /** Run the query and return the model instances (with selected/prefetched relations). */
  fetch(): Promise<M[]> {
    // Without prefetching, the compiled read's own promise is the answer (no async step of its
    // own); errors raised while compiling reject it, as from an async method.
    try {
      if (this.state.empty || this.state.limit === 0) return Promise.resolve([]);
      if (!this.state.prefetchRelated.length) return this.runCompiled();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.fetchPrefetching();
  }

  /** `fetch()` with `prefetchRelated()`: the rows, then one query per relation. */
  private async fetchPrefetching(): Promise<M[]> {
    const rows = await this.runCompiled();
    if (rows.length) await prefetchRelatedObjects(rows, this.modelCtor, this.state.prefetchRelated);
    return rows;
  }

  /** The SELECT compiled once per shape (joins, ordering), run with this query's WHERE values bound and its slice. */
  private runCompiled(): Promise<M[]> {
    const ctx: CompileContext = { dialect: this.dialect, alias: this.model.name, params: [] };
    const where = this.whereSql(ctx);
    const readPaths = this.state.prefetchRelated.length ? null : this.state.readPaths;
    const loadedPaths = this.state.prefetchRelated.length || readPaths ? null : this.state.loadedPaths;
    const narrowedTo = readPaths ?? loadedPaths;
    const narrowing = loadedPaths ? narrowingOf(this.modelCtor, loadedPaths) : null;
    const rows = runCompiledSelect(this.modelCtor, {
      key: this.shapeKey(readPaths, narrowing),
      shape: () => (narrowedTo ? plainRowShape(this.modelCtor, this.shapeOptions(), narrowedTo) : this.shapeOptions()),
      reader: readPaths ? () => plainRowReader(this.modelCtor, readPaths) : null,
      where,
      params: ctx.params,
      limit: this.state.limit,
      offset: this.state.offset,
    });
    if (!narrowing) return rows;
    return rows.then((instances) => {
      deferUnloaded(instances, this.modelCtor, narrowing.tree);
      return instances;
    });
  }

  /** The compiled-shape key of this query: its joins, ordering, read paths and narrowing. */
  private shapeKey(readPaths: ReadonlyArray<readonly string[]> | null, narrowing: Narrowing | null): string {
    const state = this.state;
    const ordering = state.ordering ?? this.model.meta?.ordering ?? NO_ORDERING;
    let memos = shapeKeys.get(state.selectRelated);
    if (memos) {
      for (let i = 0; i < memos.length; i++) {
        const memo = memos[i];
        if (memo.model === this.model && memo.ordering === ordering && memo.reversed === state.reversed && memo.readPaths === readPaths && memo.narrowing === narrowing) return memo.key;
      }
    } else {
      memos = [];
      shapeKeys.set(state.selectRelated, memos);
    }
    const key = `${JSON.stringify([state.selectRelated, this.getOrdering(), readPaths])}${narrowing ? `|${narrowing.key}` : ''}`;
    if (memos.length >= MAX_SHAPE_KEYS) memos.shift();
    memos.push({ model: this.model, ordering, reversed: state.reversed, readPaths, narrowing, key });
    return key;
  }

  /**
   * @internal `fetch()` joined to extra Sequelize includes (prefetching), compiled once per
   * shape like `fetch()`: `key` names the includes, `condition` (given the bound parameters so
   * far, appends its own) is ANDed to the WHERE condition.
   */
  async fetchWith(key: string, include: IncludeOptions[], condition: (params: unknown[], dialect: SqlDialect) => string): Promise<M[]> {
    if (this.state.empty || this.state.limit === 0) return [];
    const ctx: CompileContext = { dialect: this.dialect, alias: this.model.name, params: [] };
    const own = this.whereSql(ctx);
    const extra = condition(ctx.params, ctx.dialect);
    return runCompiledSelect(this.modelCtor, {
      key: JSON.stringify(['with', key, this.state.selectRelated, this.getOrdering()]),
      shape: () => {
        const shape = this.shapeOptions();
        return { ...shape, include: [...((shape.include as IncludeOptions[] | undefined) ?? []), ...include] };
      },
      reader: null,
      where: own === null ? extra : `${own} AND (${extra})`,
      params: ctx.params,
      limit: this.state.limit,
      offset: this.state.offset,
    });
  }

  /** Iterate over the results: `for await (const row of qs)`. */
  async *[Symbol.asyncIterator](): AsyncIterator<M> {
    yield* await this.fetch();
  }

  /** Thenable-free explicit alias of `fetch()`, for readability in views. */
  toArray(): Promise<M[]> {
    return this.fetch();
  }

  /** The number of matching rows (respecting slices). */
  async count(): Promise<number> {
    if (this.state.empty) return 0;
    const { from, params } = this.fromWhere();
    const sliced = this.state.limit !== null || this.state.offset;
    const sql = sliced ? `SELECT COUNT(*) AS n FROM (SELECT 1 AS one ${from}${this.sliceSql()}) AS sliced` : `SELECT COUNT(*) AS n ${from}`;
    const row = await this.selectOne(sql, params);
    return Number(row?.n ?? 0);
  }

  /** True when at least one row matches. */
  async exists(): Promise<boolean> {
    if (this.state.empty || this.state.limit === 0) return false;
    const { from, params } = this.fromWhere();
    return (await this.selectOne(`SELECT 1 AS one ${from} LIMIT 1${this.state.offset ? ` OFFSET ${this.state.offset}` : ''}`, params)) !== null;
  }

  /** `FROM <table> AS <alias> [WHERE ...]` with its bound values. */
  private fromWhere(): { from: string; params: unknown[] } {
    const dialect = this.dialect;
    const ctx: CompileContext = { dialect, alias: this.model.name, params: [] };
    const where = this.whereSql(ctx);
    const from = `FROM ${dialect.quoteTable(this.modelCtor)} AS ${dialect.quote(this.model.name)}${where ? ` WHERE ${where}` : ''}`;
    return { from, params: ctx.params };
  }

  /** ` LIMIT n OFFSET m` for this query's slice ('' when it has none). */
  private sliceSql(): string {
    if (this.state.limit === null && !this.state.offset) return '';
    return ` LIMIT ${this.state.limit ?? 2 ** 53 - 1}${this.state.offset ? ` OFFSET ${this.state.offset}` : ''}`;
  }

  /** The first row of a framework-built SELECT (raw values), bound, in the current transaction. */
  private async selectOne(sql: string, params: unknown[]): Promise<Record<string, unknown> | null> {
    const { sequelize } = ensureModel(this.modelCtor);
    const { rows } = await runStatement(sequelize, sql, params, { type: 'SELECT' });
    return rows[0] ?? null;
  }

  /**
   * The single row matching the lookups; raises `Model.DoesNotExist` (`Snippet matching
   * query does not exist.`) or `Model.MultipleObjectsReturned`.
   */
  get(...conditions: Array<T['lookups'] | Q>): Promise<M> {
    // Not `async`: the query's promise and one reaction (errors raised while building the
    // query reject it, as from an async method).
    try {
      return this.fetchForGet(conditions).then((rows) => this.oneOf(rows));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `get()`'s query: one new QuerySet (filter(), then unordered and sliced to MAX_GET_RESULTS unless sliced already). */
  private fetchForGet(conditions: Array<T['lookups'] | Q>): Promise<M[]> {
    const state = this.state;
    const sliced = state.limit !== null || Boolean(state.offset);
    if (conditions.length && sliced) throw new QuerySetError('Cannot filter a query once a slice has been taken.');
    const where = conditions.length ? [...state.where, Q.and(...conditions)] : state.where;
    const qs = state.limit || state.offset
      ? new QuerySet<M, T>(this.model, { ...state, where })
      : new QuerySet<M, T>(this.model, { ...state, where, ordering: NO_ORDERING, reversed: false, limit: state.limit === null ? MAX_GET_RESULTS : 0 });
    return qs.fetch();
  }

  /** `get()`'s answer: the one row, else DoesNotExist or MultipleObjectsReturned. */
  private oneOf(rows: M[]): M {
    if (rows.length === 1) return rows[0];
    const name = this.model.name;
    if (!rows.length) {
      const DoesNotExist = this.model.DoesNotExist ?? ObjectDoesNotExist;
      throw new DoesNotExist(`${name} matching query does not exist.`);
    }
    const Multiple = this.model.MultipleObjectsReturned ?? MultipleObjectsReturned;
    const num = rows.length < MAX_GET_RESULTS ? String(rows.length) : `more than ${MAX_GET_RESULTS - 1}`;
    throw new Multiple(`get() returned more than one ${name} -- it returned ${num}!`);
  }

  /** The first row (by the ordering, else by pk), or null. */
  async first(): Promise<M | null> {
    const qs = this.isOrdered ? this : this.orderedBy(['pk']);
    return (await qs.slice(0, 1).fetch())[0] ?? null;
  }

  /** The last row (by the ordering reversed, else by -pk), or null. */
  async last(): Promise<M | null> {
    const qs = this.isOrdered ? this.reverse() : this.orderedBy(['-pk']);
    return (await qs.slice(0, 1).fetch())[0] ?? null;
  }

  /** Build and save a new instance (signals fire); returns it. */
  async create(values: T['values']): Promise<M> {
    return this.createRow(values);
  }

  /** `create()` of values whose names are checked at run time (from `getOrCreate()`). */
  private async createRow(values: DynamicLookups): Promise<M> {
    const instance = this.modelCtor.build(values as never) as M;
    await instance.save();
    return instance;
  }

  /** Insert many rows in one statement; no signals (like Django's `bulk_create`). */
  async bulkCreate(rows: ReadonlyArray<T['values']>): Promise<M[]> {
    ensureModel(this.modelCtor);
    return (await this.modelCtor.bulkCreate(rows as never[])) as M[];
  }

  /** `[instance, created]`: the row matching `lookups`, created from them plus `defaults` when missing. */
  async getOrCreate(lookups: T['lookups'], defaults: T['values'] = {}): Promise<[M, boolean]> {
    try {
      return [await this.get(lookups), false];
    } catch (error) {
      if (!(error instanceof ObjectDoesNotExist)) throw error;
    }
    const values: Record<string, unknown> = { ...defaults };
    for (const [key, value] of Object.entries(lookups)) if (!key.includes('__')) values[key] = value;
    try {
      return [await atomic(() => this.createRow(values)), true];
    } catch (error) {
      if ((error as Error).name === 'SequelizeUniqueConstraintError') return [await this.get(lookups), false];
      throw error;
    }
  }

  /** Update every matching row in one statement; returns the number of rows. No signals. */
  async update(values: T['updates']): Promise<number> {
    this.assertNotSliced('update');
    if (this.state.empty) return 0;
    const info = getFieldInfo(this.modelCtor);
    const ctx: CompileContext = { dialect: this.dialect, alias: null, params: [] };
    const assignments: string[] = [];
    for (const [key, value] of Object.entries(values)) {
      const relation = info.getRelation(key);
      const field = info.getField(key) ?? (relation && relation.kind === 'belongsTo' ? info.getField(relation.foreignKey) : undefined);
      if (!field) throw new FieldError(`Cannot resolve keyword '${key}' into field. Choices are: ${info.lookupNames.join(', ')}`);
      assignments.push(`${ctx.dialect.quote(field.column)} = ${bindParameter(ctx.params, columnValue(field, value))}`);
    }
    if (!assignments.length) return 0;
    const where = this.whereSql(ctx);
    const sql = `UPDATE ${ctx.dialect.quoteTable(this.modelCtor)} SET ${assignments.join(', ')}${where ? ` WHERE ${where}` : ''}`;
    return runBulkWrite(this.modelCtor, sql, ctx.params, QueryTypes.BULKUPDATE);
  }

  /**
   * Delete every matching row; returns the number deleted. Relations declared with
   * `onDelete: 'CASCADE'` / `'SET NULL'` and many-to-many join rows are handled first. When
   * `preDelete`/`postDelete` receivers exist for the model, rows are fetched and the signals
   * sent per row (as Django does); otherwise one bulk DELETE runs.
   */
  async delete(): Promise<number> {
    if (this.state.limit !== null || this.state.offset) throw new QuerySetError("Cannot use 'limit' or 'offset' with delete.");
    if (this.state.empty) return 0;
    return deleteQuerySetRows(this.modelCtor, () => this.deleteRows(), (pkOnly) => this.fetchForDelete(pkOnly));
  }

  /** @internal One `DELETE ... WHERE` of the matching rows: no signals, no dependents. */
  async deleteRows(): Promise<number> {
    if (this.state.empty) return 0;
    const ctx: CompileContext = { dialect: this.dialect, alias: null, params: [] };
    const where = this.whereSql(ctx);
    const sql = `DELETE FROM ${ctx.dialect.quoteTable(this.modelCtor)}${where ? ` WHERE ${where}` : ''}`;
    return runBulkWrite(this.modelCtor, sql, ctx.params, QueryTypes.BULKDELETE);
  }

  /** The rows a collecting delete handles (all columns, or the primary key only), compiled like `fetch()`. */
  private fetchForDelete(pkOnly: boolean): Promise<M[]> {
    const ctx: CompileContext = { dialect: this.dialect, alias: this.model.name, params: [] };
    const where = this.whereSql(ctx);
    const pk = this.modelCtor.primaryKeyAttribute;
    return runCompiledSelect(this.modelCtor, {
      key: JSON.stringify(['delete', pkOnly]),
      shape: () => (pkOnly ? { attributes: [pk] } : {}),
      reader: null,
      where,
      params: ctx.params,
      limit: null,
      offset: 0,
    });
  }

  /** Plain objects of the given fields (all concrete fields when none are named). */
  async values(...fields: Array<T['valueNames']>): Promise<Array<Record<string, unknown>>> {
    if (this.state.empty) return [];
    const info = getFieldInfo(this.modelCtor);
    const names = fields.length ? fields : info.fields.map((f) => f.name);
    const attributes: Array<[string, string]> = names.map((name) => {
      const field = info.getField(name);
      if (!field) {
        resolveLookupPath(this.modelCtor, name);
        throw new FieldError(`values() supports this model's own fields only; cannot select '${name}'.`);
      }
      // The column (a renamed attribute's `field`), answered under the name asked for.
      return [field.column, name];
    });
    // Compiled once per shape like fetch(): raw rows, Sequelize's value parsing (what findAll({ raw: true }) answered).
    const ctx: CompileContext = { dialect: this.dialect, alias: this.model.name, params: [] };
    const where = this.whereSql(ctx);
    const distinct = this.state.distinct;
    const rows = await runCompiledSelect(this.modelCtor, {
      key: JSON.stringify(['values', attributes, distinct, this.state.selectRelated, this.getOrdering()]),
      shape: () => ({ ...this.shapeOptions(), attributes, raw: true, ...(distinct ? { group: attributes.map(([attribute]) => attribute) } : {}) }),
      reader: null,
      where,
      params: ctx.params,
      limit: this.state.limit,
      offset: this.state.offset,
    });
    return rows as unknown as Array<Record<string, unknown>>;
  }

  /** Tuples of the given fields, or a flat list of one field with `{ flat: true }`. */
  async valuesList(...args: Array<T['valueNames'] | { flat?: boolean }>): Promise<unknown[]> {
    const last = args[args.length - 1];
    const flat = typeof last === 'object' && last !== null && Boolean(last.flat);
    const fields: Array<T['valueNames']> = [];
    for (const arg of args) if (typeof arg === 'string') fields.push(arg);
    if (flat && fields.length !== 1) throw new QuerySetError("'flat' is not valid when values_list is called with more than one field.");
    const rows = await this.values(...fields);
    const names: readonly string[] = fields.length ? fields : Object.keys(rows[0] ?? {});
    return rows.map((row) => (flat ? row[names[0]] : names.map((n) => row[n])));
  }

  /** A map of pk -> instance for the given primary keys. */
  async inBulk(ids: readonly unknown[]): Promise<Map<unknown, M>> {
    if (!ids.length) return new Map();
    const rows = await this.filter(new Q({ pk__in: [...ids] })).fetch();
    return new Map(rows.map((row) => [(row as M & { pk?: unknown }).pk, row]));
  }

  /** A short description for debugging. */
  toString(): string {
    return `<QuerySet ${this.model.name}>`;
  }
}

/**
 * A model's root QuerySet (`Snippet.objects`). Subclass it for table-level helpers
 * (`UserManager.createUser`) and set `static managerClass` on the model. Every QuerySet
 * method works on the manager directly and starts from `getQueryset()`.
 */
export class Manager<M extends Model, T extends QueryShape = QueryShapeOf<M>> extends QuerySet<M, T> {
  /** The QuerySet this manager starts from; override to pre-filter every query. */
  getQueryset(): QuerySet<M, T> {
    return new QuerySet<M, T>(this.model);
  }

  protected override get state(): QueryState {
    return QuerySet.stateOf(this.getQueryset());
  }
}

export type { RelationInfo };
