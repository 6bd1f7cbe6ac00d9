/** `CreateModel`: a new model and its table (join tables of its many-to-many fields included). */
import { ModelState, type ModelOptions, type ProjectState } from '../state';
import { isManyToMany, type NamedField } from '../fieldSpec';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Options of `CreateModel`. */
export interface CreateModelOptions {
  /** The class name (`Snippet`). */
  name: string;
  /** The table (`@Table({ tableName })`). */
  table: string;
  /** Fields in declaration order. */
  fields: NamedField[];
  options?: ModelOptions;
}

/** Creates a model's table. */
export class CreateModel extends Operation {
  constructor(readonly options: CreateModelOptions) {
    super();
  }

  describe(): string {
    return `Create model ${this.options.name}`;
  }

  nameFragment(): string {
    return this.options.name.toLowerCase();
  }

  deconstruct(): Deconstructed {
    const { options, ...rest } = this.options;
    return { name: 'CreateModel', args: options && Object.keys(options).length ? { ...rest, options } : rest };
  }

  stateForwards(app: string, state: ProjectState): void {
    state.add(new ModelState(app, this.options.name, this.options.table, this.options.fields.map(([n, s]) => [n, { ...s }] as const), { ...this.options.options }));
  }

  databaseForwards(app: string, editor: SchemaEditor, _from: ProjectState, to: ProjectState): void {
    editor.createModel(to, to.get(app, this.options.name));
  }

  databaseBackwards(app: string, editor: SchemaEditor, from: ProjectState): void {
    editor.deleteModel(from, from.get(app, this.options.name));
  }

  override createdTables(app: string, state: ProjectState, editor: SchemaEditor): string[] {
    const model = state.get(app, this.options.name);
    const tables = [model.table];
    for (const [name, spec] of model.fields) if (isManyToMany(spec) && !spec.through) tables.push(editor.throughModel(state, model, name, spec).table);
    return tables;
  }
}
