/** `RemoveField`: drop a column (or a many-to-many join table). */
import type { ProjectState } from '../state';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Removes a field (backwards: adds it again, rows get its default). */
export class RemoveField extends Operation {
  constructor(readonly options: { model: string; name: string }) {
    super();
  }

  describe(): string {
    return `Remove field ${this.options.name} from ${this.options.model.toLowerCase()}`;
  }

  nameFragment(): string {
    return `remove_${this.options.model.toLowerCase()}_${this.options.name}`;
  }

  deconstruct(): Deconstructed {
    return { name: 'RemoveField', args: { ...this.options } };
  }

  stateForwards(app: string, state: ProjectState): void {
    const model = state.get(app, this.options.model);
    model.field(this.options.name);
    state.add(model.clone({ fields: model.fields.filter(([n]) => n !== this.options.name) }));
  }

  databaseForwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    editor.removeField(from, from.get(app, this.options.model), to.get(app, this.options.model), this.options.name);
  }

  databaseBackwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    editor.addField(to, from.get(app, this.options.model), to.get(app, this.options.model), this.options.name);
  }
}
