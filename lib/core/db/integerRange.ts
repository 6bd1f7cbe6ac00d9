/**
 * The values an integer column can hold, as Django's `connection.ops.integer_field_range()`
 * reports them: lookups outside it match nothing (no overflow reaches SQL) and ModelSerializer
 * gives integer fields the range as `minValue` / `maxValue`.
 */
import type { FieldInfo } from './fieldInfo';

/** Inclusive bounds, exact (a BIGINT's do not fit a double). */
export interface IntegerRange {
  min: bigint;
  max: bigint;
}

const SIGNED: Record<string, IntegerRange> = {
  TINYINT: { min: -128n, max: 127n },
  SMALLINT: { min: -32768n, max: 32767n },
  MEDIUMINT: { min: -8388608n, max: 8388607n },
  INTEGER: { min: -2147483648n, max: 2147483647n },
  BIGINT: { min: -9223372036854775808n, max: 9223372036854775807n },
};

/** Django's positive fields: unsigned columns on MySQL, CHECK (>= 0) with the signed maximum elsewhere. */
const POSITIVE_MAX: Record<string, { mysql: bigint; other: bigint }> = {
  PositiveSmallIntegerField: { mysql: 65535n, other: 32767n },
  PositiveIntegerField: { mysql: 4294967295n, other: 2147483647n },
  PositiveBigIntegerField: { mysql: 18446744073709551615n, other: 9223372036854775807n },
};

/** The range of an integer column (null for other types). */
export function integerRange(field: Pick<FieldInfo, 'type' | 'fieldType'>, vendor: 'sqlite' | 'mysql'): IntegerRange | null {
  const positive = POSITIVE_MAX[field.fieldType];
  if (positive) return { min: 0n, max: vendor === 'mysql' ? positive.mysql : positive.other };
  return SIGNED[field.type] ?? null;
}
