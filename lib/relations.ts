/**
 * Relational fields: represent related model instances by primary key, string, slug or
 * hyperlink, and turn such input back into instances (looked up in the field's `queryset`).
 *
 * Pass `many: true` to any of them to get a `ManyRelatedField` wrapping one child relation.
 */
import assert from 'node:assert';
import { ImproperlyConfigured } from './core/exceptions';
import { resolve, NoReverseMatch, Resolver404 } from './core/urls';
import { getFieldInfo, ObjectDoesNotExist, type QuerySet } from './core/db';
import type { Model, ModelCtor } from 'sequelize-typescript';
import { reverse, reverseRequestKey, type ReverseRequest } from './reverse';
import { apiSettings } from './settings';
import {
  empty, Field, getAttribute, pythonStr, pythonTypeName, type FieldOptions, type SelectOption, iterOptions,
} from './fields';
import { htmlHas, isHtmlInput } from './utils/html';
import type { FieldOutput, NoOptions } from './fieldTypes';

/** The keyword options that go to the `ManyRelatedField` rather than to its child. */
const MANY_RELATION_KWARGS = new Set(['readOnly', 'writeOnly', 'required', 'default', 'initial', 'source', 'label',
  'helpText', 'style', 'errorMessages', 'allowEmpty', 'htmlCutoff', 'htmlCutoffText', 'allowNull']);

/** A queryset-like source of related objects. */
export type RelatedQuerySet = QuerySet<Model>;

/** The related model a relational field's `queryset` selects (`unknown` without one). */
export type RelatedObject<O> = O extends { queryset: QuerySet<infer M> } ? M : unknown;

/** The primary key type of model `M` (its `id` attribute), `unknown` when it cannot be told. */
export type PkOf<M> = M extends { id: infer I } ? 0 extends 1 & I ? unknown : I : unknown;

/** Options of every relational field. */
export interface RelatedFieldOptions extends FieldOptions {
  /** Where input values are looked up; required unless the field is read-only. */
  queryset?: RelatedQuerySet | null;
  /** Many related objects: builds a `ManyRelatedField`. */
  many?: boolean;
  /** With `many`: whether an empty list is valid. */
  allowEmpty?: boolean;
  htmlCutoff?: number | null;
  htmlCutoffText?: string | null;
}

/** A value holding only a primary key: what relational fields read when the pk suffices. */
export class PKOnlyObject {
  constructor(readonly pk: unknown) {}

  toString(): string {
    return String(this.pk);
  }
}

function isModelInstance(value: unknown): value is Model {
  return value !== null && typeof value === 'object' && 'dataValues' in value
    && typeof (value.constructor as { getAttributes?: unknown }).getAttributes === 'function';
}

/**
 * Base class of relational fields. Subclasses implement `toRepresentation(obj)` and
 * `toInternalValue(data)`; override `getQueryset()` for per-request querysets.
 */
export class RelatedField<O extends RelatedFieldOptions = NoOptions, TOutput = unknown, TInput = RelatedObject<O>>
  extends Field<TOutput, TInput, O> {
  queryset!: RelatedQuerySet | null;
  htmlCutoff!: number | null;
  htmlCutoffText!: string | null;

  constructor(options: O | RelatedFieldOptions = {}) {
    const { queryset, many, allowEmpty, htmlCutoff, htmlCutoffText, ...rest } = options;
    if (many) {
      // The original's `__new__`: a `many=True` relation is a ManyRelatedField of this class.
      return manyInit(new.target, options) as unknown as RelatedField<O, TOutput, TInput>;
    }
    void allowEmpty;
    super(rest);
    this.queryset = queryset ?? null;
    this.htmlCutoff = htmlCutoff ?? null;
    this.htmlCutoffText = htmlCutoffText ?? null;
    const overridesQueryset = (this as { getQueryset: unknown }).getQueryset !== RelatedField.prototype.getQueryset;
    if (!overridesQueryset) {
      assert(this.queryset !== null || this.readOnly,
        'Relational field must provide a `queryset` option, override `getQueryset()`, or set `readOnly: true`.');
    }
    assert(!(this.queryset !== null && this.readOnly),
      'Relational fields should not provide a `queryset` option, when setting `readOnly: true`.');
  }

  /** Whether only the primary key of the related object is needed (no join or extra query). */
  usePkOnlyOptimization(): boolean {
    return false;
  }

  override validationNow(data: unknown = empty): unknown {
    // Empty strings are treated as null for relational fields.
    return super.validationNow(data === '' ? null : data);
  }

  /** The queryset input values are looked up in (a fresh clone each call). */
  getQueryset(): RelatedQuerySet {
    if (this.queryset === null) assert.fail(`${this.constructor.name} needs a queryset for writes.`);
    return this.queryset.all();
  }

  override getAttribute(instance: unknown): unknown {
    if (this.usePkOnlyOptimization() && this.sourceAttrs.length) {
      try {
        const holder = getAttribute(instance, this.sourceAttrs.slice(0, -1));
        const attr = this.sourceAttrs[this.sourceAttrs.length - 1];
        if (isModelInstance(holder)) {
          const relation = getFieldInfo(holder.constructor as ModelCtor).getRelation(attr);
          if (relation && relation.kind === 'belongsTo') {
            const fk = (holder.dataValues as Record<string, unknown>)[relation.foreignKey];
            return fk === null || fk === undefined ? null : new PKOnlyObject(fk);
          }
        }
      } catch (error) {
        if (!(error instanceof Error && error.name === 'AttributeError')) throw error;
      }
    }
    return super.getAttribute(instance);
  }

  /** Related objects as `representation -> display text`, for HTML selects (at most `cutoff`). */
  async getChoices(cutoff: number | null = null): Promise<Map<unknown, string>> {
    let queryset = this.getQueryset();
    if (cutoff) queryset = queryset.slice(0, cutoff);
    const rows = await queryset.fetch();
    return new Map(rows.map((item) => [this.toRepresentation(item), this.displayValue(item)]));
  }

  /** The text shown for `instance` in HTML selects: its `toString()`. */
  displayValue(instance: unknown): string {
    return String(instance);
  }

  /** Options for an HTML select, cut off at `htmlCutoff` (default: `HTML_SELECT_CUTOFF`). */
  async iterOptions(): Promise<SelectOption[]> {
    const cutoff = this.htmlCutoff ?? apiSettings.HTML_SELECT_CUTOFF;
    const cutoffText = this.htmlCutoffText ?? apiSettings.HTML_SELECT_CUTOFF_TEXT;
    return iterOptions(new Map<unknown, unknown>(await this.getChoices(cutoff)), cutoff, cutoffText);
  }
}

/** Build the `ManyRelatedField` for `cls` and the options given with `many: true`. */
function manyInit(cls: new (options: RelatedFieldOptions) => RelatedField, options: RelatedFieldOptions): ManyRelatedField {
  const childOptions: Record<string, unknown> = {};
  const listOptions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === 'many') continue;
    if (MANY_RELATION_KWARGS.has(key)) listOptions[key] = value;
    if (!MANY_RELATION_KWARGS.has(key) || ['readOnly', 'htmlCutoff', 'htmlCutoffText'].includes(key)) childOptions[key] = value;
  }
  delete childOptions.allowNull;
  return new ManyRelatedField({ ...(listOptions as FieldOptions), childRelation: new cls(childOptions as RelatedFieldOptions) });
}

/** Options of `ManyRelatedField` (what `many: true` builds). */
export interface ManyRelatedFieldOptions extends FieldOptions {
  childRelation: RelatedField;
  allowEmpty?: boolean;
  htmlCutoff?: number | null;
  htmlCutoffText?: string | null;
}

/** A list of related objects, each handled by `childRelation`. */
export class ManyRelatedField extends Field<unknown[], unknown[], ManyRelatedFieldOptions> {
  static override defaultErrorMessages: Record<string, string> = {
    not_a_list: 'Expected a list of items but got type "{input_type}".',
    empty: 'This list may not be empty.',
  };
  childRelation: RelatedField;
  allowEmpty: boolean;
  htmlCutoff: number | null;
  htmlCutoffText: string | null;

  constructor(options: ManyRelatedFieldOptions) {
    const { childRelation, allowEmpty, htmlCutoff, htmlCutoffText, ...rest } = options;
    assert(childRelation, '`childRelation` is a required option.');
    super(rest);
    this.childRelation = childRelation;
    this.allowEmpty = allowEmpty ?? true;
    this.htmlCutoff = htmlCutoff ?? null;
    this.htmlCutoffText = htmlCutoffText ?? null;
    this.defaultEmptyHtml = [];
    this.adoptDefaultForEmptyHtml();
    this.childRelation.bind('', this);
  }

  protected override classInitial(): unknown {
    return [];
  }

  override copy(): this {
    const clone = super.copy();
    clone.childRelation = this.childRelation.copy();
    clone.childRelation.bind('', clone);
    return clone;
  }

  override getValue(dictionary: unknown): unknown {
    if (isHtmlInput(dictionary)) {
      if (!htmlHas(dictionary, this.fieldName) && this.root.partial) return empty;
      return dictionary.getList(this.fieldName);
    }
    return super.getValue(dictionary);
  }

  override async toInternalValue(data: unknown): Promise<unknown[]> {
    if (typeof data === 'string' || data === null || typeof data !== 'object' || !(Symbol.iterator in data)) {
      return this.fail('not_a_list', { input_type: pythonTypeName(data) });
    }
    const items = [...(data as Iterable<unknown>)];
    if (!this.allowEmpty && items.length === 0) this.fail('empty');
    const out: unknown[] = [];
    for (const item of items) out.push(await this.childRelation.toInternalValue(item));
    return out;
  }

  override getAttribute(instance: unknown): unknown {
    if (isModelInstance(instance) && instance.isNewRecord) return [];
    const relationship = getAttribute(instance, this.sourceAttrs);
    return relationship ?? [];
  }

  override toRepresentation(iterable: unknown): unknown[] {
    const child = this.childRelation;
    const out: unknown[] = [];
    for (const value of iterable as Iterable<unknown>) out.push(child.toRepresentation(value));
    return out;
  }

  /** The child relation's choices. */
  async getChoices(cutoff: number | null = null): Promise<Map<unknown, string>> {
    return this.childRelation.getChoices(cutoff);
  }

  /** Options for an HTML multiple select. */
  async iterOptions(): Promise<SelectOption[]> {
    const cutoff = this.htmlCutoff ?? apiSettings.HTML_SELECT_CUTOFF;
    const cutoffText = this.htmlCutoffText ?? apiSettings.HTML_SELECT_CUTOFF_TEXT;
    return iterOptions(new Map<unknown, unknown>(await this.getChoices(cutoff)), cutoff, cutoffText);
  }
}

/** Read-only: the related object's `toString()`. */
export class StringRelatedField<O extends RelatedFieldOptions = NoOptions> extends RelatedField<O & { readOnly: true }, string, never> {
  constructor(options: O | RelatedFieldOptions = {}) {
    super({ ...options, readOnly: true });
  }

  override toRepresentation(value: unknown): string {
    return String(value);
  }
}

function pkValueError(model: ModelCtor, data: unknown): boolean {
  const pk = getFieldInfo(model).pk;
  if (['INTEGER', 'BIGINT', 'SMALLINT', 'MEDIUMINT', 'TINYINT'].includes(pk.type)) {
    if (typeof data === 'number') return !Number.isFinite(data);
    return !(typeof data === 'string' && /^\s*[+-]?\d+\s*$/.test(data));
  }
  return false;
}

/** Options of `PrimaryKeyRelatedField`. */
export interface PrimaryKeyRelatedFieldOptions extends RelatedFieldOptions {
  /** A field converting the pk value (for example a `UUIDField`). */
  pkField?: Field;
}

/** The related object's primary key (the default for `ModelSerializer` relations). */
export class PrimaryKeyRelatedField<O extends PrimaryKeyRelatedFieldOptions = NoOptions>
  extends RelatedField<O, O extends { pkField: infer F } ? FieldOutput<F> : PkOf<RelatedObject<O>>> {
  static override defaultErrorMessages: Record<string, string> = {
    required: 'This field is required.',
    does_not_exist: 'Invalid pk "{pk_value}" - object does not exist.',
    incorrect_type: 'Incorrect type. Expected pk value, received {data_type}.',
  };
  /** A field converting the pk value (for example a `UUIDField`). */
  pkField!: Field | null;

  constructor(options: O | PrimaryKeyRelatedFieldOptions = {}) {
    super(options);
    if (this instanceof ManyRelatedField) return;
    this.pkField = options.pkField ?? null;
  }

  override usePkOnlyOptimization(): boolean {
    return true;
  }

  override async toInternalValue(data: unknown): Promise<unknown> {
    let value = data;
    if (this.pkField) value = await this.pkField.toInternalValue(value);
    const queryset = this.getQueryset();
    if (typeof value === 'boolean' || value === null || typeof value === 'object' || pkValueError(queryset.model as ModelCtor, value)) {
      return this.fail('incorrect_type', { data_type: pythonTypeName(value) });
    }
    try {
      return await queryset.get({ pk: typeof value === 'number' ? Math.trunc(value) : value });
    } catch (error) {
      if (error instanceof ObjectDoesNotExist) return this.fail('does_not_exist', { pk_value: pythonStr(value) });
      throw error;
    }
  }

  override toRepresentation(value: unknown): unknown {
    const pk = (value as { pk: unknown }).pk;
    return this.pkField ? this.pkField.toRepresentation(pk) : pk;
  }
}

/** Options of `SlugRelatedField`. */
export interface SlugRelatedFieldOptions extends RelatedFieldOptions {
  /** The related object's attribute to represent it by (`'username'`). */
  slugField: string;
}

/** A unique attribute of the related object (`slugField`, e.g. `'username'`). */
export class SlugRelatedField<const O extends SlugRelatedFieldOptions = SlugRelatedFieldOptions>
  extends RelatedField<O, O extends { slugField: infer S } ? S extends keyof RelatedObject<O> ? RelatedObject<O>[S] : unknown : unknown> {
  static override defaultErrorMessages: Record<string, string> = {
    does_not_exist: 'Object with {slug_name}={value} does not exist.',
    invalid: 'Invalid value.',
  };
  slugField!: string;
  private slugAttrs!: string[];

  constructor(options: O | SlugRelatedFieldOptions) {
    assert(options.slugField !== undefined && options.slugField !== null, 'The `slugField` option is required.');
    super(options);
    if (this instanceof ManyRelatedField) return;
    this.slugField = options.slugField;
    this.slugAttrs = options.slugField.split('__');
  }

  override async toInternalValue(data: unknown): Promise<unknown> {
    if (data === null || typeof data === 'object' || typeof data === 'boolean') return this.fail('invalid');
    try {
      return await this.getQueryset().get({ [this.slugField]: data });
    } catch (error) {
      if (error instanceof ObjectDoesNotExist) return this.fail('does_not_exist', { slug_name: this.slugField, value: pythonStr(data) });
      if (error instanceof Error && /FieldError|ValueError|TypeError/.test(error.name)) return this.fail('invalid');
      throw error;
    }
  }

  override toRepresentation(obj: unknown): unknown {
    return getAttribute(obj, this.slugAttrs);
  }
}

/** Options of the hyperlinked fields. */
export interface HyperlinkedFieldOptions extends RelatedFieldOptions {
  /** The URL name of the related object's detail view (`'user-detail'`). */
  viewName: string;
  /** The object attribute used in the URL (default `'pk'`). */
  lookupField?: string;
  /** The URL keyword argument (default: `lookupField`). */
  lookupUrlKwarg?: string;
  /** Format suffix to use in URLs, overriding the request's. */
  format?: string | null;
}

/** The request in a serializer context, as the hyperlinked fields need it. */
type ContextRequest = ReverseRequest & { versioningScheme?: { getVersionedViewname?: (name: string, request: unknown) => string } | null };

/** An absolute URL to the related object's detail view. */
export class HyperlinkedRelatedField<O extends HyperlinkedFieldOptions = HyperlinkedFieldOptions> extends RelatedField<O, string> {
  static override defaultErrorMessages: Record<string, string> = {
    required: 'This field is required.',
    no_match: 'Invalid hyperlink - No URL match.',
    incorrect_match: 'Invalid hyperlink - Incorrect URL match.',
    does_not_exist: 'Invalid hyperlink - Object does not exist.',
    incorrect_type: 'Incorrect type. Expected URL string, received {data_type}.',
  };
  viewName!: string;
  lookupField!: string;
  lookupUrlKwarg!: string;
  format!: string | null;
  /** The reverse function (replaceable in tests). */
  reverse = reverse;
  /**
   * The URLs this field answered, by request key and lookup value; shared by the field's
   * copies (`copy()` keeps the reference), so a serializer class's hyperlinks are reversed once
   * per object, not once per request. Used only while `getUrl()` and `reverse` are the
   * library's own (then a URL follows from the view name, lookup value, format and request key).
   */
  private urlMemo: UrlMemo = new Map();
  /** The memo's part for each request being represented (weakly: nothing outlives its request). */
  private urlMemoParts = new WeakMap<object, { format: string | null; urls: Map<unknown, string> | null }>();

  constructor(options: O | HyperlinkedFieldOptions) {
    const { viewName, lookupField, lookupUrlKwarg, format } = options;
    assert(viewName !== undefined && viewName !== null, 'The `viewName` option is required.');
    super(options);
    if (this instanceof ManyRelatedField) return;
    this.viewName = viewName;
    this.lookupField = lookupField ?? 'pk';
    this.lookupUrlKwarg = lookupUrlKwarg ?? this.lookupField;
    this.format = format ?? null;
  }

  override usePkOnlyOptimization(): boolean {
    return this.lookupField === 'pk';
  }

  /** Look up the object named by a resolved URL's keyword arguments. */
  async getObject(viewName: string, viewArgs: unknown[], viewKwargs: Record<string, unknown>): Promise<unknown> {
    void viewName;
    void viewArgs;
    const lookupValue = viewKwargs[this.lookupUrlKwarg];
    return this.getQueryset().get({ [this.lookupField]: lookupValue });
  }

  /** The URL of `obj` (null for unsaved objects); override for custom URL schemes. */
  getUrl(obj: unknown, viewName: string, request: ContextRequest, format: string | null): string | null {
    const pk = (obj as { pk?: unknown }).pk;
    if (pk === null || pk === undefined || pk === '') return null;
    const lookupValue = this.lookupField === 'pk' ? pk : getAttribute(obj, [this.lookupField]);
    return this.reverse(viewName, { kwargs: { [this.lookupUrlKwarg]: lookupValue }, request, format });
  }

  override async toInternalValue(data: unknown): Promise<unknown> {
    const request = this.context.request as ContextRequest | undefined;
    if (typeof data !== 'string') return this.fail('incorrect_type', { data_type: pythonTypeName(data) });
    let path = data;
    if (path.startsWith('http:') || path.startsWith('https:')) {
      try {
        path = new URL(path).pathname;
      } catch {
        this.fail('no_match');
      }
    }
    try {
      path = decodeURIComponent(path);
    } catch {
      this.fail('no_match');
    }
    let match: ReturnType<typeof resolve>;
    try {
      match = resolve(path);
    } catch (error) {
      if (error instanceof Resolver404) return this.fail('no_match');
      throw error;
    }
    let expected = this.viewName;
    const scheme = request?.versioningScheme;
    if (scheme && typeof scheme.getVersionedViewname === 'function' && request?.version) {
      expected = scheme.getVersionedViewname(this.viewName, request.version);
    }
    if (match.viewName !== expected) this.fail('incorrect_match');
    try {
      return await this.getObject(match.viewName, match.args, match.kwargs);
    } catch (error) {
      if (error instanceof ObjectDoesNotExist || (error instanceof Error && /ValueError|TypeError|FieldError/.test(error.name))) {
        return this.fail('does_not_exist');
      }
      throw error;
    }
  }

  override toRepresentation(value: unknown): unknown {
    const context = this.context;
    // The message is built only when the check fails (this runs for every value represented).
    if (!('request' in context)) {
      assert.fail(`\`${this.constructor.name}\` requires the request in the serializer context. Add \`context={'request': request}\` when instantiating the serializer.`);
    }
    const request = context.request as ContextRequest;
    let format = (context.format as string | null | undefined) ?? null;
    if (format && this.format && this.format !== format) format = this.format;
    const urls = this.memoisedUrls(request, format);
    let lookupValue: unknown = null;
    if (urls !== null) {
      lookupValue = this.memoLookupValue(value);
      if (lookupValue !== null) {
        const known = urls.get(lookupValue);
        if (known !== undefined) return known;
      }
    }
    let url: string | null;
    try {
      url = this.getUrl(value, this.viewName, request, format);
      if (urls !== null && lookupValue !== null && url !== null) {
        if (urls.size >= MAX_MEMOISED_URLS) urls.clear();
        urls.set(lookupValue, url);
      }
    } catch (error) {
      if (!(error instanceof NoReverseMatch)) throw error;
      let msg = `Could not resolve URL for hyperlinked relationship using view name "${this.viewName}". You may have ` +
        'failed to include the related model in your API, or incorrectly configured the `lookupField` option on this field.';
      const raw = (value as { pk?: unknown } | null)?.pk ?? value;
      if (raw === '' || raw === null || raw === undefined) {
        const valueString = raw === '' ? 'the empty string' : 'None';
        msg += ` WARNING: The value of the field on the model instance was ${valueString}, which may be why it didn't match any entries in your URL conf.`;
      }
      throw new ImproperlyConfigured(msg);
    }
    return url;
  }

  /**
   * The URL `toRepresentation(value)` answers in `context` when this field (or a copy) already
   * answered it for the same request key, format and lookup value; undefined when it is not
   * known (call `toRepresentation()`, which keeps it). For the representation plan, which
   * represents a class's fields without binding them per serializer.
   */
  knownUrl(value: unknown, context: Record<string, unknown>): string | undefined {
    if (!('request' in context)) return undefined;
    let format = (context.format as string | null | undefined) ?? null;
    if (format && this.format && this.format !== format) format = this.format;
    const urls = this.memoisedUrls(context.request as ContextRequest, format);
    if (urls === null) return undefined;
    const lookupValue = this.memoLookupValue(value);
    return lookupValue === null ? undefined : urls.get(lookupValue);
  }

  /**
   * The memoised URLs for `request` and `format`, or null when URLs cannot be memoised here: a
   * `getUrl()` or `reverse` of one's own, or a request whose versioning scheme builds URLs.
   */
  private memoisedUrls(request: ContextRequest, format: string | null): Map<unknown, string> | null {
    if (this.getUrl !== HyperlinkedRelatedField.prototype.getUrl || this.reverse !== reverse) return null;
    const holder = request !== null && typeof request === 'object' ? request : null;
    const part = holder === null ? undefined : this.urlMemoParts.get(holder);
    if (part !== undefined && part.format === format) return part.urls;
    let requestKey: string | null;
    try {
      requestKey = reverseRequestKey(request);
    } catch {
      // (a host the settings do not allow): the general path answers as it always did
      requestKey = null;
    }
    let urls: Map<unknown, string> | null = null;
    if (requestKey !== null) {
      const key = `${requestKey}|${format ?? '-'}|${this.lookupField}|${this.lookupUrlKwarg}|${this.viewName}`;
      urls = this.urlMemo.get(key) ?? null;
      if (urls === null) {
        if (this.urlMemo.size >= MAX_MEMOISED_REQUEST_KEYS) this.urlMemo.clear();
        urls = new Map();
        this.urlMemo.set(key, urls);
      }
    }
    if (holder !== null) this.urlMemoParts.set(holder, { format, urls });
    return urls;
  }

  /**
   * The lookup value `getUrl()` reverses with, when it is a memo key (a string or number);
   * null otherwise (no URL for an unsaved object, or a value whose text could change).
   */
  private memoLookupValue(obj: unknown): string | number | null {
    const pk = (obj as { pk?: unknown } | null | undefined)?.pk;
    if (pk === null || pk === undefined || pk === '') return null;
    let lookupValue: unknown = pk;
    if (this.lookupField !== 'pk') {
      try {
        lookupValue = getAttribute(obj, [this.lookupField]);
      } catch {
        return null; // getUrl() reads it again and raises
      }
    }
    return typeof lookupValue === 'string' || (typeof lookupValue === 'number' && Number.isFinite(lookupValue)) ? lookupValue : null;
  }
}

/** A hyperlinked field's memo: request key (with view name and lookup) -> lookup value -> URL. */
type UrlMemo = Map<string, Map<unknown, string>>;

/** The most URLs kept per request key, and request keys per field; past them a memo starts over. */
const MAX_MEMOISED_URLS = 4096;
const MAX_MEMOISED_REQUEST_KEYS = 64;

/** Options of `HyperlinkedIdentityField` (always read-only, `source: '*'`). */
export type HyperlinkedIdentityFieldOptions = Omit<HyperlinkedFieldOptions, 'source' | 'readOnly'>;

/** The URL of the object itself (read-only, `source: '*'`): the `url` of hyperlinked serializers. */
export class HyperlinkedIdentityField<O extends HyperlinkedIdentityFieldOptions = HyperlinkedIdentityFieldOptions>
  extends HyperlinkedRelatedField<O & HyperlinkedFieldOptions & { readOnly: true }> {
  constructor(options: O | HyperlinkedIdentityFieldOptions) {
    super({ ...options, readOnly: true, source: '*' });
  }

  override usePkOnlyOptimization(): boolean {
    return false;
  }
}

