/**
 * List output from plain rows: whether a `many` serializer's representation can be read from
 * `QuerySet.readOnlyRows()` (plain objects with the instance's values) instead of model
 * instances, and which column paths it reads. General for any model and serializer: a field
 * qualifies when the values it sees are the same either way —
 *
 * - a field reading a column through its `source` (`title`, `owner.username` across to-one
 *   relations) with the generic `getAttribute()`, on a column without a custom getter;
 * - a `HyperlinkedIdentityField` of the library's own (it reads `pk` and its `lookupField`).
 *
 * Anything that may run code against the instance (a `SerializerMethodField`, a relational or
 * nested field, a custom `getAttribute()`/`toRepresentation()` of the serializer, `source='*'`)
 * keeps the instances, as do querysets with `prefetchRelated()`.
 */
import type { ModelCtor } from 'sequelize-typescript';
import { onSettingChanged } from '../core/conf';
import { getFieldInfo } from '../core/db';
import type { AnyModelClass } from '../core/db/fieldInfo';
import { classHasCustomGetter, Field } from '../fields';
import { HyperlinkedIdentityField, HyperlinkedRelatedField, ManyRelatedField, RelatedField } from '../relations';
import { BaseSerializer, ListSerializer, Serializer } from '../serializers';

/** The path of one column read through `source`, or null when it is not a plain column read. */
function columnPath(model: AnyModelClass | ModelCtor, attrs: readonly string[]): string[] | null {
  let current: AnyModelClass | ModelCtor = model;
  for (let i = 0; i < attrs.length - 1; i++) {
    const relation = getFieldInfo(current).getRelation(attrs[i]);
    if (!relation || relation.name !== attrs[i] || relation.kind !== 'belongsTo') return null;
    current = relation.target;
  }
  const last = attrs[attrs.length - 1];
  const column = getFieldInfo(current).getField(last);
  if (!column || column.name !== last || classHasCustomGetter(current, last)) return null;
  return [...attrs];
}

function isLibraryIdentityField(field: Field): field is HyperlinkedIdentityField {
  return Object.getPrototypeOf(field) === HyperlinkedIdentityField.prototype
    && field.getAttribute === RelatedField.prototype.getAttribute
    && (field as HyperlinkedIdentityField).getUrl === HyperlinkedRelatedField.prototype.getUrl;
}

/**
 * The column paths `serializer` (a `many: true` serializer over `model`) reads, when its
 * output can come from plain rows; null when it needs model instances.
 */
export function plainReadPaths(serializer: unknown, model: AnyModelClass | ModelCtor): string[][] | null {
  if (!(serializer instanceof ListSerializer) || serializer.toRepresentation !== ListSerializer.prototype.toRepresentation) return null;
  const child = serializer.child;
  if (!(child instanceof Serializer) || child.toRepresentation !== Serializer.prototype.toRepresentation) return null;
  // A child whose fields are its class's reads what the class's fields read: answered once
  // per class and model (binding the fields to inspect them is most of the cost).
  const key = child.sharedFieldsKey();
  if (key === null) return fieldPaths(child, model);
  let byModel = classPaths.get(key);
  if (!byModel) classPaths.set(key, byModel = new Map());
  let paths = byModel.get(model);
  if (paths === undefined) byModel.set(model, paths = fieldPaths(child, model));
  return paths;
}

/**
 * The column paths `serializer` (one object's serializer over `model`) reads, when its
 * representation comes from plain columns only (the rules of `plainReadPaths()`); null when it
 * may read anything else of the instance.
 */
export function serializerColumnPaths(serializer: Serializer, model: AnyModelClass | ModelCtor): string[][] | null {
  if (serializer.toRepresentation !== Serializer.prototype.toRepresentation) return null;
  return fieldPaths(serializer, model);
}

/** Column paths per class field map (`Serializer.sharedFieldsKey()`) and model; null: instances needed. */
let classPaths = new WeakMap<Map<string, Field>, Map<AnyModelClass | ModelCtor, string[][] | null>>();
onSettingChanged(() => {
  classPaths = new WeakMap();
});

/** The column paths the readable fields of `child` read, or null when one needs instances. */
function fieldPaths(child: Serializer, model: AnyModelClass | ModelCtor): string[][] | null {
  const paths: string[][] = [];
  for (const [, field] of child.fields) {
    if (field.writeOnly) continue;
    if (isLibraryIdentityField(field)) {
      if (field.lookupField !== 'pk') {
        const path = columnPath(model, [field.lookupField]);
        if (!path) return null;
        paths.push(path);
      }
      continue;
    }
    if (field instanceof BaseSerializer || field instanceof RelatedField || field instanceof ManyRelatedField) return null;
    if (field.getAttribute !== Field.prototype.getAttribute || field.source === '*' || !field.sourceAttrs.length) return null;
    const path = columnPath(model, field.sourceAttrs);
    if (!path) return null;
    paths.push(path);
  }
  return paths;
}
