/**
 * How a migration describes a field: a plain, serialisable object (Django's deconstructed
 * field). Migration files hold these literally, the project state is made of them, and the
 * autodetector compares the ones replayed from history with the ones read from the models.
 *
 *     ['title', { type: 'CharField', maxLength: 100, blank: true, default: '' }]
 *     ['owner', { type: 'ForeignKey', to: 'auth.User', onDelete: 'CASCADE', relatedName: 'snippets' }]
 */

/** The field classes migrations can express. */
export const FIELD_TYPES = [
  'AutoField',
  'BigAutoField',
  'CharField',
  'EmailField',
  'SlugField',
  'URLField',
  'TextField',
  'IntegerField',
  'SmallIntegerField',
  'BigIntegerField',
  'PositiveIntegerField',
  'BooleanField',
  'DateTimeField',
  'DateField',
  'TimeField',
  'DecimalField',
  'FloatField',
  'UUIDField',
  'JSONField',
  'BinaryField',
  'ForeignKey',
  'OneToOneField',
  'ManyToManyField',
] as const;

/** One of `FIELD_TYPES`. */
export type FieldType = (typeof FIELD_TYPES)[number];

/** What happens to rows pointing at a deleted row (Django's `on_delete`; enforced by the ORM). */
export type OnDelete = 'CASCADE' | 'SET NULL' | 'PROTECT' | 'RESTRICT' | 'SET DEFAULT' | 'NO ACTION';

/** "The current time" as a default (`DataType.NOW`, Django's `timezone.now`). */
export const NOW: { readonly $now: true } = Object.freeze({ $now: true as const });

/** A JSON value, or `NOW`. */
export type DefaultValue = string | number | boolean | null | readonly DefaultValue[] | { readonly [key: string]: DefaultValue } | typeof NOW;

/** A field as a migration states it. Options left out take Django's defaults. */
export interface FieldSpec {
  type: FieldType;
  /** The database column when it is not the default (the name, or `<name>_id` for a ForeignKey). */
  column?: string;
  primaryKey?: boolean;
  /** Django's `null` (the column accepts NULL). */
  null?: boolean;
  blank?: boolean;
  default?: DefaultValue;
  unique?: boolean;
  /** An index on the column (foreign keys always get one). */
  dbIndex?: boolean;
  choices?: ReadonlyArray<readonly [DefaultValue, string] | readonly [string, ReadonlyArray<readonly [DefaultValue, string]>]>;
  maxLength?: number;
  maxDigits?: number;
  decimalPlaces?: number;
  autoNow?: boolean;
  autoNowAdd?: boolean;
  /** ForeignKey / ManyToManyField: the target model, `app_label.ModelName`. */
  to?: string;
  onDelete?: OnDelete;
  relatedName?: string;
  /** ManyToManyField with its own model: `app_label.ModelName`. */
  through?: string;
  /** ManyToManyField without `through`: the join table the field creates. */
  dbTable?: string;
  /** ManyToManyField without `through`: the join table's columns (this side, the target side). */
  columns?: readonly [string, string];
}

/** A field with its name, in declaration order (`['title', { type: 'CharField', ... }]`). */
export type NamedField = readonly [string, FieldSpec];

const RELATIONS: ReadonlySet<FieldType> = new Set(['ForeignKey', 'OneToOneField']);

/** True for ForeignKey and OneToOneField (a column pointing at another table). */
export function isForeignKey(spec: FieldSpec): boolean {
  return RELATIONS.has(spec.type);
}

/** True for a many-to-many field (no column: a join table). */
export function isManyToMany(spec: FieldSpec): boolean {
  return spec.type === 'ManyToManyField';
}

/** The database column of a field (none for many-to-many). */
export function columnOf(name: string, spec: FieldSpec): string {
  return spec.column ?? (isForeignKey(spec) ? `${name}_id` : name);
}

/** True for a OneToOneField or a unique column (primary keys included). */
export function isUnique(spec: FieldSpec): boolean {
  return Boolean(spec.unique || spec.primaryKey || spec.type === 'OneToOneField');
}

/** True when the column gets a plain index (Django: `db_index`, foreign keys), a unique one excluded. */
export function isIndexed(spec: FieldSpec): boolean {
  return !isUnique(spec) && Boolean(spec.dbIndex ?? isForeignKey(spec));
}

/** True when the value is the `NOW` marker (also after a JSON round trip). */
export function isNow(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { $now?: unknown }).$now === true;
}

/** The value a new column gets in existing rows (Django's `effective_default`). */
export function effectiveDefault(spec: FieldSpec): { value: unknown } | null {
  if (spec.default !== undefined) return { value: isNow(spec.default) ? new Date() : jsonValue(spec) };
  if (spec.autoNow || spec.autoNowAdd) return { value: new Date() };
  if (spec.null || isManyToMany(spec)) return null;
  switch (spec.type) {
    case 'CharField':
    case 'EmailField':
    case 'SlugField':
    case 'URLField':
    case 'TextField':
      return { value: '' };
    case 'BinaryField':
      return { value: Buffer.alloc(0) };
    default:
      return null;
  }
}

function jsonValue(spec: FieldSpec): unknown {
  const value = spec.default;
  if (spec.type === 'JSONField' || (typeof value === 'object' && value !== null)) return JSON.stringify(value);
  return value;
}

/** A canonical copy: keys sorted, options equal to their defaults removed (for comparisons). */
export function normalizeSpec(spec: FieldSpec): FieldSpec {
  const entries = Object.entries(spec).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined && value !== false)) as FieldSpec;
}

/** True when two specs describe the same field (ignoring key order and false/undefined options). */
export function sameSpec(a: FieldSpec, b: FieldSpec): boolean {
  return stableStringify(normalizeSpec(a)) === stableStringify(normalizeSpec(b));
}

/** JSON with object keys sorted: equal values give equal strings. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
