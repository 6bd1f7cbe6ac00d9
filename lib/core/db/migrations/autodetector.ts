/**
 * The autodetector (Django's `MigrationAutodetector`): compares the state the migrations
 * leave with the state the models declare and lists, per app, the operations that turn one
 * into the other, asking the questioner about renames and values for existing rows.
 * The output is stable: models, fields and operations in a fixed order.
 */
import { isManyToMany, sameSpec, stableStringify, type FieldSpec, type NamedField } from './fieldSpec';
import type { Operation } from './operations/base';
import { AddField } from './operations/addField';
import { AddIndex } from './operations/addIndex';
import { AlterField } from './operations/alterField';
import { AlterModelOptions, type AlterableOptions } from './operations/alterModelOptions';
import { AlterUniqueTogether } from './operations/alterUniqueTogether';
import { CreateModel } from './operations/createModel';
import { DeleteModel } from './operations/deleteModel';
import { RemoveField } from './operations/removeField';
import { RemoveIndex } from './operations/removeIndex';
import { RenameField } from './operations/renameField';
import { RenameModel } from './operations/renameModel';
import type { Questioner } from './questioner';
import { ALTERABLE_OPTIONS, modelKeyOf, type ModelState, type ProjectState } from './state';

/** Operations per app label. */
export type Changes = Map<string, Operation[]>;

function sameFields(a: ModelState, b: ModelState): boolean {
  if (a.fields.length !== b.fields.length) return false;
  return a.fields.every(([name, spec]) => b.hasField(name) && sameSpec(spec, b.field(name)));
}

function specWithoutColumn(name: string, spec: FieldSpec): FieldSpec {
  const copy = { ...spec };
  if (copy.column === name || copy.column === `${name}_id`) delete copy.column;
  return copy;
}

function needsOneOffDefault(spec: FieldSpec): boolean {
  if (spec.null || spec.default !== undefined || isManyToMany(spec) || spec.primaryKey) return false;
  if (spec.autoNow || spec.autoNowAdd) return false;
  // Django: a blank string field can take '' in existing rows.
  const stringField = ['CharField', 'EmailField', 'SlugField', 'URLField', 'TextField'].includes(spec.type);
  return !(spec.blank && stringField);
}

function alterableOptions(model: ModelState): AlterableOptions {
  const options: Record<string, unknown> = {};
  for (const key of ALTERABLE_OPTIONS) if (model.options[key] !== undefined) options[key] = model.options[key];
  return options as AlterableOptions;
}

function uniqueKey(sets: ReadonlyArray<readonly string[]> | undefined): string {
  return stableStringify((sets ?? []).map((s) => [...s]));
}

/** Order models so each comes after the models (of the same app) its relations point at. */
function creationOrder(models: ModelState[]): { ordered: ModelState[]; deferred: Array<[ModelState, string, FieldSpec]> } {
  const pending = new Map(models.map((m) => [m.key, m]));
  const ordered: ModelState[] = [];
  const deferred: Array<[ModelState, string, FieldSpec]> = [];
  const done = new Set<string>();
  while (pending.size) {
    const ready = [...pending.values()].find((model) =>
      model.fields.every(([, spec]) => {
        if (!spec.to) return true;
        const target = modelKeyOf(spec.to, model.app);
        return target === model.key || done.has(target) || !pending.has(target);
      }),
    );
    if (ready) {
      ordered.push(ready);
      done.add(ready.key);
      pending.delete(ready.key);
      continue;
    }
    // A cycle: create the first model without its relations to pending models, add them afterwards.
    const model = [...pending.values()][0];
    const keep: NamedField[] = [];
    for (const [name, spec] of model.fields) {
      const target = spec.to ? modelKeyOf(spec.to, model.app) : null;
      if (target && target !== model.key && pending.has(target)) deferred.push([model, name, spec]);
      else keep.push([name, spec]);
    }
    const trimmed = model.clone({ fields: keep });
    ordered.push(trimmed);
    done.add(model.key);
    pending.delete(model.key);
  }
  return { ordered, deferred };
}

/**
 * The operations that bring `from` (the migrations) to `to` (the models), for the apps in
 * `appLabels` (all when empty).
 */
export async function detectChanges(from: ProjectState, to: ProjectState, questioner: Questioner, appLabels: readonly string[] = []): Promise<Changes> {
  const changes: Changes = new Map();
  const push = (app: string, operation: Operation): void => {
    if (!changes.has(app)) changes.set(app, []);
    (changes.get(app) as Operation[]).push(operation);
  };
  const selected = (app: string): boolean => !appLabels.length || appLabels.includes(app);
  const sortByName = (a: ModelState, b: ModelState): number => a.key.localeCompare(b.key);

  let added = [...to.models.values()].filter((m) => selected(m.app) && !from.models.has(m.key)).sort(sortByName);
  let removed = [...from.models.values()].filter((m) => selected(m.app) && !to.models.has(m.key)).sort(sortByName);

  // Renamed models: same app, same fields.
  const renamed = new Map<string, ModelState>();
  for (const old of removed) {
    const candidate = added.find((m) => m.app === old.app && !renamed.has(m.key) && sameFields(old, m));
    if (candidate && (await questioner.askRenameModel(old.app, old.name, candidate.name))) {
      push(old.app, new RenameModel({ oldName: old.name, newName: candidate.name, ...(candidate.table !== old.table ? { table: candidate.table } : {}) }));
      renamed.set(candidate.key, old);
    }
  }
  added = added.filter((m) => !renamed.has(m.key));
  removed = removed.filter((m) => ![...renamed.values()].includes(m));

  // New models, in dependency order.
  const byApp = new Map<string, ModelState[]>();
  for (const model of added) byApp.set(model.app, [...(byApp.get(model.app) ?? []), model]);
  for (const [app, models] of [...byApp].sort(([a], [b]) => a.localeCompare(b))) {
    const { ordered, deferred } = creationOrder(models);
    for (const model of ordered) {
      push(app, new CreateModel({ name: model.name, table: model.table, fields: model.fields.map(([n, s]) => [n, { ...s }]), ...(Object.keys(model.options).length ? { options: { ...model.options } } : {}) }));
    }
    for (const [model, name, spec] of deferred) push(app, new AddField({ model: model.name, name, field: { ...spec } }));
  }

  // Models on both sides.
  const kept = [...to.models.values()].filter((m) => selected(m.app) && (from.models.has(m.key) || renamed.has(m.key))).sort(sortByName);
  for (const model of kept) {
    const old = renamed.get(model.key) ?? (from.models.get(model.key) as ModelState);
    const app = model.app;
    if (!renamed.has(model.key) && old.table !== model.table) push(app, new RenameModel({ oldName: old.name, newName: model.name, table: model.table }));
    let oldFields = old.fields.filter(([name]) => !model.hasField(name));
    let newFields = model.fields.filter(([name]) => !old.hasField(name));
    // Renamed fields: one removed and one added with the same definition.
    const renames = new Map<string, string>();
    for (const [oldName, oldSpec] of oldFields) {
      const match = newFields.find(([newName, newSpec]) => ![...renames.values()].includes(newName) && sameSpec(specWithoutColumn(oldName, oldSpec), specWithoutColumn(newName, newSpec)));
      if (match && (await questioner.askRenameField(app, model.name, oldName, match[0], oldSpec.type))) {
        push(app, new RenameField({ model: model.name, oldName, newName: match[0] }));
        renames.set(oldName, match[0]);
        const column = match[1].column;
        const renamedSpec = old.field(oldName);
        if ((column ?? null) !== (renamedSpec.column ?? null) && column !== undefined) push(app, new AlterField({ model: model.name, name: match[0], field: { ...match[1] } }));
      }
    }
    oldFields = oldFields.filter(([name]) => !renames.has(name));
    newFields = newFields.filter(([name]) => ![...renames.values()].includes(name));
    const removedNames = new Set(oldFields.map(([n]) => n));

    // Indexes and unique sets that mention removed fields go first.
    const newIndexes = model.options.indexes ?? [];
    const oldIndexes = old.options.indexes ?? [];
    for (const index of oldIndexes) {
      const same = newIndexes.find((i) => i.name === index.name);
      if (!same || stableStringify(same.fields) !== stableStringify(index.fields.map((f) => renames.get(f) ?? f))) {
        push(app, new RemoveIndex({ model: model.name, name: index.name }));
      }
    }
    const oldUnique = (old.options.uniqueTogether ?? []).map((s) => s.map((f) => renames.get(f) ?? f));
    const newUnique = model.options.uniqueTogether ?? [];
    const uniqueChanged = uniqueKey(oldUnique) !== uniqueKey(newUnique);
    let uniqueNow = oldUnique;
    if (uniqueChanged) {
      const interim = oldUnique.filter((s) => !s.some((f) => removedNames.has(f)) && newUnique.some((n) => stableStringify(n) === stableStringify(s)));
      if (uniqueKey(interim) !== uniqueKey(oldUnique)) {
        push(app, new AlterUniqueTogether({ name: model.name, uniqueTogether: interim }));
        uniqueNow = interim;
      }
    }
    for (const [name] of oldFields) push(app, new RemoveField({ model: model.name, name }));
    for (const [name, spec] of newFields) {
      if (needsOneOffDefault(spec)) {
        const value = await questioner.askNotNullAddition(app, model.name, name);
        push(app, new AddField({ model: model.name, name, field: { ...spec, default: value }, preserveDefault: false }));
      } else push(app, new AddField({ model: model.name, name, field: { ...spec } }));
    }
    for (const [name, spec] of model.fields) {
      const oldName = [...renames].find(([, n]) => n === name)?.[0] ?? name;
      if (!old.hasField(oldName) || newFields.some(([n]) => n === name)) continue;
      const before = old.field(oldName);
      if (sameSpec(before, spec) || (renames.has(oldName) && sameSpec(specWithoutColumn(oldName, before), specWithoutColumn(name, spec)))) continue;
      if (before.null && !spec.null && spec.default === undefined && !isManyToMany(spec)) {
        const value = await questioner.askNotNullAlteration(app, model.name, name);
        if (value !== undefined) {
          push(app, new AlterField({ model: model.name, name, field: { ...spec, default: value }, preserveDefault: false }));
          continue;
        }
      }
      push(app, new AlterField({ model: model.name, name, field: { ...spec } }));
    }
    if (uniqueKey(uniqueNow) !== uniqueKey(newUnique)) push(app, new AlterUniqueTogether({ name: model.name, uniqueTogether: newUnique.map((s) => [...s]) }));
    for (const index of newIndexes) {
      const same = oldIndexes.find((i) => i.name === index.name);
      if (!same || stableStringify(same.fields.map((f) => renames.get(f) ?? f)) !== stableStringify(index.fields)) {
        push(app, new AddIndex({ model: model.name, index: { name: index.name, fields: [...index.fields] } }));
      }
    }
    if (stableStringify(alterableOptions(old)) !== stableStringify(alterableOptions(model))) {
      push(app, new AlterModelOptions({ name: model.name, options: alterableOptions(model) }));
    }
  }

  // Deleted models last, those pointing at other deleted models first.
  const deleting = new Set(removed.map((m) => m.key));
  const order: ModelState[] = [];
  const visit = (model: ModelState, seen: Set<string>): void => {
    if (order.includes(model) || seen.has(model.key)) return;
    seen.add(model.key);
    for (const other of removed) {
      if (other !== model && other.fields.some(([, s]) => s.to && modelKeyOf(s.to, other.app) === model.key)) visit(other, seen);
    }
    order.push(model);
  };
  for (const model of removed) visit(model, new Set());
  for (const model of order) if (deleting.has(model.key)) push(model.app, new DeleteModel({ name: model.name }));
  return changes;
}
