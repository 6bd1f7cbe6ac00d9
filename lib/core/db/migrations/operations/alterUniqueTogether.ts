/** `AlterUniqueTogether`: change `meta.uniqueTogether` (unique indexes over several columns). */
import type { ProjectState } from '../state';
import type { SchemaEditor } from '../schemaEditor';
import { Operation, type Deconstructed } from './base';

/** Sets a model's unique-together field sets (an empty list removes them all). */
export class AlterUniqueTogether extends Operation {
  constructor(readonly options: { name: string; uniqueTogether: ReadonlyArray<readonly string[]> }) {
    super();
  }

  describe(): string {
    return `Alter unique_together for ${this.options.name.toLowerCase()} (${this.options.uniqueTogether.length} constraint(s))`;
  }

  nameFragment(): string {
    return `alter_${this.options.name.toLowerCase()}_unique_together`;
  }

  deconstruct(): Deconstructed {
    return { name: 'AlterUniqueTogether', args: { ...this.options } };
  }

  stateForwards(app: string, state: ProjectState): void {
    const model = state.get(app, this.options.name);
    const options = { ...model.options, uniqueTogether: this.options.uniqueTogether.map((s) => [...s]) };
    if (!options.uniqueTogether.length) delete (options as { uniqueTogether?: unknown }).uniqueTogether;
    state.add(model.clone({ options }));
  }

  databaseForwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    const before = from.get(app, this.options.name);
    const after = to.get(app, this.options.name);
    editor.alterUniqueTogether(after, before.options.uniqueTogether ?? [], after.options.uniqueTogether ?? []);
  }

  databaseBackwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState): void {
    this.databaseForwards(app, editor, from, to);
  }
}
