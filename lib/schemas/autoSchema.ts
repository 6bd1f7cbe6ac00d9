/**
 * `AutoSchema`, the default view inspector: describes each operation of a view as an OpenAPI
 * 3.1 Operation Object (operation id, parameters, request body per parser media type,
 * responses per status, tags, security) and the component schemas its serializers need.
 *
 * Every step is a hook, as in the original: override `getOperationId()`, `getTags()`,
 * `getComponents()`, `getRequestBody()`, `getResponses()`, `getFilterParameters()`,
 * `getPaginationParameters()`, `mapField()`, `mapSerializer()`, `getComponentName()`,
 * `getReferenceName()`... in a subclass and set it as `DEFAULT_SCHEMA_CLASS` or as one view's
 * `schema`:
 *
 * @example
 * class SnippetSchema extends AutoSchema {
 *   override getTags() { return ['snippets']; }
 * }
 * class SnippetViewSet extends ModelViewSet { override schema = new SnippetSchema({ componentName: 'Snippet' }); }
 */
import { getFieldInfo, type AnyModelClass } from '../core/db/fieldInfo';
import { modelVerboseName } from '../utils/fieldMapping';
import {
  BooleanField, CharField, ChoiceField, DateField, DateTimeField, DecimalField, DictField, DurationField, EmailField,
  Field, FileField, FloatField, HiddenField, IntegerField, IPAddressField, JSONField, ListField, ModelField,
  MultipleChoiceField, ReadOnlyField, RegexField, SerializerMethodField, TimeField, URLField, UUIDField,
} from '../fields';
import {
  HyperlinkedRelatedField, ManyRelatedField, PrimaryKeyRelatedField, RelatedField, SlugRelatedField,
} from '../relations';
import { ListSerializer, Serializer } from '../serializers';
import { apiSettings } from '../settings';
import { APIException } from '../exceptions';
import { QueryParameterVersioning, URLPathVersioning } from '../versioning';
import type { APIView } from '../views';
import type { BasePagination } from '../pagination/base';
import {
  applyValidators, choicesSchema, decimalSchema, INT32_MAX, modelFieldSchema, nullable, primaryKeySchema, resolveModelField,
  staticDefault,
} from './fieldMapping';
import { ViewInspector } from './inspector';
import { denies, anonymousRequest, authenticatedRequest } from './permissionProbe';
import { securitySchemeFor } from './security';
import type {
  Operation, ParameterObject, RequestBodyObject, ResponseObject, SchemaDirection, SchemaObject, SecurityRequirement,
  SecuritySchemeObject,
} from './types';

export type { Operation } from './types';

/** Options of `new AutoSchema({...})`, as the original's constructor arguments. */
export interface AutoSchemaOptions {
  /** Tags for every operation of the view (default: the first path segment). */
  tags?: string[];
  /** The name part of operation ids (default: the model, serializer or view name). */
  operationIdBase?: string;
  /** The component name of the view's serializer (default: its class name without `Serializer`). */
  componentName?: string;
}

/** What the inspector needs of a view: an `APIView`, maybe generic, maybe a view set. */
type View = APIView & {
  action?: string | null;
  actionMap?: Record<string, string>;
  queryset?: { model?: AnyModelClass } | null;
  lookupField?: string;
  lookupUrlKwarg?: string | null;
  paginationClass?: (new () => BasePagination) | null;
  getSerializer?: (options?: Record<string, unknown>) => unknown;
  getFilterBackends?: () => ReadonlyArray<new () => object>;
  retrieve?: unknown;
  create?: unknown;
};

const METHOD_MAPPING: Readonly<Record<string, string>> = {
  get: 'retrieve', post: 'create', put: 'update', patch: 'partialUpdate', delete: 'destroy',
};

const REF_PREFIX = '#/components/schemas/';

/** The components every API answer may use: the `{"detail": ...}` body and the validation error body. */
export const ERROR_COMPONENTS = { detail: 'ErrorDetail', validation: 'ValidationError' } as const;

function upperFirst(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function toCamelCase(text: string): string {
  const [first, ...rest] = text.split('_');
  return first + rest.map(upperFirst).join('');
}

function isJsonMediaType(mediaType: string): boolean {
  return /(^|[/+])json\b/.test(mediaType.split(';')[0]);
}

/** The default view inspector: derives operations from the view's serializer, policies and URL. */
export class AutoSchema extends ViewInspector {
  /** Set by the generator: the schema of each path parameter, from the URL conf's converters and regexes. */
  pathParameterSchemas: Record<string, SchemaObject> = {};
  /** The media types of the last request body described (`map_parsers`). */
  requestMediaTypes: string[] = [];
  /** The media types of the last responses described (`map_renderers`). */
  responseMediaTypes: string[] = [];
  /** HTTP method -> action name for views without actions. */
  methodMapping: Readonly<Record<string, string>> = METHOD_MAPPING;

  protected readonly tags: string[] | null;
  protected readonly operationIdBase: string | null;
  protected readonly componentName: string | null;
  /** Component schemas referenced so far by this inspector's operations, by name. */
  #components = new Map<string, SchemaObject>();

  constructor(options: AutoSchemaOptions = {}) {
    super();
    if (options.tags && !options.tags.every((tag) => typeof tag === 'string')) {
      throw new TypeError('tags must be a list of strings.');
    }
    this.tags = options.tags ?? null;
    this.operationIdBase = options.operationIdBase ?? null;
    this.componentName = options.componentName ?? null;
  }

  /** The view as an `APIView` with the generic attributes it may have. */
  protected get apiView(): View {
    return this.view as unknown as View;
  }

  // -- the operation ---------------------------------------------------------------------------

  /** Describe one operation of the view: the Operation Object of `method` on `path`. */
  getOperation(path: string, method: string): Operation {
    const upper = method.toUpperCase();
    const operation: Operation = {
      operationId: this.getOperationId(path, upper),
      description: this.getDescription(path, upper),
      parameters: [
        ...this.getPathParameters(path, upper),
        ...this.getPaginationParameters(path, upper),
        ...this.getFilterParameters(path, upper),
        ...this.getVersionParameters(path, upper),
      ],
      tags: this.getTags(path, upper),
      responses: {},
    };
    const requestBody = this.getRequestBody(path, upper);
    if (requestBody) operation.requestBody = requestBody;
    operation.responses = this.getResponses(path, upper);
    const security = this.getSecurity(path, upper);
    if (security) operation.security = security;
    return operation;
  }

  /** The operation's description: the view's (or the action's) description. */
  getDescription(_path: string, _method: string): string {
    return this.apiView.getViewDescription?.() ?? '';
  }

  /**
   * True when the operation answers a list: a view set's `list` action, or, for other views,
   * a GET whose path does not end in a parameter on a view without `retrieve()`.
   */
  isListView(path: string, method: string): boolean {
    const view = this.apiView;
    if (view.actionMap !== undefined) return view.action === 'list';
    if (method.toUpperCase() !== 'GET') return false;
    if (typeof view.retrieve === 'function') return false;
    const segments = path.replace(/^\/+|\/+$/g, '').split('/');
    return !segments[segments.length - 1]?.includes('{');
  }

  /** True when the operation acts on one object named by the path (404 when it does not exist). */
  isDetailView(path: string, method: string): boolean {
    return /\{[^}]+\}/.test(path) && !this.isListView(path, method);
  }

  // -- operation ids and tags ------------------------------------------------------------------

  /**
   * The name part of the operation id: `operationIdBase`, else the model's name, else the
   * serializer's (without `Serializer`), else the view's (without `APIView`/`ViewSet`/`View`
   * and the action). List operations get a plural `s`.
   */
  getOperationIdBase(path: string, method: string, action: string): string {
    let name: string;
    const model = this.apiView.queryset?.model;
    if (this.operationIdBase !== null) {
      name = this.operationIdBase;
    } else if (model) {
      name = model.name;
    } else {
      const serializer = this.getSerializer(path, method);
      if (serializer) {
        name = serializer.constructor.name.replace(/Serializer$/, '');
      } else {
        return this.getViewNameBase(action);
      }
    }
    if (action === 'list' && !name.endsWith('s')) name += 's';
    return name;
  }

  /** The view's class name as an operation id's name part (`SnippetCursorList` -> `SnippetCursors` for a list). */
  getViewNameBase(action: string): string {
    let name = upperFirst(this.view.constructor.name).replace(/(APIView|ViewSet|View)$/, '');
    if (name.endsWith(upperFirst(action)) && name !== upperFirst(action)) name = name.slice(0, -action.length);
    if (action === 'list' && name.endsWith('List') && name !== 'List') name = name.slice(0, -4);
    if (action === 'list' && !name.endsWith('s')) name += 's';
    return name;
  }

  /**
   * The operation id: action plus name (`listSnippets`, `createSnippet`, `highlightSnippet`),
   * with `SCHEMA_COERCE_METHOD_NAMES` applied to the action (`retrieve` -> `read`, `destroy` ->
   * `delete`). The generator makes ids unique across the document.
   */
  getOperationId(path: string, method: string): string {
    const view = this.apiView;
    let action: string;
    if (this.isListView(path, method)) action = 'list';
    else if (view.actionMap !== undefined && view.action) action = toCamelCase(view.action);
    else action = this.methodMapping[method.toLowerCase()] ?? method.toLowerCase();
    return this.coerceActionName(action) + this.getOperationIdBase(path, method, action);
  }

  /** The action's name in operation ids, after `SCHEMA_COERCE_METHOD_NAMES`. */
  coerceActionName(action: string): string {
    const coerce = apiSettings.SCHEMA_COERCE_METHOD_NAMES;
    return Object.prototype.hasOwnProperty.call(coerce, action) ? coerce[action] : action;
  }

  /**
   * Another operation id, from the view's class name, for the generator to use when
   * `getOperationId()` clashes with another view's (`listSnippetCursors`).
   */
  getAlternativeOperationId(path: string, method: string): string {
    const view = this.apiView;
    let action: string;
    if (this.isListView(path, method)) action = 'list';
    else if (view.actionMap !== undefined && view.action) action = toCamelCase(view.action);
    else action = this.methodMapping[method.toLowerCase()] ?? method.toLowerCase();
    return this.coerceActionName(action) + this.getViewNameBase(action);
  }

  /** Tags: the view's own (`tags` option), else the first path segment (`snippets`, `quickstart`). */
  getTags(path: string, _method: string): string[] {
    if (this.tags) return [...this.tags];
    const first = path.replace(/^\/+/, '').split('/')[0];
    return [first.replace(/_/g, '-') || 'default'];
  }

  // -- parameters ------------------------------------------------------------------------------

  /** Describe the `{name}` parameters of the path: typed from the URL conf, the lookup field or the model. */
  getPathParameters(path: string, _method: string): ParameterObject[] {
    const view = this.apiView;
    const model = view.queryset?.model;
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    return names.map((name): ParameterObject => {
      let schema: SchemaObject = { ...(this.pathParameterSchemas[name] ?? { type: 'string' }) };
      let description = '';
      const lookupKwarg = view.lookupUrlKwarg ?? view.lookupField;
      if (model) {
        const info = getFieldInfo(model);
        const fieldName = name === 'pk' || (name === lookupKwarg && view.lookupField === 'pk') ? info.pk.name
          : name === lookupKwarg && view.lookupField ? view.lookupField : name;
        const modelField = info.getField(fieldName);
        if (modelField) {
          if (!this.hasTypedConverter(name)) schema = modelFieldSchema(modelField);
          delete schema.maxLength;
          if (modelField.helpText) description = modelField.helpText;
          else if (modelField.primaryKey) description = this.getPrimaryKeyDescription(model, modelField.fieldType);
        }
      }
      const Versioning = view.getVersioningClass?.();
      if (Versioning && Versioning.prototype instanceof URLPathVersioning) {
        const scheme = new Versioning();
        const allowed = scheme.getAllowedVersions();
        if (scheme.getVersionParam() === name && allowed?.length) schema = { type: 'string', enum: [...allowed] };
      }
      return { name, in: 'path', required: true, description, schema };
    });
  }

  /** The `version` query parameter of views versioned by `QueryParameterVersioning`. */
  getVersionParameters(_path: string, _method: string): ParameterObject[] {
    const Versioning = this.apiView.getVersioningClass?.();
    if (!Versioning || !(Versioning === QueryParameterVersioning || Versioning.prototype instanceof QueryParameterVersioning)) return [];
    const scheme = new Versioning();
    const schema: SchemaObject = { type: 'string' };
    const allowed = scheme.getAllowedVersions();
    if (allowed?.length) schema.enum = [...allowed];
    const fallback = scheme.getDefaultVersion();
    if (fallback !== null) schema.default = fallback;
    return [{ name: scheme.getVersionParam(), in: 'query', required: false, description: 'The API version.', schema }];
  }

  /** The original's `get_pk_description`: "A unique integer value identifying this snippet." */
  getPrimaryKeyDescription(model: AnyModelClass, fieldType: string): string {
    const kind = /AutoField$/.test(fieldType) ? 'unique integer value' : fieldType === 'UUIDField' ? 'UUID string' : 'unique value';
    return `A ${kind} identifying this ${modelVerboseName(getFieldInfo(model).model)}.`;
  }

  private hasTypedConverter(name: string): boolean {
    const schema = this.pathParameterSchemas[name];
    return schema !== undefined && !(schema.type === 'string' && Object.keys(schema).length === 1);
  }

  /** True when the filter backends apply to the operation: list operations. */
  allowsFilters(path: string, method: string): boolean {
    return typeof this.apiView.getFilterBackends === 'function' && this.isListView(path, method);
  }

  /** The query parameters of the view's filter backends (search, ordering, field filters). */
  getFilterParameters(path: string, method: string): ParameterObject[] {
    if (!this.allowsFilters(path, method)) return [];
    const parameters: ParameterObject[] = [];
    for (const Backend of this.apiView.getFilterBackends?.() ?? []) {
      const backend = new Backend() as { getSchemaOperationParameters?: (view: unknown) => unknown[] };
      for (const parameter of backend.getSchemaOperationParameters?.(this.view) ?? []) parameters.push(parameter as ParameterObject);
    }
    return parameters;
  }

  /** The paginator of the view (a new instance of its pagination class), or null. */
  getPaginator(): BasePagination | null {
    const view = this.apiView as View & { paginator?: BasePagination | null };
    if (view.paginationClass === undefined && !('paginator' in view)) return null;
    return view.paginator ?? null;
  }

  /** The query parameters of the view's pagination style, on list operations. */
  getPaginationParameters(path: string, method: string): ParameterObject[] {
    if (!this.isListView(path, method)) return [];
    const paginator = this.getPaginator();
    if (!paginator) return [];
    return paginator.getSchemaOperationParameters(this.view) as unknown as ParameterObject[];
  }

  // -- serializers and components --------------------------------------------------------------

  /** The view's serializer instance, or null (not a generic view, or `getSerializer()` failed). */
  getSerializer(path: string, method: string): Serializer | ListSerializer | null {
    const view = this.apiView;
    if (typeof view.getSerializer !== 'function') return null;
    try {
      const serializer = view.getSerializer();
      return serializer instanceof Serializer || serializer instanceof ListSerializer ? serializer : null;
    } catch (error) {
      if (error instanceof APIException || error instanceof Error) {
        const message = `${this.view.constructor.name}.getSerializer() raised an exception during schema generation. ` +
          `Serializer fields will not be generated for ${method} ${path}.`;
        if (process.env.API_FRAMEWORK_QUIET !== '1') process.emitWarning(message, { code: 'API_FRAMEWORK_SCHEMA' });
        return null;
      }
      throw error;
    }
  }

  /** The serializer describing the request body; override when the view reads another one. */
  getRequestSerializer(path: string, method: string): Serializer | ListSerializer | null {
    return this.getSerializer(path, method);
  }

  /** The serializer describing the response body; override when the view answers another one. */
  getResponseSerializer(path: string, method: string): Serializer | ListSerializer | null {
    return this.getSerializer(path, method);
  }

  /**
   * The component name of a serializer: `componentName`, else its class name without
   * `Serializer` (`SnippetSerializer` -> `Snippet`). A class called just `Serializer` is refused.
   */
  getComponentName(serializer: Serializer): string {
    if (this.componentName !== null && serializer.parent === null) return this.componentName;
    const name = serializer.constructor.name.replace(/serializer/gi, '');
    if (name === '') {
      throw new Error(
        `"${serializer.constructor.name}" is an invalid class name for schema generation. ` +
        'Serializer\'s class name should be unique and explicit. e.g. "ItemSerializer"',
      );
    }
    return name;
  }

  /**
   * The name of the component for one side of the wire: the response component keeps the
   * component name (`Snippet`); the request side is `SnippetRequest` when it differs (read-only
   * or write-only fields, required lists) and a partial update's `PatchedSnippetRequest`.
   */
  getReferenceName(serializer: Serializer, direction: SchemaDirection, partial = false): string {
    const base = this.getComponentName(serializer);
    if (direction === 'response') return base;
    return partial ? `Patched${base}Request` : `${base}Request`;
  }

  /**
   * A `$ref` to the serializer's component for `direction`, registering the component (and
   * the nested ones it refers to). Sides that describe the same schema share one component.
   */
  getReference(serializer: Serializer, direction: SchemaDirection = 'response', partial = false): SchemaObject {
    const responseName = this.getReferenceName(serializer, 'response');
    const responseSchema = this.#register(responseName, () => this.mapSerializer(serializer, 'response'));
    if (direction === 'response') return { $ref: REF_PREFIX + responseName };
    const requestSchema = this.mapSerializer(serializer, 'request');
    let requestName = responseName;
    if (!sameSchema(requestSchema, responseSchema)) {
      requestName = this.getReferenceName(serializer, 'request');
      this.#register(requestName, () => requestSchema);
    }
    if (!partial) return { $ref: REF_PREFIX + requestName };
    const patchedSchema = this.mapSerializer(serializer, 'request', true);
    if (sameSchema(patchedSchema, requestSchema)) return { $ref: REF_PREFIX + requestName };
    const patchedName = this.getReferenceName(serializer, 'request', true);
    this.#register(patchedName, () => patchedSchema);
    return { $ref: REF_PREFIX + patchedName };
  }

  #register(name: string, build: () => SchemaObject): SchemaObject {
    const known = this.#components.get(name);
    if (known) return known;
    const placeholder: SchemaObject = {};
    this.#components.set(name, placeholder);
    Object.assign(placeholder, build());
    return placeholder;
  }

  /** Register a component by name (for hooks adding their own shared schemas) and answer its `$ref`. */
  registerComponent(name: string, schema: SchemaObject): SchemaObject {
    this.#register(name, () => schema);
    return { $ref: REF_PREFIX + name };
  }

  /**
   * The component schemas the view's operation on `path` uses: its serializers' (per side),
   * their nested serializers' and the error bodies its responses refer to.
   */
  getComponents(path: string, method: string): Record<string, SchemaObject> {
    const upper = method.toUpperCase();
    if (upper !== 'DELETE') {
      const response = this.getResponseSerializer(path, upper);
      const responseTarget = response instanceof ListSerializer ? response.child : response;
      if (responseTarget instanceof Serializer) this.getReference(responseTarget, 'response');
      if (['POST', 'PUT', 'PATCH'].includes(upper)) {
        const request = this.getRequestSerializer(path, upper);
        const requestTarget = request instanceof ListSerializer ? request.child : request;
        if (requestTarget instanceof Serializer) this.getReference(requestTarget, 'request', upper === 'PATCH');
      }
    }
    return Object.fromEntries(this.#components);
  }

  /**
   * The object schema of a serializer for one side: what clients send (`request`: writable
   * fields, `required` from the fields, none for a partial update) or receive (`response`:
   * readable fields, read-only ones marked `readOnly`).
   */
  mapSerializer(serializer: Serializer, direction: SchemaDirection = 'response', partial = false): SchemaObject {
    const properties: Record<string, SchemaObject> = {};
    const required: string[] = [];
    const model = (serializer.constructor as { Meta?: { model?: AnyModelClass } }).Meta?.model;
    for (const [name, field] of serializer.fields) {
      if (field instanceof HiddenField) continue;
      if (direction === 'request' && field.readOnly) continue;
      if (direction === 'response' && field.writeOnly) continue;
      let schema = this.mapField(field, direction);
      if (field.readOnly) schema.readOnly = true;
      if (field.writeOnly) schema.writeOnly = true;
      if (field.allowNull) schema = nullable(schema);
      const fallback = staticDefault(field) ?? (model && !field.readOnly ? modelDefault(model, field) : undefined);
      if (fallback !== undefined) schema.default = fallback;
      if (field.helpText) schema.description = String(field.helpText);
      properties[name] = schema;
      // Every readable field is in a model serializer's output; a plain serializer skips an
      // optional field without a default when the data lacks it.
      const isRequired = direction === 'request'
        ? field.required && !partial
        : field.required || field.readOnly || fallback !== undefined || staticDefaultIsCallable(field) || model !== undefined;
      if (isRequired) required.push(name);
    }
    const result: SchemaObject = { type: 'object', properties };
    if (required.length > 0) result.required = required;
    return result;
  }

  /** The schema of a choice field's values (`enum`, and `type` when the values share one). */
  mapChoiceField(field: ChoiceField): SchemaObject {
    const schema = choicesSchema(field.choices.keys());
    if (field.allowBlank && schema.type === 'string' && !(schema.enum as unknown[]).includes('')) {
      schema.enum = [...(schema.enum as unknown[]), ''];
    }
    return schema;
  }

  /**
   * The schema of one field: its JSON type and format, limits from its options and validators,
   * nested serializers as `$ref`s, related fields as the related primary key's type (or a URI
   * for hyperlinks). Read-only, write-only, null and default are added by `mapSerializer()`.
   */
  mapField(field: Field, direction: SchemaDirection = 'response'): SchemaObject {
    const schema = this.mapFieldType(field, direction);
    applyValidators(field.validators, schema);
    return schema;
  }

  /** The type part of `mapField()`, before the validators' keywords. */
  protected mapFieldType(field: Field, direction: SchemaDirection): SchemaObject {
    // Nested serializers, `many` or not.
    if (field instanceof ListSerializer) {
      const items = field.child instanceof Serializer ? this.getReference(field.child, direction) : {};
      const schema: SchemaObject = { type: 'array', items };
      if (field.allowEmpty === false) schema.minItems = 1;
      if (typeof field.maxLength === 'number') schema.maxItems = field.maxLength;
      return schema;
    }
    if (field instanceof Serializer) return this.getReference(field, direction);

    // Related fields.
    if (field instanceof ManyRelatedField) {
      const schema: SchemaObject = { type: 'array', items: this.mapField(field.childRelation, direction) };
      if ((field as { allowEmpty?: boolean }).allowEmpty === false) schema.minItems = 1;
      return schema;
    }
    if (field instanceof HyperlinkedRelatedField) return { type: 'string', format: 'uri' };
    if (field instanceof PrimaryKeyRelatedField) {
      if (field.pkField) return this.mapField(field.pkField, direction);
      const model = relatedModel(field);
      return model ? primaryKeySchema(model) : { type: 'integer' };
    }
    if (field instanceof SlugRelatedField) {
      const model = relatedModel(field);
      const slug = model ? getFieldInfo(model).getField(field.slugField) : undefined;
      const schema = slug ? modelFieldSchema(slug) : { type: 'string' };
      delete schema.maxLength;
      return schema;
    }
    if (field instanceof RelatedField) return { type: 'string' };

    // Choices (multiple before single).
    if (field instanceof MultipleChoiceField) {
      const schema: SchemaObject = { type: 'array', items: this.mapChoiceField(field), uniqueItems: true };
      if (!field.allowEmpty) schema.minItems = 1;
      return schema;
    }
    if (field instanceof ChoiceField) return this.mapChoiceField(field);

    // Containers.
    if (field instanceof ListField) {
      const schema: SchemaObject = { type: 'array', items: isUntypedField(field.child) ? {} : this.mapField(field.child, direction) };
      if (field.maxLength !== null) schema.maxItems = field.maxLength;
      if (field.minLength !== null) schema.minItems = field.minLength;
      else if (!field.allowEmpty) schema.minItems = 1;
      return schema;
    }
    if (field instanceof DictField) {
      const schema: SchemaObject = { type: 'object', additionalProperties: isUntypedField(field.child) ? {} : this.mapField(field.child, direction) };
      if (!field.allowEmpty) schema.minProperties = 1;
      return schema;
    }
    if (field instanceof JSONField) return {};

    // Dates and times.
    if (field instanceof DateTimeField) return { type: 'string', format: 'date-time' };
    if (field instanceof DateField) return { type: 'string', format: 'date' };
    if (field instanceof TimeField) return { type: 'string', format: 'time' };
    if (field instanceof DurationField) {
      // The host framework's duration text, `[DD] [HH:[MM:]]ss[.uuuuuu]`, not ISO 8601 (so no
      // `format: duration`); input also takes ISO 8601 durations.
      if (direction === 'response') return { type: 'string', pattern: '^-?(\\d+ )?\\d{2}:\\d{2}:\\d{2}(\\.\\d{6})?$' };
      return { type: 'string', description: 'A duration: `[DD] [HH:[MM:]]ss[.uuuuuu]` or ISO 8601 (`P1DT2H`).' };
    }

    // Strings with a format.
    if (field instanceof EmailField) return withLengths(field, { type: 'string', format: 'email' }, direction);
    if (field instanceof URLField) return withLengths(field, { type: 'string', format: 'uri' }, direction);
    if (field instanceof IPAddressField) {
      if (field.protocol === 'both') return withLengths(field, { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] }, direction);
      return withLengths(field, { type: 'string', format: field.protocol }, direction);
    }
    if (field instanceof RegexField) return withLengths(field, { type: 'string', pattern: field.regex.source }, direction);
    if (field instanceof UUIDField) {
      if (field.uuidFormat === 'int') return { type: 'integer' };
      if (field.uuidFormat === 'hex') return { type: 'string', pattern: '^[0-9a-f]{32}$' };
      if (field.uuidFormat === 'urn') return { type: 'string', pattern: '^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' };
      return { type: 'string', format: 'uuid' };
    }
    if (field instanceof CharField) return withLengths(field, { type: 'string' }, direction);

    // Numbers.
    if (field instanceof DecimalField) {
      return decimalSchema(field, field.coerceToString ?? apiSettings.COERCE_DECIMAL_TO_STRING);
    }
    if (field instanceof FloatField) return withLimits(field, { type: 'number' });
    if (field instanceof IntegerField) {
      const schema = withLimits(field, { type: 'integer' });
      if (Math.abs(Number(schema.maximum ?? 0)) > INT32_MAX || Math.abs(Number(schema.minimum ?? 0)) > INT32_MAX) schema.format = 'int64';
      return schema;
    }
    if (field instanceof BooleanField) return { type: 'boolean' };

    // Files: uploaded as bytes, answered as their URL.
    if (field instanceof FileField) {
      if (direction === 'request') return { type: 'string', format: 'binary' };
      return field.useUrl === false ? { type: 'string' } : { type: 'string', format: 'uri' };
    }

    // Values read from the model (or anything): the model column's schema when it can be found.
    if (field instanceof ReadOnlyField || field instanceof ModelField) {
      const model = parentModel(field);
      const column = model && field.sourceAttrs.length > 0 ? resolveModelField(model, field.sourceAttrs) : undefined;
      return column ? modelFieldSchema(column) : {};
    }
    if (field instanceof SerializerMethodField) return {};
    if (isUntypedField(field)) return {};
    return { type: 'string' };
  }

  // -- request and response bodies -------------------------------------------------------------

  /** The media types of the request body: one per parser (`application/json`, form, multipart). */
  mapParsers(_path: string, _method: string): string[] {
    return this.apiView.getParsers().map((parser) => parser.mediaType);
  }

  /** The media types of responses: one per renderer, except the browsable API's HTML page. */
  mapRenderers(_path: string, _method: string): string[] {
    const types: string[] = [];
    for (const renderer of this.apiView.getRenderers()) {
      if (renderer.format === 'api') continue;
      if (!types.includes(renderer.mediaType)) types.push(renderer.mediaType);
    }
    return types;
  }

  /**
   * The request body of POST, PUT and PATCH: the request serializer's writable fields under
   * every parser's media type (a file upload parser's `*∕*` takes the raw bytes).
   */
  getRequestBody(path: string, method: string): RequestBodyObject | null {
    if (!['POST', 'PUT', 'PATCH'].includes(method)) return null;
    this.requestMediaTypes = this.mapParsers(path, method);
    if (this.requestMediaTypes.length === 0) return null;
    const serializer = this.getRequestSerializer(path, method);
    const partial = method === 'PATCH';
    let itemSchema: SchemaObject = {};
    let required = false;
    if (serializer instanceof ListSerializer && serializer.child instanceof Serializer) {
      itemSchema = { type: 'array', items: this.getReference(serializer.child, 'request', partial) };
      required = true;
    } else if (serializer instanceof Serializer) {
      itemSchema = this.getReference(serializer, 'request', partial);
      required = !partial && [...serializer.fields].some(([, field]) => field.required && !field.readOnly);
    }
    const content: RequestBodyObject['content'] = {};
    for (const mediaType of this.requestMediaTypes) {
      content[mediaType] = mediaType === '*/*' ? { schema: { type: 'string', format: 'binary' } } : { schema: itemSchema };
    }
    const body: RequestBodyObject = { content };
    if (required) body.required = true;
    return body;
  }

  /** The status code of the operation's success response: 201 for creation, 204 for deletion, else 200. */
  getSuccessStatus(path: string, method: string): string {
    if (method === 'DELETE') return '204';
    if (method !== 'POST') return '200';
    const view = this.apiView;
    if (view.actionMap !== undefined) return view.action === 'create' ? '201' : '200';
    return typeof view.create === 'function' ? '201' : '200';
  }

  /**
   * The responses of the operation by status: the success response (the serializer's
   * component, a list of them, or the paginated envelope; none for 204), 400 with the
   * validation error body for writes, 401/403 when the view's permissions can refuse the
   * request, and 404 for operations on one object.
   */
  getResponses(path: string, method: string): Record<string, ResponseObject> {
    const responses: Record<string, ResponseObject> = {};
    this.responseMediaTypes = this.mapRenderers(path, method);
    const status = this.getSuccessStatus(path, method);
    if (status === '204') {
      responses[status] = { description: 'No response body' };
    } else {
      const serializer = this.getResponseSerializer(path, method);
      let itemSchema: SchemaObject = {};
      if (serializer instanceof ListSerializer && serializer.child instanceof Serializer) {
        itemSchema = { type: 'array', items: this.getReference(serializer.child, 'response') };
      } else if (serializer instanceof Serializer) {
        itemSchema = this.getReference(serializer, 'response');
      }
      let schema = itemSchema;
      if (this.isListView(path, method)) {
        schema = { type: 'array', items: itemSchema };
        const paginator = this.getPaginator();
        if (paginator) schema = paginator.getPaginatedResponseSchema(schema);
      }
      const content: Record<string, { schema: SchemaObject }> = {};
      for (const mediaType of this.responseMediaTypes) {
        content[mediaType] = { schema: isJsonMediaType(mediaType) ? schema : { type: 'string' } };
      }
      responses[status] = { description: '', content };
    }
    Object.assign(responses, this.getErrorResponses(path, method));
    return responses;
  }

  /** The error responses of the operation: 400, 401, 403 and 404 where they can happen. */
  getErrorResponses(path: string, method: string): Record<string, ResponseObject> {
    const errors: Record<string, ResponseObject> = {};
    const jsonTypes = this.responseMediaTypes.filter(isJsonMediaType);
    const body = (ref: SchemaObject): Record<string, { schema: SchemaObject }> =>
      Object.fromEntries((jsonTypes.length ? jsonTypes : ['application/json']).map((type) => [type, { schema: ref }]));
    if (['POST', 'PUT', 'PATCH'].includes(method) && this.requestMediaTypes.length > 0) {
      errors['400'] = { description: 'Invalid input: the errors by field name.', content: body(this.registerComponent(ERROR_COMPONENTS.validation, validationErrorSchema())) };
    }
    const detail = (): Record<string, { schema: SchemaObject }> => body(this.registerComponent(ERROR_COMPONENTS.detail, errorDetailSchema()));
    const refusals = this.getPermissionRefusals(path, method);
    if (refusals.unauthenticated) {
      const unauthorized = this.apiView.getAuthenticators().some((authenticator, index) => index === 0 && authenticator.authenticateHeader?.(undefined as never));
      if (unauthorized) errors['401'] = { description: 'Authentication credentials were missing or incorrect.', content: detail() };
      else refusals.forbidden = true;
    }
    if (refusals.forbidden) errors['403'] = { description: 'The request is not allowed for this user.', content: detail() };
    if (this.isDetailView(path, method)) errors['404'] = { description: 'Not found.', content: detail() };
    return errors;
  }

  /**
   * Which refusals the view's permissions can give `method`: `unauthenticated` when an
   * anonymous request is refused, `forbidden` when an authenticated non-staff user can be (by
   * `hasPermission`, or by `hasObjectPermission` on operations on one object).
   */
  getPermissionRefusals(path: string, method: string): { unauthenticated: boolean; forbidden: boolean } {
    const view = this.apiView;
    const permissions = view.getPermissions();
    const anonymous = anonymousRequest(method);
    const member = authenticatedRequest(method);
    const detail = this.isDetailView(path, method);
    return {
      unauthenticated: permissions.some((permission) => denies(() => permission.hasPermission(anonymous as never, view))),
      forbidden: permissions.some((permission) =>
        denies(() => permission.hasPermission(member as never, view)) ||
        (detail && denies(() => permission.hasObjectPermission(member as never, view, {})))),
    };
  }

  // -- security --------------------------------------------------------------------------------

  /** The security schemes of the view's authentication classes, by scheme name. */
  getSecuritySchemes(_path: string, _method: string): Record<string, SecuritySchemeObject> {
    const schemes: Record<string, SecuritySchemeObject> = {};
    for (const authenticator of this.apiView.getAuthenticators()) {
      const found = securitySchemeFor(authenticator);
      if (found) schemes[found.name] = found.scheme;
    }
    return schemes;
  }

  /**
   * The operation's security requirements: one per authentication class of the view, plus an
   * empty one (`{}`) when anonymous requests are allowed; null when the view authenticates no one.
   */
  getSecurity(path: string, method: string): SecurityRequirement[] | null {
    const names = Object.keys(this.getSecuritySchemes(path, method));
    if (names.length === 0) return null;
    const requirements: SecurityRequirement[] = names.map((name) => ({ [name]: [] }));
    if (!this.getPermissionRefusals(path, method).unauthenticated) requirements.push({});
    return requirements;
  }
}

function staticDefaultIsCallable(field: Field): boolean {
  return typeof field.default === 'function';
}

/** The static default of the model column a field writes (`'python'` for a snippet's language). */
function modelDefault(model: AnyModelClass, field: Field): unknown {
  const column = field.sourceAttrs.length > 0 ? resolveModelField(model, field.sourceAttrs) : undefined;
  if (!column || !column.hasDefault || typeof column.default === 'function' || column.default === null || typeof column.default === 'object') return undefined;
  return column.default;
}

/** A plain `Field`, or the unvalidated child a `ListField`/`DictField` gets by default: any JSON value. */
function isUntypedField(field: Field): boolean {
  const proto = Object.getPrototypeOf(field) as object;
  return proto === Field.prototype || (Object.getPrototypeOf(proto) === Field.prototype && field.constructor.name === 'UnvalidatedField');
}

function withLengths(field: CharField, schema: SchemaObject, direction: SchemaDirection): SchemaObject {
  // A blank-allowed field answers and accepts '', which no format matches: '' is its alternative.
  if (field.allowBlank && (schema.format !== undefined || schema.anyOf !== undefined)) {
    const alternatives = (schema.anyOf as SchemaObject[] | undefined) ?? [{ format: schema.format }];
    delete schema.format;
    schema.anyOf = [...alternatives, { const: '' }];
  }
  if (field.maxLength !== null) schema.maxLength = field.maxLength;
  if (field.minLength !== null) schema.minLength = field.minLength;
  else if (direction === 'request' && !field.allowBlank) schema.minLength = 1;
  return schema;
}

function withLimits(field: { maxValue: unknown; minValue: unknown }, schema: SchemaObject): SchemaObject {
  if (field.maxValue !== null && field.maxValue !== undefined) schema.maximum = Number(field.maxValue);
  if (field.minValue !== null && field.minValue !== undefined) schema.minimum = Number(field.minValue);
  return schema;
}

/** The model of the serializer a field belongs to (`Meta.model` of a model serializer). */
function parentModel(field: Field): AnyModelClass | undefined {
  let parent = field.parent as { constructor?: { Meta?: { model?: AnyModelClass } }; parent?: unknown } | null;
  // A child of a many-field or list field: look at the field it belongs to.
  while (parent && !(parent instanceof Serializer)) parent = (parent as { parent?: typeof parent }).parent ?? null;
  return parent?.constructor?.Meta?.model;
}

/** The model a related field points to: its queryset's, else the relation's target on the parent's model. */
function relatedModel(field: RelatedField): AnyModelClass | undefined {
  const fromQueryset = field.queryset?.model as AnyModelClass | undefined;
  if (fromQueryset) return fromQueryset;
  let owner: Field = field;
  if (field.parent instanceof ManyRelatedField) owner = field.parent;
  const model = parentModel(owner);
  if (!model || owner.sourceAttrs.length === 0) return undefined;
  let current: AnyModelClass = model;
  for (const attr of owner.sourceAttrs) {
    const relation = getFieldInfo(current).getRelation(attr);
    if (!relation) return undefined;
    current = relation.target;
  }
  return current;
}

function sameSchema(a: SchemaObject, b: SchemaObject): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The body of a validation error: field name (or `non_field_errors`) -> messages, nested for nested serializers. */
export function validationErrorSchema(): SchemaObject {
  return {
    type: 'object',
    description: 'The errors by field name; nested serializers nest their errors, lists hold one entry per item.',
    properties: {
      [apiSettings.NON_FIELD_ERRORS_KEY]: { type: 'array', items: { type: 'string' } },
    },
    additionalProperties: {
      anyOf: [{ type: 'array', items: {} }, { type: 'object' }, { type: 'string' }],
    },
  };
}

/** The body of every other error: `{"detail": "..."}`. */
export function errorDetailSchema(): SchemaObject {
  return {
    type: 'object',
    properties: { detail: { type: 'string', readOnly: true } },
    required: ['detail'],
  };
}
