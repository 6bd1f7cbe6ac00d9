/** `AddIndex`: an index of `meta.indexes`. */
import type { IndexSpec, ProjectState } from '../state';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Creates a named index on some fields of a model. */
export class AddIndex extends Operation {
  constructor(readonly options: { model: string; index: IndexSpec }) {
    super();
  }

  describe(): string {
    return `Create index ${this.options.index.name} on field(s) ${this.options.index.fields.join(', ')} of model ${this.options.model.toLowerCase()}`;
  }

  nameFragment(): string {
    return `${this.options.model.toLowerCase()}_${this.options.index.name.toLowerCase()}`;
  }

  deconstruct(): Deconstructed {
    return { name: 'AddIndex', args: { ...this.options } };
  }

  stateForwards(app: string, state: ProjectState): void {
    const model = state.get(app, this.options.model);
    const indexes = [...(model.options.indexes ?? []), { ...this.options.index }];
    state.add(model.clone({ options: { ...model.options, indexes } }));
  }

  databaseForwards(app: string, editor: SchemaEditor, _from: ProjectState, to: ProjectState): void {
    editor.addIndex(to.get(app, this.options.model), this.options.index);
  }

  databaseBackwards(app: string, editor: SchemaEditor, from: ProjectState): void {
    editor.removeIndex(from.get(app, this.options.model), this.options.index);
  }
}
