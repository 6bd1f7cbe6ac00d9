/** `AlterModelOptions`: ordering and verbose names (no database change). */
import { ALTERABLE_OPTIONS, type ModelOptions, type ProjectState } from '../state';
import { Operation, type Deconstructed } from './base';

/** The options `AlterModelOptions` sets. */
export type AlterableOptions = Pick<ModelOptions, (typeof ALTERABLE_OPTIONS)[number]>;

/** Replaces a model's ordering / verbose names (options left out are removed). */
export class AlterModelOptions extends Operation {
  constructor(readonly options: { name: string; options: AlterableOptions }) {
    super();
  }

  describe(): string {
    return `Change Meta options on ${this.options.name.toLowerCase()}`;
  }

  nameFragment(): string {
    return `alter_${this.options.name.toLowerCase()}_options`;
  }

  deconstruct(): Deconstructed {
    return { name: 'AlterModelOptions', args: { ...this.options } };
  }

  stateForwards(app: string, state: ProjectState): void {
    const model = state.get(app, this.options.name);
    const options: ModelOptions = { ...model.options };
    for (const key of ALTERABLE_OPTIONS) delete options[key];
    state.add(model.clone({ options: { ...options, ...this.options.options } }));
  }

  databaseForwards(): void {}

  databaseBackwards(): void {}
}
