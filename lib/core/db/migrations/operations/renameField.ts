/** `RenameField`: rename a field (and its column, unless the column is set explicitly). */
import type { ProjectState } from '../state';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Renames a field, keeping its data. */
export class RenameField extends Operation {
  constructor(readonly options: { model: string; oldName: string; newName: string }) {
    super();
  }

  describe(): string {
    return `Rename field ${this.options.oldName} on ${this.options.model.toLowerCase()} to ${this.options.newName}`;
  }

  nameFragment(): string {
    return `rename_${this.options.oldName}_${this.options.model.toLowerCase()}_${this.options.newName}`;
  }

  deconstruct(): Deconstructed {
    return { name: 'RenameField', args: { ...this.options } };
  }

  stateForwards(app: string, state: ProjectState): void {
    const { oldName, newName } = this.options;
    const model = state.get(app, this.options.model);
    model.field(oldName);
    if (model.hasField(newName)) throw new Error(`${app}.${this.options.model} already has a field '${newName}'.`);
    const rename = (set: readonly string[]): string[] => set.map((f) => (f === oldName ? newName : f));
    const options = { ...model.options };
    if (options.uniqueTogether) options.uniqueTogether = options.uniqueTogether.map(rename);
    if (options.indexes) options.indexes = options.indexes.map((i) => ({ ...i, fields: rename(i.fields) }));
    if (options.ordering) options.ordering = options.ordering.map((o) => o.replace(new RegExp(`^(-?)${oldName}(?=$|__)`), `$1${newName}`));
    state.add(model.clone({ fields: model.fields.map(([n, s]) => (n === oldName ? [newName, s] : [n, s])), options }));
  }

  databaseForwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    editor.alterField(to, from.get(app, this.options.model), to.get(app, this.options.model), this.options.oldName, this.options.newName);
  }

  databaseBackwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    editor.alterField(to, from.get(app, this.options.model), to.get(app, this.options.model), this.options.newName, this.options.oldName);
  }
}
