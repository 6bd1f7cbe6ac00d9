/** `RemoveIndex`: drop an index of `meta.indexes`. */
import type { ProjectState } from '../state';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Drops a named index (backwards: creates it again from the earlier state). */
export class RemoveIndex extends Operation {
  constructor(readonly options: { model: string; name: string }) {
    super();
  }

  describe(): string {
    return `Remove index ${this.options.name} from ${this.options.model.toLowerCase()}`;
  }

  nameFragment(): string {
    return `remove_${this.options.model.toLowerCase()}_${this.options.name.toLowerCase()}`;
  }

  deconstruct(): Deconstructed {
    return { name: 'RemoveIndex', args: { ...this.options } };
  }

  private find(app: string, state: ProjectState): { name: string; fields: readonly string[] } {
    const model = state.get(app, this.options.model);
    const index = (model.options.indexes ?? []).find((i) => i.name === this.options.name);
    if (!index) throw new Error(`${app}.${this.options.model} has no index '${this.options.name}'.`);
    return index;
  }

  stateForwards(app: string, state: ProjectState): void {
    const model = state.get(app, this.options.model);
    this.find(app, state);
    const indexes = (model.options.indexes ?? []).filter((i) => i.name !== this.options.name);
    state.add(model.clone({ options: { ...model.options, indexes } }));
  }

  databaseForwards(app: string, editor: SchemaEditor, from: ProjectState): void {
    editor.removeIndex(from.get(app, this.options.model), this.find(app, from));
  }

  databaseBackwards(app: string, editor: SchemaEditor, _from: ProjectState, to: ProjectState): void {
    editor.addIndex(to.get(app, this.options.model), this.find(app, to));
  }
}
