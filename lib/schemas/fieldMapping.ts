/**
 * The pieces `AutoSchema.mapField()` is built from: JSON Schema 2020-12 for choices, decimals,
 * model columns and primary keys, the keywords a field's validators imply, and `null` added the
 * 3.1 way (`type: ["string", "null"]`). Each is a plain function so custom inspectors can reuse
 * them.
 */
import type { AnyModelClass, FieldInfo } from '../core/db/fieldInfo';
import { getFieldInfo } from '../core/db/fieldInfo';
import { empty, type Field } from '../fields';
import {
  EmailValidator, MaxLengthValidator, MaxValueValidator, MinLengthValidator, MinValueValidator, RegexValidator, URLValidator,
} from '../validators';
import type { SchemaObject } from './types';

/** The largest integer a signed 32-bit column holds; larger limits get `format: int64`. */
export const INT32_MAX = 2147483647;

/** The JSON Schema type shared by every value, or null when they mix types. */
export function commonType(values: readonly unknown[]): string | null {
  if (values.length === 0) return null;
  if (values.every((value) => typeof value === 'boolean')) return 'boolean';
  if (values.every((value) => typeof value === 'number' && Number.isInteger(value))) return 'integer';
  if (values.every((value) => typeof value === 'number')) return 'number';
  if (values.every((value) => typeof value === 'string')) return 'string';
  return null;
}

/** `{ enum, type }` for a choice field's values (order kept, duplicates dropped). */
export function choicesSchema(values: Iterable<unknown>): SchemaObject {
  const unique = [...new Set(values)].map(jsonValue);
  const schema: SchemaObject = { enum: unique };
  const type = commonType(unique);
  if (type) schema.type = type;
  return schema;
}

/**
 * A decimal: a string with a pattern bounding the whole and fractional digits when the field
 * answers strings (`COERCE_DECIMAL_TO_STRING`), else a number with `multipleOf` and bounds.
 */
export function decimalSchema(
  field: { maxWholeDigits: number | null; decimalPlaces: number | null; maxValue: unknown; minValue: unknown },
  asString: boolean,
): SchemaObject {
  const places = field.decimalPlaces;
  const whole = field.maxWholeDigits;
  if (asString) {
    const wholePart = whole === null ? '\\d+' : whole === 0 ? '0?' : `\\d{0,${whole}}`;
    const fraction = places === null ? '(?:\\.\\d*)?' : places === 0 ? '' : `(?:\\.\\d{0,${places}})?`;
    return { type: 'string', format: 'decimal', pattern: `^-?${wholePart}${fraction}$` };
  }
  const schema: SchemaObject = { type: 'number' };
  if (places) schema.multipleOf = Number(`1e-${places}`);
  if (whole !== null) {
    schema.exclusiveMaximum = 10 ** whole;
    schema.exclusiveMinimum = -(10 ** whole);
  }
  if (field.maxValue !== null && field.maxValue !== undefined) schema.maximum = Number(field.maxValue);
  if (field.minValue !== null && field.minValue !== undefined) schema.minimum = Number(field.minValue);
  return schema;
}

/** The schema of a model column, from its host-framework field class (used for primary keys and read-only sources). */
export function modelFieldSchema(info: FieldInfo): SchemaObject {
  let schema: SchemaObject;
  switch (info.fieldType) {
    case 'AutoField': case 'BigAutoField': case 'SmallAutoField':
    case 'IntegerField': case 'BigIntegerField': case 'SmallIntegerField':
    case 'PositiveIntegerField': case 'PositiveSmallIntegerField': case 'PositiveBigIntegerField':
      schema = { type: 'integer' };
      if (info.fieldType.startsWith('Big') || info.fieldType === 'PositiveBigIntegerField') schema.format = 'int64';
      break;
    case 'BooleanField': case 'NullBooleanField': schema = { type: 'boolean' }; break;
    case 'FloatField': schema = { type: 'number' }; break;
    case 'DecimalField':
      schema = decimalSchema({
        maxWholeDigits: info.maxDigits !== null && info.decimalPlaces !== null ? info.maxDigits - info.decimalPlaces : null,
        decimalPlaces: info.decimalPlaces, maxValue: null, minValue: null,
      }, true);
      break;
    case 'DateTimeField': schema = { type: 'string', format: 'date-time' }; break;
    case 'DateField': schema = { type: 'string', format: 'date' }; break;
    case 'TimeField': schema = { type: 'string', format: 'time' }; break;
    case 'UUIDField': schema = { type: 'string', format: 'uuid' }; break;
    case 'EmailField': schema = { type: 'string', format: 'email' }; break;
    case 'URLField': schema = { type: 'string', format: 'uri' }; break;
    case 'GenericIPAddressField': schema = { type: 'string' }; break;
    case 'JSONField': schema = {}; break;
    default: {
      const byType: Record<string, SchemaObject> = {
        INTEGER: { type: 'integer' }, BIGINT: { type: 'integer', format: 'int64' }, SMALLINT: { type: 'integer' },
        TINYINT: { type: 'integer' }, MEDIUMINT: { type: 'integer' }, BOOLEAN: { type: 'boolean' },
        FLOAT: { type: 'number' }, DOUBLE: { type: 'number' }, REAL: { type: 'number' },
        UUID: { type: 'string', format: 'uuid' }, UUIDV4: { type: 'string', format: 'uuid' },
      };
      schema = { ...(byType[info.type] ?? { type: 'string' }) };
    }
  }
  if (schema.type === 'string' && info.maxLength !== null && !schema.format) schema.maxLength = info.maxLength;
  if (info.choices) schema = { ...schema, ...choicesSchema(info.choices.flatMap(([value, label]) => (Array.isArray(label) ? label.map(([v]) => v as unknown) : [value]))) };
  return schema;
}

/** The schema of a model's primary key (`{type: integer}` for the usual auto field). */
export function primaryKeySchema(model: AnyModelClass): SchemaObject {
  const schema = modelFieldSchema(getFieldInfo(model).pk);
  delete schema.maxLength;
  return schema;
}

/**
 * The model column a dotted source reaches (`owner.username` from a snippet: the user's
 * `username`), following forward relations; undefined when the path leaves the model's
 * columns (a method, a property, a reverse relation).
 */
export function resolveModelField(model: AnyModelClass, sourceAttrs: readonly string[]): FieldInfo | undefined {
  let current: AnyModelClass = model;
  for (let i = 0; i < sourceAttrs.length; i++) {
    const info = getFieldInfo(current);
    const name = sourceAttrs[i];
    if (i === sourceAttrs.length - 1) return info.getField(name);
    const relation = info.getRelation(name);
    if (!relation || relation.many) return undefined;
    current = relation.target;
  }
  return undefined;
}

/** A value as JSON would carry it: numbers, strings, booleans, null, arrays and plain objects. */
export function jsonValue(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map) return Object.fromEntries([...value.entries()].map(([k, v]) => [String(k), jsonValue(v)]));
  if (typeof value === 'object' && value !== undefined && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonValue(v)]));
  }
  return String(value);
}

/** The field's static default as a JSON value, or `undefined` when it has none (or a callable one). */
export function staticDefault(field: Field): unknown {
  const value = field.default;
  if (value === empty || value === undefined || typeof value === 'function') return undefined;
  if (typeof value === 'object' && value !== null && typeof (value as { requiresContext?: unknown }).requiresContext === 'boolean') return undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  return jsonValue(value);
}

/**
 * Add the keywords the field's validators imply: `format` for email/URL validators, `pattern`
 * for regex validators, `minLength`/`maxLength` (`minItems`/`maxItems` for arrays) and
 * `minimum`/`maximum`. Keywords the mapping already set from the field itself are kept.
 */
export function applyValidators(validators: readonly unknown[], schema: SchemaObject): void {
  const isArray = schema.type === 'array';
  const isNumber = schema.type === 'integer' || schema.type === 'number';
  const isString = schema.type === 'string';
  // A schema that already lists its alternatives (a blank-allowed email: format or '') keeps them.
  const formatFree = isString && schema.anyOf === undefined;
  for (const validator of validators) {
    if (validator instanceof EmailValidator) { if (formatFree) schema.format ??= 'email'; }
    else if (validator instanceof URLValidator) { if (formatFree) schema.format ??= 'uri'; }
    else if (validator instanceof RegexValidator && isString && !validator.inverseMatch) schema.pattern ??= validator.regex.source;
    else if (validator instanceof MaxLengthValidator && (isString || isArray)) schema[isArray ? 'maxItems' : 'maxLength'] ??= validator.limitValue;
    else if (validator instanceof MinLengthValidator && (isString || isArray)) schema[isArray ? 'minItems' : 'minLength'] ??= validator.limitValue;
    else if (validator instanceof MaxValueValidator && isNumber) schema.maximum ??= validator.limitValue;
    else if (validator instanceof MinValueValidator && isNumber) schema.minimum ??= validator.limitValue;
  }
}

/**
 * `schema` that also accepts null, the JSON Schema 2020-12 way: `"null"` joins the type (and
 * the enum), and a `$ref` becomes `oneOf: [{$ref}, {type: "null"}]`. A schema without a type
 * already accepts null.
 */
export function nullable(schema: SchemaObject): SchemaObject {
  if (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    return { ...rest, oneOf: [{ $ref }, { type: 'null' }] };
  }
  const out: SchemaObject = { ...schema };
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...(out.type as string[]), 'null'];
  return out;
}
