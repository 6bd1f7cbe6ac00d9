/**
 * The INSERT of `save()` on a new instance, written by the framework: the statement text is
 * compiled once per model and set of columns present, the values are converted by Sequelize's
 * own `format()` and bound, and the statement runs on the driver (statementRunner.ts: the
 * current `atomic()` transaction or the primary, errors such as `UniqueConstraintError` mapped
 * as Sequelize maps them); the auto-increment primary key is set from SQLite's `lastID` /
 * MySQL's `insertId` as Sequelize's `handleInsertQuery` sets it. Then the instance is marked
 * saved exactly as `Model#save()` marks it.
 * What `save()` would do besides (hooks, nested includes, SQL expressions as values, an empty
 * INSERT) is left to Sequelize: `compiledInsert()` answers false without writing.
 */
import { runStatement } from './statementRunner';
import { binder, formatForWrite, rememberStatement, isSqlExpression, markSaved, validateLikeSequelize, type WritableInstance, type WriteAttribute, type WritePlan } from './writePlan';

/**
 * Insert `instance` (new, defaults already applied by `build()`); false when the fast path
 * does not apply (nothing was written, nothing changed on the instance).
 */
export async function compiledInsert(plan: WritePlan, instance: WritableInstance, transaction: unknown): Promise<boolean> {
  const data = instance.dataValues;
  const present: WriteAttribute[] = [];
  let key = '';
  for (let i = 0; i < plan.attributes.length; i++) {
    const attribute = plan.attributes[i];
    const value = data[attribute.name];
    if (attribute.virtual || value === undefined) continue;
    if (isSqlExpression(value)) return false;
    // Sequelize leaves out (or writes DEFAULT/NULL for) an auto-increment column without a value.
    if (attribute.autoIncrement && value === null && plan.autoIncrementNull === null) continue;
    present.push(attribute);
    key += attribute.autoIncrement && value === null ? `${i}n,` : `${i},`;
  }
  if (!present.length) return false;
  await validateLikeSequelize(plan, instance, plan.attributes);
  const params: unknown[] = [];
  const bind = binder(params);
  const fragments: string[] = [];
  let plain = true;
  for (const attribute of present) {
    const value = data[attribute.name];
    if (attribute.autoIncrement && value === null) {
      fragments.push(plan.autoIncrementNull as string);
      continue;
    }
    const fragment = formatForWrite(plan, attribute, value, 'INSERT', bind);
    if (fragment !== `$${params.length}`) plain = false;
    fragments.push(fragment);
  }
  // A type whose bound form is more than a placeholder (GEOMETRY's ST_GeomFromText($1)) gets its own text.
  let sql = plain ? plan.statements.get(`i${key}`) : undefined;
  if (sql === undefined) {
    sql = `INSERT INTO ${plan.table} (${present.map((attribute) => attribute.column).join(',')}) VALUES (${fragments.join(',')});`;
    if (plain) rememberStatement(plan, `i${key}`, sql);
  }
  const { model } = plan;
  const result = await runStatement(model.sequelize!, sql, params, { type: 'INSERT', transaction, model, instance });
  // Sequelize's `handleInsertQuery`: the new id (MySQL: `insertId || undefined`; SQLite: `lastID`)
  // goes to the auto-increment attribute (to an `undefined` key when the model has none).
  const id = model.sequelize!.getDialect() === 'sqlite' ? result.insertId : result.insertId || undefined;
  (instance as unknown as Record<string, unknown>)[String((model as unknown as { autoIncrementAttribute?: string }).autoIncrementAttribute)] = id;
  markSaved(instance, plan.names);
  return true;
}
