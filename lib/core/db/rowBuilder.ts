/**
 * Generated row builders: for one compiled SELECT shape whose instances instanceBuilder.ts
 * builds (a recipe, `Plan`) — or whose plain `readOnlyRows()` objects plainRows.ts makes — one
 * function, made once, that turns one driver row into the
 * instance `decodeRows()` answers for it — the column values parsed (SQLite), to-one joins
 * nested into their instances, the instance state set as `buildOne()` sets it — in straight-line
 * code: each column read once by its constant name, each attribute stored by its constant name
 * in the order `buildOne()` stores it, the sanitizers and parsers called as there. What it skips
 * per row is the generic path's intermediate objects (the nested row), its per-key lookups (include
 * names, sanitizers) and its stores under changing keys.
 *
 * Made from the first row of the shape and checked against the generic path on that row (the
 * same prototype, own properties, values, in the same order, includes alike); a shape it does
 * not cover (to-many includes, a nested value that is not an include, keys JavaScript orders by
 * itself) or a difference keeps the generic path. Names only ever appear in the code as
 * JSON string literals; values never do.
 */
import { Model as SequelizeModel, Utils } from 'sequelize';
import type { Plan } from './instanceBuilder';

type Row = Record<string, unknown>;

/** One row in, one instance out. */
export type RowBuilder = (row: Row) => unknown;

/** Where a value of the nested row comes from: a column, or a nested object of columns. */
type Source = { column: string } | { node: Node };
type Node = Map<string, Source>;

/** Keys that plain objects order by themselves (array indices): the generated order would differ. */
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;

/** The nested row `nest()` builds from `columns` (`owner.id` under `owner`); flat when not nested. */
function sourceTree(columns: readonly string[], nested: boolean): Node | null {
  const root: Node = new Map();
  for (const column of columns) {
    const parts = nested ? column.split('.') : [column];
    let level = root;
    for (let i = 0; i < parts.length - 1; i++) {
      const known = level.get(parts[i]);
      if (known && 'column' in known) return null;
      if (!known) level.set(parts[i], { node: new Map() });
      level = (level.get(parts[i]) as { node: Node }).node;
    }
    const last = parts[parts.length - 1];
    if (level.has(last)) return null;
    level.set(last, { column });
  }
  return root;
}

/** Whether every key of the tree keeps its insertion order in an object. */
function plainKeys(node: Node): boolean {
  for (const [key, source] of node) {
    if (INDEX_KEY.test(key) || key === '__proto__') return false;
    if ('node' in source && !plainKeys(source.node)) return false;
  }
  return true;
}

/** The code generator of one shape. */
class Generator {
  readonly lines: string[] = [];
  readonly constants: unknown[] = [];
  private readonly columnVars = new Map<string, string>();
  private count = 0;

  /** An expression for `value`, passed to the function as a constant. */
  constant(value: unknown): string {
    let index = this.constants.indexOf(value);
    if (index < 0) index = this.constants.push(value) - 1;
    return `k[${index}]`;
  }

  name(prefix: string): string {
    return `${prefix}${this.count++}`;
  }

  /** The variable holding `column`'s (parsed) value. */
  columnOf(column: string): string {
    return this.columnVars.get(column) as string;
  }

  /** The function of the statements so far, answering `result`. */
  compile(result: string): RowBuilder {
    const body = `${this.lines.join('\n')}\nreturn ${result};`;
    const factory = new Function('k', `return function buildRow(row) {\n${body}\n};`) as (constants: unknown[]) => RowBuilder;
    return factory(this.constants);
  }

  /** Read (and parse) every column once, in column order, as the generic path parses them. */
  readColumns(columns: readonly string[], parsers: ReadonlyMap<string, (value: unknown) => unknown>): void {
    for (const column of columns) {
      const variable = this.name('c');
      const read = `row[${JSON.stringify(column)}]`;
      const parse = parsers.get(column);
      this.lines.push(`const ${variable} = ${parse ? `${this.constant(parse)}(${read})` : read};`);
      this.columnVars.set(column, variable);
    }
  }

  /** Statements building one instance of `plan` from `node`; its variable, or null: not covered. */
  instance(plan: Plan, node: Node): string | null {
    const instance = this.name('i');
    const data = this.name('d');
    const options = this.constant(plan.instanceOptions);
    this.lines.push(
      `const ${instance} = Object.create(${this.constant(plan.model.prototype)});`,
      `let ${data} = {};`,
      `${instance}.dataValues = ${data};`,
      `${instance}._previousDataValues = {};`,
      `${instance}.uniqno = 1;`,
      `${instance}._changed = new Set();`,
      `${instance}._options = ${options};`,
      `${instance}.isNewRecord = false;`,
    );
    if (plan.assignWhole) {
      const props: string[] = [];
      for (const [key, source] of node) {
        if (!('column' in source)) return null;
        props.push(`${JSON.stringify(key)}: ${this.columnVars.get(source.column)}`);
      }
      this.lines.push(`${instance}.dataValues = ${data} = { ${props.join(', ')} };`);
    } else {
      const sanitizers = plan.model._dataTypeSanitizers;
      for (const key of plan.keys ?? [...node.keys()]) {
        const source = node.get(key);
        if (source === undefined) {
          // `values[key]` would read Object.prototype's property of that name.
          if (key in Object.prototype) return null;
          continue;
        }
        const target = `${data}[${JSON.stringify(key)}]`;
        if (plan.includeNames?.has(key)) {
          if (!this.include(plan, key, source, instance, target)) return null;
          continue;
        }
        if (!('column' in source)) return null;
        const value = this.columnVars.get(source.column) as string;
        if (Object.prototype.hasOwnProperty.call(sanitizers, key)) {
          this.lines.push(`${target} = ${value} instanceof ${this.constant(Utils.SequelizeMethod)} ? ${value} : ${this.constant(sanitizers[key])}.call(${instance}, ${value}, ${options});`);
        } else {
          this.lines.push(`${target} = ${value};`);
        }
      }
    }
    this.lines.push(`${instance}._previousDataValues = { ...${data} };`);
    return instance;
  }

  /** `_setInclude()` of a to-one include built by its own recipe; false: not covered. */
  private include(plan: Plan, key: string, source: Source, instance: string, target: string): boolean {
    const child = plan.children.get(key);
    if (!child) return false;
    const { entry } = child;
    if (entry.originalAttributes !== undefined && !entry.originalAttributes.length) return true;
    if (!entry.association.isSingleAssociation || !child.plan || !('node' in source)) return false;
    const pk = source.node.get(entry.model.primaryKeyAttribute);
    if (pk === undefined && entry.model.primaryKeyAttribute in Object.prototype) return false;
    const value = this.name('o');
    this.lines.push(`let ${value} = null;`);
    // A LEFT JOIN that found nothing has a NULL key: the include is null.
    this.lines.push(pk && 'column' in pk ? `if (${this.columnVars.get(pk.column)} !== null) {` : '{');
    const built = this.instance(child.plan, source.node);
    if (built === null) return false;
    this.lines.push(`${value} = ${built};`, '}', `${instance}[${JSON.stringify(key)}] = ${target} = ${value};`);
    return true;
  }
}

/**
 * What `QuerySet.readOnlyRows()` makes of a row (plainRows.ts), per model reached: the plain
 * objects' prototype, the attributes whose data type sanitizers then run on the object (in
 * order), and the to-one joins adopted after them (a join whose key is NULL reads as null).
 */
export interface PlainRowSpec {
  prototype: object;
  /** Attribute -> its sanitizer (only the attributes that have one), in the order they run. */
  sanitizers: ReadonlyArray<[string, (this: unknown, value: unknown, options: object) => unknown]>;
  /** The options the sanitizers are called with. */
  options: object;
  children: ReadonlyMap<string, { primaryKey: string; spec: PlainRowSpec }>;
}

/** Statements building one plain row of `spec` from `node`; its variable, or null: not covered. */
function plainRow(generator: Generator, spec: PlainRowSpec, node: Node): string | null {
  const row = generator.name('p');
  const lines = generator.lines;
  lines.push(`const ${row} = Object.create(${generator.constant(spec.prototype)});`);
  for (const [key, source] of node) {
    // A nested object sits at its first column's place until its join is adopted below.
    lines.push(`${row}[${JSON.stringify(key)}] = ${'column' in source ? generator.columnOf(source.column) : 'null'};`);
  }
  for (const [attribute, sanitize] of spec.sanitizers) {
    const source = node.get(attribute);
    if (source === undefined) {
      if (attribute in spec.prototype) return null;
      continue;
    }
    if (!('column' in source)) return null;
    const target = `${row}[${JSON.stringify(attribute)}]`;
    lines.push(`${target} = ${generator.constant(sanitize)}.call(${row}, ${target}, ${generator.constant(spec.options)});`);
  }
  for (const [name, child] of spec.children) {
    const source = node.get(name);
    const target = `${row}[${JSON.stringify(name)}]`;
    if (source === undefined) {
      if (name in spec.prototype) return null;
      lines.push(`${target} = null;`);
      continue;
    }
    if (!('node' in source)) return null;
    const key = source.node.get(child.primaryKey);
    if (key === undefined) {
      if (child.primaryKey in Object.prototype) return null;
      lines.push(`${target} = null;`);
      continue;
    }
    if (!('column' in key)) return null;
    lines.push(`if (${generator.columnOf(key.column)} != null) {`);
    const built = plainRow(generator, child.spec, source.node);
    if (built === null) return null;
    lines.push(`${target} = ${built};`, '} else {', `${target} = null;`, '}');
  }
  return row;
}

/**
 * The builder of `readOnlyRows()` objects from rows with `columns` (see `compileRowBuilder`);
 * null when the shape is not covered.
 */
export function compilePlainRowBuilder(spec: PlainRowSpec, columns: readonly string[], nested: boolean, parsers: ReadonlyMap<string, (value: unknown) => unknown>): RowBuilder | null {
  const tree = sourceTree(columns, nested);
  if (!tree || !plainKeys(tree)) return null;
  const generator = new Generator();
  generator.readColumns(columns, parsers);
  const row = plainRow(generator, spec, tree);
  return row === null ? null : generator.compile(row);
}

/**
 * The builder of rows with `columns` (in the driver's order) for the recipe `plan`: `nested`
 * when to-one joins are nested by their dotted column names, `parsers` per parsed column.
 * Null when the shape is not covered.
 */
export function compileRowBuilder(plan: Plan, columns: readonly string[], nested: boolean, parsers: ReadonlyMap<string, (value: unknown) => unknown>): RowBuilder | null {
  const tree = sourceTree(columns, nested);
  if (!tree || !plainKeys(tree)) return null;
  const generator = new Generator();
  generator.readColumns(columns, parsers);
  const instance = generator.instance(plan, tree);
  return instance === null ? null : generator.compile(instance);
}

/** Whether two built values are the same: instances and plain objects key by key, in order. */
export function sameBuilt(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Date) return a.getTime() === (b as Date).getTime() || (Number.isNaN(a.getTime()) && Number.isNaN((b as Date).getTime()));
  if (Buffer.isBuffer(a)) return a.equals(b as Buffer);
  if (a instanceof Set) return a.size === 0 && (b as Set<unknown>).size === 0;
  const keysA = Object.getOwnPropertyNames(a);
  const keysB = Object.getOwnPropertyNames(b);
  if (keysA.length !== keysB.length || keysA.some((key, index) => key !== keysB[index])) return false;
  // Shared options objects are the recipe's own: the same object on both sides.
  if (a instanceof SequelizeModel && (a as unknown as { _options: unknown })._options !== (b as unknown as { _options: unknown })._options) return false;
  return keysA.every((key) => key === '_options' || sameBuilt((a as Row)[key], (b as Row)[key]));
}
