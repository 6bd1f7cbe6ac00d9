/**
 * Schema inspection: every view carries a view inspector as its `schema` attribute
 * (`DEFAULT_SCHEMA_CLASS`, `AutoSchema` by default), which describes the view's operations
 * for schema generation. `schemaFor(view)` attaches and returns it.
 *
 * Full OpenAPI document generation builds on `getOperation(path, method)`.
 */
import { apiSettings } from './settings';
import { getFieldInfo, type AnyModelClass } from './core/db/fieldInfo';

/** The view as the inspector sees it. */
export interface InspectedView {
  schema?: unknown;
  action?: string | null;
  detail?: boolean;
  getViewDescription?(html?: boolean): string;
  paginator?: { getSchemaOperationParameters(view: unknown): unknown[] } | null;
  getFilterBackends?(): ReadonlyArray<new () => object>;
  queryset?: { model?: AnyModelClass } | null;
  constructor: { name: string };
}

/** An OpenAPI operation object (partial: generation fills in request bodies and components). */
export interface Operation {
  operationId: string;
  description: string;
  parameters: unknown[];
  responses: Record<string, { description: string }>;
}

const METHOD_ACTIONS: Record<string, string> = { GET: 'retrieve', POST: 'create', PUT: 'update', PATCH: 'partialUpdate', DELETE: 'destroy' };

/** The base view inspector: knows its view once attached. */
export class ViewInspector {
  #view: InspectedView | null = null;

  /** The view this inspector describes; set when the inspector is attached. */
  get view(): InspectedView {
    if (this.#view === null) throw new Error('Schema view no longer set. Check view.schema was accessed from an instance.');
    return this.#view;
  }

  set view(value: InspectedView) {
    this.#view = value;
  }
}

/** The default view inspector: derives operations from the view's actions, filters and pagination. */
export class AutoSchema extends ViewInspector {
  /** True for list operations: GET on a non-detail route (or a view without a lookup in its path). */
  isList(path: string, method: string): boolean {
    if (method.toUpperCase() !== 'GET') return false;
    const action = this.view.action;
    if (action && action !== 'list' && action !== 'retrieve') return this.view.detail === false;
    if (action === 'list') return true;
    if (action === 'retrieve') return false;
    return !/\{[^}]+\}\/?$/.test(path);
  }

  /** The operation id: action plus view name (`listSnippets`, `retrieveSnippet`). */
  getOperationId(path: string, method: string): string {
    const upper = method.toUpperCase();
    let action = this.isList(path, upper) ? 'list' : this.view.action ?? METHOD_ACTIONS[upper] ?? method.toLowerCase();
    const coerce = apiSettings.SCHEMA_COERCE_METHOD_NAMES;
    if (action in coerce) action = coerce[action];
    let name = this.view.constructor.name.replace(/(ViewSet|APIView|View)$/, '');
    if (action === 'list' && !name.endsWith('s')) name += 's';
    return action + name;
  }

  /**
   * `path` with its `{pk}` parameter named by the model's primary key (`{id}`) when
   * SCHEMA_COERCE_PATH_PK is on, as the original's schema generator does (`id` when the view
   * has no queryset model).
   */
  coercePath(path: string): string {
    if (!apiSettings.SCHEMA_COERCE_PATH_PK || !path.includes('{pk}')) return path;
    const model = this.view.queryset?.model;
    const name = model ? getFieldInfo(model).pk.name : 'id';
    return path.split('{pk}').join(`{${name}}`);
  }

  /** The path parameters of `path` (`{id}` segments). */
  getPathParameters(path: string): unknown[] {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    return names.map((name) => ({ name, in: 'path', required: true, description: '', schema: { type: 'string' } }));
  }

  /** The query parameters of list operations: the filter backends' and the paginator's. */
  getQueryParameters(path: string, method: string): unknown[] {
    if (!this.isList(path, method)) return [];
    const parameters: unknown[] = [];
    for (const backend of this.view.getFilterBackends?.() ?? []) {
      const instance = new backend() as { getSchemaOperationParameters?: (view: unknown) => unknown[] };
      parameters.push(...(instance.getSchemaOperationParameters?.(this.view) ?? []));
    }
    parameters.push(...(this.view.paginator?.getSchemaOperationParameters(this.view) ?? []));
    return parameters;
  }

  /** Describe one operation of the view. */
  getOperation(path: string, method: string): Operation {
    const upper = method.toUpperCase();
    const status = upper === 'POST' ? '201' : upper === 'DELETE' ? '204' : '200';
    return {
      operationId: this.getOperationId(path, upper),
      description: this.view.getViewDescription?.() ?? '',
      parameters: [...this.getPathParameters(this.coercePath(path)), ...this.getQueryParameters(path, upper)],
      responses: { [status]: { description: '' } },
    };
  }
}

/**
 * The inspector for `view` given the `schema` it declared: null excludes the view, an inspector
 * instance is attached to the view and used, and `undefined` (nothing declared) gives a new
 * `DEFAULT_SCHEMA_CLASS` instance (read from the settings now, so overrides apply).
 */
export function attachSchema(view: InspectedView, declared: unknown): ViewInspector | null {
  if (declared === null) return null;
  if (declared instanceof ViewInspector) {
    declared.view = view;
    return declared;
  }
  if (declared !== undefined) {
    throw new TypeError(`${view.constructor.name}.schema must be a ViewInspector instance or null.`);
  }
  const SchemaClass = apiSettings.DEFAULT_SCHEMA_CLASS as (new () => ViewInspector) | null;
  if (!SchemaClass) return null;
  const inspector = new SchemaClass();
  inspector.view = view;
  return inspector;
}

/**
 * The inspector of `view`. API views answer it themselves (`view.schema` is attached on
 * access); for other view-like objects the default inspector is created and kept on them.
 */
export function schemaFor(view: InspectedView): ViewInspector | null {
  const declared = view.schema;
  if (declared === null) return null;
  const inspector = attachSchema(view, declared);
  if (declared === undefined && inspector) view.schema = inspector;
  return inspector;
}
