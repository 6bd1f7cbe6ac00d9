/**
 * The UPDATE of `save()` on a saved instance, written by the framework: `UPDATE <table> SET
 * <changed columns> WHERE <pk> = $n`, compiled once per model and set of columns, values
 * converted by Sequelize's own `format()` and bound, run on the driver (statementRunner.ts:
 * errors mapped as Sequelize maps them, current `atomic()` transaction or the primary). Which columns are written, the
 * validation and the bookkeeping afterwards are `Model#save()`'s: the changed attributes (or
 * `fields`), nothing when nothing changed. Left to Sequelize (`compiledUpdate()` answers false
 * without writing): a missing primary key value, a changed auto-increment primary key, SQL
 * expressions as values, nothing to SET.
 */
import { runStatement } from './statementRunner';
import { binder, formatForWrite, rememberStatement, isSqlExpression, markSaved, validateLikeSequelize, type WritableInstance, type WriteAttribute, type WritePlan } from './writePlan';

/** Update the row of `instance`; false when the fast path does not apply (nothing written). */
export async function compiledUpdate(plan: WritePlan, instance: WritableInstance, fields: string[] | undefined, transaction: unknown): Promise<boolean> {
  const primaryKey = plan.primaryKey;
  if (!primaryKey) return false;
  const data = instance.dataValues;
  const pkValue = data[primaryKey.name];
  if (pkValue === undefined || isSqlExpression(pkValue)) return false;
  const changed = instance.changed();
  const names = fields ?? (changed ? changed.filter((name) => plan.byName.has(name)) : []);
  const listed: WriteAttribute[] = [];
  for (const name of names) {
    const attribute = plan.byName.get(name);
    // A `fields` entry that is no attribute: Sequelize writes it as a column (and fails) — its way.
    if (!attribute) return false;
    listed.push(attribute);
  }
  const written: WriteAttribute[] = [];
  let key = '';
  for (const attribute of listed) {
    const value = data[attribute.name];
    if (attribute.virtual || value === undefined) continue;
    if (isSqlExpression(value)) return false;
    if (attribute.autoIncrement && !plan.updatesAutoIncrement) return false;
    written.push(attribute);
    key += `${attribute.name},`;
  }
  if (!listed.some((attribute) => !attribute.virtual) || !changed) {
    // `save()` validates, then returns without writing or marking anything.
    await validateLikeSequelize(plan, instance, listed, names);
    return true;
  }
  if (!written.length) return false;
  await validateLikeSequelize(plan, instance, listed, names);
  const params: unknown[] = [];
  const bind = binder(params);
  const assignments: string[] = [];
  let plain = true;
  for (const attribute of written) {
    const fragment = formatForWrite(plan, attribute, data[attribute.name], 'UPDATE', bind);
    if (fragment !== `$${params.length}`) plain = false;
    assignments.push(`${attribute.column}=${fragment}`);
  }
  // Sequelize's `where(true)` condition binds the primary key value as it is.
  const where = bind(pkValue);
  let sql = plain ? plan.statements.get(`u${key}`) : undefined;
  if (sql === undefined) {
    sql = `UPDATE ${plan.table} SET ${assignments.join(',')} WHERE ${primaryKey.column} = ${where}`;
    if (plain) rememberStatement(plan, `u${key}`, sql);
  }
  await runStatement(plan.model.sequelize!, sql, params, { type: 'UPDATE', transaction, model: plan.model, instance });
  markSaved(instance, names);
  return true;
}
