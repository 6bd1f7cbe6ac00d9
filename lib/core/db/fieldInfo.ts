/**
 * Field metadata beyond Sequelize's: Django's `blank`, `choices`, `help_text`,
 * `verbose_name`, `editable`, `auto_now_add` ... declared with `field()` on `@Column` and
 * read back (with relations) by `getFieldInfo(model)`, which `ModelSerializer` uses.
 *
 *     @Column(field({ type: DataType.STRING(100), blank: true, default: '' }))
 *     declare title: string;
 *     @ForeignKey(() => User) @Column(field({ type: DataType.INTEGER }))
 *     declare owner_id: number;
 *     @BelongsTo(() => User, relation({ foreignKey: 'owner_id', relatedName: 'snippets', onDelete: 'CASCADE' }))
 *     declare owner?: User;
 */
import { DataTypes, type ModelAttributeColumnOptions, type BelongsToOptions, type BelongsToManyOptions, type DataType } from 'sequelize';
import type { BelongsToManyOptions as DecoratorBelongsToManyOptions, ModelCtor } from 'sequelize-typescript';
import { ensureModel, onModelsBound, bindGeneration } from './connection';

/** Django choices: `[value, label]` pairs, or groups `[groupLabel, [[value, label], ...]]`. */
export type Choices = ReadonlyArray<readonly [unknown, string] | readonly [string, ReadonlyArray<readonly [unknown, string]>]>;

/** Django's field options that Sequelize has no slot for. */
export interface DjangoFieldOptions {
  /** Empty values are allowed in forms/serializers (Django `blank`). */
  blank?: boolean;
  choices?: Choices;
  helpText?: string;
  verboseName?: string;
  /** False for fields serializers must treat as read-only. */
  editable?: boolean;
  /** Set to "now" when the row is inserted (implies `editable: false`, `blank: true`). */
  autoNowAdd?: boolean;
  /** Set to "now" on every save (implies `editable: false`, `blank: true`). */
  autoNow?: boolean;
  /** The Django field class to report (`EmailField`, `SlugField`, `URLField`...); derived from the type otherwise. */
  fieldType?: string;
  /** Django's `db_index`: `makemigrations` gives the column an index. */
  dbIndex?: boolean;
  /** Django's `default` (alias of Sequelize's `defaultValue`). */
  default?: unknown;
  /** Django's `error_messages`; serializers report `unique` for a duplicate value. */
  errorMessages?: { unique?: string; [code: string]: string | undefined };
  /**
   * Django's `validators`: objects with `validate(value)` (or functions) throwing a
   * `ValidationError` with `message` and `code`; serializers generated from the model run them.
   */
  validators?: readonly unknown[];
  /** Django's `unique_for_date` / `_month` / `_year`: unique per period of the named date field. */
  uniqueForDate?: string;
  uniqueForMonth?: string;
  uniqueForYear?: string;
}

/** Options accepted by `field()`: Sequelize column options plus Django's. */
export type FieldOptions = Partial<ModelAttributeColumnOptions> & DjangoFieldOptions & { type: DataType };

/**
 * Column options for `@Column(...)` with Django's extras. Unlike plain Sequelize,
 * `allowNull` defaults to false (Django's `null=False`).
 */
export function field(options: FieldOptions): Partial<ModelAttributeColumnOptions> {
  const { default: djangoDefault, ...rest } = options;
  const column: Partial<ModelAttributeColumnOptions> & DjangoFieldOptions = { allowNull: false, ...rest };
  if (djangoDefault !== undefined && column.defaultValue === undefined) column.defaultValue = djangoDefault;
  // Django keeps microseconds (MySQL datetime(6)); Sequelize drops fractions for a bare DATE.
  if (typeKey(options.type) === 'DATE' && typeOption(options.type, 'length') === null) column.type = DataTypes.DATE(6);
  if (options.autoNowAdd || options.autoNow) {
    column.editable = options.editable ?? false;
    column.blank = options.blank ?? true;
  }
  return column;
}

/** Association options with Django's `related_name` (use `'+'` for no reverse relation). */
export type RelationOptions = BelongsToOptions & BelongsToManyOptions & DjangoFieldOptions & { relatedName?: string };

/** `@BelongsToMany` options (`through` required, a model getter allowed) with `relatedName` and Django's extras. */
export type ManyToManyRelationOptions = DecoratorBelongsToManyOptions<object, object> & DjangoFieldOptions & { relatedName?: string };

/** `@BelongsTo` options with `relatedName` and Django's extras. */
export type ToOneRelationOptions = BelongsToOptions & DjangoFieldOptions & { relatedName?: string };

/**
 * Options for `@BelongsTo` / `@BelongsToMany` carrying `relatedName` and Django's extras:
 * `@BelongsToMany(() => Tag, relation({ through: () => BookTag, foreignKey: 'book_id', otherKey: 'tag_id', relatedName: 'books' }))`.
 */
export function relation<O extends ManyToManyRelationOptions>(options: O): O;
export function relation<O extends ToOneRelationOptions>(options: O): O & BelongsToOptions;
export function relation(options: ToOneRelationOptions | ManyToManyRelationOptions): ToOneRelationOptions | ManyToManyRelationOptions {
  return options;
}

/** What `getFieldInfo` reports about one concrete column. */
export interface FieldInfo {
  /** Attribute (= Django field) name. */
  name: string;
  column: string;
  /** Sequelize type key: `STRING`, `INTEGER`, `DATE`, ... */
  type: string;
  /** Django field class name: `CharField`, `AutoField`, `DateTimeField`, `ForeignKey`, ... */
  fieldType: string;
  primaryKey: boolean;
  autoIncrement: boolean;
  allowNull: boolean;
  blank: boolean;
  default: unknown;
  hasDefault: boolean;
  maxLength: number | null;
  choices: Choices | null;
  unique: boolean;
  editable: boolean;
  helpText: string;
  verboseName: string;
  maxDigits: number | null;
  decimalPlaces: number | null;
  autoNowAdd: boolean;
  autoNow: boolean;
  /** The date field this value is unique per day / month / year of (Django `unique_for_*`). */
  uniqueForDate: string | null;
  uniqueForMonth: string | null;
  uniqueForYear: string | null;
  /** For a foreign-key column (`owner_id`), the name of its belongsTo relation (`owner`). */
  relation: string | null;
}

/** Relation kinds, as Sequelize names them. */
export type RelationKind = 'belongsTo' | 'hasMany' | 'belongsToMany' | 'hasOne';

/** What `getFieldInfo` reports about one relation (forward or reverse). */
export interface RelationInfo {
  /** Attribute/include alias (`owner`, `groups`, `snippets`, `snippet_set`). */
  name: string;
  /** Name used in lookups (`snippets__title`; Django's related_query_name). */
  queryName: string;
  kind: RelationKind;
  /** True for relations declared on the other model (reverse accessors). */
  reverse: boolean;
  /** True when the relation yields a list. */
  many: boolean;
  target: ModelCtor;
  /** belongsTo: the FK attribute on this model; hasMany/hasOne: on the target; belongsToMany: the through column pointing at this model. */
  foreignKey: string;
  /** belongsToMany: the through column pointing at the target. */
  otherKey: string | null;
  /** belongsTo: the target attribute referenced (its pk); hasMany: this model's attribute referenced. */
  targetKey: string;
  sourceKey: string;
  /** The reverse accessor name on the target (Django related_name), if any. */
  relatedName: string | null;
  through: ModelCtor | null;
  throughTable: string | null;
  allowNull: boolean;
  blank: boolean;
  editable: boolean;
  helpText: string;
  verboseName: string;
}

/** A model's fields and relations, in declaration order. Cached per class. */
export interface ModelInfo {
  model: ModelCtor;
  pk: FieldInfo;
  fields: FieldInfo[];
  relations: RelationInfo[];
  /** A concrete field by attribute name (`owner_id`) or `pk`. */
  getField(name: string): FieldInfo | undefined;
  /** A relation by alias or query name. */
  getRelation(name: string): RelationInfo | undefined;
  /** Every name usable in lookups, sorted (for `FieldError` messages). */
  lookupNames: string[];
}

interface RawAttribute extends Partial<ModelAttributeColumnOptions>, DjangoFieldOptions {
  fieldName?: string;
  field?: string;
  type: DataType;
}

interface RawAssociation {
  associationType: 'BelongsTo' | 'HasMany' | 'HasOne' | 'BelongsToMany';
  as: string;
  target: ModelCtor;
  source: ModelCtor;
  foreignKey: string;
  otherKey?: string;
  targetKey?: string;
  sourceKey?: string;
  through?: { model: ModelCtor };
  options: Partial<RelationOptions> & { reverseOf?: RawAssociation; queryName?: string };
}

const TYPE_FIELDS: Record<string, string> = {
  STRING: 'CharField', CHAR: 'CharField', CITEXT: 'CharField', TEXT: 'TextField',
  INTEGER: 'IntegerField', MEDIUMINT: 'IntegerField', TINYINT: 'SmallIntegerField', SMALLINT: 'SmallIntegerField',
  BIGINT: 'BigIntegerField', BOOLEAN: 'BooleanField', DATE: 'DateTimeField', DATEONLY: 'DateField',
  TIME: 'TimeField', DECIMAL: 'DecimalField', FLOAT: 'FloatField', REAL: 'FloatField', DOUBLE: 'FloatField',
  UUID: 'UUIDField', UUIDV4: 'UUIDField', JSON: 'JSONField', JSONB: 'JSONField', BLOB: 'BinaryField',
};

function typeKey(type: DataType): string {
  if (typeof type === 'string') return type.replace(/\(.*$/, '').toUpperCase();
  return (type as { key?: string }).key ?? 'ABSTRACT';
}

function typeOption(type: DataType, name: string): number | null {
  const options = (type as { options?: Record<string, unknown> }).options;
  const value = options?.[name];
  return typeof value === 'number' ? value : null;
}

function modelMeta(model: ModelCtor): { defaultRelatedName?: string } {
  return (model as ModelCtor & { meta?: { defaultRelatedName?: string } }).meta ?? {};
}

function defaultVerbose(name: string): string {
  return name.replace(/_id$/, '').replace(/_/g, ' ');
}

/** Flatten (possibly grouped) choices to `[value, label]` pairs. */
export function flattenChoices(choices: Choices): Array<[unknown, string]> {
  const flat: Array<[unknown, string]> = [];
  for (const [value, label] of choices) {
    if (Array.isArray(label)) for (const [v, l] of label as ReadonlyArray<readonly [unknown, string]>) flat.push([v, l]);
    else flat.push([value, label as string]);
  }
  return flat;
}

function buildFieldInfo(name: string, raw: RawAttribute, relationName: string | null): FieldInfo {
  const key = typeKey(raw.type);
  const autoIncrement = Boolean(raw.autoIncrement);
  let fieldType = raw.fieldType ?? TYPE_FIELDS[key] ?? 'Field';
  if (!raw.fieldType && autoIncrement && raw.primaryKey) fieldType = key === 'BIGINT' ? 'BigAutoField' : 'AutoField';
  if (relationName) fieldType = 'ForeignKey';
  const hasDefault = raw.defaultValue !== undefined || Boolean(raw.autoNowAdd || raw.autoNow);
  return {
    name,
    column: raw.field ?? name,
    type: key,
    fieldType,
    primaryKey: Boolean(raw.primaryKey),
    autoIncrement,
    allowNull: raw.allowNull !== false && !raw.primaryKey,
    blank: Boolean(raw.blank),
    default: raw.defaultValue,
    hasDefault,
    maxLength: key === 'STRING' || key === 'CHAR' ? typeOption(raw.type, 'length') ?? 255 : null,
    choices: raw.choices ?? null,
    unique: Boolean(raw.unique) || Boolean(raw.primaryKey),
    editable: raw.editable !== false,
    helpText: raw.helpText ?? '',
    verboseName: raw.verboseName ?? defaultVerbose(name),
    maxDigits: key === 'DECIMAL' ? typeOption(raw.type, 'precision') : null,
    decimalPlaces: key === 'DECIMAL' ? typeOption(raw.type, 'scale') : null,
    autoNowAdd: Boolean(raw.autoNowAdd),
    autoNow: Boolean(raw.autoNow),
    uniqueForDate: raw.uniqueForDate ?? null,
    uniqueForMonth: raw.uniqueForMonth ?? null,
    uniqueForYear: raw.uniqueForYear ?? null,
    relation: relationName,
  };
}

function relatedNameOf(association: RawAssociation): string | null {
  const explicit = association.options.relatedName ?? modelMeta(association.source).defaultRelatedName;
  return explicit ?? null;
}

function buildRelationInfo(model: ModelCtor, association: RawAssociation, attributes: Record<string, RawAttribute>): RelationInfo {
  const kind = (association.associationType.charAt(0).toLowerCase() + association.associationType.slice(1)) as RelationKind;
  const reverseOf = association.options.reverseOf;
  const fkAttribute = kind === 'belongsTo' ? attributes[association.foreignKey] : undefined;
  const options = reverseOf ? {} : association.options;
  return {
    name: association.as,
    queryName: association.options.queryName ?? association.as,
    kind,
    reverse: Boolean(reverseOf),
    many: kind === 'hasMany' || kind === 'belongsToMany',
    target: association.target,
    foreignKey: association.foreignKey,
    otherKey: association.otherKey ?? null,
    targetKey: association.targetKey ?? association.target.primaryKeyAttribute,
    sourceKey: association.sourceKey ?? model.primaryKeyAttribute,
    relatedName: reverseOf ? null : relatedNameOf(association),
    through: association.through?.model ?? null,
    throughTable: association.through ? association.through.model.getTableName().toString() : null,
    allowNull: fkAttribute ? fkAttribute.allowNull !== false : kind !== 'belongsTo',
    blank: Boolean(options.blank ?? fkAttribute?.blank ?? (kind !== 'belongsTo' && !reverseOf ? false : reverseOf !== undefined)),
    editable: !reverseOf && (options.editable ?? fkAttribute?.editable) !== false,
    helpText: options.helpText ?? fkAttribute?.helpText ?? '',
    verboseName: options.verboseName ?? fkAttribute?.verboseName ?? defaultVerbose(association.as),
  };
}

/** An association as this module reads it (`associationType` and `as` checked at run time). */
function isRawAssociation(value: object): value is RawAssociation {
  return 'associationType' in value && typeof value.associationType === 'string' && 'as' in value && typeof value.as === 'string';
}

/** The model's Sequelize associations, read through the fields this module uses. */
function associationsOf(model: ModelCtor): RawAssociation[] {
  // Sequelize's `Association` types do not declare `options`' extras (relatedName, reverseOf) nor `through.model`.
  const associations: RawAssociation[] = [];
  for (const association of Object.values(model.associations)) if (isRawAssociation(association)) associations.push(association);
  return associations;
}

const cache = new WeakMap<object, { generation: number; info: ModelInfo }>();

/** Any model class: `ModelCtor`, `typeof Snippet`, or a QuerySet's `model`. */
export type AnyModelClass = abstract new (...args: never[]) => object;

/**
 * The fields and relations of `model`, computed once per class (and again only when the set
 * of bound models changes, which may add reverse relations).
 */
export function getFieldInfo(modelClass: AnyModelClass | ModelCtor): ModelInfo {
  const model = modelClass as ModelCtor;
  ensureModel(model);
  const cached = cache.get(model);
  const generation = bindGeneration();
  if (cached && cached.generation === generation) return cached.info;
  const attributes = model.getAttributes() as Record<string, RawAttribute>;
  const associations = associationsOf(model);
  const fkRelation = new Map<string, string>();
  for (const a of associations) if (a.associationType === 'BelongsTo') fkRelation.set(a.foreignKey, a.as);
  const fields = Object.entries(attributes).map(([name, raw]) => buildFieldInfo(name, raw, fkRelation.get(name) ?? null));
  const relations = associations.map((a) => buildRelationInfo(model, a, attributes));
  const byName = new Map(fields.map((f) => [f.name, f]));
  const pk = byName.get(model.primaryKeyAttribute);
  if (!pk) throw new Error(`${model.name} has no primary key.`);
  byName.set('pk', pk);
  const relationsByName = new Map<string, RelationInfo>();
  for (const r of relations) {
    relationsByName.set(r.queryName, r);
    if (!relationsByName.has(r.name)) relationsByName.set(r.name, r);
  }
  const lookupNames = [
    ...new Set([...fields.filter((f) => !f.relation).map((f) => f.name), ...fields.filter((f) => f.relation).map((f) => f.name), ...relations.map((r) => r.queryName)]),
  ].sort();
  const info: ModelInfo = {
    model,
    pk,
    fields,
    relations,
    getField: (name) => byName.get(name),
    getRelation: (name) => relationsByName.get(name),
    lookupNames,
  };
  cache.set(model, { generation, info });
  return info;
}

/**
 * Give every belongsTo / belongsToMany a reverse relation on its target, named by
 * `relatedName` (or the source model's `meta.defaultRelatedName`; `<model>_set` otherwise,
 * queried as `<model>`), as Django does. `relatedName: '+'` disables it.
 */
function addReverseRelations(models: ModelCtor[]): void {
  for (const model of models) {
    for (const association of associationsOf(model)) {
      if (association.options.reverseOf) continue;
      const type = association.associationType;
      if (type !== 'BelongsTo' && type !== 'BelongsToMany') continue;
      const explicit = relatedNameOf(association);
      if (explicit === '+' || explicit?.endsWith('+')) continue;
      const lower = model.name.toLowerCase();
      const as = explicit ?? `${lower}_set`;
      const queryName = explicit ?? lower;
      const target = association.target;
      const existing = associationsOf(target);
      const declared = existing.some(
        (a) => a.as === as || (a.target === model && a.foreignKey === (type === 'BelongsTo' ? association.foreignKey : association.otherKey)),
      );
      if (declared) continue;
      const common = { as, constraints: false, reverseOf: association, queryName };
      if (type === 'BelongsTo') {
        target.hasMany(model, { ...common, foreignKey: association.foreignKey, sourceKey: association.targetKey });
      } else if (association.through && association.otherKey) {
        target.belongsToMany(model, {
          ...common,
          through: association.through.model,
          foreignKey: association.otherKey,
          otherKey: association.foreignKey,
        });
      }
    }
  }
}

onModelsBound((_sequelize, models) => addReverseRelations(models));
