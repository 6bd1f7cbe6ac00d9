/** `RunCode`: TypeScript run as a migration step, given the models as they were then. */
import type { ProjectState } from '../state';
import type { SchemaEditor } from '../schemaEditor';
import type { HistoricalApps } from '../historicalModels';
import { Operation, IrreversibleError, type Deconstructed, type OperationContext } from './base';

/** A `RunCode` function: receives the historical models (`apps.getModel('books', 'Book')`). */
export type MigrationCode = (apps: HistoricalApps, editor: SchemaEditor) => Promise<void> | void;

/** Options of `RunCode`. */
export interface RunCodeOptions {
  code: MigrationCode;
  /** What undoes `code`; without it the migration cannot be unapplied. */
  reverseCode?: MigrationCode;
}

/** Runs a function (data migrations) inside the migration's transaction where the engine has one. */
export class RunCode extends Operation {
  /** A `reverseCode` that does nothing (the step needs no undoing). */
  static noop: MigrationCode = () => undefined;

  constructor(readonly options: RunCodeOptions) {
    super();
  }

  override get reversible(): boolean {
    return this.options.reverseCode !== undefined;
  }

  describe(): string {
    return 'Raw code operation';
  }

  nameFragment(): string {
    return 'run_code';
  }

  deconstruct(): Deconstructed {
    throw new Error('RunCode cannot be written by makemigrations: write it into a migration by hand (makemigrations --empty).');
  }

  stateForwards(): void {}

  async databaseForwards(_app: string, editor: SchemaEditor, from: ProjectState, _to: ProjectState, context: OperationContext): Promise<void> {
    if (context.live) await this.options.code(context.historicalApps(from), editor);
    else editor.execute('-- (RunCode: a TypeScript function, no SQL to show)');
  }

  async databaseBackwards(_app: string, editor: SchemaEditor, _from: ProjectState, to: ProjectState, context: OperationContext): Promise<void> {
    if (!this.options.reverseCode) throw new IrreversibleError('RunCode without reverseCode cannot be unapplied.');
    if (context.live) await this.options.reverseCode(context.historicalApps(to), editor);
    else editor.execute('-- (RunCode: a TypeScript function, no SQL to show)');
  }
}
