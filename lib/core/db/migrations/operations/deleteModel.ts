/** `DeleteModel`: drop a model and its table. */
import type { ProjectState } from '../state';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Drops a model's table (backwards: creates it again, empty). */
export class DeleteModel extends Operation {
  constructor(readonly options: { name: string }) {
    super();
  }

  describe(): string {
    return `Delete model ${this.options.name}`;
  }

  nameFragment(): string {
    return `delete_${this.options.name.toLowerCase()}`;
  }

  deconstruct(): Deconstructed {
    return { name: 'DeleteModel', args: { ...this.options } };
  }

  stateForwards(app: string, state: ProjectState): void {
    state.remove(app, this.options.name);
  }

  databaseForwards(app: string, editor: SchemaEditor, from: ProjectState): void {
    editor.deleteModel(from, from.get(app, this.options.name));
  }

  databaseBackwards(app: string, editor: SchemaEditor, _from: ProjectState, to: ProjectState): void {
    editor.createModel(to, to.get(app, this.options.name));
  }
}
