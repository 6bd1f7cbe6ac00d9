/** `RunSQL`: raw SQL, with the SQL that undoes it. */
import type { SchemaEditor } from '../schemaEditor';
import { Operation, IrreversibleError, type Deconstructed } from './base';

/** A statement for `RunSQL`: SQL text, or SQL with bound parameters (`$1`, `$2`, ...). */
export type RawStatement = string | { sql: string; params?: unknown[] };

/** Options of `RunSQL`. */
export interface RunSqlOptions {
  sql: RawStatement | readonly RawStatement[];
  /** What undoes `sql`; without it the migration cannot be unapplied. Use `[]` for "nothing to undo". */
  reverseSql?: RawStatement | readonly RawStatement[];
}

function statements(value: RawStatement | readonly RawStatement[]): Array<{ sql: string; params: unknown[] }> {
  const list = Array.isArray(value) ? (value as readonly RawStatement[]) : [value as RawStatement];
  return list.map((s) => (typeof s === 'string' ? { sql: s, params: [] } : { sql: s.sql, params: s.params ?? [] }));
}

/** Runs SQL the framework does not generate (data fixes, vendor features). */
export class RunSQL extends Operation {
  constructor(readonly options: RunSqlOptions) {
    super();
  }

  override get reversible(): boolean {
    return this.options.reverseSql !== undefined;
  }

  describe(): string {
    return 'Raw SQL operation';
  }

  nameFragment(): string {
    return 'run_sql';
  }

  deconstruct(): Deconstructed {
    return { name: 'RunSQL', args: { ...this.options } };
  }

  stateForwards(): void {}

  databaseForwards(_app: string, editor: SchemaEditor): void {
    for (const s of statements(this.options.sql)) editor.execute(s.sql, s.params);
  }

  databaseBackwards(_app: string, editor: SchemaEditor): void {
    if (this.options.reverseSql === undefined) throw new IrreversibleError('RunSQL without reverseSql cannot be unapplied.');
    for (const s of statements(this.options.reverseSql)) editor.execute(s.sql, s.params);
  }
}
