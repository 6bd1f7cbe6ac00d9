/** `RenameModel`: rename a model (and its table when `table` is given); relations follow. */
import { modelKey, modelKeyOf, type ProjectState } from '../state';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Options of `RenameModel`. */
export interface RenameModelOptions {
  oldName: string;
  newName: string;
  /** The new table (`@Table({ tableName })`); the table keeps its name when left out. */
  table?: string;
}

/** Renames a model, keeping its rows; foreign keys pointing at it are updated. */
export class RenameModel extends Operation {
  constructor(readonly options: RenameModelOptions) {
    super();
  }

  describe(): string {
    return `Rename model ${this.options.oldName} to ${this.options.newName}`;
  }

  nameFragment(): string {
    return `rename_${this.options.oldName.toLowerCase()}_${this.options.newName.toLowerCase()}`;
  }

  deconstruct(): Deconstructed {
    return { name: 'RenameModel', args: { ...this.options } };
  }

  stateForwards(app: string, state: ProjectState): void {
    const model = state.remove(app, this.options.oldName);
    state.add(model.clone({ name: this.options.newName, table: this.options.table ?? model.table }));
    const oldKey = modelKey(app, this.options.oldName);
    for (const other of [...state.models.values()]) {
      if (!other.fields.some(([, s]) => s.to && modelKeyOf(s.to, other.app) === oldKey)) continue;
      const fields = other.fields.map(([n, s]) => (s.to && modelKeyOf(s.to, other.app) === oldKey ? ([n, { ...s, to: `${app}.${this.options.newName}` }] as const) : ([n, s] as const)));
      state.add(other.clone({ fields }));
    }
  }

  databaseForwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    editor.renameModel(from, to, from.get(app, this.options.oldName), to.get(app, this.options.newName));
  }

  databaseBackwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    editor.renameModel(from, to, from.get(app, this.options.newName), to.get(app, this.options.oldName));
  }
}
