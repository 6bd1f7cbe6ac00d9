/**
 * `prefetchRelated()`: load a relation for a list of instances with one extra query per
 * relation (and per level of `a__b` paths), then attach the results to the instances under
 * the relation's name (`snippet.owner`, `user.snippets`, `user.groups`).
 */
import type { Model, ModelCtor } from 'sequelize-typescript';
import { getFieldInfo, type RelationInfo } from './fieldInfo';
import { FieldError } from './errors';
import { bindParameter } from './lookups';

function attach(instance: Model, name: string, value: unknown): void {
  (instance.dataValues as Record<string, unknown>)[name] = value;
  Reflect.set(instance, name, value);
}

function distinctValues(values: unknown[]): unknown[] {
  return [...new Set(values.filter((v) => v !== null && v !== undefined))];
}

async function prefetchOne(instances: Model[], model: ModelCtor, relation: RelationInfo): Promise<Model[]> {
  const { QuerySet } = await import('./queryset');
  const target = relation.target;
  if (relation.kind === 'belongsTo') {
    const keys = distinctValues(instances.map((i) => i.get(relation.foreignKey)));
    const related = keys.length ? await new QuerySet(target).filter({ [`${relation.targetKey}__in`]: keys }).fetch() : [];
    const byKey = new Map(related.map((r) => [String(r.get(relation.targetKey)), r]));
    for (const instance of instances) attach(instance, relation.name, byKey.get(String(instance.get(relation.foreignKey))) ?? null);
    return related;
  }
  if (relation.kind === 'hasMany' || relation.kind === 'hasOne') {
    const keys = distinctValues(instances.map((i) => i.get(relation.sourceKey)));
    const related = keys.length ? await new QuerySet(target).filter({ [`${relation.foreignKey}__in`]: keys }).fetch() : [];
    const groups = new Map<string, Model[]>();
    for (const row of related) {
      const key = String(row.get(relation.foreignKey));
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const instance of instances) {
      const list = groups.get(String(instance.get(relation.sourceKey))) ?? [];
      attach(instance, relation.name, relation.kind === 'hasOne' ? list[0] ?? null : list);
    }
    return related;
  }
  // belongsToMany: one query over the target joined to the through table.
  const keys = distinctValues(instances.map((i) => i.get(model.primaryKeyAttribute)));
  const reverse = getFieldInfo(target).relations.find(
    (r) => r.kind === 'belongsToMany' && r.target === model && r.through === relation.through && r.foreignKey === relation.otherKey,
  );
  if (!reverse) throw new FieldError(`Cannot prefetch '${relation.name}': ${target.name} has no reverse relation to ${model.name}.`);
  const sourcePk = model.primaryKeyAttribute;
  const pkColumn = getFieldInfo(model).pk.column;
  // The IN condition goes to the WHERE of the compiled SELECT (the join is an inner one, so it
  // selects the same rows as in the join condition).
  const related = keys.length
    ? await new QuerySet(target).fetchWith(
      reverse.name,
      [{ association: reverse.name, attributes: [sourcePk], through: { attributes: [] }, required: true }],
      (params, dialect) => `${dialect.quote(reverse.name)}.${dialect.quote(pkColumn)} IN (${keys.map((key) => bindParameter(params, key)).join(', ')})`,
    )
    : [];
  const lists = new Map<string, Model[]>();
  for (const row of related) {
    const owners = (row.get(reverse.name) as Model[] | undefined) ?? [];
    for (const owner of owners) {
      const key = String(owner.get(sourcePk));
      lists.set(key, [...(lists.get(key) ?? []), row]);
    }
    delete (row.dataValues as Record<string, unknown>)[reverse.name];
    Reflect.deleteProperty(row, reverse.name);
  }
  for (const instance of instances) attach(instance, relation.name, lists.get(String(instance.get(sourcePk))) ?? []);
  return related;
}

/** Prefetch each `a__b` path for `instances` of `model`. */
export async function prefetchRelatedObjects(instances: Model[], model: ModelCtor, paths: readonly string[]): Promise<void> {
  const done = new Map<string, { model: ModelCtor; rows: Model[] }>();
  for (const path of paths) {
    const parts = path.split('__');
    let rows = instances;
    let current = model;
    for (let i = 0; i < parts.length; i++) {
      const key = parts.slice(0, i + 1).join('__');
      const relation = getFieldInfo(current).getRelation(parts[i]);
      if (!relation) {
        throw new FieldError(`Cannot find '${parts[i]}' on ${current.name} object, '${path}' is an invalid parameter to prefetchRelated()`);
      }
      let step = done.get(key);
      if (!step) {
        step = { model: relation.target, rows: rows.length ? await prefetchOne(rows, current, relation) : [] };
        done.set(key, step);
      }
      rows = step.rows;
      current = step.model;
    }
  }
}
