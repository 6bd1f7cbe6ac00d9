/**
 * Top-down schema generation: `EndpointEnumerator` walks a URL conf (includes, namespaces,
 * routers, function views) for the API views' endpoints, and `SchemaGenerator` asks each
 * view's inspector for its operations and components and assembles one OpenAPI 3.1 document
 * (JSON Schema 2020-12): typed path parameters, unique operation ids, merged components with
 * name clashes resolved, security schemes, and, given a version, only that version's paths.
 *
 * @example
 * const generator = new SchemaGenerator({ title: 'Snippets API', version: 'v1' });
 * const document = await generator.getSchema(null, true);
 */
import { Http404, PermissionDenied } from '../core/exceptions';
import { getFieldInfo, type AnyModelClass } from '../core/db/fieldInfo';
import {
  getResolver, IntConverter, PathSegmentsConverter, RoutePattern, SlugConverter, StringConverter, URLPattern, URLResolver,
  UUIDConverter, type PathConverter, type UrlConfModule, type UrlPattern, type ViewFunction,
} from '../core/urls';
import { importModule } from '../core/modules';
import { APIException } from '../exceptions';
import type { Request } from '../request';
import { apiSettings } from '../settings';
import { APIView } from '../views';
import { NamespaceVersioning } from '../versioning';
import { AutoSchema } from './autoSchema';
import { schemaFor } from './inspector';
import type { OpenAPIDocument, Operation, SchemaObject, SecuritySchemeObject } from './types';

/** The OpenAPI version of generated documents. */
export const OPENAPI_VERSION = '3.1.0';
/** The JSON Schema dialect of generated documents' schemas. */
export const JSON_SCHEMA_DIALECT = 'https://spec.openapis.org/oas/3.1/dialect/base';

/** One API endpoint of the URL conf: a path, a method and the view function answering it. */
export interface Endpoint {
  /** The path template, `/snippets/{pk}/`. */
  path: string;
  method: string;
  callback: ViewFunction;
  /** The instance namespaces the endpoint is included under, outermost first. */
  namespaces: string[];
  /** The schema of each path parameter, from the route's converters or the regex's groups. */
  parameterSchemas: Record<string, SchemaObject>;
}

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The schema of a path parameter converted by `converter`. */
export function converterSchema(converter: PathConverter): SchemaObject {
  if (converter instanceof IntConverter) return { type: 'integer', minimum: 0 };
  if (converter instanceof UUIDConverter) return { type: 'string', format: 'uuid' };
  if (converter instanceof SlugConverter) return { type: 'string', pattern: `^${converter.regex}$` };
  if (converter instanceof PathSegmentsConverter || converter instanceof StringConverter) return { type: 'string' };
  return { type: 'string', pattern: `^(?:${converter.regex})$` };
}

/** The schema of a regex group's text: integers for digit runs, else a string (with the pattern when it says more than "one segment"). */
export function groupSchema(groupRegex: string): SchemaObject {
  if (/^(\[0-9\]|\\d)(\+|\{\d+(,\d*)?\})$/.test(groupRegex)) return { type: 'integer', minimum: 0 };
  if (/^\[\^\/\.?\]\+$/.test(groupRegex) || /^\[\^\.\/\]\+$/.test(groupRegex) || groupRegex === '.+' || groupRegex === '[^/]+') return { type: 'string' };
  return { type: 'string', pattern: `^(?:${groupRegex})$` };
}

/** The named groups of a JavaScript regex source and the regex each one holds. */
export function namedGroups(source: string): Record<string, string> {
  const groups: Record<string, string> = {};
  const opener = /\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g;
  for (let match = opener.exec(source); match; match = opener.exec(source)) {
    let depth = 1;
    let i = match.index + match[0].length;
    const start = i;
    let inClass = false;
    for (; i < source.length && depth > 0; i++) {
      const ch = source[i];
      if (ch === '\\') { i++; continue; }
      if (inClass) { if (ch === ']') inClass = false; continue; }
      if (ch === '[') inClass = true;
      else if (ch === '(') depth++;
      else if (ch === ')') depth--;
    }
    groups[match[1]] = source.slice(start, i - 1);
  }
  return groups;
}

/** A class of API view (what `asView()` leaves on a view function as `viewClass`). */
type ViewClass = new () => APIView;

function viewClassOf(callback: ViewFunction): ViewClass | null {
  const cls = callback.viewClass as ViewClass | undefined;
  if (typeof cls !== 'function') return null;
  return cls === APIView || cls.prototype instanceof APIView ? cls : null;
}

/** Determines the API endpoints a project exposes, by walking its URL conf. */
export class EndpointEnumerator {
  readonly patterns: readonly UrlPattern[];

  constructor(patterns?: readonly UrlPattern[] | null, urlconf?: string | UrlConfModule | null) {
    if (patterns) {
      this.patterns = patterns;
    } else if (typeof urlconf === 'string') {
      this.patterns = (importModule(urlconf) as Partial<UrlConfModule>).urlpatterns ?? [];
    } else if (urlconf) {
      this.patterns = urlconf.urlpatterns;
    } else {
      this.patterns = getResolver().urlPatterns;
    }
  }

  /** Every endpoint of the API views, in URL conf order (methods in GET, POST, PUT, PATCH, DELETE order). */
  getApiEndpoints(patterns: readonly UrlPattern[] = this.patterns, prefix = '', namespaces: string[] = [], schemas: Record<string, SchemaObject> = {}): Endpoint[] {
    const endpoints: Endpoint[] = [];
    for (const pattern of patterns) {
      const template = this.templateOf(pattern);
      if (template === null) continue;
      const path = prefix + template.path;
      const parameterSchemas = { ...schemas, ...template.schemas };
      if (pattern instanceof URLPattern) {
        const callback = pattern.callback;
        const fullPath = `/${path.replace(/^\/+/, '')}`;
        if (!this.shouldIncludeEndpoint(fullPath, callback)) continue;
        for (const method of this.getAllowedMethods(callback)) {
          endpoints.push({ path: fullPath, method, callback, namespaces, parameterSchemas });
        }
      } else if (pattern instanceof URLResolver) {
        const nested = pattern.namespace ? [...namespaces, pattern.namespace] : namespaces;
        endpoints.push(...this.getApiEndpoints(pattern.urlPatterns, path, nested, parameterSchemas));
      }
    }
    return endpoints;
  }

  /** The URI template of a pattern (`snippets/{pk}/`) and its parameters' schemas; null when it cannot be written as one. */
  templateOf(pattern: UrlPattern): { path: string; schemas: Record<string, SchemaObject> } | null {
    const compiled = pattern.pattern;
    const [first] = compiled.templates();
    if (!first) return null;
    const path = first.parts.map((part) => (typeof part === 'string' ? part : `{${part.param}}`)).join('');
    const schemas: Record<string, SchemaObject> = {};
    if (compiled instanceof RoutePattern) {
      for (const [name, converter] of Object.entries(compiled.converters)) schemas[name] = converterSchema(converter);
    } else {
      for (const [name, regex] of Object.entries(namedGroups(first.source))) schemas[name] = groupSchema(regex);
    }
    return { path, schemas };
  }

  /** True for endpoints of API views that are not excluded and are not format-suffix duplicates. */
  shouldIncludeEndpoint(path: string, callback: ViewFunction): boolean {
    if (!viewClassOf(callback)) return false;
    if (callback.viewInitkwargs && 'schema' in callback.viewInitkwargs && callback.viewInitkwargs.schema === null) return false;
    if (path.endsWith('.{format}') || path.endsWith('.{format}/')) return false;
    return true;
  }

  /** The methods an endpoint answers, without OPTIONS and HEAD. */
  getAllowedMethods(callback: ViewFunction): string[] {
    const cls = viewClassOf(callback)!;
    let methods: string[];
    if (callback.actions) {
      const names = new APIView().httpMethodNames;
      const probe = new cls();
      methods = Object.keys(callback.actions).filter((method) => (probe.httpMethodNames ?? names).includes(method)).map((m) => m.toUpperCase());
    } else {
      const view = new cls();
      Object.assign(view, callback.viewInitkwargs ?? {});
      methods = view.allowedMethods;
    }
    methods = methods.filter((method) => method !== 'OPTIONS' && method !== 'HEAD');
    const rank = (method: string): number => (METHOD_ORDER.includes(method) ? METHOD_ORDER.indexOf(method) : METHOD_ORDER.length);
    return [...methods].sort((a, b) => rank(a) - rank(b));
  }
}

/** Options of `new SchemaGenerator({...})`. */
export interface SchemaGeneratorOptions {
  title?: string | null;
  description?: string | null;
  /** The API version documented: `info.version`, and only that version's paths when views are versioned. */
  version?: string | null;
  /** The URL the API is mounted at; paths are joined to it (and it becomes the server URL). */
  url?: string | null;
  /** The patterns to document (default: the URL conf's). */
  patterns?: readonly UrlPattern[] | null;
  /** The URL conf to document (a module path or module; default: ROOT_URLCONF). */
  urlconf?: string | UrlConfModule | null;
}

/** A view built for one endpoint, with where it came from. */
interface ViewEndpoint {
  path: string;
  method: string;
  view: APIView;
  endpoint: Endpoint;
}

/** One generated operation with the components it uses. */
interface GeneratedOperation {
  path: string;
  method: string;
  view: APIView;
  inspector: AutoSchema;
  namespaces: string[];
  operation: Operation;
  schemas: Record<string, SchemaObject>;
  securitySchemes: Record<string, SecuritySchemeObject>;
}

function pascalCase(text: string): string {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word[0].toUpperCase() + word.slice(1)).join('');
}

function renameRefs(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, renames));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === '$ref' && typeof item === 'string' && item.startsWith('#/components/schemas/')) {
      const name = item.slice('#/components/schemas/'.length);
      out[key] = `#/components/schemas/${renames.get(name) ?? name}`;
    } else {
      out[key] = renameRefs(item, renames);
    }
  }
  return out;
}

/**
 * Builds the OpenAPI 3.1 document of a URL conf. Override `getInfo()`, `getServers()`,
 * `createView()`, `hasViewPermissions()` or `includeForVersion()` to adjust the document.
 */
export class SchemaGenerator {
  /** Class of the endpoint walker; replace to change which endpoints are found. */
  endpointInspectorClass: new (patterns?: readonly UrlPattern[] | null, urlconf?: string | UrlConfModule | null) => EndpointEnumerator = EndpointEnumerator;
  readonly title: string | null;
  readonly description: string | null;
  readonly version: string | null;
  readonly url: string | null;
  readonly patterns: readonly UrlPattern[] | null;
  readonly urlconf: string | UrlConfModule | null;
  /** `SCHEMA_COERCE_PATH_PK`, read when the generator is built. */
  readonly coercePathPk: boolean;
  /** The warnings of the last `getSchema()` (also emitted as process warnings). */
  warnings: string[] = [];
  endpoints: Endpoint[] | null = null;

  constructor(options: SchemaGeneratorOptions = {}) {
    let url = options.url ?? null;
    if (url && !url.endsWith('/')) url += '/';
    this.title = options.title ?? null;
    this.description = options.description ?? null;
    this.version = options.version ?? null;
    this.url = url;
    this.patterns = options.patterns ?? null;
    this.urlconf = options.urlconf ?? null;
    this.coercePathPk = apiSettings.SCHEMA_COERCE_PATH_PK;
  }

  /** The document's `info`: title, version and description. */
  getInfo(): OpenAPIDocument['info'] {
    const info: OpenAPIDocument['info'] = { title: this.title ?? '', version: this.version ?? '' };
    if (this.description !== null) info.description = this.description;
    return info;
  }

  /** The document's servers: the origin of the mount URL when an absolute one was given. */
  getServers(): OpenAPIDocument['servers'] | undefined {
    return this.url && /^https?:\/\//i.test(this.url) ? [{ url: new URL(this.url).origin }] : undefined;
  }

  /** The path the API is mounted at (`/api` for `url: 'https://example.com/api/'`), without its last slash. */
  mountPath(): string {
    if (!this.url) return '';
    return new URL(this.url, 'http://placeholder').pathname.replace(/\/+$/, '');
  }

  /** Report a problem with the document (kept in `warnings`, and emitted unless the test setup silences it). */
  warn(message: string): void {
    this.warnings.push(message);
    if (process.env.API_FRAMEWORK_QUIET !== '1') process.emitWarning(message, { code: 'API_FRAMEWORK_SCHEMA' });
  }

  /** Walk the URL conf once. */
  initialiseEndpoints(): Endpoint[] {
    if (this.endpoints === null) {
      const inspector = new this.endpointInspectorClass(this.patterns, this.urlconf);
      this.endpoints = inspector.getApiEndpoints();
    }
    return this.endpoints;
  }

  /**
   * A view instance for one endpoint, as a request for `method` would have it: initkwargs set,
   * the view set's action chosen, and a clone of `request` (when given) as its request.
   */
  createView(callback: ViewFunction, method: string, request: Request | null = null): APIView {
    const cls = viewClassOf(callback)!;
    const view = new cls();
    Object.assign(view, callback.viewInitkwargs ?? {});
    view.args = [];
    view.kwargs = {};
    view.formatKwarg = null;
    const actions = callback.actions;
    if (actions) {
      const viewSet = view as APIView & { actionMap: Record<string, string>; action: string | null };
      viewSet.actionMap = { ...actions };
      viewSet.action = method === 'OPTIONS' ? 'metadata' : actions[method.toLowerCase()] ?? null;
    }
    if (request) view.request = request.clone(method);
    return view;
  }

  /** `{pk}` written as the model's primary key name (`{id}`) when SCHEMA_COERCE_PATH_PK is on. */
  coercePath(path: string, _method: string, view: APIView): string {
    if (!this.coercePathPk || !path.includes('{pk}')) return path;
    const model = (view as { queryset?: { model?: AnyModelClass } | null }).queryset?.model;
    const name = model ? getFieldInfo(model).pk.name : 'id';
    return path.split('{pk}').join(`{${name}}`);
  }

  /** True when the request (if any) passes the view's permission checks. */
  async hasViewPermissions(_path: string, _method: string, view: APIView): Promise<boolean> {
    if (!view.request) return true;
    try {
      await view.checkPermissions(view.request);
    } catch (error) {
      if (error instanceof APIException || error instanceof Http404 || error instanceof PermissionDenied) return false;
      throw error;
    }
    return true;
  }

  /**
   * Whether the endpoint belongs to the documented version, and its path for it: with URL path
   * versioning `{version}` is filled in; namespace versioning keeps the version's namespace
   * only; other schemes keep endpoints whose allowed versions include it. Without a version
   * every endpoint stays.
   */
  includeForVersion(path: string, view: APIView, endpoint: Endpoint, version: string | null): string | null {
    if (version === null || version === '') return path;
    const Versioning = view.getVersioningClass();
    if (!Versioning) return path;
    const scheme = new Versioning();
    const allowedVersions = scheme.getAllowedVersions();
    const allowed = allowedVersions?.length ? allowedVersions : null;
    if (allowed && !allowed.includes(version)) return null;
    const param = `{${scheme.getVersionParam()}}`;
    if (path.includes(param)) return path.split(param).join(version);
    if (scheme instanceof NamespaceVersioning && !endpoint.namespaces.includes(version)) return null;
    return path;
  }

  /** Build the views of every endpoint (permission-filtered when a request is given and not public). */
  async getViewEndpoints(request: Request | null, version: string | null): Promise<ViewEndpoint[]> {
    const out: ViewEndpoint[] = [];
    for (const endpoint of this.initialiseEndpoints()) {
      const view = this.createView(endpoint.callback, endpoint.method, request);
      if (schemaFor(view) === null) continue;
      let path = this.includeForVersion(endpoint.path, view, endpoint, version);
      if (path === null) continue;
      path = this.coercePath(path, endpoint.method, view);
      if (!(await this.hasViewPermissions(path, endpoint.method, view))) continue;
      out.push({ path, method: endpoint.method, view, endpoint });
    }
    return out;
  }

  /**
   * The OpenAPI 3.1 document. With a `request` (and `public` false) only the operations the
   * requesting user may use are listed; `version` defaults to the generator's, else the request's.
   */
  async getSchema(request: Request | null = null, isPublic = false): Promise<OpenAPIDocument> {
    this.warnings = [];
    const version = this.version ?? (request?.version || null);
    const viewEndpoints = await this.getViewEndpoints(isPublic ? null : request, version);
    const generated: GeneratedOperation[] = [];
    for (const { path, method, view, endpoint } of viewEndpoints) {
      const inspector = schemaFor(view);
      if (!(inspector instanceof AutoSchema)) continue;
      inspector.pathParameterSchemas = this.coerceParameterSchemas(endpoint.parameterSchemas, path, endpoint.path);
      const operation = inspector.getOperation(path, method);
      generated.push({
        path, method, view, inspector, namespaces: endpoint.namespaces, operation,
        schemas: inspector.getComponents(path, method),
        securitySchemes: inspector.getSecuritySchemes(path, method),
      });
    }
    const schemas = this.mergeComponents(generated);
    this.makeOperationIdsUnique(generated);

    const paths: OpenAPIDocument['paths'] = {};
    const securitySchemes: Record<string, SecuritySchemeObject> = {};
    for (const item of generated) {
      const path = this.mountPath() + item.path;
      paths[path] ??= {};
      paths[path][item.method.toLowerCase()] = item.operation;
      Object.assign(securitySchemes, item.securitySchemes);
    }
    const servers = this.getServers();
    const document: OpenAPIDocument = {
      openapi: OPENAPI_VERSION,
      jsonSchemaDialect: JSON_SCHEMA_DIALECT,
      info: { ...this.getInfo(), version: this.version ?? version ?? '' },
      ...(servers ? { servers } : {}),
      paths,
    };
    const components: OpenAPIDocument['components'] = {};
    if (Object.keys(schemas).length > 0) components.schemas = schemas;
    if (Object.keys(securitySchemes).length > 0) components.securitySchemes = securitySchemes;
    if (Object.keys(components).length > 0) document.components = components;
    return document;
  }

  /** The URL conf's parameter schemas under the coerced names (`pk` -> `id`). */
  private coerceParameterSchemas(schemas: Record<string, SchemaObject>, coercedPath: string, originalPath: string): Record<string, SchemaObject> {
    const out: Record<string, SchemaObject> = { ...schemas };
    if (originalPath.includes('{pk}') && !coercedPath.includes('{pk}') && schemas.pk) {
      const name = /\{([^}]+)\}/.exec(coercedPath.slice(originalPath.indexOf('{pk}')))?.[1];
      if (name) out[name] = schemas.pk;
    }
    return out;
  }

  /**
   * Merge every operation's component schemas. Two different schemas under one name (two
   * `UserSerializer`s in two apps) are told apart: the one from a namespaced include is
   * renamed with its namespace (`QuickstartUser`), its operations' `$ref`s following; a clash
   * that cannot be resolved so is warned about, naming both views.
   */
  mergeComponents(generated: GeneratedOperation[]): Record<string, SchemaObject> {
    const merged: Record<string, SchemaObject> = {};
    const owners = new Map<string, GeneratedOperation>();
    // Un-namespaced operations first, so they keep the plain names.
    const order = [...generated].sort((a, b) => Math.min(a.namespaces.length, 1) - Math.min(b.namespaces.length, 1));
    for (const item of order) {
      const renames = new Map<string, string>();
      for (const [name, schema] of Object.entries(item.schemas)) {
        const existing = merged[name];
        if (existing === undefined || JSON.stringify(existing) === JSON.stringify(renameRefs(schema, renames))) continue;
        const prefix = pascalCase(item.namespaces.join(' '));
        let candidate = prefix ? `${prefix}${name}` : name;
        let counter = 2;
        while (merged[candidate] !== undefined && JSON.stringify(merged[candidate]) !== JSON.stringify(schema)) {
          candidate = `${prefix}${name}${counter++}`;
        }
        if (!prefix) {
          const other = owners.get(name);
          this.warn(
            `Schema component "${name}" of ${item.view.constructor.name} (${item.method} ${item.path}) differs from the one of ` +
            `${other?.view.constructor.name ?? 'another view'} (${other ? `${other.method} ${other.path}` : '?'}); it is named "${candidate}". ` +
            'Give one of the serializers another name, or set AutoSchema({ componentName }).',
          );
        }
        renames.set(name, candidate);
        // The request-side components of the same serializer follow their response component.
        for (const [sibling, renamed] of [[`${name}Request`, `${candidate}Request`], [`Patched${name}Request`, `Patched${candidate}Request`]]) {
          const free = merged[renamed] === undefined || JSON.stringify(merged[renamed]) === JSON.stringify(renameRefs(item.schemas[sibling], renames));
          if (item.schemas[sibling] !== undefined && free && !renames.has(sibling)) renames.set(sibling, renamed);
        }
      }
      if (renames.size > 0) {
        item.operation = renameRefs(item.operation, renames) as Operation;
        item.schemas = Object.fromEntries(Object.entries(item.schemas).map(([name, schema]) => [renames.get(name) ?? name, renameRefs(schema, renames) as SchemaObject]));
      }
      for (const [name, schema] of Object.entries(item.schemas)) {
        if (merged[name] === undefined) {
          merged[name] = schema;
          owners.set(name, item);
        }
      }
    }
    return merged;
  }

  /**
   * Make operation ids unique. The operation that keeps an id is the one outside any namespace
   * and served by a view set (a router's); a clashing operation from a namespaced include gets
   * the namespace as prefix (`quickstartListUsers`), others the id their view's class name
   * gives (`listSnippetCursors`). A clash left after that gets a number and a warning naming both views.
   */
  makeOperationIdsUnique(generated: GeneratedOperation[]): void {
    const byId = new Map<string, GeneratedOperation[]>();
    for (const item of generated) {
      const list = byId.get(item.operation.operationId) ?? [];
      list.push(item);
      byId.set(item.operation.operationId, list);
    }
    const taken = new Set(byId.keys());
    const rank = (item: GeneratedOperation): number =>
      Math.min(item.namespaces.length, 1) * 2 + ((item.view as { actionMap?: unknown }).actionMap !== undefined ? 0 : 1);
    for (const [id, items] of byId) {
      if (items.length < 2) continue;
      const [keep, ...others] = [...items].sort((a, b) => rank(a) - rank(b));
      for (const item of others) {
        const prefix = item.namespaces.map((namespace, index) => (index === 0 ? namespace.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()) : pascalCase(namespace))).join('');
        let candidate = prefix ? `${prefix}${id[0].toUpperCase()}${id.slice(1)}` : item.inspector.getAlternativeOperationId(item.path, item.method);
        if (taken.has(candidate)) {
          let counter = 2;
          const base = candidate;
          while (taken.has(`${base}${counter}`)) counter++;
          candidate = `${base}${counter}`;
          this.warn(
            `You have a duplicated operationId in your OpenAPI schema: ${id}\n` +
            `\tRoute: ${keep.path}, Method: ${keep.method.toLowerCase()}, View: ${keep.view.constructor.name}\n` +
            `\tRoute: ${item.path}, Method: ${item.method.toLowerCase()}, View: ${item.view.constructor.name}\n` +
            `\tThe second one is named ${candidate}. An operationId has to be unique across your schema; ` +
            'set AutoSchema({ operationIdBase }) on one of the views.',
          );
        }
        taken.add(candidate);
        item.operation.operationId = candidate;
      }
    }
  }
}
