/**
 * The project state as the models declare it today (the other side of the autodetector's
 * comparison): each installed app's models read through `getFieldInfo()` and `meta`, as
 * field specs. A field the migrations cannot express is an error naming it, never skipped.
 */
import type { ModelCtor } from 'sequelize-typescript';
import { appModels, apps as registry, type AppConfig } from '../../apps';
import { settings } from '../../conf';
import { getFieldInfo, type FieldInfo, type RelationInfo } from '../fieldInfo';
import { FIELD_TYPES, NOW, type DefaultValue, type FieldSpec, type FieldType, type NamedField, type OnDelete } from './fieldSpec';
import { ModelState, ProjectState, type ModelOptions } from './state';

/** Raised when a model declares something migrations cannot express. */
export class UnsupportedFieldError extends Error {
  override name = 'UnsupportedFieldError';
}

interface ModelStatics {
  name: string;
  meta?: {
    appLabel?: string;
    ordering?: readonly string[];
    verboseName?: string;
    verboseNamePlural?: string;
    uniqueTogether?: ReadonlyArray<readonly string[]>;
    indexes?: ReadonlyArray<{ name: string; fields: readonly string[] }>;
  };
  autoCreated?: boolean;
  getTableName(): string | { tableName: string };
  getAttributes(): Record<string, { dbIndex?: boolean }>;
  associations: Record<string, { options?: { onDelete?: string; relatedName?: string } }>;
}

const EXPRESSIBLE: ReadonlySet<string> = new Set(FIELD_TYPES);

function isNowDefault(value: unknown): boolean {
  if (typeof value === 'function') return (value as { key?: string }).key === 'NOW';
  return typeof value === 'object' && value !== null && (value as { key?: string }).key === 'NOW';
}

function defaultSpec(model: string, field: FieldInfo): DefaultValue | undefined {
  if (!field.hasDefault || field.default === undefined) return undefined;
  const value = field.default;
  if (isNowDefault(value)) return NOW;
  if (typeof value === 'function') {
    throw new UnsupportedFieldError(
      `${model}.${field.name}: a function default cannot be written into a migration; use a literal value, DataType.NOW, or autoNow/autoNowAdd.`,
    );
  }
  if (value instanceof Date) return value.toISOString();
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value as DefaultValue;
  try {
    return JSON.parse(JSON.stringify(value)) as DefaultValue;
  } catch {
    throw new UnsupportedFieldError(`${model}.${field.name}: its default cannot be written into a migration (not JSON).`);
  }
}

/**
 * True for a model class as the state builder reads it (a Sequelize model: `getAttributes()`,
 * `getTableName()`; `meta`, `autoCreated` and the associations' options are read as declared).
 */
function isModelStatics(value: unknown): value is ModelStatics & ModelCtor {
  return (
    typeof value === 'function' &&
    'getAttributes' in value && typeof value.getAttributes === 'function' &&
    'getTableName' in value && typeof value.getTableName === 'function'
  );
}

/** `model` as the state builder reads it; a `TypeError` for anything else. */
function staticsOf(model: unknown): ModelStatics & ModelCtor {
  if (!isModelStatics(model)) throw new TypeError(`${String(model)} is not a model class`);
  return model;
}

function tableOf(model: ModelStatics): string {
  const table = model.getTableName();
  return typeof table === 'string' ? table : table.tableName;
}

/** Builds `ProjectState`s from model classes. */
export class ModelStateBuilder {
  private readonly owners = new Map<unknown, string>();

  constructor(private readonly configs: readonly AppConfig[] = registry.getAppConfigs()) {
    for (const config of configs) for (const model of appModels(config)) this.owners.set(model, config.label);
  }

  /** `app.Name` of a model class: the app listing it, else its `meta.appLabel`. */
  reference(model: unknown): string {
    const statics = model as ModelStatics;
    const app = this.owners.get(model) ?? statics.meta?.appLabel;
    if (!app) throw new UnsupportedFieldError(`Model ${statics.name} is not listed by an installed app and has no meta.appLabel.`);
    const reference = `${app}.${statics.name}`;
    const swappable = settings.AUTH_USER_MODEL;
    const metaReference = `${statics.meta?.appLabel ?? app}.${statics.name}`;
    if (metaReference.toLowerCase() === swappable.toLowerCase()) return swappable;
    return reference;
  }

  /** The state of every model of the installed apps (apps without a migrations folder left out). */
  build(): ProjectState {
    const state = new ProjectState();
    for (const config of this.configs) {
      if (!config.migrationsDir) continue;
      for (const model of appModels(config)) {
        const statics = staticsOf(model);
        if (statics.autoCreated) continue;
        state.add(this.modelState(config.label, statics));
      }
    }
    return state;
  }

  /** One model as a `ModelState`. */
  modelState(app: string, model: ModelCtor): ModelState {
    const statics = staticsOf(model);
    const info = getFieldInfo(model);
    const label = `${app}.${statics.name}`;
    const attributes = statics.getAttributes();
    const fields: NamedField[] = [];
    for (const field of info.fields) {
      if (field.relation) {
        const relation = info.getRelation(field.relation) as RelationInfo;
        fields.push([relation.name, this.foreignKeySpec(label, model, field, relation)]);
      } else {
        fields.push([field.name, this.fieldSpec(label, field, Boolean(attributes[field.name]?.dbIndex))]);
      }
    }
    for (const relation of info.relations) {
      if (relation.kind !== 'belongsToMany' || relation.reverse) continue;
      fields.push([relation.name, this.manyToManySpec(model, relation)]);
    }
    const meta = statics.meta ?? {};
    const options: ModelOptions = {};
    if (meta.ordering?.length) options.ordering = [...meta.ordering];
    if (meta.verboseName) options.verboseName = meta.verboseName;
    if (meta.verboseNamePlural) options.verboseNamePlural = meta.verboseNamePlural;
    const fieldName = (name: string): string => {
      const byColumn = info.fields.find((f) => f.name === name && f.relation);
      return byColumn?.relation ?? name;
    };
    if (meta.uniqueTogether?.length) options.uniqueTogether = meta.uniqueTogether.map((set) => set.map(fieldName));
    if (meta.indexes?.length) options.indexes = meta.indexes.map((i) => ({ name: i.name, fields: i.fields.map(fieldName) }));
    return new ModelState(app, statics.name, tableOf(statics), fields, options);
  }

  private fieldSpec(label: string, field: FieldInfo, dbIndex: boolean): FieldSpec {
    if (!EXPRESSIBLE.has(field.fieldType) || field.fieldType === 'ForeignKey' || field.fieldType === 'ManyToManyField') {
      throw new UnsupportedFieldError(
        `${label}.${field.name}: makemigrations cannot express a field of type '${field.fieldType}' (Sequelize type ${field.type}). ` +
          `Supported: ${FIELD_TYPES.filter((t) => !['ForeignKey', 'OneToOneField', 'ManyToManyField'].includes(t)).join(', ')}.`,
      );
    }
    const spec: FieldSpec = { type: field.fieldType as FieldType };
    if (field.column !== field.name) spec.column = field.column;
    if (field.primaryKey) spec.primaryKey = true;
    if (field.allowNull) spec.null = true;
    const auto = field.autoNow || field.autoNowAdd;
    if (field.blank && !auto) spec.blank = true;
    const value = defaultSpec(label, field);
    if (value !== undefined) spec.default = value;
    if (field.unique && !field.primaryKey) spec.unique = true;
    if (dbIndex) spec.dbIndex = true;
    if (field.choices) spec.choices = JSON.parse(JSON.stringify(field.choices)) as FieldSpec['choices'];
    if (field.maxLength !== null) spec.maxLength = field.maxLength;
    if (field.maxDigits !== null) spec.maxDigits = field.maxDigits;
    if (field.decimalPlaces !== null) spec.decimalPlaces = field.decimalPlaces;
    if (field.autoNow) spec.autoNow = true;
    if (field.autoNowAdd) spec.autoNowAdd = true;
    return spec;
  }

  private foreignKeySpec(label: string, model: ModelCtor, field: FieldInfo, relation: RelationInfo): FieldSpec {
    const association = staticsOf(model).associations[relation.name];
    const spec: FieldSpec = { type: 'ForeignKey', to: this.reference(relation.target) };
    if (field.column !== `${relation.name}_id`) spec.column = field.column;
    if (field.allowNull) spec.null = true;
    if (field.blank) spec.blank = true;
    const value = defaultSpec(label, field);
    if (value !== undefined) spec.default = value;
    if (field.unique) spec.unique = true;
    const onDelete = association?.options?.onDelete;
    if (onDelete) spec.onDelete = onDelete.toUpperCase() as OnDelete;
    const relatedName = association?.options?.relatedName;
    if (relatedName) spec.relatedName = relatedName;
    return spec;
  }

  private manyToManySpec(model: ModelCtor, relation: RelationInfo): FieldSpec {
    const spec: FieldSpec = { type: 'ManyToManyField', to: this.reference(relation.target) };
    const through = relation.through ? staticsOf(relation.through) : null;
    if (through && !through.autoCreated) spec.through = this.reference(through);
    else {
      spec.dbTable = relation.throughTable ?? `${tableOf(staticsOf(model))}_${relation.name}`;
      spec.columns = [relation.foreignKey, relation.otherKey ?? `${relation.target.name.toLowerCase()}_id`];
    }
    if (relation.blank) spec.blank = true;
    const association = staticsOf(model).associations[relation.name];
    const relatedName = association?.options?.relatedName;
    if (relatedName) spec.relatedName = relatedName;
    return spec;
  }
}
