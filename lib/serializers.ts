/**
 * Serializers turn model instances (or plain objects) into JSON-ready data, and validate
 * incoming data back into native values that `save()` hands to `create()` / `update()`.
 *
 * Declare fields in a static `fields` object; subclasses inherit and may override them, or
 * remove one by setting it to `null`:
 *
 * @example
 * class SnippetSerializer extends ModelSerializer {
 *   static Meta = { model: Snippet, fields: ['id', 'title', 'code', 'owner'] };
 *   static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) };
 *   validateTitle(value: string) { return value.trim(); }
 * }
 * const serializer = new SnippetSerializer(snippets, { many: true, context: { request } });
 * const data = await serializer.getData();   // loads `owner` for all rows in one query
 *
 * The field plan is compiled once per class (ModelSerializer) and bound per instance as
 * cheap copies; the representation loop does no per-row lookups by name.
 */
import assert from 'node:assert';
import type { Model, ModelCtor } from 'sequelize-typescript';
import { ImproperlyConfigured } from './core/exceptions';
import { onSettingChanged } from './core/conf';
import { getFieldInfo, type FieldInfo, type ModelInfo, type RelationInfo } from './core/db';
import { prefetchRelatedObjects } from './core/db/prefetch';
import { ErrorDetail, ValidationError } from './exceptions';
import { apiSettings } from './settings';
import { gettext } from './core/i18n';
import {
  ChoiceField, CreateOnlyDefault, empty, Field, HiddenField, methodNameFor, ModelField, pythonTypeName, ReadOnlyField,
  setValue, SkipField, CharField, type FieldOptions,
} from './fields';
import {
  HyperlinkedIdentityField, HyperlinkedRelatedField, ManyRelatedField, PrimaryKeyRelatedField,
  RelatedField, SlugRelatedField,
} from './relations';
import {
  UniqueForDateValidator, UniqueForMonthValidator, UniqueForYearValidator, UniqueTogetherValidator, formatMessage, type Validator,
} from './validators';
import { RepresentationPlan } from './utils/representationPlan';
import { BindingDict, returnDict, returnList, type ReturnDict, type ReturnList } from './utils/serializerHelpers';
import { isHtmlInput, parseHtmlDict, parseHtmlList } from './utils/html';
import { collectPending, isThenable, resolvePending } from './utils/pendingValues';
import type { NoOptions } from './fieldTypes';
import type {
  HyperlinkedMarker, Infer, InferValidated, MetaFieldName, ModelClass, ModelValidatedData,
} from './serializerTypes';
// Installs String(field) / String(serializer) (the original's repr).
import './utils/representation';
import {
  getFieldKwargs, getNestedRelationKwargs, getRelationKwargs, getUniqueErrorMessage, getUrlKwargs, serializerFieldMapping,
  type FieldClass, type FieldKwargs,
} from './utils/fieldMapping';
import { isPlainObject } from './core/typeGuards';

export { ReturnDict, ReturnList };
// The original's `serializers.ValidationError`: the same class as `exceptions.ValidationError`.
export { ValidationError };
export type {
  Infer, InferMode, InferValidated, MetaFieldName, ModelAttributeName, ModelClass, ModelValidatedData, SerializerErrors,
  SerializerOf,
} from './serializerTypes';

/** The `'__all__'` value of `Meta.fields`. */
export const ALL_FIELDS = '__all__';

/** Options accepted by every serializer constructor. */
export interface SerializerOptions extends FieldOptions {
  /** The object (or objects, with `many`) to represent or update. */
  instance?: unknown;
  /** Incoming primitive data to validate. */
  data?: unknown;
  /** Build a `ListSerializer` of this serializer. */
  many?: boolean;
  /** Partial update: missing fields are not required. */
  partial?: boolean;
  /** Extra context for fields: `request`, `view`, `format`. */
  context?: Record<string, unknown>;
  /** With `many`: whether an empty list is valid (default true). */
  allowEmpty?: boolean;
  /** With `many`: the largest number of items. */
  maxLength?: number | null;
  /** With `many`: the smallest number of items. */
  minLength?: number | null;
}

const OPTION_KEYS = new Set(['instance', 'data', 'many', 'partial', 'context', 'allowEmpty', 'maxLength', 'minLength',
  'readOnly', 'writeOnly', 'required', 'default', 'initial', 'source', 'label', 'helpText', 'style', 'errorMessages',
  'validators', 'allowNull', 'child']);

/** Options a `ListSerializer` takes over from `many: true` (the original's LIST_SERIALIZER_KWARGS). */
const LIST_SERIALIZER_KWARGS = new Set(['readOnly', 'writeOnly', 'required', 'default', 'initial', 'source', 'label',
  'helpText', 'style', 'errorMessages', 'allowEmpty', 'instance', 'data', 'partial', 'context', 'allowNull', 'maxLength', 'minLength']);

function looksLikeOptions(value: unknown): value is SerializerOptions {
  return isPlainObject(value) && Object.keys(value).every((key) => OPTION_KEYS.has(key));
}

function isModelInstance(value: unknown): value is Model {
  return value !== null && typeof value === 'object' && 'dataValues' in value
    && typeof (value.constructor as { getAttributes?: unknown }).getAttributes === 'function';
}

function isQuerySetLike(value: unknown): value is { fetch(): Promise<unknown[]>; model: unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { fetch?: unknown }).fetch === 'function'
    && 'model' in value;
}

/**
 * Turn a `ValidationError` from validators or `validate()` into serializer errors: objects
 * keep their keys (values as lists), lists go under `NON_FIELD_ERRORS_KEY`.
 */
export function asSerializerError(error: ValidationError): Record<string, unknown> {
  const detail = error.detail as unknown;
  if (isPlainObject(detail)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(detail)) out[key] = Array.isArray(value) || isPlainObject(value) ? value : [value];
    return out;
  }
  return { [apiSettings.NON_FIELD_ERRORS_KEY]: Array.isArray(detail) ? detail : [detail] };
}

/** A serializer class (for `Meta.listSerializerClass`, nested classes and `many`). */
export type SerializerClass = new (instance?: unknown, options?: SerializerOptions) => AnySerializer;

/** Any serializer instance, whatever its instance and validated data types. */
export type AnySerializer = BaseSerializer<unknown, unknown>;

// -- BaseSerializer -------------------------------------------------------------------------

/**
 * The base of all serializers: constructor conventions, `isValid()`, `errors`,
 * `validatedData`, `data` / `getData()` and `save()`. Subclass it directly for plain-object
 * serializers, implementing `toRepresentation()` and `toInternalValue()`.
 */
export abstract class BaseSerializer<TInstance = unknown, TValidated = Record<string, unknown>, O extends FieldOptions = NoOptions>
  extends Field<unknown, TValidated, O> {
  /** The object being represented or updated (null when none was given). */
  instance!: TInstance | null;
  /** The incoming data (`empty` when none was given). */
  initialData!: unknown;
  /** Partial update: missing fields are skipped. */
  partial!: boolean;
  /** The context given at construction (read it through `context`). */
  rootContext!: Record<string, unknown>;
  protected validatedDataValue: unknown;
  protected errorsValue: unknown;
  protected dataValue: unknown;
  protected hasValidated!: boolean;
  protected hasData!: boolean;
  /** Options kept for `many` construction of nested copies. */
  protected serializerOptions!: SerializerOptions;

  /** `new S(options)` or `new S(instance, options)`; `many: true` builds a `ListSerializer`. */
  constructor(instanceOrOptions?: unknown, maybeOptions?: SerializerOptions) {
    let options: SerializerOptions;
    if (maybeOptions !== undefined) {
      options = { ...maybeOptions, instance: instanceOrOptions };
    } else if (instanceOrOptions === undefined || instanceOrOptions === null) {
      options = {};
    } else if (looksLikeOptions(instanceOrOptions)) {
      options = instanceOrOptions;
    } else {
      options = { instance: instanceOrOptions };
    }
    if (options.many) {
      return (new.target as unknown as { manyInit(options: SerializerOptions): AnySerializer }).manyInit(options) as never;
    }
    const { instance, data, partial, context, many, allowEmpty, maxLength, minLength, ...fieldOptions } = options;
    void many; void allowEmpty; void maxLength; void minLength;
    super(fieldOptions);
    this.instance = (instance ?? null) as TInstance | null;
    this.initialData = Object.prototype.hasOwnProperty.call(options, 'data') ? data : empty;
    this.partial = partial ?? false;
    this.rootContext = context ?? {};
    this.hasValidated = false;
    this.hasData = false;
    this.serializerOptions = options;
  }

  /**
   * Build the `ListSerializer` used for `many: true`. Override to customise the list (or
   * set `Meta.listSerializerClass`).
   */
  static manyInit(this: SerializerClass, options: SerializerOptions): AnySerializer {
    const { many, allowEmpty, maxLength, minLength, data, ...rest } = options;
    void many; void data;
    const childOptions: SerializerOptions = { ...rest };
    delete childOptions.instance;
    const child = new this(childOptions);
    const listOptions: ListSerializerOptions = { child };
    if (allowEmpty !== undefined) listOptions.allowEmpty = allowEmpty;
    if (maxLength !== undefined) listOptions.maxLength = maxLength;
    if (minLength !== undefined) listOptions.minLength = minLength;
    for (const [key, value] of Object.entries(options)) {
      if (LIST_SERIALIZER_KWARGS.has(key) && !(key in listOptions)) Object.assign(listOptions, { [key]: value });
    }
    const meta = (this as SerializerClass & { Meta?: { listSerializerClass?: typeof ListSerializer } }).Meta;
    const ListClass = meta?.listSerializerClass ?? ListSerializer;
    return new ListClass(listOptions);
  }

  /**
   * `S.asField({ required: false })`: the typed spelling of `new S(options)` as a nested field in
   * another serializer's `static fields` — the same field at run time, but its value types are
   * `serializers.Infer<typeof S>` (an array with `many: true`, `| null` with `allowNull: true`).
   */
  static asField<C extends SerializerClass, const FO extends SerializerOptions = NoOptions>(
    this: C, options?: FO,
  ): Field<Infer<C>, InferValidated<C>, FO> {
    return new this(options ?? {}) as Field<Infer<C>, InferValidated<C>, FO>;
  }

  /** `S.many(instances, options)`: the typed spelling of `new S(instances, { many: true })`. */
  static many<T extends SerializerClass & Pick<typeof BaseSerializer, 'manyInit'>>(
    this: T, instanceOrOptions?: unknown, options: SerializerOptions = {},
  ): ListSerializer {
    const merged = looksLikeOptions(instanceOrOptions) && options && Object.keys(options).length === 0
      ? { ...instanceOrOptions, many: true }
      : { ...options, instance: instanceOrOptions, many: true };
    return this.manyInit(merged) as ListSerializer;
  }

  override copy(): this {
    const clone = super.copy();
    clone.hasValidated = false;
    clone.hasData = false;
    clone.validatedDataValue = undefined;
    clone.errorsValue = undefined;
    clone.dataValue = undefined;
    return clone;
  }

  /** Turn validated data into a new object; called by `save()` when there is no instance. */
  create(validatedData: TValidated): Promise<TInstance> | TInstance {
    void validatedData;
    throw new Error('`create()` must be implemented.');
  }

  /** Apply validated data to `instance`; called by `save()` when there is an instance. */
  update(instance: TInstance, validatedData: TValidated): Promise<TInstance> | TInstance {
    void instance; void validatedData;
    throw new Error('`update()` must be implemented.');
  }

  /** Validate `initialData`; returns true when valid. Throws `ValidationError` with `raiseException`. */
  async isValid(options: { raiseException?: boolean } = {}): Promise<boolean> {
    assert(this.initialData !== empty,
      'Cannot call `.isValid()` as no `data` option was passed when instantiating the serializer instance.');
    if (!this.hasValidated) {
      try {
        this.validatedDataValue = await this.runValidation(this.initialData);
        this.errorsValue = this.emptyErrors();
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        this.validatedDataValue = this.emptyErrors();
        this.errorsValue = error.detail;
      }
      this.hasValidated = true;
    }
    if (this.hasErrors() && options.raiseException) throw new ValidationError(this.errors as never);
    return !this.hasErrors();
  }

  /**
   * The validation `Serializer` and `ListSerializer` share: empty values, `toInternalValue()`,
   * the validators, then the serializer-level `validate` hook; errors are re-raised keyed as the
   * serializer's errors (`non_field_errors` for a bare list).
   */
  protected async runFullValidation(data: unknown, validate: (value: unknown) => unknown): Promise<unknown> {
    const [isEmpty, input] = this.validateEmptyValues(data);
    if (isEmpty) return input;
    const value = await this.toInternalValue(input);
    try {
      const checking = this.validatorsOf(value);
      if (checking) await checking;
      const answer = validate(value);
      const validated = isThenable(answer) ? await answer : answer;
      assert(validated !== null && validated !== undefined, '.validate() should return the validated data');
      return validated;
    } catch (error) {
      if (error instanceof ValidationError) throw new ValidationError(asSerializerError(error) as never);
      throw error;
    }
  }

  /** The "no errors" value: `{}` (or `[]` for lists). */
  protected emptyErrors(): unknown {
    return {};
  }

  protected hasErrors(): boolean {
    const errors = this.errorsValue;
    if (Array.isArray(errors)) return errors.length > 0 && errors.some((e) => !isPlainObject(e) || Object.keys(e).length > 0);
    return isPlainObject(errors) ? Object.keys(errors).length > 0 : Boolean(errors);
  }

  /** The validation errors (after `isValid()`). */
  get errors(): unknown {
    assert(this.hasValidated, 'You must call `.isValid()` before accessing `.errors`.');
    return this.errorsValue;
  }

  /** The validated data (after `isValid()`). */
  get validatedData(): TValidated {
    assert(this.hasValidated, 'You must call `.isValid()` before accessing `.validatedData`.');
    return this.validatedDataValue as TValidated;
  }

  /**
   * The representation of `instance` (or of the validated data after a create). Model
   * relations it needs must be loaded: use `await getData()`, which loads them in bulk.
   */
  get data(): unknown {
    assert(!(this.initialData !== empty && !this.hasValidated),
      'When a serializer is passed a `data` option you must call `.isValid()` before attempting to access ' +
      'the serialized `.data` representation.\nYou should either call `.isValid()` first, or access `.initialData` instead.');
    if (!this.hasData) {
      const errors = this.hasValidated && this.hasErrors();
      if (this.instance !== null && this.instance !== undefined && !errors) {
        this.dataValue = this.toRepresentation(this.instance);
      } else if (this.hasValidated && !errors) {
        this.dataValue = this.toRepresentation(this.validatedDataValue);
      } else {
        this.dataValue = this.getInitial();
      }
      this.hasData = true;
    }
    return this.dataValue;
  }

  /** Load the relations the representation needs (in bulk), then return `data`. */
  async getData(): Promise<unknown> {
    return this.dataNow();
  }

  /**
   * `getData()`'s work without an asynchronous step while there is nothing to load or to
   * await: the representation, or a promise of it. The library's generic views call it when
   * `getData()` is not overridden; it calls an overridden `loadRelations()`.
   */
  dataNow(): unknown {
    if (this.hasData) return this.data;
    const loading = this.relationsLoading();
    return loading ? loading.then(() => this.collectData()) : this.collectData();
  }

  /** `data`, with the values of async SerializerMethodFields awaited together and put in place. */
  private collectData(): unknown {
    const { value, pending } = collectPending(() => this.data);
    if (!pending.size) return this.data;
    return resolvePending(value, pending).then(() => this.data);
  }

  /**
   * What `loadRelations()` does, as nothing when there is nothing to load (no promise then).
   * Serializers that load relations override this with `loadRelations()`.
   */
  protected relationsLoading(): Promise<void> | undefined {
    return this.loadRelations === BaseSerializer.prototype.loadRelations ? undefined : this.loadRelations();
  }

  /** Load, with one query per relation, whatever relations of `instance` the fields read. */
  async loadRelations(): Promise<void> {
    // Plain-object serializers have nothing to load.
  }

  /** Save the validated data through `create()` or `update()`; returns the instance. */
  async save(extra: Record<string, unknown> = {}): Promise<TInstance> {
    assert(this.hasValidated, 'You must call `.isValid()` before calling `.save()`.');
    assert(!this.hasErrors(), 'You cannot call `.save()` on a serializer with invalid data.');
    assert(!('commit' in extra),
      "'commit' is not a valid option to the 'save()' method. If you need to access data before committing to " +
      "the database then inspect 'serializer.validatedData' instead. You can also pass additional values to " +
      "'save()' if you need to set extra attributes on the saved model instance. For example: 'serializer.save({ owner: request.user })'.");
    assert(!this.hasData,
      'You cannot call `.save()` after accessing `serializer.data`. If you need to access data before committing to the ' +
      "database then inspect 'serializer.validatedData' instead.");
    const validated = this.mergeExtra(extra);
    let saved: TInstance | null | undefined;
    if (this.instance !== null && this.instance !== undefined) {
      saved = this.instance = await this.update(this.instance, validated);
      assert(saved !== null && saved !== undefined, '`update()` did not return an object instance.');
    } else {
      saved = this.instance = await this.create(validated);
      assert(saved !== null && saved !== undefined, '`create()` did not return an object instance.');
    }
    return saved;
  }

  /** The validated data with `save()`'s extra values (`save({ owner })`) merged in. */
  protected mergeExtra(extra: Record<string, unknown>): TValidated {
    return { ...(this.validatedDataValue as TValidated), ...extra };
  }
}

// -- Serializer -----------------------------------------------------------------------------

/** A field map as declared in `static fields` (null removes an inherited field). */
export type DeclaredFields = Record<string, Field | null>;

const declaredFieldsCache = new WeakMap<object, Map<string, Field>>();

/**
 * The declared fields of a serializer class, inherited ones first (computed once per class).
 * A redeclared inherited field keeps its place, as in the original.
 */
export function getDeclaredFields(cls: object): Map<string, Field> {
  let fields = declaredFieldsCache.get(cls);
  if (fields) return fields;
  const parent = Object.getPrototypeOf(cls) as object | null;
  const inherited = parent && parent !== Function.prototype && parent !== BaseSerializer ? getDeclaredFields(parent) : new Map<string, Field>();
  const own = Object.prototype.hasOwnProperty.call(cls, 'fields') ? (cls as { fields?: DeclaredFields }).fields ?? {} : {};
  for (const [name, field] of Object.entries(own)) {
    assert(field === null || field instanceof Field, `\`${name}\` in ${(cls as { name?: string }).name}.fields is not a field instance.`);
  }
  // As the original: inherited fields first, in their order; a field redeclared here keeps
  // its inherited place, `null` removes it; new fields follow in declaration order.
  fields = new Map();
  for (const [name, field] of inherited) {
    if (!Object.prototype.hasOwnProperty.call(own, name)) fields.set(name, field);
    else if (own[name] !== null) fields.set(name, own[name] as Field);
  }
  for (const [name, field] of Object.entries(own)) if (field !== null && !fields.has(name)) fields.set(name, field);
  declaredFieldsCache.set(cls, fields);
  return fields;
}

/** A writable field with its `validate<Field>` hook resolved once per serializer instance. */
interface WritableEntry {
  field: Field;
  hook: ((value: unknown) => unknown) | null;
}

/** A relation the representation reads: its model, and the relations read on its rows. */
interface RelationNode {
  model: ModelCtor;
  children: RelationTree;
}
/** A relation path tree: relation name -> (target model, deeper relations). */
type RelationTree = Map<string, RelationNode>;

/**
 * What decides the relations one readable field reads (see `collectFieldRelations()`): its
 * class, name, source path, the pk-only shortcut, and the class of a list's or many-field's child.
 */
interface TreeFieldSignature {
  type: object;
  name: string;
  sourceAttrs: readonly string[];
  pkOnly: boolean;
  childType: object | null;
}

/** A class's relation tree for one model, with the signatures of the fields it was collected from. */
interface ClassRelationTree {
  tree: RelationTree;
  fields: TreeFieldSignature[];
}

/**
 * Per serializer class (keyed by the unbound field map `getFields()` answers, which
 * ModelSerializer and declared-field serializers compute once per class): the representation
 * plan and the relation trees, compiled from the first instance whose fields nobody touched.
 * Emptied whenever a setting changes (formats, time zone and URL field name feed them).
 */
let classPlans = new WeakMap<Map<string, Field>, RepresentationPlan>();
let classRelationTrees = new WeakMap<Map<string, Field>, Map<ModelCtor, ClassRelationTree>>();
onSettingChanged(() => {
  classPlans = new WeakMap();
  classRelationTrees = new WeakMap();
});

const defaultFieldAccessors = new WeakMap<object, boolean>();

/**
 * True when `cls` reads its fields through Serializer's own `fields` and `readableFields`
 * accessors (so its readable fields follow from `getFields()` alone, and per-class plans fit).
 */
function usesDefaultFieldAccessors(cls: object): boolean {
  let answer = defaultFieldAccessors.get(cls);
  if (answer === undefined) {
    answer = true;
    for (const name of ['fields', 'readableFields']) {
      let proto = (cls as { prototype: object }).prototype;
      while (proto && !Object.prototype.hasOwnProperty.call(proto, name)) proto = Object.getPrototypeOf(proto) as object;
      if (proto !== Serializer.prototype) answer = false;
    }
    defaultFieldAccessors.set(cls, answer);
  }
  return answer;
}

/** The object-level serializer: declared fields, `validate<Field>` hooks and `validate()`. */
export class Serializer<TInstance = unknown, TValidated = Record<string, unknown>> extends BaseSerializer<TInstance, TValidated> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'Invalid data. Expected a dictionary, but got {datatype}.',
  };
  private boundFields: BindingDict<Field> | undefined;
  private readable: Field[] | undefined;
  private plan: RepresentationPlan | undefined;
  private writable: WritableEntry[] | undefined;
  private relationTree: Map<ModelCtor, RelationTree> | undefined;
  /** The representation `data` answered, marked with this serializer (`returnDict()`). */
  private markedData: ReturnDict | undefined;

  override copy(): this {
    const clone = super.copy();
    clone.boundFields = undefined;
    clone.readable = undefined;
    clone.plan = undefined;
    clone.writable = undefined;
    clone.relationTree = undefined;
    return clone;
  }

  /**
   * The unbound fields of this serializer, by name. Override to add or remove fields per
   * instance (for example depending on `context`).
   */
  getFields(): Map<string, Field> {
    return getDeclaredFields(this.constructor);
  }

  /** The bound fields of this instance (copies of the class's fields). */
  get fields(): BindingDict<Field> {
    if (!this.boundFields) {
      const bound = new BindingDict<Field>(this);
      for (const [name, field] of this.getFields()) bound.set(name, field.copy());
      this.boundFields = bound;
    }
    return this.boundFields;
  }

  /** Fields used for output (not write-only), in order. */
  get readableFields(): Field[] {
    if (!this.readable) this.readable = [...this.fields.values()].filter((f) => !f.writeOnly);
    return this.readable;
  }

  /** Fields used for input (not read-only, or with a default), in order. */
  get writableFields(): Field[] {
    return this.writableEntries().map((entry) => entry.field);
  }

  private writableEntries(): WritableEntry[] {
    if (!this.writable) {
      this.writable = [...this.fields.values()]
        .filter((f) => !f.readOnly)
        .map((field) => {
          const hook: unknown = Reflect.get(this, methodNameFor('validate', field.fieldName));
          return { field, hook: typeof hook === 'function' ? (hook as (value: unknown) => unknown).bind(this) : null };
        });
    }
    return this.writable;
  }

  override getValidators(): Validator[] {
    const meta = (this.constructor as { Meta?: { validators?: Validator[] } }).Meta;
    if (meta?.validators !== undefined) return [...meta.validators];
    return [...(this.constructor as typeof Field).defaultValidators];
  }

  override getInitial(): unknown {
    if (this.initialData !== empty) {
      if (!isPlainObject(this.initialData) && !isHtmlInput(this.initialData)) return {};
      const out: Record<string, unknown> = {};
      for (const field of this.fields.values()) {
        if (field.readOnly) continue;
        const value = field.getValue(this.initialData);
        if (value !== empty) out[field.fieldName] = value;
      }
      return returnDict(out, this);
    }
    const out: Record<string, unknown> = {};
    for (const field of this.fields.values()) if (!field.readOnly) out[field.fieldName] = field.getInitial();
    return returnDict(out, this);
  }

  override getValue(dictionary: unknown): unknown {
    if (isHtmlInput(dictionary)) {
      // Kept multi-valued, as the original's parse_html_dict: list and multiple-choice fields
      // of the nested serializer read every value of a repeated key.
      const parsed = parseHtmlDict(dictionary, this.fieldName);
      return [...parsed.keys()].length ? parsed : empty;
    }
    return super.getValue(dictionary);
  }

  /** Values of read-only fields that have a default, for validators that need them. */
  private readOnlyDefaults(): Record<string, unknown> {
    const defaults: Record<string, unknown> = {};
    for (const field of this.fields.values()) {
      if (!field.readOnly || field.default === empty || field.source === '*') continue;
      try {
        setValue(defaults, field.sourceAttrs, field.getDefault());
      } catch (error) {
        if (!(error instanceof SkipField)) throw error;
      }
    }
    return defaults;
  }

  override async runValidators(value: unknown): Promise<void> {
    const toValidate = isPlainObject(value) ? { ...this.readOnlyDefaults(), ...value } : value;
    await super.runValidators(toValidate);
  }

  protected override validatorsOf(value: unknown): Promise<void> | undefined {
    if (this.runValidators !== Serializer.prototype.runValidators) return this.runValidators(value);
    return this.validatorsNow(isPlainObject(value) ? { ...this.readOnlyDefaults(), ...value } : value);
  }

  override async runValidation(data: unknown = empty): Promise<unknown> {
    return this.runFullValidation(data, (value) => this.validate(value as TValidated));
  }

  /** Object-level validation: check `attrs` across fields and return them (possibly changed). */
  validate(attrs: TValidated): Promise<TValidated> | TValidated {
    return attrs;
  }

  override async toInternalValue(data: unknown): Promise<Record<string, unknown>> {
    if (!isPlainObject(data) && !isHtmlInput(data)) {
      const message = formatMessage(gettext(this.errorMessages.invalid), { datatype: pythonTypeName(data) });
      throw new ValidationError({ [apiSettings.NON_FIELD_ERRORS_KEY]: [message] }, 'invalid');
    }
    const ret: Record<string, unknown> = {};
    const errors: Record<string, unknown> = {};
    let failed = false;
    for (const { field, hook } of this.writableEntries()) {
      const primitive = field.getValue(data);
      try {
        // Without a promise while the field (and its hook) answer at once.
        let validated = field.runValidation === Field.prototype.runValidation ? field.validationNow(primitive) : field.runValidation(primitive);
        if (isThenable(validated)) validated = await validated;
        if (hook) {
          validated = hook(validated);
          if (isThenable(validated)) validated = await validated;
        }
        setValue(ret, field.sourceAttrs, validated);
      } catch (error) {
        if (error instanceof SkipField) continue;
        if (!(error instanceof ValidationError)) throw error;
        errors[field.fieldName] = error.detail;
        failed = true;
      }
    }
    if (failed) throw new ValidationError(errors as never);
    return ret;
  }

  /**
   * The unbound field map of this serializer's class (what `getFields()` answers) when this
   * instance's readable fields are exactly the class's (nobody touched them and the class reads
   * its fields through the default accessors), else null. Per-class caches of what the fields
   * read (plans, column paths) key on it; a serializer whose fields were changed gets null.
   */
  sharedFieldsKey(): Map<string, Field> | null {
    if (this.boundFields !== undefined || !usesDefaultFieldAccessors(this.constructor)) return null;
    return this.getFields();
  }

  /**
   * The primitive representation of `instance`: each readable field's value, in order. Runs
   * the plan compiled from the readable fields on first use (see `utils/representationPlan`).
   */
  override toRepresentation(instance: unknown): Record<string, unknown> {
    let plan = this.plan;
    if (plan === undefined) plan = this.plan = this.representationPlan();
    return plan.represent(instance, this);
  }

  /**
   * The plan of this instance: the class's when this instance's readable fields are the
   * class's (untouched, or changed in ways that compile the same), else its own.
   */
  private representationPlan(): RepresentationPlan {
    if (!usesDefaultFieldAccessors(this.constructor)) return new RepresentationPlan(this.readableFields);
    const key = this.getFields();
    let classPlan = classPlans.get(key);
    if (!classPlan) {
      // Compiled from copies of the class's fields bound here and thrown away, so the class
      // gets its plan also when its first serializer's fields are already bound (validated
      // data is represented after validation bound them).
      classPlan = new RepresentationPlan(this.boundReadableFields(key));
      classPlans.set(key, classPlan);
    }
    if (this.boundFields === undefined || classPlan.matches(this.readableFields)) return classPlan;
    return new RepresentationPlan(this.readableFields);
  }

  /** Fresh copies of `fields` bound to this serializer (not kept), the readable ones in order. */
  private boundReadableFields(fields: Map<string, Field>): Field[] {
    const bound = new BindingDict<Field>(this);
    for (const [name, field] of fields) bound.set(name, field.copy());
    return [...bound.values()].filter((field) => !field.writeOnly);
  }

  override get data(): ReturnDict {
    const data = super.data as Record<string, unknown>;
    // The representation is kept (`hasData`): mark it as this serializer's once, not per read.
    if (this.markedData !== data) this.markedData = returnDict(data, this);
    return this.markedData;
  }

  override get errors(): ReturnDict {
    return returnDict(noDataProvided(super.errors) as Record<string, unknown>, this);
  }

  /** The relations (by path) the readable fields read from instances of `model`. */
  relationsFor(model: ModelCtor): RelationTree {
    let tree = this.relationTree?.get(model);
    if (tree) return tree;
    tree = this.classRelationTree(model) ?? collectRelations(this.readableFields, model, new Map());
    if (!this.relationTree) this.relationTree = new Map();
    this.relationTree.set(model, tree);
    return tree;
  }

  /**
   * The class's relation tree for `model` (collected once from fresh copies of the class's
   * fields) when this instance's readable fields read the same relations: nobody touched them,
   * or they were only bound (validation binds them before a create's representation). Null
   * when the fields were changed in a way that could read other relations, or the class reads
   * its fields through accessors of its own.
   */
  private classRelationTree(model: ModelCtor): RelationTree | null {
    if (!usesDefaultFieldAccessors(this.constructor)) return null;
    const key = this.getFields();
    let trees = classRelationTrees.get(key);
    if (!trees) classRelationTrees.set(key, trees = new Map());
    let shared = trees.get(model);
    if (!shared) {
      const fields = this.boundReadableFields(key);
      shared = { tree: collectRelations(fields, model, new Map()), fields: fields.map(treeSignatureOf) };
      trees.set(model, shared);
    }
    if (this.boundFields === undefined || sameTreeSignatures(shared.fields, this.readableFields)) return shared.tree;
    return null;
  }

  override async loadRelations(): Promise<void> {
    await this.instanceRelationsLoading();
  }

  protected override relationsLoading(): Promise<void> | undefined {
    return this.loadRelations === ModelSerializer.prototype.loadRelations ? this.instanceRelationsLoading() : this.loadRelations();
  }

  /** The loading of the relations of `instance` its fields read, or nothing when all are loaded. */
  private instanceRelationsLoading(): Promise<void> | undefined {
    const instance = this.instance;
    if (!isModelInstance(instance)) return undefined;
    const model = instance.constructor as ModelCtor;
    return relationTreeLoading([instance], model, this.relationsFor(model));
  }
}

/**
 * The original's edge case for `data: null`: a bare `["This field may not be null."]` becomes
 * `{non_field_errors: ["No data provided"]}`, more descriptive for a whole missing body.
 */
function noDataProvided(errors: unknown): unknown {
  if (Array.isArray(errors) && errors.length === 1 && errors[0] instanceof ErrorDetail && errors[0].code === 'null') {
    return { [apiSettings.NON_FIELD_ERRORS_KEY]: [new ErrorDetail('No data provided', 'null')] };
  }
  return errors;
}

function relationNamed(info: ModelInfo, name: string): RelationInfo | undefined {
  const relation = info.getRelation(name);
  return relation && relation.name === name ? relation : undefined;
}

function treeNode(tree: RelationTree, name: string, model: ModelCtor): RelationTree {
  let node = tree.get(name);
  if (!node) {
    node = { model, children: new Map() };
    tree.set(name, node);
  }
  return node.children;
}

/** Record in `tree` every relation the readable `fields` will read on `model` rows; returns `tree`. */
function collectRelations(fields: readonly Field[], model: ModelCtor, tree: RelationTree): RelationTree {
  for (const field of fields) collectFieldRelations(field, model, tree);
  return tree;
}

/** The class of the child whose fields or kind `collectFieldRelations()` reads, or null. */
function treeChildTypeOf(field: Field): object | null {
  if (field instanceof ListSerializer) return field.child.constructor;
  if (field instanceof ManyRelatedField) return field.childRelation.constructor;
  return null;
}

/** True when a related field's pk is read from its foreign key column (its relation is not loaded). */
function readsPkOnly(field: Field): boolean {
  return field instanceof RelatedField && field.usePkOnlyOptimization();
}

/** What of `field` decides the relations it reads (compared by `sameTreeSignatures()`). */
function treeSignatureOf(field: Field): TreeFieldSignature {
  return {
    type: field.constructor,
    name: field.fieldName,
    sourceAttrs: [...field.sourceAttrs],
    pkOnly: readsPkOnly(field),
    childType: treeChildTypeOf(field),
  };
}

/** True when a nested serializer's fields are its class's: never bound, so never changed. */
function untouchedNested(field: Field): boolean {
  if (field instanceof Serializer) return field.sharedFieldsKey() !== null;
  if (field instanceof ListSerializer && field.child instanceof Serializer) return field.child.sharedFieldsKey() !== null;
  return true;
}

/**
 * True when `fields` read the relations the class's fields (`signatures`) read: the same
 * classes, names, source paths and pk-only shortcuts, and nested serializers left untouched.
 */
function sameTreeSignatures(signatures: readonly TreeFieldSignature[], fields: readonly Field[]): boolean {
  if (signatures.length !== fields.length) return false;
  for (let i = 0; i < fields.length; i++) {
    const signature = signatures[i];
    const field = fields[i];
    if (field.constructor !== signature.type || field.fieldName !== signature.name) return false;
    const attrs = field.sourceAttrs;
    if (attrs.length !== signature.sourceAttrs.length) return false;
    for (let j = 0; j < attrs.length; j++) if (attrs[j] !== signature.sourceAttrs[j]) return false;
    if (readsPkOnly(field) !== signature.pkOnly) return false;
    if (treeChildTypeOf(field) !== signature.childType || !untouchedNested(field)) return false;
  }
  return true;
}

function collectFieldRelations(field: Field, model: ModelCtor, tree: RelationTree): void {
  let attrs = field.sourceAttrs;
  if (readsPkOnly(field) && attrs.length) {
    const holderAttrs = attrs.slice(0, -1);
    // The pk of a belongsTo is read from its foreign key column: no need to load the relation.
    let m = model;
    let ok = true;
    for (const attr of holderAttrs) {
      const rel = relationNamed(getFieldInfo(m), attr);
      if (!rel) { ok = false; break; }
      m = rel.target;
    }
    const last = ok ? relationNamed(getFieldInfo(m), attrs[attrs.length - 1]) : undefined;
    if (last && last.kind === 'belongsTo') attrs = holderAttrs;
  }
  let node = tree;
  let current = model;
  for (const attr of attrs) {
    const relation = relationNamed(getFieldInfo(current), attr);
    if (!relation) return;
    node = treeNode(node, attr, relation.target);
    current = relation.target;
  }
  if (field instanceof Serializer) collectRelations(field.readableFields, current, node);
  else if (field instanceof ListSerializer && field.child instanceof Serializer) collectRelations(field.child.readableFields, current, node);
  else if (field instanceof ManyRelatedField && field.childRelation instanceof SlugRelatedField) {
    // Slug fields read plain attributes of the related rows: nothing deeper.
  }
}

/**
 * Load each relation of `tree` missing on `instances` with one query per relation and level;
 * nothing (no promise) when every one is loaded already.
 */
function relationTreeLoading(instances: Model[], model: ModelCtor, tree: RelationTree): Promise<void> | undefined {
  if (relationsAllLoaded(instances, tree)) return undefined;
  const entries = [...tree];
  /** The relations from `index` on, one after the other. */
  const loadFrom = (index: number): Promise<void> | undefined => {
    for (let i = index; i < entries.length; i++) {
      const [name, node] = entries[i];
      const afterThis = (): Promise<void> | undefined => {
        const nested = nestedRelationsLoading(instances, name, node);
        return nested ? nested.then(() => loadFrom(i + 1)) : loadFrom(i + 1);
      };
      const missing = instances.filter((instance) => (instance.dataValues as Record<string, unknown>)[name] === undefined);
      if (missing.length) return prefetchRelatedObjects(missing, model, [name]).then(afterThis);
      const nested = nestedRelationsLoading(instances, name, node);
      if (nested) return nested.then(() => loadFrom(i + 1));
    }
    return undefined;
  };
  return loadFrom(0);
}

/** Whether every relation of `tree` (and of the related rows, level by level) is loaded on `instances`. */
function relationsAllLoaded(instances: readonly Model[], tree: RelationTree): boolean {
  for (const [name, node] of tree) {
    for (const instance of instances) {
      const value = (instance.dataValues as Record<string, unknown>)[name];
      if (value === undefined) return false;
      if (!node.children.size) continue;
      if (Array.isArray(value)) {
        if (!relationsAllLoaded(value as Model[], node.children)) return false;
      } else if (isModelInstance(value) && !relationsAllLoaded([value], node.children)) {
        return false;
      }
    }
  }
  return true;
}

/** The loading of the relations read on the rows related to `instances` by `name`; nothing when none is missing. */
function nestedRelationsLoading(instances: Model[], name: string, node: RelationNode): Promise<void> | undefined {
  if (!node.children.size) return undefined;
  const related: Model[] = [];
  for (const instance of instances) {
    const value = (instance.dataValues as Record<string, unknown>)[name];
    if (Array.isArray(value)) related.push(...(value as Model[]));
    else if (isModelInstance(value)) related.push(value);
  }
  return related.length ? relationTreeLoading(related, node.model, node.children) : undefined;
}

// -- ListSerializer -------------------------------------------------------------------------

/** Options of `ListSerializer`. */
export interface ListSerializerOptions extends SerializerOptions {
  child: AnySerializer;
}

/** Many objects, each handled by `child` (what `many: true` builds). */
export class ListSerializer extends BaseSerializer<unknown, unknown[]> {
  static override defaultErrorMessages: Record<string, string> = {
    not_a_list: 'Expected a list of items but got type "{input_type}".',
    empty: 'This list may not be empty.',
    max_length: 'Ensure this field has no more than {max_length} elements.',
    min_length: 'Ensure this field has at least {min_length} elements.',
  };
  child!: AnySerializer;
  allowEmpty!: boolean;
  maxLength!: number | null;
  minLength!: number | null;
  /** The representation `data` answered, marked with this serializer (`returnList()`). */
  private markedData: ReturnList | undefined;

  constructor(options: ListSerializerOptions) {
    const { child, allowEmpty, maxLength, minLength, ...rest } = options;
    super(rest);
    assert(child !== undefined && child !== null, '`child` is a required argument.');
    assert(child instanceof Field, '`child` has not been instantiated.');
    this.child = child;
    this.allowEmpty = allowEmpty ?? true;
    this.maxLength = maxLength ?? null;
    this.minLength = minLength ?? null;
    this.defaultEmptyHtml = [];
    this.initial = [];
    this.child.bind('', this);
  }

  override copy(): this {
    const clone = super.copy();
    clone.child = this.child.copy();
    clone.child.bind('', clone);
    return clone;
  }

  override getInitial(): unknown {
    if (this.initialData !== empty) return this.toRepresentation(this.initialData);
    return [];
  }

  override getValue(dictionary: unknown): unknown {
    if (isHtmlInput(dictionary)) return parseHtmlList(dictionary, this.fieldName, null) ?? empty;
    return super.getValue(dictionary);
  }

  protected override emptyErrors(): unknown {
    return [];
  }

  override async runValidation(data: unknown = empty): Promise<unknown> {
    return this.runFullValidation(data, (value) => this.validate(value as unknown[]));
  }

  /** List-level validation: check the validated items together and return them. */
  validate(attrs: unknown[]): Promise<unknown[]> | unknown[] {
    return attrs;
  }

  /** Validate one item with the child serializer. */
  async runChildValidation(data: unknown): Promise<unknown> {
    return this.child.runValidation(data);
  }

  override async toInternalValue(data: unknown): Promise<unknown[]> {
    let input = data;
    if (isHtmlInput(input)) input = parseHtmlList(input, '', []);
    const nonField = apiSettings.NON_FIELD_ERRORS_KEY;
    if (!Array.isArray(input)) {
      const message = formatMessage(gettext(this.errorMessages.not_a_list), { input_type: pythonTypeName(input) });
      throw new ValidationError({ [nonField]: [message] }, 'not_a_list');
    }
    if (!this.allowEmpty && input.length === 0) {
      throw new ValidationError({ [nonField]: [gettext(this.errorMessages.empty)] }, 'empty');
    }
    if (this.maxLength !== null && input.length > this.maxLength) {
      throw new ValidationError({ [nonField]: [formatMessage(gettext(this.errorMessages.max_length), { max_length: this.maxLength })] }, 'max_length');
    }
    if (this.minLength !== null && input.length < this.minLength) {
      throw new ValidationError({ [nonField]: [formatMessage(gettext(this.errorMessages.min_length), { min_length: this.minLength })] }, 'min_length');
    }
    const ret: unknown[] = [];
    const errors: unknown[] = [];
    let failed = false;
    for (const item of input) {
      try {
        ret.push(await this.runChildValidation(item));
        errors.push({});
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        errors.push(error.detail);
        failed = true;
      }
    }
    if (failed) throw new ValidationError(errors as never);
    return ret;
  }

  override toRepresentation(data: unknown): unknown[] {
    assert(!isQuerySetLike(data), 'A QuerySet must be fetched before it is represented: use `await serializer.getData()`.');
    const child = this.child;
    if (Array.isArray(data)) {
      const out = new Array<unknown>(data.length);
      for (let i = 0; i < data.length; i++) out[i] = child.toRepresentation(data[i]);
      return out;
    }
    const out: unknown[] = [];
    for (const item of data as Iterable<unknown>) out.push(child.toRepresentation(item));
    return out;
  }

  override async loadRelations(): Promise<void> {
    if (isQuerySetLike(this.instance)) this.instance = await this.instance.fetch();
    await this.rowRelationsLoading();
  }

  protected override relationsLoading(): Promise<void> | undefined {
    if (this.loadRelations !== ListSerializer.prototype.loadRelations || isQuerySetLike(this.instance)) return this.loadRelations();
    return this.rowRelationsLoading();
  }

  /** The loading of the relations the child's fields read, for every row; nothing when all are loaded. */
  private rowRelationsLoading(): Promise<void> | undefined {
    const rows = this.instance;
    if (!Array.isArray(rows) || !rows.length || !(this.child instanceof Serializer)) return undefined;
    const first = rows[0] as unknown;
    if (!isModelInstance(first)) return undefined;
    const model = first.constructor as ModelCtor;
    return relationTreeLoading(rows as Model[], model, this.child.relationsFor(model));
  }

  /** Create every item through the child's `create()`. */
  override async create(validatedData: unknown): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const attrs of validatedData as unknown[]) out.push(await this.child.create(attrs));
    return out;
  }

  override update(instance: unknown, validatedData: unknown): never {
    void instance; void validatedData;
    throw new Error('Serializers with `many: true` do not support multiple update by default, only multiple create. For updates ' +
      'it is unclear how to deal with insertions and deletions. If you need to support multiple update, use a `ListSerializer` ' +
      'class and override `.update()` so you can specify the behavior exactly.');
  }

  protected override mergeExtra(extra: Record<string, unknown>): unknown[] {
    return (this.validatedDataValue as Array<Record<string, unknown>>).map((attrs) => ({ ...attrs, ...extra }));
  }

  override async isValid(options: { raiseException?: boolean } = {}): Promise<boolean> {
    return super.isValid(options);
  }

  override get data(): ReturnList {
    const data = super.data as unknown[];
    if (this.markedData !== data) this.markedData = returnList(data, this);
    return this.markedData;
  }

  override get errors(): ReturnDict | ReturnList {
    const errors = noDataProvided(super.errors);
    if (isPlainObject(errors)) return returnDict(errors, this);
    return returnList(errors as unknown[], this);
  }

  override get validatedData(): unknown[] {
    return super.validatedData;
  }
}

// -- ModelSerializer ------------------------------------------------------------------------

/** `static Meta` of a `ModelSerializer`. */
export interface ModelSerializerMeta {
  model: ModelCtor | (abstract new (...args: never[]) => Model);
  /** Field names, or `'__all__'`. */
  fields?: readonly string[] | typeof ALL_FIELDS;
  exclude?: readonly string[];
  readOnlyFields?: readonly string[];
  /** Extra options per field name: `{ password: { writeOnly: true } }`. */
  extraKwargs?: Record<string, Record<string, unknown>>;
  /** Nest related objects this many levels deep (read-only). */
  depth?: number;
  /** Replace the generated (unique-together) validators. */
  validators?: Validator[];
  listSerializerClass?: typeof ListSerializer;
}

/** The names a `meta()` list holds, as a read-only array of their union (so a subclass may list fewer). */
type NameList<L> = L extends readonly (infer E)[] ? readonly E[] : L;

/** The exactly typed `Meta` that `meta()` returns (assignable to `ModelSerializerMeta`). */
export interface TypedModelSerializerMeta<C extends ModelClass, F, X, R, K> {
  model: C;
  fields: NameList<F>;
  exclude: NameList<X>;
  readOnlyFields: NameList<R>;
  extraKwargs: K;
  depth?: number;
  validators?: Validator[];
  listSerializerClass?: typeof ListSerializer;
}

/**
 * The typed spelling of a `ModelSerializer`'s `static Meta`:
 * `static Meta = serializers.meta({ model: Book, fields: ['id', 'title'] });`. Every name in
 * `fields`, `exclude`, `readOnlyFields` and `extraKwargs` must be an attribute of the model, a
 * declared field (pass the class's `this.fields` as second argument) or `url`: a typo fails to
 * compile. Returns the same object, typed exactly, so `serializers.Infer` can read it.
 */
export function meta<
  C extends ModelClass,
  const F extends readonly MetaFieldName<C, D>[] | typeof ALL_FIELDS | undefined = undefined,
  const X extends readonly MetaFieldName<C, D>[] | undefined = undefined,
  const R extends readonly MetaFieldName<C, D>[] | undefined = undefined,
  const K extends Readonly<Record<string, Readonly<Record<string, unknown>>>> = NoOptions,
  D extends object = NoOptions,
>(spec: {
  model: C;
  fields?: F;
  exclude?: X;
  readOnlyFields?: R;
  extraKwargs?: K & { [P in Exclude<keyof K, MetaFieldName<C, D>>]: never };
  depth?: number;
  validators?: Validator[];
  listSerializerClass?: typeof ListSerializer;
}, declared?: D): TypedModelSerializerMeta<C, F, X, R, K>;
export function meta(spec: ModelSerializerMeta, declared?: object): ModelSerializerMeta {
  void declared;
  return spec;
}

type FieldBuild = [FieldClass, FieldKwargs];

interface FieldPlanCache {
  urlFieldName: string;
  fields: Map<string, Field>;
}

/** Per model's field info: whether a column declares `uniqueForDate`/`Month`/`Year`. */
const uniqueForColumns = new WeakMap<ModelInfo, boolean>();

function hasUniqueForColumns(info: ModelInfo): boolean {
  let answer = uniqueForColumns.get(info);
  if (answer === undefined) {
    answer = info.fields.some((column) => Boolean(column.uniqueForDate || column.uniqueForMonth || column.uniqueForYear));
    uniqueForColumns.set(info, answer);
  }
  return answer;
}

const modelFieldPlans = new WeakMap<object, FieldPlanCache>();

function metaOf(serializer: object): ModelSerializerMeta {
  const cls = serializer.constructor as { name: string; Meta?: ModelSerializerMeta };
  assert(cls.Meta, `Class ${cls.name} missing "Meta" attribute`);
  assert(cls.Meta.model, `Class ${cls.name} missing "Meta.model" attribute`);
  return cls.Meta;
}

function modelOf(meta: ModelSerializerMeta): ModelCtor {
  return meta.model as ModelCtor;
}

/**
 * A `Serializer` whose fields, validators and `create()`/`update()` are generated from a
 * model (`static Meta = { model, fields }`). Declared fields override generated ones.
 */
export class ModelSerializer<M extends Model = Model, TValidated extends object = ModelValidatedData<M>> extends Serializer<M, TValidated> {
  /** Model field class name -> serializer field class. */
  static serializerFieldMapping: Readonly<Record<string, FieldClass>> = serializerFieldMapping;
  /** The field class for relations. */
  static serializerRelatedField: FieldClass = PrimaryKeyRelatedField;
  /** The field class for relations to a non-pk target key. */
  static serializerRelatedToField: FieldClass = SlugRelatedField;
  /** The field class for the object's own URL. */
  static serializerUrlField: FieldClass = HyperlinkedIdentityField;
  /** The field class for columns with choices. */
  static serializerChoiceField: FieldClass = ChoiceField;

  /** The name of the URL field (default: `URL_FIELD_NAME`). */
  get urlFieldName(): string {
    return apiSettings.URL_FIELD_NAME;
  }

  private get statics(): typeof ModelSerializer {
    return this.constructor as typeof ModelSerializer;
  }

  /** The generated and declared fields; computed once per class (and URL field name). */
  override getFields(): Map<string, Field> {
    const cls = this.constructor;
    const cached = modelFieldPlans.get(cls);
    const urlFieldName = this.urlFieldName;
    if (cached && cached.urlFieldName === urlFieldName) return cached.fields;
    const fields = this.buildFields();
    modelFieldPlans.set(cls, { urlFieldName, fields });
    return fields;
  }

  /** Build the fields from `Meta` and the model (the original's `get_fields()`). */
  protected buildFields(): Map<string, Field> {
    const meta = metaOf(this);
    const model = modelOf(meta);
    const declared = getDeclaredFields(this.constructor);
    const depth = meta.depth ?? 0;
    assert(depth >= 0, "'depth' may not be negative.");
    assert(depth <= 10, "'depth' may not be greater than 10.");
    const info = getFieldInfo(model);
    const fieldNames = this.getFieldNames(declared, info);
    const [extraKwargs, hiddenFields] = this.getUniquenessExtraKwargs(fieldNames, declared, this.getExtraKwargs());
    const fields = new Map<string, Field>();
    for (const fieldName of fieldNames) {
      const declaredField = declared.get(fieldName);
      if (declaredField) {
        fields.set(fieldName, declaredField);
        continue;
      }
      const extra = { ...(extraKwargs[fieldName] ?? {}) };
      let source = (extra.source as string | undefined) ?? '*';
      if (source === '*') source = fieldName;
      const [FieldCls, kwargs] = this.buildField(source, info, model, depth);
      const merged = this.includeExtraKwargs(kwargs, extra);
      fields.set(fieldName, new (FieldCls as unknown as new (options: FieldKwargs) => Field)(merged));
    }
    for (const [name, field] of hiddenFields) fields.set(name, field);
    return fields;
  }

  /** The names of the fields to build, from `Meta.fields` / `Meta.exclude`. */
  getFieldNames(declared: Map<string, Field>, info: ModelInfo): string[] {
    const meta = metaOf(this);
    const cls = this.constructor as { name: string };
    const fields = meta.fields;
    const exclude = meta.exclude;
    if (fields && fields !== ALL_FIELDS && !Array.isArray(fields)) {
      throw new TypeError(`The \`fields\` option must be a list or tuple or "__all__". Got ${pythonTypeName(fields)}.`);
    }
    if (exclude && !Array.isArray(exclude)) {
      throw new TypeError(`The \`exclude\` option must be a list or tuple. Got ${pythonTypeName(exclude)}.`);
    }
    assert(!(fields && exclude), `Cannot set both 'fields' and 'exclude' options on serializer ${cls.name}.`);
    assert(!(fields === undefined && exclude === undefined),
      "Creating a ModelSerializer without either the 'fields' attribute or the 'exclude' attribute has been deprecated " +
      `since 3.3.0, and is now disallowed. Add an explicit fields = '__all__' to the ${cls.name} serializer.`);
    if (fields && fields !== ALL_FIELDS) {
      const parent = Object.getPrototypeOf(this.constructor) as object;
      const inherited = parent instanceof Function && parent.prototype instanceof Serializer ? getDeclaredFields(parent) : new Map();
      for (const name of declared.keys()) {
        if (inherited.has(name)) continue;
        assert(fields.includes(name),
          `The field '${name}' was declared on serializer ${cls.name}, but has not been included in the 'fields' option.`);
      }
      return [...fields];
    }
    const names = this.getDefaultFieldNames(declared, info);
    if (exclude) {
      for (const name of exclude) {
        assert(!declared.has(name),
          `Cannot both declare the field '${name}' and include it in the ${cls.name} 'exclude' option. Remove the field or, ` +
          `if inherited from a parent serializer, disable with \`${name} = None\`.`);
        assert(names.includes(name),
          `The field '${name}' was included on serializer ${cls.name} in the 'exclude' option, but does not match any model field.`);
        names.splice(names.indexOf(name), 1);
      }
    }
    return names;
  }

  /** The field names used for `'__all__'`: pk, declared, columns, forward relations. */
  getDefaultFieldNames(declared: Map<string, Field>, info: ModelInfo): string[] {
    return unique([info.pk.name, ...declared.keys(), ...modelColumns(info), ...forwardRelations(info)]);
  }

  /** The field class and options for `fieldName` (a column, relation, property or URL). */
  buildField(fieldName: string, info: ModelInfo, model: ModelCtor, depth: number): FieldBuild {
    const column = info.getField(fieldName);
    if (column && (!column.relation || fieldName !== column.relation)) return this.buildStandardField(fieldName, column, model);
    const relation = relationNamed(info, fieldName);
    if (relation) {
      return depth ? this.buildNestedField(fieldName, relation, depth) : this.buildRelationalField(fieldName, relation, info, model);
    }
    if (fieldName in (model.prototype as object)) return this.buildPropertyField(fieldName, model);
    if (fieldName === this.urlFieldName) return this.buildUrlField(fieldName, model);
    return this.buildUnknownField(fieldName, model);
  }

  /** A plain column: mapped by its Django field class; columns with choices become `ChoiceField`. */
  buildStandardField(fieldName: string, column: FieldInfo, model: ModelCtor): FieldBuild {
    let FieldCls: FieldClass = this.statics.serializerFieldMapping[column.fieldType] ?? ModelField;
    const kwargs = getFieldKwargs(fieldName, column, model);
    if ('choices' in kwargs) {
      FieldCls = this.statics.serializerChoiceField;
      const valid = new Set(['readOnly', 'writeOnly', 'required', 'default', 'initial', 'source', 'label', 'helpText',
        'style', 'errorMessages', 'validators', 'allowNull', 'allowBlank', 'choices']);
      for (const key of Object.keys(kwargs)) if (!valid.has(key)) delete kwargs[key];
    }
    if (FieldCls !== ModelField && !(FieldCls.prototype instanceof ModelField)) delete kwargs.modelField;
    if (!(FieldCls.prototype instanceof CharField) && FieldCls !== CharField
      && !(FieldCls.prototype instanceof ChoiceField) && FieldCls !== ChoiceField) delete kwargs.allowBlank;
    if (FieldCls.prototype instanceof CharField || FieldCls === CharField) {
      // max digits and places only make sense for decimals.
      delete kwargs.maxDigits;
      delete kwargs.decimalPlaces;
    }
    return [FieldCls, kwargs];
  }

  /** A relation: `serializerRelatedField` (a pk or hyperlink field) with `many` for to-many. */
  buildRelationalField(fieldName: string, relation: RelationInfo, info: ModelInfo, model: ModelCtor): FieldBuild {
    const FieldCls = this.statics.serializerRelatedField;
    const fkField = relation.kind === 'belongsTo' ? info.getField(relation.foreignKey) ?? null : null;
    const kwargs = getRelationKwargs(fieldName, relation, model, fkField);
    if (!(FieldCls.prototype instanceof HyperlinkedRelatedField) && (FieldCls as unknown) !== HyperlinkedRelatedField) {
      delete kwargs.viewName;
    }
    return [FieldCls, kwargs];
  }

  /** A read-only nested serializer of the related model, one level shallower. */
  buildNestedField(fieldName: string, relation: RelationInfo, depth: number): FieldBuild {
    void fieldName;
    const Base = this.nestedBaseClass();
    class NestedSerializer extends Base {
      static Meta: ModelSerializerMeta = { model: relation.target, depth: depth - 1, fields: ALL_FIELDS };
    }
    return [NestedSerializer, getNestedRelationKwargs(relation)];
  }

  /** The serializer class nested serializers (for `depth`) derive from. */
  protected nestedBaseClass(): typeof ModelSerializer {
    return ModelSerializer;
  }

  /** A model method or property: read-only. */
  buildPropertyField(fieldName: string, model: ModelCtor): FieldBuild {
    void fieldName; void model;
    return [ReadOnlyField, {}];
  }

  /** The object's own URL. */
  buildUrlField(fieldName: string, model: ModelCtor): FieldBuild {
    void fieldName;
    return [this.statics.serializerUrlField, getUrlKwargs(model)];
  }

  /** An unknown name: a configuration error. */
  buildUnknownField(fieldName: string, model: ModelCtor): never {
    throw new ImproperlyConfigured(`Field name \`${fieldName}\` is not valid for model \`${model.name}\`.`);
  }

  /** Merge `Meta.extraKwargs` for one field into its generated options. */
  includeExtraKwargs(kwargs: FieldKwargs, extra: FieldKwargs): FieldKwargs {
    const out = { ...kwargs };
    const extraOut = { ...extra };
    if (extraOut.readOnly) {
      for (const key of ['required', 'default', 'allowBlank', 'minLength', 'maxLength', 'minValue', 'maxValue', 'validators', 'queryset']) {
        delete out[key];
      }
    }
    if (extraOut.default !== undefined && out.required === false) delete out.required;
    if (extraOut.readOnly ?? out.readOnly) delete extraOut.required;
    return { ...out, ...extraOut };
  }

  /** `Meta.extraKwargs` plus `{ readOnly: true }` for each `Meta.readOnlyFields` name. */
  getExtraKwargs(): Record<string, FieldKwargs> {
    const meta = metaOf(this);
    const extra: Record<string, FieldKwargs> = {};
    for (const [name, kwargs] of Object.entries(meta.extraKwargs ?? {})) extra[name] = { ...kwargs };
    if (meta.readOnlyFields !== undefined) {
      if (!Array.isArray(meta.readOnlyFields)) {
        throw new TypeError(`The \`Meta.readOnlyFields\` option must be an array. Got ${pythonTypeName(meta.readOnlyFields)}.`);
      }
      for (const name of meta.readOnlyFields) extra[name] = { ...(extra[name] ?? {}), readOnly: true };
    }
    return extra;
  }

  /** Fields of `uniqueTogether` sets become required (or get their model default). */
  getUniquenessExtraKwargs(fieldNames: string[], declared: Map<string, Field>, extraKwargs: Record<string, FieldKwargs>): [Record<string, FieldKwargs>, Map<string, Field>] {
    const meta = metaOf(this);
    const hidden = new Map<string, Field>();
    if (meta.validators !== undefined) return [extraKwargs, hidden];
    const model = modelOf(meta);
    const info = getFieldInfo(model);
    const sources = new Set(fieldNames.map((name) => {
      const field = declared.get(name);
      return field ? field.source ?? name : (extraKwargs[name]?.source as string | undefined) ?? name;
    }));
    const constraintNames = new Set<string>();
    // The date fields of `uniqueForDate`/`Month`/`Year` columns the serializer writes.
    for (const source of sources) {
      const column = info.getField(source);
      if (!column) continue;
      for (const dateField of [column.uniqueForDate, column.uniqueForMonth, column.uniqueForYear]) {
        if (dateField) constraintNames.add(dateField);
      }
    }
    for (const together of uniqueTogetherOf(model)) {
      if (together.every((name) => sources.has(name) || fieldNames.includes(name))) for (const name of together) constraintNames.add(name);
    }
    for (const name of constraintNames) {
      const column = info.getField(name) ?? info.getField(relationNamed(info, name)?.foreignKey ?? '');
      let defaultValue: unknown = empty;
      if (column?.autoNowAdd) defaultValue = new CreateOnlyDefault(() => new Date());
      else if (column?.autoNow) defaultValue = () => new Date();
      else if (column?.hasDefault) defaultValue = column.default;
      if (fieldNames.includes(name)) {
        const value: FieldKwargs = defaultValue === empty ? { required: true } : { default: defaultValue };
        extraKwargs[name] = { ...value, ...(extraKwargs[name] ?? {}) };
      } else if (defaultValue !== empty) {
        hidden.set(name, new HiddenField({ default: defaultValue }));
      }
    }
    return [extraKwargs, hidden];
  }

  override getValidators(): Validator[] {
    const meta = metaOf(this);
    if (meta.validators !== undefined) return [...meta.validators];
    return [...this.getUniqueTogetherValidators(), ...this.getUniqueForDateValidators()];
  }

  /** A `UniqueFor{Date,Month,Year}Validator` per column declaring `uniqueFor*` that the fields write. */
  getUniqueForDateValidators(): Validator[] {
    const model = modelOf(metaOf(this));
    // Most models declare no `uniqueFor*` column: nothing to match against the fields.
    if (!hasUniqueForColumns(getFieldInfo(model))) return [];
    const sources = new Set([...this.fields.values()].map((field) => field.source));
    const validators: Validator[] = [];
    // The queryset only when a column needs one: getValidators() runs per serializer instance.
    let shared: unknown;
    for (const column of getFieldInfo(model).fields) {
      if (!sources.has(column.name) || !(column.uniqueForDate || column.uniqueForMonth || column.uniqueForYear)) continue;
      shared ??= modelQueryset(model);
      const queryset = shared as never;
      if (column.uniqueForDate) validators.push(new UniqueForDateValidator({ queryset, field: column.name, dateField: column.uniqueForDate }));
      if (column.uniqueForMonth) validators.push(new UniqueForMonthValidator({ queryset, field: column.name, dateField: column.uniqueForMonth }));
      if (column.uniqueForYear) validators.push(new UniqueForYearValidator({ queryset, field: column.name, dateField: column.uniqueForYear }));
    }
    return validators;
  }

  /** One `UniqueTogetherValidator` per `meta.uniqueTogether` set the fields cover. */
  getUniqueTogetherValidators(): Validator[] {
    const model = modelOf(metaOf(this));
    // Most models declare no unique sets: nothing to map (getValidators() runs per serializer instance).
    if (!uniqueTogetherOf(model).length) return [];
    const fieldSources = new Map<string, string>();
    for (const field of this.writableFields) {
      if (field.source !== '*' && !String(field.source).includes('.')) fieldSources.set(field.fieldName, String(field.source));
    }
    for (const field of this.fields.values()) {
      if (field.readOnly && field.default !== empty && field.source !== '*' && !String(field.source).includes('.')) {
        fieldSources.set(field.fieldName, String(field.source));
      }
    }
    const sourceMap = new Map<string, string[]>();
    for (const [name, source] of fieldSources) sourceMap.set(source, [...(sourceMap.get(source) ?? []), name]);
    const validators: Validator[] = [];
    for (const together of uniqueTogetherOf(model)) {
      if (!together.every((source) => sourceMap.has(source))) continue;
      for (const source of together) {
        const names = sourceMap.get(source) as string[];
        assert(names.length === 1,
          `Unable to create \`UniqueTogetherValidator\` for \`${model.name}.${source}\` as \`${this.constructor.name}\` has ` +
          `multiple fields (${names.join(', ')}) that map to this model field. Either remove the extra fields, or override ` +
          '`Meta.validators` with a `UniqueTogetherValidator` using the desired field names.');
      }
      const fieldNames = together.map((source) => (sourceMap.get(source) as string[])[0]);
      validators.push(new UniqueTogetherValidator({ queryset: modelQueryset(model) as never, fields: fieldNames }));
    }
    return validators;
  }

  /** Refuse writable nested data in the default `create()`/`update()`, as the original does. */
  protected raiseErrorsOnNestedWrites(methodName: string, validatedData: Record<string, unknown>): void {
    const info = getFieldInfo(modelOf(metaOf(this)));
    // The messages are built only when a check fails (this runs on every create() and update()).
    const nestedValue = (name: string): boolean => name in validatedData && relationNamed(info, name) !== undefined
      && (Array.isArray(validatedData[name]) || isPlainObject(validatedData[name]));
    for (const field of this.writableFields) {
      if (field instanceof BaseSerializer && nestedValue(String(field.source))) {
        assert.fail(`The \`.${methodName}()\` method does not support writable nested fields by default.\nWrite an explicit ` +
          `\`.${methodName}()\` method for serializer \`${this.constructor.name}\`, or set \`readOnly: true\` on nested serializer fields.`);
      }
      if (field.sourceAttrs.length > 1 && nestedValue(field.sourceAttrs[0])) {
        assert.fail(`The \`.${methodName}()\` method does not support writable dotted-source fields by default.\nWrite an explicit ` +
          `\`.${methodName}()\` method for serializer \`${this.constructor.name}\`, or set \`readOnly: true\` on dotted-source serializer fields.`);
      }
    }
  }

  /** Split validated data into column values and to-many relation values. */
  private splitRelations(model: ModelCtor, validatedData: Record<string, unknown>): {
    values: Record<string, unknown>; belongsTo: Array<[RelationInfo, unknown]>; toMany: Array<[RelationInfo, unknown[]]>;
  } {
    const info = getFieldInfo(model);
    const values: Record<string, unknown> = {};
    const belongsTo: Array<[RelationInfo, unknown]> = [];
    const toMany: Array<[RelationInfo, unknown[]]> = [];
    for (const [key, value] of Object.entries(validatedData)) {
      const relation = relationNamed(info, key);
      if (relation && relation.many) {
        toMany.push([relation, (value as unknown[]) ?? []]);
      } else if (relation && relation.kind === 'belongsTo') {
        belongsTo.push([relation, value]);
        values[relation.foreignKey] = value === null || value === undefined ? null : (value as { pk: unknown }).pk;
      } else {
        values[key] = value;
      }
    }
    return { values, belongsTo, toMany };
  }

  /**
   * Create the model instance, setting to-many relations afterwards. A unique constraint
   * violated by a concurrent request becomes a `ValidationError`, not a server error.
   */
  override async create(validatedData: TValidated): Promise<M> {
    const data = validatedData as Record<string, unknown>;
    this.raiseErrorsOnNestedWrites('create', data);
    const model = modelOf(metaOf(this));
    const { values, belongsTo, toMany } = this.splitRelations(model, data);
    let instance: Model;
    try {
      instance = await (model as ModelCtor & { objects: { create(v: Record<string, unknown>): Promise<Model> } }).objects.create(values);
    } catch (error) {
      throw this.translateIntegrityError(error, model);
    }
    for (const [relation, value] of belongsTo) attachRelated(instance, relation.name, value);
    await this.setManyRelations(model, instance, toMany);
    return instance as M;
  }

  /** Apply the validated data to `instance`, save it and set to-many relations. */
  override async update(instance: M, validatedData: TValidated): Promise<M> {
    const data = validatedData as Record<string, unknown>;
    this.raiseErrorsOnNestedWrites('update', data);
    const model = modelOf(metaOf(this));
    const { values, belongsTo, toMany } = this.splitRelations(model, data);
    const row = instance;
    for (const [key, value] of Object.entries(values)) row.set(key, value as never);
    try {
      await row.save();
    } catch (error) {
      throw this.translateIntegrityError(error, model);
    }
    for (const [relation, value] of belongsTo) attachRelated(row, relation.name, value);
    await this.setManyRelations(model, row, toMany);
    return row;
  }

  private async setManyRelations(model: ModelCtor, instance: Model, toMany: Array<[RelationInfo, unknown[]]>): Promise<void> {
    for (const [relation, items] of toMany) {
      const association = (model.associations as Record<string, { set?: (source: Model, targets: unknown[]) => Promise<unknown> }>)[relation.name];
      assert(association && typeof association.set === 'function', `Cannot set relation \`${relation.name}\` of ${model.name}.`);
      await association.set(instance, items);
      // Read the relation back as a GET reads it (the related model's ordering), not in the
      // order the input listed it: create/update and later reads answer the same order.
      attachRelated(instance, relation.name, undefined);
      await prefetchRelatedObjects([instance], model, [relation.name]);
    }
  }

  /** A unique-constraint error from the database as the field's "already exists" error. */
  protected translateIntegrityError(error: unknown, model: ModelCtor): unknown {
    if (!(error instanceof Error) || error.name !== 'SequelizeUniqueConstraintError') return error;
    const info = getFieldInfo(model);
    const rawFields = (error as { fields?: string[] | Record<string, unknown> }).fields ?? {};
    const columns = (Array.isArray(rawFields) ? rawFields : Object.keys(rawFields)).map((c) => c.split('.').pop() as string);
    const detail: Record<string, string[]> = {};
    for (const column of columns) {
      const fieldInfo = info.fields.find((f) => f.column === column || f.name === column);
      if (!fieldInfo) continue;
      const fieldName = [...this.fields.values()].find((f) => f.source === fieldInfo.name || f.source === fieldInfo.relation)?.fieldName
        ?? fieldInfo.name;
      detail[fieldName] = [getUniqueErrorMessage(model, fieldInfo)];
    }
    if (columns.length > 1 || !Object.keys(detail).length) {
      const together = uniqueTogetherOf(model).find((set) => set.length === columns.length) ?? columns;
      return new ValidationError({ [apiSettings.NON_FIELD_ERRORS_KEY]: [
        formatMessage(gettext('The fields {field_names} must make a unique set.'), { field_names: together.join(', ') })] }, 'unique');
    }
    return new ValidationError(detail, 'unique');
  }
}

function attachRelated(instance: Model, name: string, value: unknown): void {
  (instance.dataValues as Record<string, unknown>)[name] = value;
  Object.assign(instance, { [name]: value });
}

function modelQueryset(model: ModelCtor): unknown {
  return (model as ModelCtor & { objects: { all(): unknown } }).objects.all();
}

function uniqueTogetherOf(model: ModelCtor): ReadonlyArray<readonly string[]> {
  return (model as ModelCtor & { meta?: { uniqueTogether?: ReadonlyArray<readonly string[]> } }).meta?.uniqueTogether ?? [];
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

/** Plain columns (not the pk, not foreign-key columns of a relation). */
function modelColumns(info: ModelInfo): string[] {
  return info.fields.filter((f) => !f.primaryKey && !f.relation).map((f) => f.name);
}

/** Relations declared on this model (belongsTo, belongsToMany), not reverse accessors. */
function forwardRelations(info: ModelInfo): string[] {
  return info.relations.filter((r) => !r.reverse && (r.kind === 'belongsTo' || r.kind === 'belongsToMany')).map((r) => r.name);
}

/** A `ModelSerializer` whose relations (and own identity, `url`) are hyperlinks. */
export class HyperlinkedModelSerializer<M extends Model = Model, TValidated extends object = ModelValidatedData<M>>
  extends ModelSerializer<M, TValidated> {
  /** Type-level only: `serializers.Infer` represents this serializer's relations as URLs. */
  declare static readonly '~hyperlinked'?: HyperlinkedMarker['~hyperlinked'];
  static override serializerRelatedField: FieldClass = HyperlinkedRelatedField;

  override getDefaultFieldNames(declared: Map<string, Field>, info: ModelInfo): string[] {
    return unique([this.urlFieldName, ...declared.keys(), ...modelColumns(info), ...forwardRelations(info)]);
  }

  protected override nestedBaseClass(): typeof ModelSerializer {
    return HyperlinkedModelSerializer;
  }
}

export { ManyRelatedField, RelatedField };
