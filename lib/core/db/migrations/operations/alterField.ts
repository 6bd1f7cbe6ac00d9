/** `AlterField`: change a field's definition (type, length, null, unique, index, foreign key). */
import type { ProjectState } from '../state';
import type { FieldSpec } from '../fieldSpec';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Options of `AlterField`. */
export interface AlterFieldOptions {
  model: string;
  name: string;
  /** The complete new definition. */
  field: FieldSpec;
  /** False when `field.default` only fills NULLs of a column becoming NOT NULL. */
  preserveDefault?: boolean;
}

/** Changes a field to a new definition. */
export class AlterField extends Operation {
  constructor(readonly options: AlterFieldOptions) {
    super();
  }

  describe(): string {
    return `Alter field ${this.options.name} on ${this.options.model.toLowerCase()}`;
  }

  nameFragment(): string {
    return `alter_${this.options.model.toLowerCase()}_${this.options.name}`;
  }

  deconstruct(): Deconstructed {
    return { name: 'AlterField', args: { ...this.options } };
  }

  stateForwards(app: string, state: ProjectState): void {
    const model = state.get(app, this.options.model);
    model.field(this.options.name);
    const field = { ...this.options.field };
    if (this.options.preserveDefault === false) delete field.default;
    state.add(model.clone({ fields: model.fields.map(([n, s]) => (n === this.options.name ? [n, field] : [n, s])) }));
  }

  databaseForwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    const after = to.get(app, this.options.model);
    const filled = after.clone({ fields: after.fields.map(([n, s]) => (n === this.options.name ? [n, { ...this.options.field }] : [n, s])) });
    editor.alterField(to, from.get(app, this.options.model), filled, this.options.name, this.options.name);
  }

  databaseBackwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    editor.alterField(to, from.get(app, this.options.model), to.get(app, this.options.model), this.options.name, this.options.name);
  }
}
