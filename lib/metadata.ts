/**
 * The metadata API is used to allow customization of how `OPTIONS` requests are handled.
 * We currently provide a single default implementation that returns some fairly ad-hoc
 * information about the view.
 *
 * Future implementations might use JSON schema or other definitions in order to return
 * this information in a more standardized way.
 */
import { Http404, PermissionDenied } from './core/exceptions';
import { APIException } from './exceptions';
import type { Request } from './request';
import type { APIView } from './views';

/** A metadata class, as in `metadataClass` and DEFAULT_METADATA_CLASS. */
export type MetadataClass = new () => BaseMetadata;

/** Base class of metadata policies: override `determineMetadata`. */
export abstract class BaseMetadata {
  /** Return a dictionary of metadata about the view; used to build responses to OPTIONS. */
  abstract determineMetadata(request: Request, view: APIView): unknown | Promise<unknown>;
}

/** The field shape the metadata class reads (serializer fields, duck-typed). */
interface FieldLike {
  required?: boolean;
  readOnly?: boolean;
  label?: unknown;
  helpText?: unknown;
  minLength?: unknown;
  maxLength?: unknown;
  minValue?: unknown;
  maxValue?: unknown;
  maxDigits?: unknown;
  decimalPlaces?: unknown;
  child?: unknown;
  fields?: unknown;
  choices?: unknown;
}

/** A view that may expose a serializer (generic views). */
interface SerializerView {
  getSerializer(): unknown;
  getObject?(): unknown;
}

/** True for a view with a `getSerializer()` (the generic views): its actions can be described. */
function isSerializerView(view: APIView): view is APIView & SerializerView {
  return 'getSerializer' in view && typeof view.getSerializer === 'function';
}

/** Field type labels by field class name; the nearest ancestor in the table wins. */
export const LABEL_LOOKUP: Readonly<Record<string, string>> = {
  Field: 'field',
  BooleanField: 'boolean',
  NullBooleanField: 'boolean',
  CharField: 'string',
  UUIDField: 'string',
  URLField: 'url',
  EmailField: 'email',
  RegexField: 'regex',
  SlugField: 'slug',
  IntegerField: 'integer',
  FloatField: 'float',
  DecimalField: 'decimal',
  DateField: 'date',
  DateTimeField: 'datetime',
  TimeField: 'time',
  DurationField: 'duration',
  ChoiceField: 'choice',
  MultipleChoiceField: 'multiple choice',
  FileField: 'file upload',
  ImageField: 'image upload',
  ListField: 'list',
  DictField: 'nested object',
  Serializer: 'nested object',
};

function classNames(value: unknown): string[] {
  const names: string[] = [];
  for (let proto = value === null || value === undefined ? null : Object.getPrototypeOf(value); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    names.push((proto as { constructor: { name: string } }).constructor.name);
  }
  return names;
}

function choicePairs(choices: unknown): Array<[unknown, unknown]> {
  if (choices instanceof Map) return [...choices.entries()];
  if (Array.isArray(choices)) return choices.map((choice) => (Array.isArray(choice) ? [choice[0], choice[1]] : [choice, choice]));
  if (choices !== null && typeof choices === 'object') return Object.entries(choices);
  return [];
}

function fieldEntries(fields: unknown): Array<[string, unknown]> {
  if (fields instanceof Map) return [...fields.entries()];
  if (fields !== null && typeof fields === 'object') {
    const withEntries = fields as { entries?: unknown };
    if (typeof withEntries.entries === 'function' && !Array.isArray(fields)) {
      return [...(withEntries.entries as () => Iterable<[string, unknown]>).call(fields)];
    }
    return Object.entries(fields);
  }
  return [];
}

function plainValue(value: unknown): unknown {
  if (value instanceof String) return value.valueOf();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return String(value);
  return value;
}

/**
 * The default metadata: the view's name and description, the media types it renders and
 * parses, and for POST/PUT (when the user may use them) the serializer's fields.
 */
export class SimpleMetadata extends BaseMetadata {
  /** Field type labels by field class name. */
  labelLookup: Readonly<Record<string, string>> = LABEL_LOOKUP;

  /** Describe the view for an OPTIONS response. */
  async determineMetadata(request: Request, view: APIView): Promise<Record<string, unknown>> {
    const metadata: Record<string, unknown> = {
      name: view.getViewName(),
      description: view.getViewDescription(),
      renders: view.getRenderers().map((renderer) => renderer.mediaType),
      parses: view.getParsers().map((parser) => parser.mediaType),
    };
    if (isSerializerView(view)) {
      const actions = await this.determineActions(request, view);
      if (Object.keys(actions).length > 0) metadata.actions = actions;
    }
    return metadata;
  }

  /** For generic views, describe the fields of POST and PUT the user is allowed to use. */
  async determineActions(request: Request, view: APIView): Promise<Record<string, unknown>> {
    const actions: Record<string, unknown> = {};
    if (!isSerializerView(view)) return actions;
    const serializerView = view;
    const allowed = view.allowedMethods;
    for (const method of ['POST', 'PUT']) {
      if (!allowed.includes(method)) continue;
      view.request = request.clone(method);
      try {
        await view.checkPermissions(view.request);
        if (method === 'PUT' && typeof serializerView.getObject === 'function') await serializerView.getObject();
        const serializer = await serializerView.getSerializer();
        actions[method] = this.getSerializerInfo(serializer);
      } catch (error) {
        if (!(error instanceof APIException || error instanceof PermissionDenied || error instanceof Http404)) throw error;
      } finally {
        view.request = request;
      }
    }
    return actions;
  }

  /** Describe each (non-hidden) field of a serializer; list serializers describe their child. */
  getSerializerInfo(serializer: unknown): Record<string, unknown> {
    let target = serializer as { child?: unknown; fields?: unknown };
    if (target && target.child) target = target.child as { fields?: unknown };
    const info: Record<string, unknown> = {};
    for (const [name, field] of fieldEntries(target?.fields)) {
      if (classNames(field).includes('HiddenField')) continue;
      info[name] = this.getFieldInfo(field);
    }
    return info;
  }

  /** Describe one field: type, required, read_only, label, help_text, limits, choices, child. */
  getFieldInfo(field: unknown): Record<string, unknown> {
    const f = (field ?? {}) as FieldLike;
    const names = classNames(field);
    const info: Record<string, unknown> = {};
    info.type = names.map((name) => this.labelLookup[name]).find((label) => label !== undefined) ?? 'field';
    info.required = f.required ?? false;
    const attrs: Array<[keyof FieldLike, string]> = [
      ['readOnly', 'read_only'],
      ['label', 'label'],
      ['helpText', 'help_text'],
      ['minLength', 'min_length'],
      ['maxLength', 'max_length'],
      ['minValue', 'min_value'],
      ['maxValue', 'max_value'],
    ];
    for (const [attr, key] of attrs) {
      const value = f[attr];
      if (value !== null && value !== undefined && value !== '') info[key] = plainValue(value);
    }
    if (f.child) info.child = this.getFieldInfo(f.child);
    else if (f.fields && fieldEntries(f.fields).length > 0) info.children = this.getSerializerInfo(f);
    const related = names.includes('RelatedField') || names.includes('ManyRelatedField');
    if (!info.read_only && !related && f.choices !== undefined && f.choices !== null) {
      info.choices = choicePairs(f.choices).map(([value, displayName]) => ({ value, display_name: plainValue(displayName) }));
    }
    return info;
  }
}
