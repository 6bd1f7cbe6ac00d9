/** `AddField`: a new column (or many-to-many join table) on an existing model. */
import type { ProjectState } from '../state';
import type { FieldSpec } from '../fieldSpec';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Options of `AddField`. */
export interface AddFieldOptions {
  /** The model's class name. */
  model: string;
  name: string;
  field: FieldSpec;
  /**
   * False when `field.default` is a one-off value for existing rows (answered to
   * `makemigrations`), not the field's default.
   */
  preserveDefault?: boolean;
}

/** Adds a field; existing rows get its default. */
export class AddField extends Operation {
  constructor(readonly options: AddFieldOptions) {
    super();
  }

  describe(): string {
    return `Add field ${this.options.name} to ${this.options.model.toLowerCase()}`;
  }

  nameFragment(): string {
    return `${this.options.model.toLowerCase()}_${this.options.name}`;
  }

  deconstruct(): Deconstructed {
    return { name: 'AddField', args: { ...this.options } };
  }

  stateForwards(app: string, state: ProjectState): void {
    const model = state.get(app, this.options.model);
    if (model.hasField(this.options.name)) throw new Error(`${app}.${this.options.model} already has a field '${this.options.name}'.`);
    const field = { ...this.options.field };
    if (this.options.preserveDefault === false) delete field.default;
    state.add(model.clone({ fields: [...model.fields, [this.options.name, field]] }));
  }

  databaseForwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    const before = from.get(app, this.options.model);
    const after = to.get(app, this.options.model);
    // The one-off default fills existing rows, then is forgotten.
    const filled = after.clone({ fields: after.fields.map(([n, s]) => (n === this.options.name ? [n, { ...this.options.field }] : [n, s])) });
    editor.addField(to, before, filled, this.options.name);
  }

  databaseBackwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    editor.removeField(from, from.get(app, this.options.model), to.get(app, this.options.model), this.options.name);
  }

  override createdTables(app: string, state: ProjectState, editor: SchemaEditor): string[] {
    const spec = this.options.field;
    if (spec.type !== 'ManyToManyField' || spec.through) return [];
    const model = state.get(app, this.options.model);
    return [editor.throughModel(state, model, this.options.name, spec).table];
  }
}
