/**
 * Statements the framework writes itself (QuerySet `update()` / `delete()`): column values
 * converted the way Sequelize stores them, sent as bound parameters on the driver
 * (statementRunner.ts), in the current `atomic()` transaction, on the primary.
 */
import type { QueryTypes } from 'sequelize';
import type { ModelCtor } from 'sequelize-typescript';
import type { FieldInfo } from './fieldInfo';
import { ensureModel, formatDbDatetime } from './connection';
import { runStatement } from './statementRunner';

function pkOf(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !(value instanceof Date) && !Buffer.isBuffer(value) && 'pk' in value) {
    return (value as { pk: unknown }).pk;
  }
  return value;
}

/** `value` as column `field` stores it (dates as Django's UTC text, booleans 1/0, JSON as text). */
export function columnValue(field: FieldInfo, raw: unknown): unknown {
  const value = field.relation ? pkOf(raw) : raw;
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'DATE': {
      const date = value instanceof Date ? value : new Date(value as string);
      return Number.isNaN(date.getTime()) ? value : formatDbDatetime(date);
    }
    case 'DATEONLY':
      return value instanceof Date ? value.toISOString().slice(0, 10) : value;
    case 'BOOLEAN':
      if (typeof value === 'string') return ['false', 'f', '0', ''].includes(value.toLowerCase()) ? 0 : 1;
      return value ? 1 : 0;
    case 'JSON':
    case 'JSONB':
      return JSON.stringify(value);
    default:
      return typeof value === 'bigint' ? value.toString() : value;
  }
}

/** Run an UPDATE / DELETE the framework built; returns the number of rows it matched. */
export async function runBulkWrite(
  model: ModelCtor,
  sql: string,
  params: unknown[],
  type: typeof QueryTypes.BULKUPDATE | typeof QueryTypes.BULKDELETE,
): Promise<number> {
  const { sequelize } = ensureModel(model);
  const result = await runStatement(sequelize, sql, params, { type: type === 'BULKUPDATE' ? 'BULKUPDATE' : 'BULKDELETE' });
  return Number(result.changes);
}
