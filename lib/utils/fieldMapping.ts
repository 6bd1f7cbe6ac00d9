/**
 * Helper functions for mapping model columns and relations (as `getFieldInfo()` reports
 * them) to serializer field classes and their options. Used by `ModelSerializer`.
 */
import type { ModelAttributeColumnOptions } from 'sequelize';
import type { ModelCtor } from 'sequelize-typescript';
import type { FieldInfo, RelationInfo } from '../core/db';
import { getVendor } from '../core/db/connection';
import { integerRange } from '../core/db/integerRange';
import {
  BooleanField, CharField, DateField, DateTimeField, DecimalField, DurationField, EmailField, Field, FileField,
  FloatField, ImageField, IntegerField, IPAddressField, JSONField, ModelField, SlugField, TimeField, URLField, UUIDField,
} from '../fields';
import { UniqueValidator, type Validator } from '../validators';

/** A serializer field class, constructed from an options object. */
export type FieldClass = new (options: never) => Field;

/** Options built for a serializer field (camelCase, as the field constructors take them). */
export type FieldKwargs = Record<string, unknown>;

/** Django model field class name -> serializer field class (`ModelSerializer.serializerFieldMapping`). */
export const serializerFieldMapping: Readonly<Record<string, FieldClass>> = {
  AutoField: IntegerField,
  BigAutoField: IntegerField,
  SmallAutoField: IntegerField,
  BigIntegerField: IntegerField,
  BooleanField,
  NullBooleanField: BooleanField,
  CharField,
  CommaSeparatedIntegerField: CharField,
  DateField,
  DateTimeField,
  DecimalField,
  DurationField,
  EmailField,
  Field: ModelField,
  FileField,
  FloatField,
  ImageField,
  IntegerField,
  PositiveIntegerField: IntegerField,
  PositiveBigIntegerField: IntegerField,
  PositiveSmallIntegerField: IntegerField,
  SlugField,
  SmallIntegerField: IntegerField,
  TextField: CharField,
  TimeField,
  URLField,
  UUIDField,
  GenericIPAddressField: IPAddressField,
  JSONField,
};

const TEXT_TYPES = new Set(['CharField', 'TextField', 'EmailField', 'SlugField', 'URLField', 'CommaSeparatedIntegerField',
  'GenericIPAddressField', 'FilePathField']);

/** Django's `capfirst`. */
export function capfirst(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** True when the verbose name differs from the label the field name would give. */
export function needsLabel(verboseName: string, fieldName: string): boolean {
  const defaultLabel = capfirst(fieldName.replace(/_/g, ' ').toLowerCase());
  return capfirst(verboseName) !== defaultLabel;
}

/** The detail view name the original derives from a model: `'<modelname>-detail'`. */
export function getDetailViewName(model: ModelCtor): string {
  return `${model.name.toLowerCase()}-detail`;
}

/** The model's verbose name (`meta.verboseName`, else the class name split into lower-case words). */
export function modelVerboseName(model: ModelCtor): string {
  const meta = (model as ModelCtor & { meta?: { verboseName?: string } }).meta;
  if (meta?.verboseName) return meta.verboseName;
  return model.name.replace(/(.)([A-Z])/g, '$1 $2').toLowerCase().trim();
}

/** The options `field()` keeps on a column beside Sequelize's. */
interface DjangoColumnExtras {
  errorMessages?: Record<string, string>;
  validators?: Validator[];
}

/** Extra per-column options Django keeps on the model field (`errorMessages: { unique }`). */
function rawAttribute(model: ModelCtor, name: string): { errorMessages?: Record<string, string>; validators?: Validator[] } {
  const column = model.getAttributes()[name] as (ModelAttributeColumnOptions & DjangoColumnExtras) | undefined;
  return column ?? {};
}

/** The message of the column's `unique` check: its own, else `<model> with this <field> already exists.` */
export function getUniqueErrorMessage(model: ModelCtor, field: Pick<FieldInfo, 'name' | 'verboseName'>): string {
  const custom = rawAttribute(model, field.name).errorMessages?.unique;
  const template = custom ?? '%(model_name)s with this %(field_label)s already exists.';
  return template
    .replace('%(model_name)s', modelVerboseName(model))
    .replace('%(field_label)s', field.verboseName);
}

/** The queryset of all rows of `model` (its default manager). */
function defaultQueryset(model: ModelCtor): unknown {
  return (model as ModelCtor & { objects: { all(): unknown } }).objects.all();
}

/**
 * Django's integer fields validate the column's range (`MinValueValidator` /
 * `MaxValueValidator` from `integer_field_range`), which the original turns into `min_value` /
 * `max_value`. Limits a double cannot hold exactly (BIGINT's) are left out.
 */
function integerLimits(field: FieldInfo): { minValue?: number; maxValue?: number } {
  const range = integerRange(field, getVendor());
  if (!range) return {};
  const limits: { minValue?: number; maxValue?: number } = {};
  if (Number.isSafeInteger(Number(range.max))) limits.maxValue = Number(range.max);
  if (Number.isSafeInteger(Number(range.min))) limits.minValue = Number(range.min);
  return limits;
}

/** The options of a non-relational field built for model column `field`. */
export function getFieldKwargs(fieldName: string, field: FieldInfo, model: ModelCtor): FieldKwargs {
  const kwargs: FieldKwargs = {};
  const validators: Validator[] = [...(rawAttribute(model, field.name).validators ?? [])];
  kwargs.modelField = { name: field.name };
  if (field.verboseName && needsLabel(field.verboseName, fieldName)) kwargs.label = capfirst(field.verboseName);
  if (field.helpText) kwargs.helpText = field.helpText;
  if (field.maxDigits !== null) kwargs.maxDigits = field.maxDigits;
  if (field.decimalPlaces !== null) kwargs.decimalPlaces = field.decimalPlaces;
  if (field.fieldType === 'DecimalField') {
    kwargs.maxDigits = field.maxDigits;
    kwargs.decimalPlaces = field.decimalPlaces;
  }
  if ((field.fieldType === 'TextField' && !field.choices) || field.fieldType === 'JSONField') {
    kwargs.style = { base_template: 'textarea.html' };
  }
  if (field.allowNull) kwargs.allowNull = true;
  if (field.fieldType === 'AutoField' || field.fieldType === 'BigAutoField' || field.fieldType === 'SmallAutoField'
    || (field.primaryKey && field.autoIncrement) || !field.editable) {
    kwargs.readOnly = true;
    return kwargs;
  }
  if (field.hasDefault || field.blank || field.allowNull) kwargs.required = false;
  if (field.blank && TEXT_TYPES.has(field.fieldType)) kwargs.allowBlank = true;
  if (!field.relation) Object.assign(kwargs, integerLimits(field));
  if (field.choices && field.choices.length) kwargs.choices = field.choices;
  if (field.maxLength !== null && TEXT_TYPES.has(field.fieldType) && field.type !== 'TEXT') kwargs.maxLength = field.maxLength;
  if (field.unique) {
    validators.push(new UniqueValidator({ queryset: defaultQueryset(model) as never, message: getUniqueErrorMessage(model, field) }));
  }
  if (validators.length) kwargs.validators = validators;
  return kwargs;
}

/** The options of a flat relational field for `relation`. */
export function getRelationKwargs(fieldName: string, relation: RelationInfo, model: ModelCtor, fkField: FieldInfo | null): FieldKwargs {
  const kwargs: FieldKwargs = {
    queryset: defaultQueryset(relation.target),
    viewName: getDetailViewName(relation.target),
  };
  if (relation.many) kwargs.many = true;
  if (relation.reverse) return kwargs;
  if (relation.verboseName && needsLabel(relation.verboseName, fieldName)) kwargs.label = capfirst(relation.verboseName);
  if (relation.helpText) kwargs.helpText = relation.helpText;
  if (!relation.editable) {
    kwargs.readOnly = true;
    delete kwargs.queryset;
  }
  const allowNull = relation.kind === 'belongsTo' ? relation.allowNull : false;
  if (allowNull) kwargs.allowNull = true;
  if (kwargs.readOnly) return kwargs;
  if ((fkField?.hasDefault ?? false) || relation.blank || allowNull) kwargs.required = false;
  if (fkField?.unique && !fkField.primaryKey) {
    kwargs.validators = [new UniqueValidator({ queryset: defaultQueryset(model) as never, message: getUniqueErrorMessage(model, { name: fkField.name, verboseName: relation.verboseName }) })];
  }
  if (relation.many && !relation.blank) kwargs.allowEmpty = false;
  return kwargs;
}

/** The options of a nested (read-only) serializer built for `relation` at some depth. */
export function getNestedRelationKwargs(relation: RelationInfo): FieldKwargs {
  const kwargs: FieldKwargs = { readOnly: true };
  if (relation.many) kwargs.many = true;
  return kwargs;
}

/** The options of the `url` identity field for `model`. */
export function getUrlKwargs(model: ModelCtor): FieldKwargs {
  return { viewName: getDetailViewName(model) };
}
