/**
 * The base class of migration operations (Django's `Operation`). An operation changes the
 * project state (`stateForwards`) and the database (`databaseForwards`/`databaseBackwards`,
 * through a schema editor); it describes itself for the `migrate` plan and `sqlmigrate`, and
 * deconstructs to the constructor call `makemigrations` writes.
 */
import type { SchemaEditor } from '../schemaEditor';
import type { ProjectState } from '../state';
import type { HistoricalApps } from '../historicalModels';

/** What the executor hands to operations besides the schema editor. */
export interface OperationContext {
  /** False under `sqlmigrate`: nothing runs, SQL is only collected. */
  live: boolean;
  /** The models as `state` describes them, bound to the connection (for `RunCode`). */
  historicalApps(state: ProjectState): HistoricalApps;
}

/** A constructor call: the class name and the one options argument. */
export interface Deconstructed {
  name: string;
  args: object;
}

/** One step of a migration. Subclass to write your own (override every abstract member). */
export abstract class Operation {
  /** False when the operation cannot be unapplied (`RunSQL`/`RunCode` without a reverse). */
  get reversible(): boolean {
    return true;
  }

  /** A line for the plan and `sqlmigrate` (`Create model Snippet`). */
  abstract describe(): string;

  /** The part of an automatic migration name this operation suggests (`snippet`, `book_isbn`). */
  abstract nameFragment(): string;

  /** The constructor call `makemigrations` writes. */
  abstract deconstruct(): Deconstructed;

  /** Apply the operation to the project state (`state` is changed in place). */
  abstract stateForwards(app: string, state: ProjectState): void;

  /** Queue (or run) what brings the database from `from` to `to`. */
  abstract databaseForwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState, context: OperationContext): Promise<void> | void;

  /** Undo `databaseForwards`: `from` is the state after the operation, `to` the one before. */
  abstract databaseBackwards(app: string, editor: SchemaEditor, from: ProjectState, to: ProjectState, context: OperationContext): Promise<void> | void;

  /** Tables this operation creates (`migrate --fake-initial` fakes a migration whose tables all exist). */
  createdTables(_app: string, _state: ProjectState, _editor: SchemaEditor): string[] {
    return [];
  }
}

/** Raised for an operation that does not fit the state (unknown model or field, no reverse). */
export class IrreversibleError extends Error {
  override name = 'IrreversibleError';
}
