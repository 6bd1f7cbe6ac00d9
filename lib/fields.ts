/**
 * Serializer fields: each converts one value between its primitive (JSON) representation
 * and its native (model) value, and validates incoming data.
 *
 * Fields are declared once per serializer class and never mutated afterwards: a serializer
 * instance binds cheap copies (`field.copy()`) of its class's fields. Subclass `Field` and
 * override `toRepresentation()` / `toInternalValue()` for custom types.
 */
import assert from 'node:assert';
import * as fs from 'node:fs';
import { ErrorDetail, ValidationError } from './exceptions';
import { apiSettings, ISO_8601 } from './settings';
import { settings } from './core/conf';
import { gettext } from './core/i18n';
import { pythonRepr, pythonStr } from './core/pythonRepr';
import { isPlainObject } from './core/typeGuards';
import { numberFormat, sanitizeSeparators } from './core/formats';
import {
  EmailValidator, invokeValidator, formatMessage, isIPAddress, lazyFormat, MaxLengthValidator, MaxValueValidator,
  MinLengthValidator, MinValueValidator, ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator,
  RegexValidator, URLValidator, type LazyMessage, type Validator,
} from './validators';
import {
  DateValueError, durationString, formatDate, formatTime, fromZonedParts, humanizeFormats, isoformatDatetime,
  parseDate, parseDatetime, parseDuration, parseTime, strftime, strptime, timedeltaString, toZonedParts, wallTimeInstants,
  type DateTimeParts, type ParsedDateTime,
} from './utils/datetimeFormat';
import { htmlHas, isHtmlInput, parseHtmlDict, parseHtmlList, type MultiValueInput } from './utils/html';
import { getDecimal, quantizeDecimal, type DecimalTuple } from './utils/decimal';
import { deferValue, isThenable } from './utils/pendingValues';
import { shallowClone } from './utils/shallowClone';
import { dumps, floatRepr, loads } from './utils/json';
import type { ChildInput, ChildOutput, ChoiceValue, DefaultValue, FieldTypes, Localized, NoOptions } from './fieldTypes';

export type { FieldInput, FieldOptionsOf, FieldOutput, FieldTypes, NoOptions } from './fieldTypes';

// -- Sentinels ------------------------------------------------------------------------------

/** Marks "no value was given" (distinct from `null` and `undefined`). */
export const empty: unique symbol = Symbol('empty');
/** The type of the `empty` sentinel. */
export type Empty = typeof empty;

/** Thrown by `getAttribute`/`getDefault`/`runValidation` to leave a field out altogether. */
export class SkipField extends Error {
  override name = 'SkipField';
}

/** Something that produces a default from the field it is used on (`requiresContext`). */
export interface ContextualDefault {
  readonly requiresContext: true;
  call(field: Field): unknown;
}

/** A validation error of the host layer's validators (not an API exception): `message` and `code`. */
function isHostValidationError(error: unknown): error is Error & { code?: string } {
  return error instanceof Error && error.name === 'ValidationError' && !(error instanceof ValidationError);
}

function isContextualDefault(value: unknown): value is ContextualDefault {
  return value !== null && typeof value === 'object' && (value as { requiresContext?: unknown }).requiresContext === true
    && typeof (value as { call?: unknown }).call === 'function';
}

/** A default computed by a function; set `requiresContext` on it to receive the field. */
export type DefaultFunction = (() => unknown) | (((field: Field) => unknown) & { requiresContext: true });

/** Options shared by every field. */
export interface FieldOptions {
  /** Only used for output; ignored on input. */
  readOnly?: boolean;
  /** Only used for input; left out of the representation. */
  writeOnly?: boolean;
  /** Input must include this field; defaults to true unless a default is set or the field is read-only. */
  required?: boolean;
  /** Value (or function) used when the field is missing from input. */
  default?: unknown;
  /** Value used to pre-populate HTML forms. */
  initial?: unknown;
  /** Attribute to read and write (`'owner.username'`, `'*'` for the whole object). */
  source?: string;
  label?: string;
  helpText?: string;
  /** Rendering hints for HTML forms (`{ base_template: 'textarea.html' }`). */
  style?: Record<string, unknown>;
  /** Replace some of the field's error message texts, by code. */
  errorMessages?: Record<string, string>;
  validators?: Validator[];
  /** Accept `null` as a valid value. */
  allowNull?: boolean;
}

let fieldRepr: ((field: Field) => string) | null = null;

/** Install the representation `String(field)` uses (`utils/representation` does, when loaded). */
export function setFieldRepr(repr: (field: Field) => string): void {
  fieldRepr = repr;
}

/** The parent a field is bound to: a serializer (or a list/dict field). */
export interface FieldParent {
  readonly parent: FieldParent | null;
  readonly partial?: boolean;
  readonly instance?: unknown;
}

// -- Helpers --------------------------------------------------------------------------------

/** Python's name for the type of a JSON-ish value (`str`, `int`, `dict`, `list`, ...). */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'bigint') return 'int';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Set) return 'set';
  if (Buffer.isBuffer(value)) return 'bytes';
  if (typeof value === 'object') {
    const ctor = (value as object).constructor;
    return !ctor || ctor === Object ? 'dict' : ctor.name;
  }
  return typeof value;
}

export { pythonStr };

/** Model-like instances keep attribute values in `dataValues` (Sequelize). */
interface DataValuesHolder { dataValues: Record<string, unknown> }

function hasDataValues(value: object): value is DataValuesHolder {
  const dv = (value as { dataValues?: unknown }).dataValues;
  return dv !== null && typeof dv === 'object';
}

/** Raised when an attribute is missing from the object being serialized. */
export class AttributeMissing extends Error {
  override name = 'AttributeError';
}

/**
 * Read `attrs` one after another from `instance` (objects, maps and model instances).
 * Functions found on the way are called (bound), as the original does with callables.
 * Throws `AttributeMissing` when an attribute does not exist.
 */
export function getAttribute(instance: unknown, attrs: readonly string[]): unknown {
  let current = instance;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i];
    if (current === null || current === undefined) {
      throw new AttributeMissing(`'NoneType' object has no attribute '${attr}'`);
    }
    if (typeof current !== 'object' && typeof current !== 'function') {
      const boxed = Object(current) as Record<string, unknown>;
      if (!(attr in boxed)) throw new AttributeMissing(`'${pythonTypeName(current)}' object has no attribute '${attr}'`);
      current = boxed[attr];
    } else if (current instanceof Map) {
      if (!current.has(attr)) throw new AttributeMissing(`'${attr}'`);
      current = current.get(attr);
    } else {
      const obj = current as Record<string, unknown>;
      let value: unknown;
      if (hasDataValues(obj) && attr in obj.dataValues && !hasCustomGetter(obj, attr)) {
        value = obj.dataValues[attr];
      } else {
        value = obj[attr];
        if (value === undefined && hasDataValues(obj) && isUnloadedRelation(obj, attr)) {
          throw new Error(`The relation \`${attr}\` of ${obj.constructor.name} is not loaded: use \`await serializer.getData()\` ` +
            '(it loads the relations the fields need in bulk), or selectRelated()/prefetchRelated() on the queryset.');
        }
        if (value === undefined && !(attr in obj)) {
          throw new AttributeMissing(`'${pythonTypeName(current)}' object has no attribute '${attr}'`);
        }
      }
      if (typeof value === 'function' && !isClass(value)) value = (value as () => unknown).call(current);
      current = value;
    }
  }
  return current;
}

function isUnloadedRelation(instance: DataValuesHolder, attr: string): boolean {
  const associations = (instance.constructor as { associations?: Record<string, unknown> }).associations;
  return Boolean(associations && attr in associations) && instance.dataValues[attr] === undefined;
}

function isClass(fn: unknown): boolean {
  return typeof fn === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

const customGetterCache = new WeakMap<object, Set<string>>();
let lastGetterClass: object | null = null;
let lastGetters: Set<string> | null = null;

/** Whether a Sequelize model class defines a custom getter for `attr` (then read through it). */
function hasCustomGetter(instance: object, attr: string): boolean {
  return classHasCustomGetter(instance.constructor, attr);
}

/**
 * Whether instances of the model class `ctor` must read `attr` through a custom getter
 * rather than straight from `dataValues` (computed once per class).
 */
export function classHasCustomGetter(ctor: object, attr: string): boolean {
  if (ctor === lastGetterClass) return (lastGetters as Set<string>).has(attr);
  let getters = customGetterCache.get(ctor);
  if (!getters) {
    getters = new Set<string>();
    const raw = (ctor as { rawAttributes?: Record<string, { get?: unknown }> }).rawAttributes;
    if (raw) for (const [name, def] of Object.entries(raw)) if (typeof def.get === 'function') getters.add(name);
    const custom = (ctor as { _customGetters?: Record<string, unknown> })._customGetters;
    if (custom) for (const name of Object.keys(custom)) getters.add(name);
    customGetterCache.set(ctor, getters);
  }
  lastGetterClass = ctor;
  lastGetters = getters;
  return getters.has(attr);
}

/** `setValue(obj, ['a', 'b'], 1)` sets `obj.a.b = 1`, creating objects; `[]` merges `value` into `obj`. */
export function setValue(dictionary: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  if (!keys.length) {
    Object.assign(dictionary, value as Record<string, unknown>);
    return;
  }
  let current = dictionary;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i];
    if (!isPlainObject(current[key])) current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  current[keys[keys.length - 1]] = value;
}

const errorMessageCache = new WeakMap<object, Record<string, string>>();

function classErrorMessages(cls: typeof Field): Record<string, string> {
  let messages = errorMessageCache.get(cls);
  if (!messages) {
    const chain: Array<typeof Field> = [];
    for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      chain.unshift(c as typeof Field);
    }
    messages = {};
    for (const c of chain) {
      if (Object.prototype.hasOwnProperty.call(c, 'defaultErrorMessages')) Object.assign(messages, c.defaultErrorMessages);
    }
    errorMessageCache.set(cls, messages);
  }
  return messages;
}

const NOT_READ_ONLY_WRITE_ONLY = 'May not set both `readOnly` and `writeOnly`';
const NOT_READ_ONLY_REQUIRED = 'May not set both `readOnly` and `required`';
const NOT_REQUIRED_DEFAULT = 'May not set both `required` and `default`';
const USE_READONLYFIELD = 'Field({ readOnly: true }) should be ReadOnlyField';

/**
 * Keep a failed validator's messages in `errors`: a `ValidationError` with a list of
 * messages, or a model validator's error of the host layer (the original's Django
 * `ValidationError`); anything else is thrown on.
 */
function collectValidatorError(error: unknown, errors: unknown[]): void {
  if (isHostValidationError(error)) {
    errors.push(new ErrorDetail(error.message, error.code ?? 'invalid'));
    return;
  }
  if (!(error instanceof ValidationError)) throw error;
  if (!Array.isArray(error.detail)) throw error;
  errors.push(...error.detail);
}

// -- Field ----------------------------------------------------------------------------------

/**
 * The base class of all fields. Override `toRepresentation()` and `toInternalValue()`;
 * override `getAttribute()`/`getValue()` to change where values are read from.
 */
export class Field<TOutput = unknown, TInput = TOutput, TOptions extends FieldOptions = NoOptions> {
  /** Error message texts by code; merged along the class chain. */
  static defaultErrorMessages: Record<string, string> = {
    required: 'This field is required.',
    null: 'This field may not be null.',
  };
  /** Validators every instance starts with. */
  static defaultValidators: readonly Validator[] = [];
  /** Value used in HTML forms when the field is absent (`empty`: no special handling). */
  defaultEmptyHtml: unknown = empty;

  readOnly: boolean;
  writeOnly: boolean;
  required: boolean;
  default: unknown;
  source: string | null;
  initial: unknown;
  label: string | null;
  helpText: string | null;
  style: Record<string, unknown>;
  allowNull: boolean;
  errorMessages: Record<string, string>;
  /** Set by `bind()`. */
  fieldName = '';
  /** Set by `bind()`: the serializer (or list/dict field) this field belongs to. */
  parent: FieldParent | null = null;
  /** `source` split on dots; set by `bind()`. `[]` for `source: '*'`. */
  sourceAttrs: string[] = [];
  private validatorList: Validator[] | null = null;
  /** `source` and `label` as declared, restored by `copy()` before rebinding. */
  private declared: { source: string | null; label: string | null };
  /** The base options the field was declared with (for `String(field)`, see `utils/representation`). */
  readonly declaredOptions: Readonly<FieldOptions>;
  /**
   * Type-level only (never set at run time): the representation and validated value types and
   * the options the field was declared with, read by `serializers.Infer` (see `FieldOutput`).
   */
  declare readonly '~types'?: FieldTypes<TOutput, TInput, TOptions>;

  constructor(options: FieldOptions = {}) {
    this.declaredOptions = options;
    const readOnly = options.readOnly ?? false;
    const hasDefault = Object.prototype.hasOwnProperty.call(options, 'default') && options.default !== undefined;
    const required = options.required ?? (!hasDefault && !readOnly);
    assert(!(readOnly && options.writeOnly), NOT_READ_ONLY_WRITE_ONLY);
    assert(!(readOnly && required), NOT_READ_ONLY_REQUIRED);
    assert(!(required && hasDefault), NOT_REQUIRED_DEFAULT);
    assert(!(readOnly && new.target === Field), USE_READONLYFIELD);
    this.readOnly = readOnly;
    this.writeOnly = options.writeOnly ?? false;
    this.required = required;
    this.default = hasDefault ? options.default : empty;
    this.source = options.source ?? null;
    this.initial = Object.prototype.hasOwnProperty.call(options, 'initial') ? options.initial : this.classInitial();
    this.label = options.label ?? null;
    this.declared = { source: this.source, label: this.label };
    this.helpText = options.helpText ?? null;
    this.style = options.style ?? {};
    this.allowNull = options.allowNull ?? false;
    if (options.validators) this.validatorList = [...options.validators];
    this.errorMessages = { ...classErrorMessages(new.target), ...(options.errorMessages ?? {}) };
  }

  /**
   * The field and the options it was declared with, as the original's `repr()`:
   * `CharField(max_length=100, required=False)`; a serializer lists its fields below it.
   */
  toString(): string {
    return fieldRepr ? fieldRepr(this) : `${this.constructor.name}()`;
  }

  /** The initial value for HTML forms when none is given; override per field type. */
  protected classInitial(): unknown {
    return null;
  }

  /** Called after `defaultEmptyHtml` is set by subclasses: a default replaces it. */
  protected adoptDefaultForEmptyHtml(): void {
    if (this.defaultEmptyHtml !== empty && this.default !== empty) this.defaultEmptyHtml = this.default;
  }

  /**
   * A fresh, unbound copy of this field, for binding to a serializer instance.
   * Override when the field owns other fields (a `child`), to copy them too.
   */
  copy(): this {
    const clone = shallowClone(this);
    clone.fieldName = '';
    clone.parent = null;
    clone.source = this.declared.source;
    clone.label = this.declared.label;
    clone.sourceAttrs = [];
    if (this.validatorList) clone.validatorList = [...this.validatorList];
    return clone;
  }

  /** Attach the field to `parent` under `fieldName`; fills in `label`, `source` and `sourceAttrs`. */
  bind(fieldName: string, parent: FieldParent): void {
    if (this.source === fieldName) {
      // The message is built only when it is needed: bind() runs for every field of every serializer instance.
      assert(false,
        `It is redundant to specify \`source: '${fieldName}'\` on field '${this.constructor.name}' in serializer ` +
        `'${parent.constructor.name}', because it is the same as the field name. Remove the \`source\` option.`);
    }
    this.fieldName = fieldName;
    this.parent = parent;
    if (this.label === null) this.label = capitalize(fieldName.replace(/_/g, ' '));
    if (this.source === null) this.source = fieldName;
    this.sourceAttrs = this.source === '*' ? [] : this.source.split('.');
  }

  /** The validators; defaults to `getValidators()`. */
  get validators(): Validator[] {
    if (!this.validatorList) this.validatorList = this.getValidators();
    return this.validatorList;
  }

  set validators(validators: Validator[]) {
    this.validatorList = validators;
  }

  /** The validators used when none were given; override to add type-specific ones. */
  getValidators(): Validator[] {
    return [...(this.constructor as typeof Field).defaultValidators];
  }

  /** The value to pre-fill an empty HTML form with. */
  getInitial(): unknown {
    return typeof this.initial === 'function' ? (this.initial as () => unknown)() : this.initial;
  }

  /** Pick this field's value out of the incoming data (`empty` when absent). */
  getValue(dictionary: unknown): unknown {
    if (isHtmlInput(dictionary)) {
      if (!htmlHas(dictionary, this.fieldName)) {
        if (this.root.partial) return empty;
        return this.defaultEmptyHtml;
      }
      const ret = dictionary.get(this.fieldName);
      const allowBlank = (this as { allowBlank?: boolean }).allowBlank ?? false;
      if (ret === '' && this.allowNull) return allowBlank ? '' : null;
      if (ret === '' && !this.required) return allowBlank ? '' : empty;
      return ret;
    }
    if (dictionary !== null && typeof dictionary === 'object' && Object.prototype.hasOwnProperty.call(dictionary, this.fieldName)) {
      const value = (dictionary as Record<string, unknown>)[this.fieldName];
      return value === undefined ? empty : value;
    }
    return empty;
  }

  /** Read the outgoing value for this field from `instance` (via `sourceAttrs`). */
  getAttribute(instance: unknown): unknown {
    try {
      return getAttribute(instance, this.sourceAttrs);
    } catch (error) {
      if (!(error instanceof AttributeMissing)) throw error;
      if (this.default !== empty) return this.getDefault();
      if (this.allowNull) return null;
      if (!this.required) throw new SkipField();
      const instanceName = instance !== null && typeof instance === 'object' ? instance.constructor.name : pythonTypeName(instance);
      throw new AttributeMissing(
        `Got AttributeError when attempting to get a value for field \`${this.fieldName}\` on serializer ` +
        `\`${this.parent?.constructor.name}\`.\nThe serializer field might be named incorrectly and not match any ` +
        `attribute or key on the \`${instanceName}\` instance.\nOriginal exception text was: ${error.message}.`);
    }
  }

  /** The default for missing input; throws `SkipField` when there is none or the update is partial. */
  getDefault(): unknown {
    if (this.default === empty || this.root.partial) throw new SkipField();
    const value = this.default;
    if (isContextualDefault(value)) return value.call(this);
    if (typeof value === 'function') {
      const fn = value as ((field?: Field) => unknown) & { requiresContext?: boolean };
      return fn.requiresContext ? fn(this) : fn();
    }
    return value;
  }

  /**
   * Handle `empty` and `null` input: returns `[true, value]` when validation is finished,
   * `[false, data]` when the value still needs `toInternalValue`. May throw `SkipField`.
   */
  validateEmptyValues(data: unknown): [boolean, unknown] {
    if (this.readOnly) return [true, this.getDefault()];
    if (data === empty) {
      if (this.root.partial) throw new SkipField();
      if (this.required) this.fail('required');
      return [true, this.getDefault()];
    }
    if (data === null) {
      if (!this.allowNull) this.fail('null');
      if (this.source === '*') return [false, null];
      return [true, null];
    }
    return [false, data];
  }

  /** Validate one incoming primitive value and return its native value. */
  async runValidation(data: unknown = empty): Promise<unknown> {
    return this.validationNow(data);
  }

  /**
   * `runValidation()`'s work, without a promise while the conversion and the validators answer
   * at once (most do): the native value, or a promise of it; throws a `ValidationError` as
   * `runValidation()` rejects with it. Serializers validate their fields through it. Override
   * this (not `runValidation()`) to change how a field validates, and call `super.validationNow()`.
   */
  validationNow(data: unknown = empty): unknown {
    const [isEmpty, value] = this.validateEmptyValues(data);
    if (isEmpty) return value;
    const internal = this.toInternalValue(value);
    if (isThenable(internal)) return Promise.resolve(internal).then((converted) => this.validatedAfterValidators(converted));
    return this.validatedAfterValidators(internal);
  }

  /** `internal` once the validators passed: at once, or a promise while one answers late. */
  private validatedAfterValidators(internal: unknown): unknown {
    const checking = this.validatorsOf(internal);
    return checking ? checking.then(() => internal) : internal;
  }

  /**
   * `runValidators(value)`, as nothing when it is the library's and every validator answered at
   * once; an overridden `runValidators()` is called. Serializers override it to validate with
   * their read-only defaults.
   */
  protected validatorsOf(value: unknown): Promise<void> | undefined {
    return this.runValidators === Field.prototype.runValidators ? this.validatorsNow(value) : this.runValidators(value);
  }

  /** Run every validator, collecting their messages into one `ValidationError`. */
  async runValidators(value: unknown): Promise<void> {
    const checking = this.validatorsNow(value);
    if (checking) await checking;
  }

  /**
   * `runValidators()`'s work, without a promise while every validator answers at once:
   * nothing when all pass (throws the collected `ValidationError` otherwise), else a promise.
   */
  validatorsNow(value: unknown): Promise<void> | undefined {
    return this.validatorsFrom(value, 0, []);
  }

  /** The validators from `from` on, adding their messages to `errors`. */
  private validatorsFrom(value: unknown, from: number, errors: unknown[]): Promise<void> | undefined {
    const validators = this.validators;
    for (let index = from; index < validators.length; index++) {
      let result: unknown;
      try {
        result = invokeValidator(validators[index], value, this);
      } catch (error) {
        collectValidatorError(error, errors);
        continue;
      }
      if (isThenable(result)) {
        const next = (): Promise<void> | undefined => this.validatorsFrom(value, index + 1, errors);
        return Promise.resolve(result).then(next, (error: unknown) => {
          collectValidatorError(error, errors);
          return next();
        });
      }
    }
    if (errors.length) throw new ValidationError(errors as never);
    return undefined;
  }

  /** Turn incoming primitive data into the native value; may be async. */
  toInternalValue(data: unknown): unknown {
    void data;
    throw new Error(`${this.constructor.name}.toInternalValue() must be implemented for field ${this.fieldName}. ` +
      'If you do not need to support write operations you probably want to subclass `ReadOnlyField` instead.');
  }

  /** Turn the native value into its primitive representation. */
  toRepresentation(value: unknown): unknown {
    void value;
    throw new Error(`${this.constructor.name}.toRepresentation() must be implemented for field ${this.fieldName}.`);
  }

  /** Throw a `ValidationError` with the message for `key`, formatted with `params`. */
  fail(key: string, params: Record<string, unknown> = {}): never {
    const message = this.errorMessages[key];
    if (message === undefined) {
      throw new assert.AssertionError({
        message: `ValidationError raised by \`${this.constructor.name}\`, but error key \`${key}\` does not exist in the \`error_messages\` dictionary.`,
      });
    }
    throw new ValidationError(formatMessage(gettext(message), params), key);
  }

  /** The top-level serializer (or this field when unbound). */
  get root(): FieldParent & { readonly context?: Record<string, unknown> } {
    let node: FieldParent = this.parent ?? (this as FieldParent);
    while (node.parent !== null) node = node.parent;
    return node as FieldParent & { readonly context?: Record<string, unknown> };
  }

  /** The context given to the root serializer (`request`, `view`, `format`...). */
  get context(): Record<string, unknown> {
    const root = this.root as FieldParent & { rootContext?: Record<string, unknown> };
    return root.rootContext ?? {};
  }
}

function capitalize(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1).toLowerCase() : text;
}

// -- Boolean --------------------------------------------------------------------------------

const TRUE_VALUES = new Set<unknown>(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 1, true]);
const FALSE_VALUES = new Set<unknown>(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 0, false]);
const NULL_VALUES = new Set<unknown>(['null', 'Null', 'NULL', '', null, undefined]);

/** `true`/`false`, accepting the usual spellings (`'yes'`, `'on'`, `1`, `'false'`...). */
export class BooleanField<O extends FieldOptions = NoOptions> extends Field<boolean, boolean, O> {
  static override defaultErrorMessages: Record<string, string> = { invalid: 'Must be a valid boolean.' };
  static readonly TRUE_VALUES: ReadonlySet<unknown> = TRUE_VALUES;
  static readonly FALSE_VALUES: ReadonlySet<unknown> = FALSE_VALUES;
  static readonly NULL_VALUES: ReadonlySet<unknown> = NULL_VALUES;

  constructor(options: O | FieldOptions = {}) {
    super(options);
    this.defaultEmptyHtml = false;
    this.adoptDefaultForEmptyHtml();
  }

  protected override classInitial(): unknown {
    return false;
  }

  override toInternalValue(data: unknown): boolean | null {
    if (TRUE_VALUES.has(data)) return true;
    if (FALSE_VALUES.has(data)) return false;
    if (this.allowNull && NULL_VALUES.has(data)) return null;
    return this.fail('invalid', { input: data });
  }

  override toRepresentation(value: unknown): boolean | null {
    if (TRUE_VALUES.has(value)) return true;
    if (FALSE_VALUES.has(value)) return false;
    if (this.allowNull && NULL_VALUES.has(value)) return null;
    return Boolean(value);
  }
}

// -- Strings --------------------------------------------------------------------------------

/** Options of `CharField` and its subclasses. */
export interface CharFieldOptions extends FieldOptions {
  allowBlank?: boolean;
  trimWhitespace?: boolean;
  maxLength?: number | null;
  minLength?: number | null;
}

/** Options of `RegexField`. */
export interface RegexFieldOptions extends CharFieldOptions {
  regex: RegExp | string;
}

/** Options of `SlugField`. */
export interface SlugFieldOptions extends CharFieldOptions {
  allowUnicode?: boolean;
}

/** Options of `IPAddressField`. */
export interface IPAddressFieldOptions extends CharFieldOptions {
  protocol?: 'both' | 'ipv4' | 'ipv6';
  unpackIpv4?: boolean;
}

/** Text. Numbers are accepted and turned into strings; other types are rejected. */
export class CharField<O extends CharFieldOptions = NoOptions> extends Field<string, string, O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'Not a valid string.',
    blank: 'This field may not be blank.',
    max_length: 'Ensure this field has no more than {max_length} characters.',
    min_length: 'Ensure this field has at least {min_length} characters.',
  };
  allowBlank: boolean;
  trimWhitespace: boolean;
  maxLength: number | null;
  minLength: number | null;

  constructor(options: O | CharFieldOptions = {}) {
    const { allowBlank, trimWhitespace, maxLength, minLength, ...rest } = options;
    super(rest);
    this.allowBlank = allowBlank ?? false;
    this.trimWhitespace = trimWhitespace ?? true;
    this.maxLength = maxLength ?? null;
    this.minLength = minLength ?? null;
    if (this.maxLength !== null) {
      const message = lazyFormat(this.errorMessages.max_length, { max_length: this.maxLength });
      this.validators.push(new MaxLengthValidator(this.maxLength, message));
    }
    if (this.minLength !== null) {
      const message = lazyFormat(this.errorMessages.min_length, { min_length: this.minLength });
      this.validators.push(new MinLengthValidator(this.minLength, message));
    }
    this.validators.push(new ProhibitNullCharactersValidator(), new ProhibitSurrogateCharactersValidator());
  }

  protected override classInitial(): unknown {
    return '';
  }

  override validationNow(data: unknown = empty): unknown {
    if (data === '' || (this.trimWhitespace && data !== empty && data !== null && typeof data !== 'object' && String(data).trim() === '')) {
      if (!this.allowBlank) this.fail('blank');
      return '';
    }
    return super.validationNow(data);
  }

  override toInternalValue(data: unknown): string {
    if (typeof data === 'boolean' || !(typeof data === 'string' || typeof data === 'number')) this.fail('invalid');
    const value = typeof data === 'number' ? pythonRepr(data) : data;
    return this.trimWhitespace ? value.trim() : value;
  }

  override toRepresentation(value: unknown): string {
    return typeof value === 'string' ? value : pythonStr(value);
  }
}

/** An e-mail address. */
export class EmailField<O extends CharFieldOptions = NoOptions> extends CharField<O> {
  static override defaultErrorMessages: Record<string, string> = { invalid: 'Enter a valid email address.' };

  constructor(options: O | CharFieldOptions = {}) {
    super(options);
    this.validators.push(new EmailValidator(this.errorMessages.invalid));
  }
}

/** Text that must match `regex`. */
export class RegexField<O extends RegexFieldOptions = RegexFieldOptions> extends CharField<O> {
  static override defaultErrorMessages: Record<string, string> = { invalid: 'This value does not match the required pattern.' };
  readonly regex: RegExp;

  constructor(options: O | RegexFieldOptions) {
    const { regex, ...rest } = options;
    super(rest);
    this.regex = typeof regex === 'string' ? new RegExp(regex) : regex;
    this.validators.push(new RegexValidator(this.regex, this.errorMessages.invalid));
  }
}

/** Letters, numbers, underscores and hyphens (`allowUnicode` for Unicode letters). */
export class SlugField<O extends SlugFieldOptions = NoOptions> extends CharField<O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.',
    invalid_unicode: 'Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.',
  };
  readonly allowUnicode: boolean;

  constructor(options: O | SlugFieldOptions = {}) {
    const { allowUnicode, ...rest } = options;
    super(rest);
    this.allowUnicode = allowUnicode ?? false;
    if (this.allowUnicode) {
      this.validators.push(new RegexValidator(/^[-\p{L}\p{N}_]+$/u, this.errorMessages.invalid_unicode));
    } else {
      this.validators.push(new RegexValidator(/^[-a-zA-Z0-9_]+$/, this.errorMessages.invalid));
    }
  }
}

/** An http(s)/ftp(s) URL. */
export class URLField<O extends CharFieldOptions = NoOptions> extends CharField<O> {
  static override defaultErrorMessages: Record<string, string> = { invalid: 'Enter a valid URL.' };

  constructor(options: O | CharFieldOptions = {}) {
    super(options);
    this.validators.push(new URLValidator(undefined, this.errorMessages.invalid));
  }
}

/** Output formats of `UUIDField`. */
export type UUIDFormat = 'hex_verbose' | 'hex' | 'int' | 'urn';

/** Options of `UUIDField`. */
export interface UUIDFieldOptions extends FieldOptions {
  format?: UUIDFormat;
}

const UUID_HEX_RE = /^[0-9a-f]{32}$/i;

function uuidHex(data: unknown): string | null {
  if (typeof data === 'number' || typeof data === 'bigint') {
    const n = BigInt(data);
    if (n < 0n || n >= 1n << 128n) return null;
    return n.toString(16).padStart(32, '0');
  }
  if (typeof data !== 'string') return null;
  let text = data.replace(/^urn:/i, '').replace(/^uuid:/i, '').replace(/[{}]/g, '').replace(/-/g, '');
  text = text.trim();
  return UUID_HEX_RE.test(text) ? text.toLowerCase() : null;
}

/**
 * A UUID; input in any of the usual spellings (or an integer), output as `format`
 * (`hex_verbose` default, `hex`, `urn`, or `int`: a JSON integer, as a bigint).
 */
export class UUIDField<O extends UUIDFieldOptions = NoOptions> extends Field<string, string, O> {
  static override defaultErrorMessages: Record<string, string> = { invalid: 'Must be a valid UUID.' };
  static readonly validFormats: readonly UUIDFormat[] = ['hex_verbose', 'hex', 'int', 'urn'];
  readonly uuidFormat: UUIDFormat;

  constructor(options: O | UUIDFieldOptions = {}) {
    const { format, ...rest } = options;
    const uuidFormat = format ?? 'hex_verbose';
    assert(UUIDField.validFormats.includes(uuidFormat),
      `Invalid format for uuid representation. Must be one of ${UUIDField.validFormats.map((f) => `'${f}'`).join(', ')}`);
    super(rest);
    this.uuidFormat = uuidFormat;
  }

  override toInternalValue(data: unknown): string {
    const hex = uuidHex(data);
    if (hex === null) return this.fail('invalid', { value: data });
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  override toRepresentation(value: unknown): unknown {
    const hex = uuidHex(value) ?? String(value).replace(/-/g, '').toLowerCase();
    const verbose = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    switch (this.uuidFormat) {
      case 'hex': return hex;
      // A 128-bit integer: a bigint, which the JSON renderer prints as a bare integer.
      case 'int': return BigInt(`0x${hex}`);
      case 'urn': return `urn:uuid:${verbose}`;
      default: return verbose;
    }
  }
}

/** An IPv4 and/or IPv6 address (`protocol`); IPv6 output is normalised. */
export class IPAddressField<O extends IPAddressFieldOptions = NoOptions> extends CharField<O> {
  static override defaultErrorMessages: Record<string, string> = { invalid: 'Enter a valid IPv4 or IPv6 address.' };
  readonly protocol: 'both' | 'ipv4' | 'ipv6';
  readonly unpackIpv4: boolean;

  constructor(options: O | IPAddressFieldOptions = {}) {
    const { protocol, unpackIpv4, ...rest } = options;
    super(rest);
    this.protocol = (protocol ?? 'both').toLowerCase() as 'both' | 'ipv4' | 'ipv6';
    this.unpackIpv4 = this.protocol === 'both' ? (unpackIpv4 ?? false) : false;
    const message = this.protocol === 'ipv4' ? 'Enter a valid IPv4 address.'
      : this.protocol === 'ipv6' ? 'Enter a valid IPv6 address.' : 'Enter a valid IPv4 or IPv6 address.';
    const protocol2 = this.protocol;
    this.validators.push({ validate: (value: unknown) => { if (!isIPAddress(String(value), protocol2)) throw new ValidationError(gettext(message), 'invalid'); } });
  }

  override toInternalValue(data: unknown): string {
    if (typeof data !== 'string') this.fail('invalid', { value: data });
    if (data.includes(':')) {
      if (!isIPAddress(data, 'ipv6')) this.fail('invalid', { value: data });
      const normalised = new URL(`http://[${data}]/`).hostname.slice(1, -1);
      if (this.unpackIpv4 && normalised.startsWith('::ffff:') && /\d+\.\d+\.\d+\.\d+$/.test(data)) {
        return data.slice(data.lastIndexOf(':') + 1);
      }
      return normalised;
    }
    return super.toInternalValue(data);
  }
}

// -- Numbers --------------------------------------------------------------------------------

/** Which limit a range validator enforces; also its error code. */
export type RangeLimit = 'max_value' | 'min_value';

/** Options of the fields with `maxValue`/`minValue` limits. */
export interface MinMaxValueFieldOptions<TLimit> extends FieldOptions {
  maxValue?: TLimit | null;
  minValue?: TLimit | null;
}

/** Options of the numeric fields. */
export interface NumberFieldOptions extends MinMaxValueFieldOptions<number> {
  /**
   * Read and write numbers in the active language's format (`'1,5'` in `pl`, with `USE_L10N`);
   * the representation is then a localized string.
   */
  localize?: boolean;
}

/**
 * Base of the fields that accept `maxValue`/`minValue` limits (integers, floats, decimals,
 * durations): it keeps the limits and adds one validator per declared limit, with the
 * `max_value`/`min_value` messages. Subclass it for a custom ordered type.
 */
export abstract class MinMaxValueField<
  TLimit extends number | string = number, TOutput = unknown, TInput = TOutput,
  O extends MinMaxValueFieldOptions<TLimit> = NoOptions,
> extends Field<TOutput, TInput, O> {
  static override defaultErrorMessages: Record<string, string> = {
    max_value: 'Ensure this value is less than or equal to {max_value}.',
    min_value: 'Ensure this value is greater than or equal to {min_value}.',
  };
  maxValue: TLimit | null;
  minValue: TLimit | null;

  constructor(options: O | MinMaxValueFieldOptions<TLimit> = {}) {
    const { maxValue, minValue, ...rest } = options;
    super(rest);
    this.maxValue = maxValue ?? null;
    this.minValue = minValue ?? null;
    for (const [kind, limit] of [['max_value', this.maxValue], ['min_value', this.minValue]] as const) {
      if (limit === null) continue;
      const message = lazyFormat(this.errorMessages[kind], { [kind]: this.displayLimit(limit) });
      this.validators.push(this.limitValidator(kind, limit, message));
    }
  }

  /** The limit as its error message shows it; override when the limit is stored in another unit. */
  protected displayLimit(limit: TLimit): unknown {
    return limit;
  }

  /** The validator enforcing one limit; override to compare values that are not plain numbers. */
  protected limitValidator(kind: RangeLimit, limit: TLimit, message: LazyMessage): Validator {
    const bound = Number(limit);
    return kind === 'max_value' ? new MaxValueValidator(bound, message) : new MinValueValidator(bound, message);
  }
}

const MAX_STRING_LENGTH = 1000;
const INTEGER_RE = /^\s*[+-]?\d+(\.0*)?\s*$/;
const INTEGER_UNDERSCORE_RE = /^\s*[+-]?\d+(_\d+)*(\.0*)?\s*$/;

/** A whole number (`'1.0'` is accepted as 1, `'1.2'` is not). */
export class IntegerField<O extends NumberFieldOptions = NoOptions> extends MinMaxValueField<number, Localized<O, number>, number, O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'A valid integer is required.',
    max_string_length: 'String value too large.',
  };
  localize: boolean;

  constructor(options: O | NumberFieldOptions = {}) {
    const { localize, ...rest } = options;
    super(rest);
    this.localize = localize ?? false;
  }

  override toInternalValue(input: unknown): number {
    const data = this.localize ? sanitizeSeparators(typeof input === 'string' ? input.trim() : input) : input;
    if (typeof data === 'string' && data.length > MAX_STRING_LENGTH) this.fail('max_string_length');
    if (typeof data === 'number') {
      if (Number.isInteger(data)) return data;
      // int(str(1.0)) strips the '.0' in the original; 1.5 is invalid.
      return this.fail('invalid');
    }
    if (typeof data === 'boolean') return data ? 1 : 0;
    if (typeof data === 'string' && (INTEGER_RE.test(data) || INTEGER_UNDERSCORE_RE.test(data))) {
      const value = Number(data.replace(/_/g, '').replace(/\.0*\s*$/, ''));
      if (Number.isSafeInteger(value)) return value;
      // Beyond a double's exact integers the original still parses the number; the limits then
      // answer 'Ensure this value is ...' (a ModelSerializer field always has the column's).
      if (this.beyondLimits(value)) return value;
    }
    return this.fail('invalid');
  }

  override toRepresentation(value: unknown): number | string {
    const number = typeof value === 'number' ? Math.trunc(value) : Math.trunc(Number(value));
    return this.localize ? numberFormat(String(number)) : number;
  }

  private beyondLimits(value: number): boolean {
    return (this.maxValue !== null && value > this.maxValue) || (this.minValue !== null && value < this.minValue);
  }
}

const FLOAT_RE = /^\s*[+-]?((\d+(_\d+)*)?\.?\d*(_\d+)*([eE][+-]?\d+)?|inf(inity)?|nan)\s*$/i;

/** A floating point number. */
export class FloatField<O extends NumberFieldOptions = NoOptions> extends MinMaxValueField<number, Localized<O, number>, number, O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'A valid number is required.',
    max_string_length: 'String value too large.',
  };
  localize: boolean;

  constructor(options: O | NumberFieldOptions = {}) {
    const { localize, ...rest } = options;
    super(rest);
    this.localize = localize ?? false;
  }

  override toInternalValue(input: unknown): number {
    const data = this.localize ? sanitizeSeparators(typeof input === 'string' ? input.trim() : input) : input;
    if (typeof data === 'string' && data.length > MAX_STRING_LENGTH) this.fail('max_string_length');
    if (typeof data === 'number') return data;
    if (typeof data === 'boolean') return data ? 1 : 0;
    if (typeof data === 'string' && data.trim() !== '' && FLOAT_RE.test(data) && /\d|inf|nan/i.test(data)) {
      const text = data.trim().replace(/_/g, '').toLowerCase();
      if (/^[+-]?inf(inity)?$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
      if (/^[+-]?nan$/.test(text)) return NaN;
      const value = Number(text);
      if (!Number.isNaN(value)) return value;
    }
    return this.fail('invalid');
  }

  override toRepresentation(value: unknown): number | string {
    const number = Number(value);
    return this.localize && Number.isFinite(number) ? numberFormat(floatRepr(number)) : number;
  }
}

/** Options of `DecimalField`. */
export interface DecimalFieldOptions extends MinMaxValueFieldOptions<number | string> {
  maxDigits: number | null;
  decimalPlaces: number | null;
  /** Output strings (default: the `COERCE_DECIMAL_TO_STRING` setting) or numbers. */
  coerceToString?: boolean;
  /** Accept and output numbers in the active language's format (with `USE_L10N`); forces strings. */
  localize?: boolean;
  /** Rounding of the representation: `ROUND_HALF_EVEN` (default), `ROUND_HALF_UP`, `ROUND_DOWN`, ... */
  rounding?: DecimalRounding | null;
}

/** The rounding modes of Python's `decimal` module. */
export type DecimalRounding = 'ROUND_CEILING' | 'ROUND_DOWN' | 'ROUND_FLOOR' | 'ROUND_HALF_DOWN' | 'ROUND_HALF_EVEN'
  | 'ROUND_HALF_UP' | 'ROUND_UP' | 'ROUND_05UP';

const ROUNDINGS: readonly DecimalRounding[] = ['ROUND_CEILING', 'ROUND_DOWN', 'ROUND_FLOOR', 'ROUND_HALF_DOWN',
  'ROUND_HALF_EVEN', 'ROUND_HALF_UP', 'ROUND_UP', 'ROUND_05UP'];

/**
 * An exact decimal number, kept as a string internally (`'12.30'`) so that no float rounding
 * error creeps in. The representation is a string unless `coerceToString` is false.
 */
export class DecimalField<O extends DecimalFieldOptions = DecimalFieldOptions>
  extends MinMaxValueField<number | string, O extends { coerceToString: false } ? number : string, string, O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'A valid number is required.',
    max_digits: 'Ensure that there are no more than {max_digits} digits in total.',
    max_decimal_places: 'Ensure that there are no more than {max_decimal_places} decimal places.',
    max_whole_digits: 'Ensure that there are no more than {max_whole_digits} digits before the decimal point.',
    max_string_length: 'String value too large.',
  };
  maxDigits: number | null;
  decimalPlaces: number | null;
  maxWholeDigits: number | null;
  coerceToString: boolean | undefined;
  localize: boolean;
  rounding: DecimalRounding;

  constructor(options: O | DecimalFieldOptions) {
    const { maxDigits, decimalPlaces, coerceToString, localize, rounding, ...rest } = options;
    super(rest);
    this.maxDigits = maxDigits;
    this.decimalPlaces = decimalPlaces;
    this.localize = localize ?? false;
    this.coerceToString = this.localize ? true : coerceToString;
    this.maxWholeDigits = maxDigits !== null && decimalPlaces !== null ? maxDigits - decimalPlaces : null;
    if (rounding !== undefined && rounding !== null) {
      assert(ROUNDINGS.includes(rounding),
        `Invalid rounding option ${String(rounding)}. Valid values for rounding are: [${ROUNDINGS.map((r) => `'${r}'`).join(', ')}]`);
    }
    this.rounding = rounding ?? 'ROUND_HALF_EVEN';
  }

  /** Compare as decimals: a limit may be a decimal string such as `'0.10'`. */
  protected override limitValidator(kind: RangeLimit, limit: number | string, message: LazyMessage): Validator {
    const bound = getDecimal(String(limit));
    const outside = kind === 'max_value' ? (order: number) => order > 0 : (order: number) => order < 0;
    return {
      validate: (value: unknown) => {
        const decimal = getDecimal(String(value));
        if (decimal && bound && outside(compareDecimals(decimal, bound))) throw new ValidationError(String(message), kind);
      },
    };
  }

  override validateEmptyValues(data: unknown): [boolean, unknown] {
    if (this.allowNull && data !== empty && (data === null || String(data).trim() === '')) return [true, null];
    return super.validateEmptyValues(data);
  }

  override toInternalValue(data: unknown): string {
    let text = typeof data === 'string' ? data.trim() : typeof data === 'number' ? pythonRepr(data) : String(data).trim();
    if (this.localize) text = sanitizeSeparators(text) as string;
    if (text.length > MAX_STRING_LENGTH) this.fail('max_string_length');
    if (typeof data === 'boolean' || (typeof data === 'object' && data !== null)) this.fail('invalid');
    const value = getDecimal(text);
    if (value === null) return this.fail('invalid');
    this.validatePrecision(value);
    return this.quantize(value);
  }

  /** Reject values with too many digits in total, after or before the point; override to relax. */
  validatePrecision(value: DecimalTuple): DecimalTuple {
    const { digits, exponent } = value;
    let totalDigits: number;
    let wholeDigits: number;
    let places: number;
    if (exponent >= 0) {
      totalDigits = digits.length + exponent;
      wholeDigits = totalDigits;
      places = 0;
    } else if (digits.length > -exponent) {
      totalDigits = digits.length;
      wholeDigits = totalDigits + exponent;
      places = -exponent;
    } else {
      totalDigits = -exponent;
      wholeDigits = 0;
      places = totalDigits;
    }
    if (this.maxDigits !== null && totalDigits > this.maxDigits) this.fail('max_digits', { max_digits: this.maxDigits });
    if (this.decimalPlaces !== null && places > this.decimalPlaces) {
      this.fail('max_decimal_places', { max_decimal_places: this.decimalPlaces });
    }
    if (this.maxWholeDigits !== null && wholeDigits > this.maxWholeDigits) {
      this.fail('max_whole_digits', { max_whole_digits: this.maxWholeDigits });
    }
    return value;
  }

  /** The value as a fixed-point string with `decimalPlaces` places. */
  quantize(value: DecimalTuple): string {
    return quantizeDecimal(value, this.decimalPlaces, this.rounding);
  }

  override toRepresentation(value: unknown): unknown {
    const coerce = this.coerceToString ?? apiSettings.COERCE_DECIMAL_TO_STRING;
    if (value === null || value === undefined) return coerce ? '' : null;
    const parsed = getDecimal(typeof value === 'number' ? pythonRepr(value) : String(value).trim());
    if (parsed === null) throw new Error(`Invalid decimal value: ${String(value)}`);
    const quantized = this.quantize(parsed);
    if (this.localize) return numberFormat(quantized);
    return coerce ? quantized : Number(quantized);
  }
}

function compareDecimals(a: DecimalTuple, b: DecimalTuple): number {
  const an = Number(quantizeDecimal(a, null, 'ROUND_HALF_EVEN'));
  const bn = Number(quantizeDecimal(b, null, 'ROUND_HALF_EVEN'));
  return an === bn ? 0 : an < bn ? -1 : 1;
}

// -- Dates and times ------------------------------------------------------------------------

/** Options of the date and time fields. */
export interface DateTimeFieldOptions extends FieldOptions {
  /** Output format: `'iso-8601'`, a strftime string, or null for native values. Default: the setting. */
  format?: string | null;
  /** Accepted input formats. Default: the `*_INPUT_FORMATS` setting. */
  inputFormats?: string[];
}

/** Options of `DateTimeField`: the date/time options and the zone naive input is read in. */
export interface DateTimeFieldWithZoneOptions extends DateTimeFieldOptions {
  defaultTimezone?: string | null;
}

function currentTimeZone(): string | null {
  const useTz = settings.USE_TZ;
  if (useTz === false) return null;
  return typeof settings.TIME_ZONE === 'string' && settings.TIME_ZONE ? settings.TIME_ZONE : 'UTC';
}

/**
 * Base of the date and time fields: an output `format` and accepted `inputFormats`, each
 * falling back to its API setting when the field leaves it unset.
 */
export class TemporalField<TOutput = unknown, TInput = TOutput, O extends DateTimeFieldOptions = NoOptions>
  extends Field<TOutput, TInput, O> {
  format: string | null | undefined;
  inputFormats: string[] | undefined;

  constructor(options: O | DateTimeFieldOptions = {}) {
    const { format, inputFormats, ...rest } = options;
    super(rest);
    this.format = format;
    this.inputFormats = inputFormats;
  }

  /** The output format: the field's own, else the setting's (null: values pass through as stored). */
  protected outputFormat(settingFormat: string | null): string | null {
    return this.format !== undefined ? this.format : settingFormat;
  }
}

/**
 * A point in time (a JavaScript `Date`). Naive input is interpreted in the field's time zone
 * (`defaultTimezone`, else the `TIME_ZONE` setting); output is in that zone, `Z` for UTC.
 */
export class DateTimeField<O extends DateTimeFieldWithZoneOptions = NoOptions> extends TemporalField<string, Date, O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'Datetime has wrong format. Use one of these formats instead: {format}.',
    date: 'Expected a datetime but got a date.',
    make_aware: 'Invalid datetime for the timezone "{timezone}".',
    overflow: 'Datetime value out of range.',
  };
  timezone: string | null | undefined;

  constructor(options: O | DateTimeFieldWithZoneOptions = {}) {
    const { defaultTimezone, ...rest } = options;
    super(rest);
    this.timezone = defaultTimezone;
  }

  /** The time zone naive values are read in and output is written in (null: naive UTC). */
  defaultTimezone(): string | null {
    return this.timezone !== undefined ? this.timezone : currentTimeZone();
  }

  override toInternalValue(value: unknown): Date {
    const inputFormats = this.inputFormats ?? apiSettings.DATETIME_INPUT_FORMATS;
    if (isPlainDate(value)) this.fail('date');
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) this.fail('invalid', { format: humanizeFormats(inputFormats, ISO_DATETIME) });
      return this.enforceRange(value);
    }
    if (typeof value === 'string') {
      for (const inputFormat of inputFormats) {
        let parsed: ParsedDateTime;
        try {
          const result = inputFormat.toLowerCase() === ISO_8601 ? parseDatetime(value) : strptime(value, inputFormat);
          if (result === null) continue;
          parsed = result;
        } catch (error) {
          if (!(error instanceof DateValueError)) throw error;
          continue;
        }
        return this.enforceTimezone(parsed);
      }
    }
    return this.fail('invalid', { format: humanizeFormats(inputFormats, ISO_DATETIME) });
  }

  /**
   * The instant a parsed value names, as the original's `enforce_timezone`: an offset is used
   * as given; a naive wall time is read in the field's zone, where a time skipped or repeated
   * by a daylight-saving change is refused (`make_aware`); the result, in UTC and in the
   * field's zone, must lie within years 1..9999 (`overflow`).
   */
  protected enforceTimezone(parsed: ParsedDateTime): Date {
    const zone = this.defaultTimezone();
    if (parsed.offsetMinutes !== null || zone === null || zone === 'UTC') {
      const date = fromZonedParts(parsed.parts, parsed.offsetMinutes ?? 0);
      return this.enforceRange(date);
    }
    const instants = wallTimeInstants(parsed.parts, zone);
    if (instants.length !== 1) this.fail('make_aware', { timezone: zone });
    return this.enforceRange(new Date(instants[0]));
  }

  private enforceRange(date: Date): Date {
    const time = date.getTime();
    if (Number.isNaN(time) || !inPythonRange(date, 'UTC')) this.fail('overflow');
    const zone = this.defaultTimezone();
    if (zone !== null && zone !== 'UTC' && !inPythonRange(date, zone)) this.fail('overflow');
    return date;
  }

  override toRepresentation(value: unknown): unknown {
    if (value === null || value === undefined || value === '') return null;
    const outputFormat = this.outputFormat(apiSettings.DATETIME_FORMAT);
    if (outputFormat === null || typeof value === 'string') return value;
    const date = value instanceof Date ? value : new Date(value as number);
    const zone = this.defaultTimezone();
    if (zone === 'UTC' && outputFormat.toLowerCase() === ISO_8601) {
      const text = utcIsoString(date);
      if (text !== null) return text;
    }
    const { parts, offsetMinutes } = toZonedParts(date, zone ?? 'UTC');
    const offset = zone === null ? null : offsetMinutes;
    if (outputFormat.toLowerCase() === ISO_8601) return isoformatDatetime(parts, offset);
    return strftime(parts, outputFormat, offset);
  }
}

const ISO_DATETIME = 'YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]';

/** True when `date`'s wall-clock year in `zone` is one Python's `datetime` holds (1..9999). */
function inPythonRange(date: Date, zone: string): boolean {
  const year = toZonedParts(date, zone).parts.year;
  return year >= 1 && year <= 9999;
}

/**
 * A date without a time (`Temporal.PlainDate`): the original's `datetime.date`, which a
 * `DateTimeField` refuses with its `date` message.
 */
function isPlainDate(value: unknown): boolean {
  return value !== null && typeof value === 'object'
    && (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Temporal.PlainDate';
}

/**
 * The ISO 8601 text of a UTC instant as the original prints it (`2024-01-02T03:04:05Z`, or
 * `.001000Z` with microseconds); null for an invalid date or a year outside 1..9999.
 */
export function utcIsoString(date: Date): string | null {
  const year = date.getUTCFullYear();
  if (!(year >= 1 && year <= 9999)) return null;
  const iso = date.toISOString();
  // Years 1..9999 print as four digits, so the layout is fixed: 2024-01-02T03:04:05.678Z.
  return date.getUTCMilliseconds() ? `${iso.slice(0, 23)}000Z` : `${iso.slice(0, 19)}Z`;
}

/**
 * Parse a date or time input by trying each of `inputFormats` in turn: `iso-8601` through
 * `parseIso`, any other through strptime and `format`. Null when no format matches.
 */
function parseWithInputFormats(
  value: unknown,
  inputFormats: readonly string[],
  parseIso: (text: string) => string | null,
  format: (parts: DateTimeParts) => string,
): string | null {
  if (typeof value !== 'string') return null;
  for (const inputFormat of inputFormats) {
    try {
      if (inputFormat.toLowerCase() === ISO_8601) {
        const parsed = parseIso(value);
        if (parsed !== null) return parsed;
      } else {
        return format(strptime(value, inputFormat).parts);
      }
    } catch (error) {
      if (!(error instanceof DateValueError)) throw error;
    }
  }
  return null;
}

/** Date and time fields refuse `Date` objects on output: converting would drop the time zone. */
function assertNotDatetime(value: unknown, kind: 'date' | 'time'): void {
  assert(!(value instanceof Date), `Expected a \`${kind}\`, but got a \`datetime\`. Refusing to coerce, as this may mean ` +
    'losing timezone information. Use a custom read-only field and deal with timezone issues explicitly.');
}

/** A calendar date, kept as a `'YYYY-MM-DD'` string. */
export class DateField<O extends DateTimeFieldOptions = NoOptions> extends TemporalField<string, string, O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'Date has wrong format. Use one of these formats instead: {format}.',
    datetime: 'Expected a date but got a datetime.',
  };
  override toInternalValue(value: unknown): string {
    const inputFormats = this.inputFormats ?? apiSettings.DATE_INPUT_FORMATS;
    if (value instanceof Date) this.fail('datetime');
    const parsed = parseWithInputFormats(value, inputFormats, parseDate, formatDate);
    if (parsed !== null) return parsed;
    return this.fail('invalid', { format: humanizeFormats(inputFormats, 'YYYY-MM-DD') });
  }

  override toRepresentation(value: unknown): unknown {
    if (value === null || value === undefined || value === '') return null;
    const outputFormat = this.outputFormat(apiSettings.DATE_FORMAT);
    if (outputFormat === null) return value;
    assertNotDatetime(value, 'date');
    const text = String(value).slice(0, 10);
    if (outputFormat.toLowerCase() === ISO_8601) return text;
    const [year, month, day] = text.split('-').map(Number);
    return strftime({ year, month, day, hour: 0, minute: 0, second: 0, microsecond: 0 }, outputFormat);
  }
}

/** A time of day, kept as an `'hh:mm:ss[.uuuuuu]'` string. */
export class TimeField<O extends DateTimeFieldOptions = NoOptions> extends TemporalField<string, string, O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'Time has wrong format. Use one of these formats instead: {format}.',
  };
  override toInternalValue(value: unknown): string {
    const inputFormats = this.inputFormats ?? apiSettings.TIME_INPUT_FORMATS;
    const parsed = parseWithInputFormats(value, inputFormats, parseTime, formatTime);
    if (parsed !== null) return parsed;
    return this.fail('invalid', { format: humanizeFormats(inputFormats, 'hh:mm[:ss[.uuuuuu]]') });
  }

  override toRepresentation(value: unknown): unknown {
    if (value === null || value === undefined || value === '') return null;
    const outputFormat = this.outputFormat(apiSettings.TIME_FORMAT);
    if (outputFormat === null) return value;
    assertNotDatetime(value, 'time');
    const parsed = parseTime(String(value));
    if (parsed === null) return value;
    const m = /^(\d+):(\d+):(\d+)(?:\.(\d+))?/.exec(parsed) as RegExpExecArray;
    const parts = { year: 1900, month: 1, day: 1, hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3]),
      microsecond: m[4] ? Number(m[4]) : 0 };
    if (outputFormat.toLowerCase() === ISO_8601) return formatTime(parts);
    return strftime(parts, outputFormat);
  }
}

/**
 * A length of time, kept as a whole number of microseconds; output `[DD] HH:MM:SS[.uuuuuu]`.
 * Input is a duration string, or a number of seconds (`3600` is one hour), as the original
 * reads `str(value)`. `maxValue`/`minValue` are microseconds, shown in messages as Python
 * prints a `timedelta` (`1 day, 0:00:00`).
 */
export class DurationField<O extends MinMaxValueFieldOptions<number> = NoOptions>
  extends MinMaxValueField<number, string, number, O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid: 'Duration has wrong format. Use one of these formats instead: {format}.',
  };

  /** `maxValue`/`minValue` are in microseconds; the messages show them as the original's `str(timedelta)`. */
  protected override displayLimit(limit: number): string {
    return timedeltaString(limit);
  }

  override toInternalValue(value: unknown): number {
    // The original parses str(value): a number is seconds, spelled as Python spells it
    // (`1e+16` is not a duration), and True/False/None are not durations.
    const text = typeof value === 'number'
      ? (Number.isSafeInteger(value) ? String(value) : floatRepr(value))
      : typeof value === 'string' ? value : null;
    const parsed = text === null ? null : parseDuration(text);
    if (parsed !== null && Number.isFinite(parsed)) return parsed;
    return this.fail('invalid', { format: '[DD] [HH:[MM:]]ss[.uuuuuu]' });
  }

  override toRepresentation(value: unknown): string {
    return durationString(Number(value));
  }
}

// -- Choices --------------------------------------------------------------------------------

/** A choice: a value, a `[value, label]` pair, or a `[groupName, [...choices]]` group. */
export type Choice = unknown | readonly [unknown, unknown];
/** Choices grouped as the original's ordered dicts: value -> label, or group -> (value -> label). */
export type GroupedChoices = Map<unknown, unknown>;

/** Normalise single, paired and grouped choices to a map (groups become nested maps). */
export function toChoicesDict(choices: Iterable<Choice>): GroupedChoices {
  const ret: GroupedChoices = new Map();
  for (const choice of choices) {
    if (!Array.isArray(choice)) {
      ret.set(choice, choice);
    } else {
      const [key, value] = choice as [unknown, unknown];
      ret.set(key, Array.isArray(value) ? toChoicesDict(value as Choice[]) : value);
    }
  }
  return ret;
}

/** Flatten grouped choices to value -> label. */
export function flattenChoicesDict(choices: GroupedChoices): Map<unknown, unknown> {
  const ret = new Map<unknown, unknown>();
  for (const [key, value] of choices) {
    if (value instanceof Map) for (const [k, v] of value) ret.set(k, v);
    else ret.set(key, value);
  }
  return ret;
}

/** One entry of `iterOptions()`, for HTML select widgets. */
export type SelectOption =
  | { kind: 'option'; value: unknown; displayText: unknown; disabled: boolean }
  | { kind: 'startGroup'; label: unknown }
  | { kind: 'endGroup' };

/** Options and option groups, stopping at `cutoff` with a disabled `cutoffText` entry. */
export function iterOptions(groupedChoices: GroupedChoices, cutoff: number | null = null, cutoffText: string | null = null): SelectOption[] {
  const out: SelectOption[] = [];
  let count = 0;
  for (const [key, value] of groupedChoices) {
    if (cutoff && count >= cutoff) break;
    if (value instanceof Map) {
      out.push({ kind: 'startGroup', label: key });
      for (const [subKey, subValue] of value) {
        if (cutoff && count >= cutoff) break;
        out.push({ kind: 'option', value: subKey, displayText: subValue, disabled: false });
        count += 1;
      }
      out.push({ kind: 'endGroup' });
    } else {
      out.push({ kind: 'option', value: key, displayText: value, disabled: false });
      count += 1;
    }
  }
  if (cutoff && count >= cutoff && cutoffText) {
    out.push({ kind: 'option', value: 'n/a', displayText: formatMessage(cutoffText, { count: cutoff }), disabled: true });
  }
  return out;
}

/** Options of `ChoiceField`. */
export interface ChoiceFieldOptions extends FieldOptions {
  choices: Iterable<Choice>;
  allowBlank?: boolean;
  htmlCutoff?: number | null;
  htmlCutoffText?: string | null;
}

/** Options of `MultipleChoiceField`. */
export interface MultipleChoiceFieldOptions extends ChoiceFieldOptions {
  allowEmpty?: boolean;
}

/** One of a fixed set of values; integer choices also accept their string spelling. */
export class ChoiceField<O extends ChoiceFieldOptions = ChoiceFieldOptions, TOutput = ChoiceValue<O>, TInput = TOutput>
  extends Field<TOutput, TInput, O> {
  static override defaultErrorMessages: Record<string, string> = { invalid_choice: '"{input}" is not a valid choice.' };
  allowBlank: boolean;
  htmlCutoff: number | null;
  htmlCutoffText: string;
  groupedChoices: GroupedChoices = new Map();
  choiceStringsToValues = new Map<string, unknown>();
  /** The choices as declared (for `String(field)`). */
  declaredChoices: Iterable<Choice> = [];
  private flatChoices = new Map<unknown, unknown>();

  constructor(options: O | ChoiceFieldOptions) {
    const { choices, allowBlank, htmlCutoff, htmlCutoffText, ...rest } = options;
    super(rest);
    this.declaredChoices = choices;
    this.choices = choices;
    this.allowBlank = allowBlank ?? false;
    this.htmlCutoff = htmlCutoff ?? null;
    this.htmlCutoffText = htmlCutoffText ?? 'More than {count} items...';
  }

  /** The flat choices, value -> label. Assign any choices form to replace them. */
  get choices(): Map<unknown, unknown> {
    return this.flatChoices;
  }

  set choices(choices: Iterable<Choice>) {
    this.groupedChoices = toChoicesDict(choices);
    this.flatChoices = flattenChoicesDict(this.groupedChoices);
    this.choiceStringsToValues = new Map([...this.flatChoices.keys()].map((key) => [pythonStr(key), key]));
  }

  override toInternalValue(data: unknown): unknown {
    if (data === '' && this.allowBlank) return '';
    const key = pythonStr(data);
    if (typeof data !== 'object' || data === null) {
      if (this.choiceStringsToValues.has(key)) return this.choiceStringsToValues.get(key);
    }
    return this.fail('invalid_choice', { input: key });
  }

  override toRepresentation(value: unknown): unknown {
    if (value === '' || value === null) return value;
    const key = pythonStr(value);
    return this.choiceStringsToValues.has(key) ? this.choiceStringsToValues.get(key) : value;
  }

  /** The choices as options for an HTML select, cut off at `htmlCutoff`. */
  iterOptions(): SelectOption[] {
    return iterOptions(this.groupedChoices, this.htmlCutoff, this.htmlCutoffText);
  }
}

/** Options of `FilePathField`. */
export interface FilePathFieldOptions extends Omit<ChoiceFieldOptions, 'choices'> {
  /** The folder whose entries are the choices. */
  path: string;
  /** Only names matching this pattern (searched anywhere in the name, as Python's `re.search`). */
  match?: string | RegExp | null;
  /** Walk sub-folders too (labels are then the path below `path`, starting with `/`). */
  recursive?: boolean;
  /** Offer files (default true). */
  allowFiles?: boolean;
  /** Offer folders (default false); `__pycache__` folders are never offered. */
  allowFolders?: boolean;
}

/**
 * A choice among the files (and/or folders) found under `path` when the field is declared,
 * as the original's (which borrows the host framework's form field): the value is the full
 * path, the blank choice `''` (`---------`) is always offered, and a path that is not a
 * choice is `"<input>" is not a valid path choice.`
 */
export class FilePathField<O extends FilePathFieldOptions = FilePathFieldOptions> extends ChoiceField<O & ChoiceFieldOptions, string> {
  static override defaultErrorMessages: Record<string, string> = { invalid_choice: '"{input}" is not a valid path choice.' };
  readonly path: string;
  readonly match: RegExp | null;
  readonly recursive: boolean;
  readonly allowFiles: boolean;
  readonly allowFolders: boolean;

  constructor(options: O | FilePathFieldOptions) {
    const { path, match, recursive, allowFiles, allowFolders, ...rest } = options;
    const matcher = match === undefined || match === null ? null : match instanceof RegExp ? match : new RegExp(match);
    const settings = { path, match: matcher, recursive: recursive ?? false, allowFiles: allowFiles ?? true, allowFolders: allowFolders ?? false };
    super({ ...rest, choices: filePathChoices(settings) });
    this.path = path;
    this.match = matcher;
    this.recursive = settings.recursive;
    this.allowFiles = settings.allowFiles;
    this.allowFolders = settings.allowFolders;
  }
}

/** Python's `os.path.join(folder, name)`: no normalisation, one `/` between. */
function joinPath(folder: string, name: string): string {
  return folder.endsWith('/') ? folder + name : `${folder}/${name}`;
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isDirectory(entry: fs.Dirent, folder: string): boolean {
  if (entry.isSymbolicLink()) return fs.statSync(joinPath(folder, entry.name), { throwIfNoEntry: false })?.isDirectory() ?? false;
  return entry.isDirectory();
}

function isFile(entry: fs.Dirent, folder: string): boolean {
  if (entry.isSymbolicLink()) return fs.statSync(joinPath(folder, entry.name), { throwIfNoEntry: false })?.isFile() ?? false;
  return entry.isFile();
}

/** The host framework's FilePathField choices: `[['', '---------'], [fullPath, label], ...]`. */
function filePathChoices(options: { path: string; match: RegExp | null; recursive: boolean; allowFiles: boolean; allowFolders: boolean }): Array<[string, string]> {
  const { path, match, allowFiles, allowFolders } = options;
  const matches = (name: string): boolean => match === null || new RegExp(match.source, match.flags.replace(/[gy]/g, '')).test(name);
  const choices: Array<[string, string]> = [['', '---------']];
  if (options.recursive) {
    // os.walk, sorted by folder: each folder's files, then its sub-folders.
    const walk: Array<{ root: string; dirs: string[]; files: string[] }> = [];
    const visit = (root: string): void => {
      const entries = fs.readdirSync(root, { withFileTypes: true });
      const dirs = entries.filter((entry) => isDirectory(entry, root) && !entry.isSymbolicLink()).map((entry) => entry.name);
      const files = entries.filter((entry) => !(isDirectory(entry, root) && !entry.isSymbolicLink())).map((entry) => entry.name);
      walk.push({ root, dirs, files });
      for (const dir of dirs) visit(joinPath(root, dir));
    };
    visit(path);
    walk.sort((a, b) => byName(a.root, b.root));
    for (const { root, dirs, files } of walk) {
      if (allowFiles) {
        for (const name of [...files].sort(byName)) {
          if (matches(name)) { const full = joinPath(root, name); choices.push([full, full.replace(path, '')]); }
        }
      }
      if (allowFolders) {
        for (const name of [...dirs].sort(byName)) {
          if (name === '__pycache__' || !matches(name)) continue;
          const full = joinPath(root, name);
          choices.push([full, full.replace(path, '')]);
        }
      }
    }
    return choices;
  }
  const found: Array<[string, string]> = [];
  for (const entry of fs.readdirSync(path, { withFileTypes: true })) {
    if (entry.name === '__pycache__') continue;
    const offered = (allowFiles && isFile(entry, path)) || (allowFolders && isDirectory(entry, path));
    if (offered && matches(entry.name)) found.push([joinPath(path, entry.name), entry.name]);
  }
  found.sort((a, b) => byName(a[1], b[1]));
  return [...choices, ...found];
}

/** Several of a fixed set of values; internally a `Set`, represented as a list. */
export class MultipleChoiceField<O extends MultipleChoiceFieldOptions = MultipleChoiceFieldOptions>
  extends ChoiceField<O, Array<ChoiceValue<O>>, Set<ChoiceValue<O>>> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid_choice: '"{input}" is not a valid choice.',
    not_a_list: 'Expected a list of items but got type "{input_type}".',
    empty: 'This selection may not be empty.',
  };
  allowEmpty: boolean;

  constructor(options: O | MultipleChoiceFieldOptions) {
    const { allowEmpty, ...rest } = options;
    super(rest);
    this.allowEmpty = allowEmpty ?? true;
    this.defaultEmptyHtml = [];
    this.adoptDefaultForEmptyHtml();
  }

  override getValue(dictionary: unknown): unknown {
    if (isHtmlInput(dictionary)) {
      if (!htmlHas(dictionary, this.fieldName) && this.root.partial) return empty;
      return dictionary.getList(this.fieldName);
    }
    return super.getValue(dictionary);
  }

  override toInternalValue(data: unknown): Set<unknown> {
    if (typeof data === 'string' || !isIterable(data) || isPlainObject(data)) {
      return this.fail('not_a_list', { input_type: pythonTypeName(data) });
    }
    const items = [...data];
    if (!this.allowEmpty && items.length === 0) this.fail('empty');
    return new Set(items.map((item) => super.toInternalValue(item)));
  }

  override toRepresentation(value: unknown): unknown[] {
    const items = isIterable(value) ? [...value] : [];
    return [...new Set(items.map((item) => {
      const key = pythonStr(item);
      return this.choiceStringsToValues.has(key) ? this.choiceStringsToValues.get(key) : item;
    }))];
  }
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return value !== null && value !== undefined && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

// -- Files ----------------------------------------------------------------------------------

/** An uploaded file as the parsers produce it (`name`, `size`, `contentType`, and its bytes). */
export interface UploadedFile {
  name: string;
  size: number;
  contentType?: string | null;
  /** The file's bytes when held in memory. */
  content?: Buffer;
  /** Path of a temporary file when streamed to disk. */
  path?: string;
  /** A public URL for stored files (used for the representation). */
  url?: string;
}

/** Options of the file fields. */
export interface FileFieldOptions extends FieldOptions {
  maxLength?: number | null;
  allowEmptyFile?: boolean;
  /** Represent files by URL (default: the `UPLOADED_FILES_USE_URL` setting) rather than name. */
  useUrl?: boolean;
}

function isUploadedFile(data: unknown): data is UploadedFile {
  return data !== null && typeof data === 'object' && 'name' in data && 'size' in data;
}

/** An uploaded file. */
export class FileField<O extends FileFieldOptions = NoOptions> extends Field<string | null, UploadedFile, O> {
  static override defaultErrorMessages: Record<string, string> = {
    required: 'No file was submitted.',
    invalid: 'The submitted data was not a file. Check the encoding type on the form.',
    no_name: 'No filename could be determined.',
    empty: 'The submitted file is empty.',
    max_length: 'Ensure this filename has at most {max_length} characters (it has {length}).',
  };
  maxLength: number | null;
  allowEmptyFile: boolean;
  useUrl: boolean | undefined;

  constructor(options: O | FileFieldOptions = {}) {
    const { maxLength, allowEmptyFile, useUrl, ...rest } = options;
    super(rest);
    this.maxLength = maxLength ?? null;
    this.allowEmptyFile = allowEmptyFile ?? false;
    this.useUrl = useUrl;
  }

  override toInternalValue(data: unknown): UploadedFile {
    if (!isUploadedFile(data)) return this.fail('invalid');
    if (!data.name) this.fail('no_name');
    if (!this.allowEmptyFile && !data.size) this.fail('empty');
    if (this.maxLength && data.name.length > this.maxLength) {
      this.fail('max_length', { max_length: this.maxLength, length: data.name.length });
    }
    return data;
  }

  override toRepresentation(value: unknown): unknown {
    if (!value) return null;
    const useUrl = this.useUrl ?? apiSettings.UPLOADED_FILES_USE_URL ?? true;
    const file = typeof value === 'string' ? { name: value } : value as Partial<UploadedFile>;
    if (useUrl) {
      if (!file.url) return null;
      const request = this.context.request as { buildAbsoluteUri?: (url: string) => string } | undefined;
      return request?.buildAbsoluteUri ? request.buildAbsoluteUri(file.url) : file.url;
    }
    return file.name ?? null;
  }
}

/** Detect a PNG, JPEG, GIF, WebP, BMP or TIFF image by its magic bytes. */
export function sniffImageType(bytes: Buffer): string | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (bytes.length >= 2 && bytes.subarray(0, 2).toString('latin1') === 'BM') return 'image/bmp';
  if (bytes.length >= 4 && (bytes.subarray(0, 4).equals(Buffer.from([0x49, 0x49, 0x2a, 0x00])) || bytes.subarray(0, 4).equals(Buffer.from([0x4d, 0x4d, 0x00, 0x2a])))) return 'image/tiff';
  return null;
}

/** An uploaded image: the bytes must start like a PNG, JPEG, GIF, WebP, BMP or TIFF file. */
export class ImageField<O extends FileFieldOptions = NoOptions> extends FileField<O> {
  static override defaultErrorMessages: Record<string, string> = {
    invalid_image: 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
  };

  override toInternalValue(data: unknown): UploadedFile {
    const file = super.toInternalValue(data);
    let head: Buffer | null = file.content ?? null;
    if (!head && file.path) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const fs = require('node:fs') as typeof import('node:fs');
      const fd = fs.openSync(file.path, 'r');
      try {
        head = Buffer.alloc(16);
        fs.readSync(fd, head, 0, 16, 0);
      } finally {
        fs.closeSync(fd);
      }
    }
    const type = head ? sniffImageType(head) : null;
    if (!type) this.fail('invalid_image');
    file.contentType = type;
    return file;
  }
}

// -- Composite fields -----------------------------------------------------------------------

/** The default `child` of list and dict fields: accepts anything as is. */
class UnvalidatedField extends Field {
  constructor() {
    super({ allowNull: true });
    (this as { allowBlank?: boolean }).allowBlank = true;
  }

  override toInternalValue(data: unknown): unknown {
    return data;
  }

  override toRepresentation(value: unknown): unknown {
    return value;
  }
}

function checkChild(child: Field): void {
  assert(child instanceof Field, '`child` has not been instantiated.');
  assert(child.source === null,
    'The `source` option is not meaningful when applied to a `child` field. Remove `source` from the field declaration.');
}

/** Options of `ListField`. */
export interface ListFieldOptions extends FieldOptions {
  child?: Field;
  allowEmpty?: boolean;
  maxLength?: number | null;
  minLength?: number | null;
}

/** A list of values, each validated by `child`; errors are keyed by index. */
export class ListField<O extends ListFieldOptions = NoOptions> extends Field<Array<ChildOutput<O>>, Array<ChildInput<O>>, O> {
  static override defaultErrorMessages: Record<string, string> = {
    not_a_list: 'Expected a list of items but got type "{input_type}".',
    empty: 'This list may not be empty.',
    min_length: 'Ensure this field has at least {min_length} elements.',
    max_length: 'Ensure this field has no more than {max_length} elements.',
  };
  child: Field;
  allowEmpty: boolean;
  maxLength: number | null;
  minLength: number | null;

  constructor(options: O | ListFieldOptions = {}) {
    const { child, allowEmpty, maxLength, minLength, ...rest } = options;
    const childField = child ?? new UnvalidatedField();
    checkChild(childField);
    super(rest);
    this.child = childField;
    this.allowEmpty = allowEmpty ?? true;
    this.maxLength = maxLength ?? null;
    this.minLength = minLength ?? null;
    this.child.bind('', this);
    if (this.maxLength !== null) {
      const message = lazyFormat(this.errorMessages.max_length, { max_length: this.maxLength });
      this.validators.push(new MaxLengthValidator(this.maxLength, message));
    }
    if (this.minLength !== null) {
      const message = lazyFormat(this.errorMessages.min_length, { min_length: this.minLength });
      this.validators.push(new MinLengthValidator(this.minLength, message));
    }
  }

  protected override classInitial(): unknown {
    return [];
  }

  override copy(): this {
    const clone = super.copy();
    clone.child = this.child.copy();
    clone.child.bind('', clone);
    return clone;
  }

  override getValue(dictionary: unknown): unknown {
    if (isHtmlInput(dictionary)) {
      if (!htmlHas(dictionary, this.fieldName) && this.root.partial) {
        const parsed = parseHtmlList(dictionary, this.fieldName, null);
        if (parsed === null) return empty;
      }
      const values = dictionary.getList(this.fieldName);
      if (values.length > 0) return values;
      return parseHtmlList(dictionary, this.fieldName, null) ?? empty;
    }
    return super.getValue(dictionary);
  }

  override async toInternalValue(data: unknown): Promise<unknown[]> {
    let input = data;
    if (isHtmlInput(input)) input = parseHtmlList(input, '', []);
    if (typeof input === 'string' || isPlainObject(input) || !isIterable(input)) {
      return this.fail('not_a_list', { input_type: pythonTypeName(input) });
    }
    const items = [...input];
    if (!this.allowEmpty && items.length === 0) this.fail('empty');
    return this.runChildValidation(items);
  }

  override toRepresentation(data: unknown): unknown[] {
    const items = isIterable(data) ? [...data] : [];
    const child = this.child;
    return items.map((item) => (item === null || item === undefined ? null : child.toRepresentation(item)));
  }

  /** Validate each item with `child`, collecting errors by index. */
  async runChildValidation(data: unknown[]): Promise<unknown[]> {
    const result: unknown[] = [];
    const errors: Record<string, unknown> = {};
    let failed = false;
    for (let index = 0; index < data.length; index++) {
      try {
        result.push(await this.child.runValidation(data[index]));
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        errors[String(index)] = error.detail;
        failed = true;
      }
    }
    if (failed) throw new ValidationError(errors as never);
    return result;
  }
}

/** Options of `DictField`. */
export interface DictFieldOptions extends FieldOptions {
  child?: Field;
  allowEmpty?: boolean;
}

/** An object of values, each validated by `child`; errors are keyed by the object's keys. */
export class DictField<O extends DictFieldOptions = NoOptions>
  extends Field<Record<string, ChildOutput<O>>, Record<string, ChildInput<O>>, O> {
  static override defaultErrorMessages: Record<string, string> = {
    not_a_dict: 'Expected a dictionary of items but got type "{input_type}".',
    empty: 'This dictionary may not be empty.',
  };
  child: Field;
  allowEmpty: boolean;

  constructor(options: O | DictFieldOptions = {}) {
    const { child, allowEmpty, ...rest } = options;
    const childField = child ?? new UnvalidatedField();
    checkChild(childField);
    super(rest);
    this.child = childField;
    this.allowEmpty = allowEmpty ?? true;
    this.child.bind('', this);
  }

  protected override classInitial(): unknown {
    return {};
  }

  override copy(): this {
    const clone = super.copy();
    clone.child = this.child.copy();
    clone.child.bind('', clone);
    return clone;
  }

  override getValue(dictionary: unknown): unknown {
    if (isHtmlInput(dictionary)) return parseHtmlDict(dictionary, this.fieldName);
    return super.getValue(dictionary);
  }

  override async toInternalValue(data: unknown): Promise<Record<string, unknown>> {
    let input: unknown = data;
    // getValue() already took the `name.` prefix off the form keys: parsing them a second
    // time (as the original does) would find no dotted key and lose every value.
    if (isHtmlInput(input)) input = htmlToObject(input);
    if (!isPlainObject(input)) return this.fail('not_a_dict', { input_type: pythonTypeName(input) });
    if (!this.allowEmpty && Object.keys(input).length === 0) this.fail('empty');
    return this.runChildValidation(input);
  }

  override toRepresentation(value: unknown): Record<string, unknown> {
    const ret: Record<string, unknown> = {};
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as Record<string, unknown>);
    for (const [key, val] of entries) {
      ret[String(key)] = val === null || val === undefined ? null : this.child.toRepresentation(val);
    }
    return ret;
  }

  /** Validate each value with `child`, collecting errors by key. */
  async runChildValidation(data: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result: Record<string, unknown> = {};
    const errors: Record<string, unknown> = {};
    let failed = false;
    for (const [key, value] of Object.entries(data)) {
      try {
        result[key] = await this.child.runValidation(value);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        errors[key] = error.detail;
        failed = true;
      }
    }
    if (failed) throw new ValidationError(errors as never);
    return result;
  }
}

function htmlToObject(data: MultiValueInput): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  for (const key of data.keys()) ret[key] = data.get(key);
  return ret;
}

/** A `DictField` of (nullable, blank-allowed) strings, like PostgreSQL's hstore. */
export class HStoreField<O extends DictFieldOptions = NoOptions> extends DictField<O> {
  constructor(options: O | DictFieldOptions = {}) {
    super({ child: options.child ?? new CharField({ allowBlank: true, allowNull: true }), ...options });
    assert(this.child instanceof CharField,
      'The `child` argument must be an instance of `CharField`, as the hstore extension stores values as strings.');
  }
}

/** Options of `JSONField`. */
export interface JSONFieldOptions extends FieldOptions {
  /** Input and output are JSON-encoded strings rather than JSON values. */
  binary?: boolean;
  encoder?: (key: string, value: unknown) => unknown;
  decoder?: (key: string, value: unknown) => unknown;
}

const JSON_STRING = Symbol('jsonString');

/** Any JSON value (or, with `binary`, a JSON document in a string). */
export class JSONField<O extends JSONFieldOptions = NoOptions> extends Field<unknown, unknown, O> {
  static override defaultErrorMessages: Record<string, string> = { invalid: 'Value must be valid JSON.' };
  binary: boolean;
  encoder: ((key: string, value: unknown) => unknown) | undefined;
  decoder: ((key: string, value: unknown) => unknown) | undefined;

  constructor(options: O | JSONFieldOptions = {}) {
    const { binary, encoder, decoder, ...rest } = options;
    super(rest);
    this.binary = binary ?? false;
    this.encoder = encoder;
    this.decoder = decoder;
  }

  override getValue(dictionary: unknown): unknown {
    if (isHtmlInput(dictionary) && htmlHas(dictionary, this.fieldName)) {
      return { [JSON_STRING]: String(dictionary.get(this.fieldName)) };
    }
    return super.getValue(dictionary);
  }

  override toInternalValue(data: unknown): unknown {
    const jsonString = data !== null && typeof data === 'object' && JSON_STRING in data ? (data as { [JSON_STRING]: string })[JSON_STRING] : null;
    try {
      if (this.binary || jsonString !== null) {
        // A JSON document: parsed strictly (NaN and Infinity are not JSON), as the original's
        // json.loads with its strict constants.
        const text = jsonString ?? (Buffer.isBuffer(data) ? data.toString('utf8') : data);
        if (typeof text !== 'string') return this.fail('invalid');
        const value = loads(text);
        return this.decoder ? JSON.parse(text, this.decoder) : value;
      }
      if (this.encoder) {
        if (JSON.stringify(data, this.encoder) === undefined) this.fail('invalid');
      } else if (!isJsonValue(data)) {
        this.fail('invalid');
      }
    } catch (error) {
      if (error instanceof ValidationError) throw error;
      this.fail('invalid');
    }
    return data;
  }

  /** The value; with `binary`, its JSON text as bytes, spelled as the original's `json.dumps`. */
  override toRepresentation(value: unknown): unknown {
    if (!this.binary) return value;
    const encodable = this.encoder ? JSON.parse(JSON.stringify(value, this.encoder) ?? 'null') as unknown : value;
    return Buffer.from(dumps(encodable));
  }
}

/**
 * True when `value` survives encoding as JSON unchanged, as the original checks with a plain
 * `json.dumps`: null, booleans, strings, finite numbers, arrays and plain objects of those.
 * NaN and infinities, dates, sets, buffers, functions and `undefined` do not.
 */
function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > 1000) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  return false;
}

// -- Miscellaneous --------------------------------------------------------------------------

/** Outputs the attribute as is (calling it when it is a method); never writable. */
export class ReadOnlyField<O extends FieldOptions = NoOptions> extends Field<unknown, never, O & { readOnly: true }> {
  constructor(options: O | FieldOptions = {}) {
    super({ ...options, readOnly: true });
  }

  override toRepresentation(value: unknown): unknown {
    return value;
  }
}

/** Options of `HiddenField` (a `default` is required). */
export interface HiddenFieldOptions extends FieldOptions {
  default: unknown;
}

/** Never read from input nor shown; puts its `default` into the validated data. */
export class HiddenField<O extends HiddenFieldOptions = HiddenFieldOptions> extends Field<never, DefaultValue<O>, O & { writeOnly: true }> {
  constructor(options: O | HiddenFieldOptions) {
    assert(Object.prototype.hasOwnProperty.call(options, 'default'), 'default is a required argument.');
    super({ ...options, writeOnly: true });
  }

  override getValue(dictionary: unknown): unknown {
    void dictionary;
    return empty;
  }

  override toInternalValue(data: unknown): unknown {
    return data;
  }
}

/** camelCase of a snake_case name: `extra_info` -> `extraInfo`. */
export function camelCase(name: string): string {
  return name.replace(/_+([a-zA-Z0-9])/g, (_, ch: string) => ch.toUpperCase());
}

/** `methodNameFor()`'s answers by prefix and field name (bounded: serializers built on the fly). */
const methodNames = new Map<string, Map<string, string>>();
const MAX_METHOD_NAMES = 10_000;

/** `get` + PascalCase of the field name: `extra_info` -> `getExtraInfo`. */
export function methodNameFor(prefix: string, fieldName: string): string {
  // Asked per field of every serializer instance (`validate<Field>` hooks): answered once per name.
  let names = methodNames.get(prefix);
  if (names === undefined) methodNames.set(prefix, names = new Map());
  let name = names.get(fieldName);
  if (name === undefined) {
    if (names.size >= MAX_METHOD_NAMES) names.clear();
    const camel = camelCase(fieldName);
    name = prefix + camel.charAt(0).toUpperCase() + camel.slice(1);
    names.set(fieldName, name);
  }
  return name;
}


/** Options of `SerializerMethodField`. */
export interface SerializerMethodFieldOptions extends Omit<FieldOptions, 'source' | 'readOnly'> {
  /** The serializer method to call; default `get<FieldName>`. */
  methodName?: string;
}

/**
 * Read-only; its value comes from calling the serializer's `get<FieldName>(obj)` method
 * (`getExtraInfo` for `extra_info`), or the method named by `methodName`.
 */
export class SerializerMethodField<const O extends SerializerMethodFieldOptions = NoOptions>
  extends Field<unknown, never, O & { readOnly: true }> {
  methodName: string | null;
  private method: ((obj: unknown) => unknown) | null = null;

  constructor(options: O | SerializerMethodFieldOptions = {}) {
    const { methodName, ...rest } = options;
    super({ ...rest, source: '*', readOnly: true });
    this.methodName = methodName ?? null;
  }

  override bind(fieldName: string, parent: FieldParent): void {
    super.bind(fieldName, parent);
    const name = this.methodName ?? methodNameFor('get', fieldName);
    const method: unknown = Reflect.get(parent, name);
    if (typeof method !== 'function') {
      assert.fail(`SerializerMethodField \`${fieldName}\` on \`${parent.constructor.name}\` needs a method \`${name}(obj)\` on the serializer.`);
    }
    this.methodName = this.methodName ?? null;
    this.method = (method as (obj: unknown) => unknown).bind(parent);
  }

  /** The method's result; an async method's promise is awaited by `getData()` (see `utils/pendingValues`). */
  override toRepresentation(value: unknown): unknown {
    const result = (this.method as (obj: unknown) => unknown)(value);
    if (!isThenable(result)) return result;
    return deferValue(result, () => `SerializerMethodField \`${this.fieldName}\` (\`${this.parent?.constructor.name ?? '?'}.` +
      `${this.methodName ?? methodNameFor('get', this.fieldName)}()\`)`);
  }
}

/** A model column as `ModelField` sees it: converts input and reads the stored value. */
export interface ModelFieldInfo {
  name: string;
  /** Convert incoming data to the column's native value (throw `ValidationError` on bad input). */
  toPython?: (value: unknown) => unknown;
  /** The column's value as a string, for output. */
  valueToString?: (value: unknown) => string;
}

/** Options of `ModelField`. */
export interface ModelFieldOptions extends FieldOptions {
  modelField: ModelFieldInfo;
  maxLength?: number | null;
}

/** A generic field over a model column that has no dedicated serializer field. */
export class ModelField<O extends ModelFieldOptions = ModelFieldOptions> extends Field<unknown, unknown, O> {
  static override defaultErrorMessages: Record<string, string> = { max_length: 'Ensure this field has no more than {max_length} characters.' };
  readonly modelField: ModelFieldInfo;
  maxLength: number | null;

  constructor(options: O | ModelFieldOptions) {
    const { modelField, maxLength, ...rest } = options;
    super(rest);
    this.modelField = modelField;
    this.maxLength = maxLength ?? null;
    if (this.maxLength !== null) {
      const message = lazyFormat(this.errorMessages.max_length, { max_length: this.maxLength });
      this.validators.push(new MaxLengthValidator(this.maxLength, message));
    }
  }

  override toInternalValue(data: unknown): unknown {
    return this.modelField.toPython ? this.modelField.toPython(data) : data;
  }

  override getAttribute(obj: unknown): unknown {
    return obj;
  }

  override toRepresentation(obj: unknown): unknown {
    const value = getAttribute(obj, [this.modelField.name]);
    if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
    return this.modelField.valueToString ? this.modelField.valueToString(value) : String(value);
  }
}

// -- Defaults -------------------------------------------------------------------------------

/** Default to the request's user: `new HiddenField({ default: new CurrentUserDefault() })`. */
export class CurrentUserDefault implements ContextualDefault {
  readonly requiresContext = true as const;

  /** The `request.user` of the serializer context. */
  call(field: Field): unknown {
    const request = field.context.request as { user?: unknown } | undefined;
    assert(request, 'CurrentUserDefault requires the request in the serializer context.');
    return request.user;
  }
}

/** A default used when creating only; on updates the field is skipped. */
export class CreateOnlyDefault implements ContextualDefault {
  readonly requiresContext = true as const;

  constructor(readonly defaultValue: unknown) {}

  /** The default, or `SkipField` when the serializer updates an instance. */
  call(field: Field): unknown {
    const isUpdate = field.parent !== null && field.parent.instance !== null && field.parent.instance !== undefined;
    if (isUpdate) throw new SkipField();
    const value = this.defaultValue;
    if (isContextualDefault(value)) return value.call(field);
    if (typeof value === 'function') {
      const fn = value as ((field?: Field) => unknown) & { requiresContext?: boolean };
      return fn.requiresContext ? fn(field) : fn();
    }
    return value;
  }
}
