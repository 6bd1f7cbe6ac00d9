/**
 * Model instances from decoded rows, built as `Model.bulkBuild(rows, { isNewRecord: false, raw:
 * true, include..., attributes })` builds them — the state `findAll()` leaves (not new, values
 * through the model's data type sanitizers, previous values equal, nothing changed, includes
 * attached as instances or null, the same `_options`) — without its per-instance option
 * copying and alias inference (sequelize-typescript's `inferAlias`), worked out once per shape.
 *
 * Used only where nothing can tell the difference: the model (and each included model) keeps
 * Sequelize's (or sequelize-typescript's) `build`, `bulkBuild`, `set`, `_initValues` and `_setInclude`, and no class between
 * it and sequelize-typescript's `Model` declares a constructor (class fields included). The
 * first row of each shape is also built by Sequelize and compared (own properties, values):
 * any difference sends that shape to `bulkBuild` for good. Everything else uses `bulkBuild`.
 */
import { Model as SequelizeModel, Utils } from 'sequelize';
import { Model as TypescriptModel } from 'sequelize-typescript';
import { createRequire } from 'node:module';

type Row = Record<string, unknown>;
type Sanitizer = (this: unknown, value: unknown, options: object) => unknown;

/** The include entries `findAll()` validated (the parts `_setInclude` reads). */
export interface IncludeEntry {
  model: BuildModel;
  as: string;
  association: { isSingleAssociation?: boolean };
  include?: IncludeEntry[];
  includeNames?: string[];
  includeMap?: Record<string, IncludeEntry>;
  originalAttributes?: unknown[];
}

/** The options `bulkBuild` gets from the decoder (as `findAll()` passes them). */
export interface BuildOptions {
  isNewRecord: boolean;
  raw: boolean;
  include?: unknown;
  includeNames?: unknown;
  includeMap?: unknown;
  includeValidated?: boolean;
  attributes?: unknown;
}

/** The model statics the builder reads. */
export interface BuildModel {
  prototype: object;
  name: string;
  primaryKeyAttribute: string;
  _schema?: unknown;
  _schemaDelimiter?: unknown;
  _hasVirtualAttributes?: boolean;
  _virtualAttributes: Set<string>;
  _hasDateAttributes?: boolean;
  _hasBooleanAttributes?: boolean;
  _dataTypeSanitizers: Record<string, Sanitizer>;
  build(values: Row, options: object): unknown;
  bulkBuild(rows: Row[], options: object): unknown[];
}

/** One model's build recipe for one set of options (rowBuilder.ts compiles it into code). */
export interface Plan {
  model: BuildModel;
  /** What the constructor keeps as `_options` (shared by the instances of the shape). */
  instanceOptions: Record<string, unknown>;
  /** The keys `set(values, { attributes })` walks, in order (null: every key of the row). */
  keys: string[] | null;
  /** Include names, when the options have includes. */
  includeNames: Set<string> | null;
  /** Per include name: the child options `_setInclude` builds with, and the child's plan. */
  children: Map<string, { entry: IncludeEntry; options: BuildOptions; plan: Plan | null }>;
  /** Sequelize's shortcut (`dataValues = values`) applies. */
  assignWhole: boolean;
}

const inferAlias = (createRequire(__filename)('sequelize-typescript/dist/associations/alias-inference/alias-inference-service') as {
  inferAlias(options: object, source: unknown): Record<string, unknown>;
}).inferAlias;

const base = SequelizeModel as unknown as BuildModel & { prototype: Record<string, unknown> };
const OVERRIDABLE = ['set', '_initValues', '_setInclude'] as const;
const fitness = new WeakMap<object, boolean>();

/** True when instances of `model` can be built here (see the module comment). */
function buildable(model: BuildModel): boolean {
  let known = fitness.get(model);
  if (known !== undefined) return known;
  // sequelize-typescript's `build`/`bulkBuild` only infer include aliases, as the constructor does.
  const typescript = TypescriptModel as unknown as BuildModel;
  known = (model.build === typescript.build && model.bulkBuild === typescript.bulkBuild) || (model.build === base.build && model.bulkBuild === base.bulkBuild);
  const prototype = model.prototype as Record<string, unknown>;
  for (const name of OVERRIDABLE) if (prototype[name] !== base.prototype[name]) known = false;
  for (let cls: unknown = model; known && cls && cls !== TypescriptModel && cls !== SequelizeModel; cls = Object.getPrototypeOf(cls)) {
    if (/\bconstructor\s*\(/.test(Function.prototype.toString.call(cls))) known = false;
  }
  fitness.set(model, known);
  return known;
}

/** The attribute names of `options.attributes` as the constructor maps them. */
function attributeNames(attributes: unknown): string[] | undefined {
  if (!Array.isArray(attributes)) return undefined;
  return attributes.map((attribute: unknown) => (Array.isArray(attribute) ? (attribute[1] as string) : (attribute as string)));
}

/** The recipe for `model` built with `options` (null: leave it to Sequelize). */
function planFor(model: BuildModel, options: BuildOptions): Plan | null {
  if (!buildable(model) || !options.includeValidated || !options.raw || options.isNewRecord) return null;
  // What the constructors do with the options: sequelize-typescript infers aliases, Sequelize adds
  // its defaults and maps the attributes.
  const instanceOptions: Record<string, unknown> = { isNewRecord: true, _schema: model._schema, _schemaDelimiter: model._schemaDelimiter, ...inferAlias(options, model) };
  const names = attributeNames(instanceOptions.attributes);
  if (names) instanceOptions.attributes = names;
  const include = instanceOptions.include as IncludeEntry[] | undefined;
  const includeNames = include ? new Set((instanceOptions.includeNames as string[] | undefined) ?? []) : null;
  const keys = names ? [...names, ...(model._hasVirtualAttributes ? model._virtualAttributes : []), ...((instanceOptions.includeNames as string[] | undefined) ?? [])] : null;
  const children: Plan['children'] = new Map();
  if (include) {
    const includeMap = (instanceOptions.includeMap ?? {}) as Record<string, IncludeEntry>;
    for (const name of includeNames ?? []) {
      const entry = includeMap[name];
      if (!entry) return null;
      const childOptions: BuildOptions & { attributes?: unknown } = {
        isNewRecord: false,
        include: entry.include,
        includeNames: entry.includeNames,
        includeMap: entry.includeMap,
        includeValidated: true,
        raw: true,
        attributes: entry.originalAttributes,
      };
      children.set(name, { entry, options: childOptions, plan: entry.association.isSingleAssociation ? planFor(entry.model, childOptions) : null });
    }
  }
  const assignWhole = !include && !names && !model._hasDateAttributes && !model._hasBooleanAttributes;
  return { model, instanceOptions, keys, includeNames, children, assignWhole };
}

/** One instance, as `new model(values, options)` leaves it. */
function buildOne(plan: Plan, values: Row): unknown {
  const { model } = plan;
  const instance = Object.create(model.prototype) as Record<string, unknown>;
  let data: Row = {};
  instance.dataValues = data;
  instance._previousDataValues = {};
  instance.uniqno = 1;
  instance._changed = new Set();
  instance._options = plan.instanceOptions;
  instance.isNewRecord = false;
  if (plan.assignWhole) {
    instance.dataValues = data = { ...values };
    instance._previousDataValues = { ...data };
    return instance;
  }
  const sanitizers = model._dataTypeSanitizers;
  const setOne = (key: string, value: unknown): void => {
    if (plan.includeNames?.has(key)) {
      setInclude(plan, instance, data, key, value);
      return;
    }
    let stored = value;
    if (!(stored instanceof Utils.SequelizeMethod) && Object.prototype.hasOwnProperty.call(sanitizers, key)) stored = sanitizers[key].call(instance, stored, plan.instanceOptions);
    data[key] = stored;
  };
  if (plan.keys) {
    for (const key of plan.keys) {
      const value = values[key];
      if (value !== undefined) setOne(key, value);
    }
  } else {
    for (const key in values) setOne(key, values[key]);
  }
  instance._previousDataValues = { ...data };
  return instance;
}

/** `_setInclude(key, value, { raw: true })` of an instance being built. */
function setInclude(plan: Plan, instance: Record<string, unknown>, data: Row, key: string, raw: unknown): void {
  const child = plan.children.get(key)!;
  const { entry, options } = child;
  let value: unknown = Array.isArray(raw) ? raw : [raw];
  const list = value as unknown[];
  if (list[0] instanceof SequelizeModel) value = list.map((item) => (item as unknown as { dataValues: Row }).dataValues);
  const pk = entry.model.primaryKeyAttribute;
  if (entry.originalAttributes !== undefined && !entry.originalAttributes.length) return;
  if (entry.association.isSingleAssociation) {
    const single = (value as Row[])[0];
    const isEmpty = (single && single[pk] === null) || single === null;
    instance[key] = data[key] = isEmpty ? null : child.plan ? buildOne(child.plan, single) : entry.model.build(single, { ...options });
  } else {
    const rows = value as Row[];
    const isEmpty = rows[0] && rows[0][pk] === null;
    instance[key] = data[key] = isEmpty ? [] : entry.model.bulkBuild(rows, { ...options });
  }
}

const plans = new WeakMap<object, Plan | null>();

/** Own property names and dataValues keys: what the first-row comparison checks. */
function shapeOf(instance: unknown): string {
  const record = instance as Record<string, unknown> & { dataValues: Row; _previousDataValues: Row };
  const own = Object.getOwnPropertyNames(record).join(',');
  const nested = Object.keys(record.dataValues).map((key) => {
    const value = record.dataValues[key];
    return value instanceof SequelizeModel ? `${key}{${shapeOf(value)}}` : key;
  });
  return `${own}|${nested.join(',')}|${Object.keys(record._previousDataValues).join(',')}`;
}

/**
 * The recipe of the compiled shape `shape` (null: `bulkBuild` builds its instances), worked
 * out on its first decoded row (`sample`) and checked against Sequelize there; undefined while
 * the shape has had no row yet.
 */
export function buildPlan(shape: object, target: { bulkBuild(rows: Row[], options: object): unknown[] }, sample: Row | undefined, options: BuildOptions): Plan | null | undefined {
  let plan = plans.get(shape);
  if (plan === undefined) {
    if (sample === undefined) return undefined;
    const model = target as BuildModel;
    plan = planFor(model, options);
    if (plan) {
      // Check the recipe against Sequelize on the first row (a copy: both consume it).
      const reference = model.bulkBuild([{ ...sample }], options)[0];
      const built = buildOne(plan, { ...sample });
      if (shapeOf(reference) !== shapeOf(built)) plan = null;
    }
    plans.set(shape, plan);
  }
  return plan;
}

/**
 * `model.bulkBuild(rows, options)` for the decoded rows of the compiled shape `shape` (the
 * options must be the same for every call with that shape).
 */
export function buildInstances(shape: object, target: { bulkBuild(rows: Row[], options: object): unknown[] }, rows: Row[], options: BuildOptions): unknown[] {
  const model = target as BuildModel;
  const plan = buildPlan(shape, target, rows[0], options);
  if (!plan) return model.bulkBuild(rows, options);
  const out = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = buildOne(plan, rows[i]);
  return out;
}
