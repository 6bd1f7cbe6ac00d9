/**
 * Deleting rows the way Django's collector does: relations declared with
 * `onDelete: 'CASCADE'` are deleted first, `'SET NULL'` ones are nulled, many-to-many join
 * rows are removed, and `preDelete`/`postDelete` are sent per instance when anyone listens.
 */
import type { Model, ModelCtor } from 'sequelize-typescript';
import { getFieldInfo, type RelationInfo } from './fieldInfo';
import { preDelete, postDelete } from './signals';
import { atomic } from './transaction';

interface AssociationWithOptions {
  options?: { onDelete?: string; reverseOf?: { options?: { onDelete?: string } } };
}

/** An association as Sequelize builds it: its options carry `onDelete` (and ours `reverseOf`). */
function isAssociationWithOptions(value: unknown): value is AssociationWithOptions {
  return typeof value === 'object' && value !== null && (!('options' in value) || typeof value.options === 'object');
}

function onDeleteOf(model: ModelCtor, relation: RelationInfo): string {
  const found: unknown = model.associations[relation.name];
  const association = isAssociationWithOptions(found) ? found : undefined;
  const options = association?.options;
  return String(options?.reverseOf?.options?.onDelete ?? options?.onDelete ?? '').toUpperCase();
}

/** The relations whose rows must be handled before rows of `model` are deleted. */
function dependentRelations(model: ModelCtor): RelationInfo[] {
  return getFieldInfo(model).relations.filter((relation) => {
    if (relation.kind === 'belongsToMany') return relation.through !== null;
    if (relation.kind !== 'hasMany' && relation.kind !== 'hasOne') return false;
    const action = onDeleteOf(model, relation);
    return action === 'CASCADE' || action === 'SET NULL';
  });
}

function hasSignals(model: ModelCtor): boolean {
  return preDelete.hasListeners(model) || postDelete.hasListeners(model);
}

/** Handle dependent rows of the given primary keys (cascade, set null, join rows). */
async function handleDependents(model: ModelCtor, pks: unknown[]): Promise<void> {
  const { QuerySet } = await import('./queryset');
  for (const relation of dependentRelations(model)) {
    if (relation.kind === 'belongsToMany' && relation.through) {
      await new QuerySet(relation.through).filter({ [`${relation.foreignKey}__in`]: pks }).delete();
      continue;
    }
    const related = new QuerySet(relation.target).filter({ [`${relation.foreignKey}__in`]: pks });
    if (onDeleteOf(model, relation) === 'CASCADE') await related.delete();
    else await related.update({ [relation.foreignKey]: null });
  }
}

/** Delete the given instances (signals, dependents, then one DELETE). Returns the count. */
export async function deleteInstances(model: ModelCtor, instances: Model[]): Promise<number> {
  if (!instances.length) return 0;
  const pkName = model.primaryKeyAttribute;
  const run = async (): Promise<number> => {
    for (const instance of instances) await preDelete.send(model, { instance });
    const pks = instances.map((i) => i.get(pkName));
    await handleDependents(model, pks);
    const { QuerySet } = await import('./queryset');
    const count = await new QuerySet(model).filter({ pk__in: pks }).deleteRows();
    for (const instance of instances) await postDelete.send(model, { instance });
    return count;
  };
  return dependentRelations(model).length || instances.length > 1 ? atomic(run) : run();
}

/**
 * Delete a QuerySet's rows: `bulkDelete()` (one DELETE) when nothing listens and nothing
 * depends on them, else `fetchRows(pkOnly)` then `deleteInstances()` in one transaction.
 */
export async function deleteQuerySetRows(
  model: ModelCtor,
  bulkDelete: () => Promise<number>,
  fetchRows: (pkOnly: boolean) => Promise<Model[]>,
): Promise<number> {
  if (!hasSignals(model) && !dependentRelations(model).length) return bulkDelete();
  return atomic(async () => deleteInstances(model, await fetchRows(!hasSignals(model))));
}
