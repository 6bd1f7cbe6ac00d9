/**
 * Read-only rows without model instances. A QuerySet asked for `readOnlyRows(paths)` selects
 * only the columns those paths name (`title`, `owner__username` -> one LEFT JOIN to the owner)
 * plus the primary keys, and answers plain nested objects (`{ id, title, owner: { id,
 * username } }`) whose values are exactly an instance's: the statement is compiled once per
 * shape and its rows go through Sequelize's own value parsing and join grouping, only the
 * instance building is left out. Each object (and each joined one) answers `pk`.
 *
 * For representation only (serializer list output): there is no `save()`, no signals, no
 * custom getters; code that needs any of that keeps using instances.
 */
import type { FindOptions, IncludeOptions } from 'sequelize';
import type { ModelCtor } from 'sequelize-typescript';
import { getFieldInfo } from './fieldInfo';
import { FieldError } from './errors';
import type { PlainRowSpec } from './rowBuilder';
import type { DeferredNode } from './deferredAttributes';

/** A plain row: column values by attribute name, joined rows by relation name, and `pk`. */
export type PlainRow = Record<string, unknown> & { readonly pk: unknown };

interface RowNode {
  attributes: Set<string>;
  children: Map<string, RowNode>;
}

const prototypes = new WeakMap<object, object>();
const RAW = Object.freeze({ raw: true });

/** The prototype every plain row of `model` gets: `pk` reads the primary key attribute. */
function rowPrototype(model: ModelCtor): object {
  let proto = prototypes.get(model);
  if (!proto) {
    const pkAttribute = model.primaryKeyAttribute;
    proto = Object.create(Object.prototype, {
      pk: { get(this: Record<string, unknown>) { return this[pkAttribute]; }, enumerable: false },
    }) as object;
    prototypes.set(model, proto);
  }
  return proto;
}

/**
 * The attributes and belongsTo joins `paths` need (each path: relation names, then an
 * attribute). Throws `FieldError` for anything else (a many relation, an unknown name).
 */
function rowTree(model: ModelCtor, paths: readonly (readonly string[])[]): RowNode {
  const root: RowNode = { attributes: new Set([model.primaryKeyAttribute]), children: new Map() };
  for (const path of paths) {
    let node = root;
    let current = model;
    for (let i = 0; i < path.length; i++) {
      const info = getFieldInfo(current);
      const name = path[i];
      if (i === path.length - 1) {
        const field = info.getField(name);
        if (!field || field.name !== name) throw new FieldError(`readOnlyRows(): '${path.join('.')}' does not end on a column of ${current.name}.`);
        node.attributes.add(name);
        break;
      }
      const relation = info.getRelation(name);
      if (!relation || relation.kind !== 'belongsTo') throw new FieldError(`readOnlyRows(): '${name}' of ${current.name} is not a to-one relation.`);
      let child = node.children.get(relation.name);
      if (!child) {
        child = { attributes: new Set([relation.target.primaryKeyAttribute]), children: new Map() };
        node.children.set(relation.name, child);
      }
      node.attributes.add(relation.foreignKey);
      node = child;
      current = relation.target;
    }
  }
  return root;
}

/**
 * The attributes and joins a row narrowed to `paths` loads, per level (what
 * `QuerySet.deferExcept()` keeps; see deferredAttributes.ts).
 */
export function narrowedRowTree(model: ModelCtor, paths: readonly (readonly string[])[]): DeferredNode {
  return rowTree(model, paths);
}

function includeOf(children: Map<string, RowNode>, existing: IncludeOptions[]): IncludeOptions[] {
  const byName = new Map(existing.map((include) => [String(include.association), include]));
  for (const [name, node] of children) {
    const previous = byName.get(name);
    const nested = includeOf(node.children, (previous?.include as IncludeOptions[] | undefined) ?? []);
    byName.set(name, { ...previous, association: name, required: false, attributes: [...node.attributes], include: nested });
  }
  return [...byName.values()];
}

/**
 * The shape options (order, include) of a QuerySet narrowed to the columns `paths` read:
 * the joins the ordering needs stay (selecting nothing), the paths' joins select their columns.
 */
export function plainRowShape(model: ModelCtor, base: FindOptions, paths: readonly (readonly string[])[]): FindOptions {
  const tree = rowTree(model, paths);
  return { ...base, attributes: [...tree.attributes], include: includeOf(tree.children, (base.include as IncludeOptions[] | undefined) ?? []) };
}

type Sanitizer = (this: unknown, value: unknown, options: object) => unknown;

/** What `adopt()` below does to the rows of `node` over `model`, for a generated builder (rowBuilder.ts). */
function rowSpec(model: ModelCtor, node: RowNode): PlainRowSpec {
  const sanitizers = (model as unknown as { _dataTypeSanitizers: Record<string, Sanitizer> })._dataTypeSanitizers;
  const children = new Map<string, { primaryKey: string; spec: PlainRowSpec }>();
  for (const [name, child] of node.children) {
    const target = getFieldInfo(model).getRelation(name)!.target;
    children.set(name, { primaryKey: target.primaryKeyAttribute, spec: rowSpec(target, child) });
  }
  return {
    prototype: rowPrototype(model),
    sanitizers: [...node.attributes].filter((attribute) => sanitizers[attribute]).map((attribute) => [attribute, sanitizers[attribute]]),
    options: RAW,
    children,
  };
}

/** The key under which a reader keeps the spec of its rows. */
const SPEC = Symbol('plainRowSpec');

/** The plain-row spec of a `plainRowReader()` stand-in (undefined for any other model). */
export function plainRowSpecOf(model: unknown): PlainRowSpec | undefined {
  return (model as { [SPEC]?: PlainRowSpec } | null)?.[SPEC];
}

/**
 * A stand-in for `model` in Sequelize's result handling: values are parsed and joined rows
 * grouped as for `findAll()`, and `bulkBuild` hands the grouped plain objects back (with the
 * `pk` prototype) instead of building instances. It also carries what it does to the rows
 * (`plainRowSpecOf()`), from which the decoder may generate a builder doing the same.
 */
export function plainRowReader(model: ModelCtor, paths: readonly (readonly string[])[]): ModelCtor {
  const tree = rowTree(model, paths);
  const adopt = (row: Record<string, unknown>, current: ModelCtor, node: RowNode): void => {
    Object.setPrototypeOf(row, rowPrototype(current));
    // What `instance.set(values, { raw: true })` still does to a value read from the database
    // (booleans stored as 1/0 become true/false): the model's data type sanitizers.
    const sanitizers = (current as unknown as { _dataTypeSanitizers: Record<string, Sanitizer> })._dataTypeSanitizers;
    for (const attribute of node.attributes) {
      const sanitize = sanitizers[attribute];
      if (sanitize && attribute in row) row[attribute] = sanitize.call(row, row[attribute], RAW);
    }
    for (const [name, child] of node.children) {
      const value = row[name] as Record<string, unknown> | null | undefined;
      const target = getFieldInfo(current).getRelation(name)!.target;
      // A LEFT JOIN that found nothing reads as a row of NULLs: no related object, as on instances.
      if (value !== null && typeof value === 'object' && value[target.primaryKeyAttribute] != null) adopt(value, target, child);
      else row[name] = null;
    }
  };
  return Object.create(model, {
    bulkBuild: {
      value: (rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> => {
        for (const row of rows) adopt(row, model, tree);
        return rows;
      },
    },
    [SPEC]: { value: rowSpec(model, tree) },
  }) as ModelCtor;
}
