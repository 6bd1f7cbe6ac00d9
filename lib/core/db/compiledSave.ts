/**
 * `BaseModel#save()`'s write without Sequelize's per-call machinery: a new instance is
 * INSERTed (compiledInsert.ts), a saved one UPDATEd (compiledUpdate.ts), both with statements
 * compiled once per model and column set and every value bound. Falls back to Sequelize's
 * `save()` (answers false) for models with timestamps or a version attribute, when save hooks
 * exist, for instances built with `include`, and for options other than `fields` (updates
 * only) and `transaction`.
 */
import type { Model, ModelCtor } from 'sequelize-typescript';
import type { SaveOptions } from 'sequelize';
import { compiledInsert } from './compiledInsert';
import { compiledUpdate } from './compiledUpdate';
import { writable, writeHooksOf, writePlanFor } from './writePlan';

/** Save `instance` through a compiled statement; false when Sequelize must do it (nothing was written). */
export function compiledSave(model: ModelCtor, instance: Model, options?: SaveOptions): Promise<boolean> {
  // Not `async`: the statement's own promise is the answer (an async function returning it
  // would add steps); errors raised before it reject, as from an async function.
  try {
    return compiledSaveNow(model, instance, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

const NOT_WRITTEN: Promise<boolean> = Promise.resolve(false);

function compiledSaveNow(model: ModelCtor, instance: Model, options?: SaveOptions): Promise<boolean> {
  let fields: string[] | undefined;
  let transaction: unknown;
  if (options !== undefined && options !== null) {
    for (const key of Object.keys(options)) {
      const value = (options as Record<string, unknown>)[key];
      if (value === undefined) continue;
      if (key === 'fields' && Array.isArray(value)) fields = value as string[];
      else if (key === 'transaction') transaction = value;
      else return NOT_WRITTEN;
    }
  }
  const plan = writePlanFor(model);
  if (!plan || writeHooksOf(plan)) return NOT_WRITTEN;
  const target = writable(instance);
  if (target._options.include?.length) return NOT_WRITTEN;
  if (target.isNewRecord) return fields ? NOT_WRITTEN : compiledInsert(plan, target, transaction);
  return compiledUpdate(plan, target, fields, transaction);
}
