/**
 * The view inspector protocol: every API view carries one as its `schema` attribute
 * (`DEFAULT_SCHEMA_CLASS`, `AutoSchema` by default), attached to the view when read, which
 * describes the view's operations for schema generation. `schemaFor(view)` attaches and
 * returns it; `schema = null` excludes a view from generated documents.
 *
 * This module is deliberately small: `lib/views.ts` imports it, so it must not import the
 * serializers, fields or views the full inspector (`./autoSchema`) needs.
 */
import { apiSettings } from '../settings';
import type { AnyModelClass } from '../core/db/fieldInfo';

/** The view as the inspector sees it (an `APIView`, or a stand-in in specs). */
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

/** The base view inspector: knows its view once attached. Subclass it for a custom inspector. */
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
  const SchemaClass = apiSettings.DEFAULT_SCHEMA_CLASS;
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
