/**
 * After `migrate`: make sure every installed model has its content type and its default
 * permissions (`add_`, `change_`, `delete_`, `view_` + model name, named `Can add <verbose
 * name>` ...), as the host framework's `post_migrate` handlers do. Idempotent.
 */
import { apps } from '../../lib/core/apps';
import type { ModelMeta } from '../../lib/core/db';
import { modelClasses } from '../../lib/core/db/modelClass';
import { ContentType, Permission } from './models';

/** The default permission actions. */
export const DEFAULT_PERMISSIONS = ['add', 'change', 'delete', 'view'] as const;

interface PermissionModel {
  name: string;
  meta?: ModelMeta & { defaultPermissions?: readonly string[]; permissions?: ReadonlyArray<readonly [string, string]> };
  autoCreated?: boolean;
}

/** Django's default verbose name: the class name with spaces between words, lower case. */
export function camelCaseToSpaces(name: string): string {
  return name.replace(/(((?<=[a-z])[A-Z])|([A-Z](?![A-Z]|$)))/g, ' $1').toLowerCase().trim();
}

/** The singular verbose name of a model. */
export function verboseNameOf(model: PermissionModel): string {
  return model.meta?.verboseName ?? camelCaseToSpaces(model.name);
}

/** `<action>_<model name>`, e.g. `add_user`. */
export function getPermissionCodename(action: string, model: { name: string }): string {
  return `${action}_${model.name.toLowerCase()}`;
}

/** The `[codename, name]` pairs a model should have. */
export function permissionsFor(model: PermissionModel): Array<[string, string]> {
  const actions = model.meta?.defaultPermissions ?? DEFAULT_PERMISSIONS;
  const builtin = actions.map((action): [string, string] => [getPermissionCodename(action, model), `Can ${action} ${verboseNameOf(model)}`]);
  return [...builtin, ...(model.meta?.permissions ?? []).map(([codename, name]): [string, string] => [codename, name])];
}

/** Create missing content types and permissions for every installed model. */
export async function createPermissions(): Promise<void> {
  const models: PermissionModel[] = modelClasses(apps.getModels()).filter((m) => !('autoCreated' in m && m.autoCreated) && m.meta?.appLabel);
  const existingTypes = await ContentType.objects.all().fetch();
  const byKey = new Map(existingTypes.map((ct) => [`${ct.app_label}.${ct.model}`, ct]));
  const wanted: Array<[PermissionModel, ContentType]> = [];
  for (const model of models) {
    const appLabel = (model.meta as ModelMeta).appLabel;
    const key = `${appLabel}.${model.name.toLowerCase()}`;
    let ct = byKey.get(key);
    if (!ct) {
      [ct] = await ContentType.objects.getOrCreate({ app_label: appLabel, model: model.name.toLowerCase() });
      byKey.set(key, ct);
    }
    wanted.push([model, ct]);
  }
  if (!wanted.length) return;
  const have = new Set(
    (await Permission.objects.filter({ content_type_id__in: wanted.map(([, ct]) => ct.id) }).fetch()).map(
      (p) => `${p.content_type_id}:${p.codename}`,
    ),
  );
  const rows: Array<Record<string, unknown>> = [];
  for (const [model, ct] of wanted) {
    for (const [codename, name] of permissionsFor(model)) {
      const key = `${ct.id}:${codename}`;
      if (have.has(key)) continue;
      have.add(key);
      rows.push({ content_type_id: ct.id, codename, name: name.slice(0, 255) });
    }
  }
  if (rows.length) await Permission.objects.bulkCreate(rows);
}
