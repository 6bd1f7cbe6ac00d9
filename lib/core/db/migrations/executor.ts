/**
 * Running migrations (Django's `MigrationExecutor` and the `migrate`, `showmigrations` and
 * `sqlmigrate` commands): forwards and backwards, one transaction per migration on SQLite
 * (with foreign-key enforcement off while tables are rebuilt, and checked before commit);
 * MySQL DDL commits statement by statement, which the plan output says.
 */
import * as SequelizeModule from 'sequelize';
import { QueryTypes } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { apps } from '../../apps';
import { ImproperlyConfigured } from '../../conf';
import { getConnectionState, usePrimary } from '../connection';
import { atomic } from '../transaction';
import { buildHistoricalApps, type HistoricalApps } from './historicalModels';
import { appsWithMigrations, loadMigrationPlan, MigrationError, type MigrationContext, type MigrationEntry } from './loader';
import { MysqlSchemaEditor } from './mysqlSchemaEditor';
import type { OperationContext } from './operations/base';
import { MigrationRecorder } from './recorder';
import type { SchemaEditor, Statement } from './schemaEditor';
import { SqliteSchemaEditor } from './sqliteSchemaEditor';
import { ProjectState } from './state';

/** Where command output goes. */
export interface Output {
  write(text: string): void;
}

/** Options of `migrate()`. */
export interface MigrateOptions {
  /** Only this app (and what it depends on). */
  appLabel?: string;
  /** Migrate the app to this migration (name or unique prefix; `zero` unapplies all). */
  migrationName?: string;
  /** Record migrations as applied (or unapplied) without running them. */
  fake?: boolean;
  /** Record initial migrations whose tables all exist as applied. */
  fakeInitial?: boolean;
  /** Where progress goes (Django's output); silent when omitted. */
  stdout?: Output;
  /** Skip the apps' `postMigrate` hooks. */
  skipPostMigrate?: boolean;
}

/** A schema editor for the engine (`sqlite` or `mysql`). */
export function createSchemaEditor(vendor: 'sqlite' | 'mysql'): SchemaEditor {
  return vendor === 'sqlite' ? new SqliteSchemaEditor() : new MysqlSchemaEditor();
}

function vendorOf(sequelize: Sequelize): 'sqlite' | 'mysql' {
  return sequelize.getDialect() === 'sqlite' ? 'sqlite' : 'mysql';
}

/** The state before each migration of the plan, by key. */
function statesBefore(plan: readonly MigrationEntry[]): Map<string, ProjectState> {
  const states = new Map<string, ProjectState>();
  let state = new ProjectState();
  for (const entry of plan) {
    states.set(entry.key, state);
    if (entry.module.operations?.length) {
      state = state.clone();
      for (const operation of entry.module.operations) operation.stateForwards(entry.app, state);
    }
  }
  return states;
}

/** The migration of `app` named `name` or starting with it. */
export function findMigration(plan: readonly MigrationEntry[], app: string, name: string): MigrationEntry {
  const candidates = plan.filter((e) => e.app === app && (e.name === name || e.name.startsWith(name)));
  const exact = candidates.find((e) => e.name === name);
  if (exact) return exact;
  if (candidates.length > 1) throw new ImproperlyConfigured(`More than one migration matches '${name}' in app '${app}'. Please be more specific.`);
  if (!candidates.length) throw new ImproperlyConfigured(`Cannot find a migration matching '${name}' from app '${app}'.`);
  return candidates[0];
}

function ancestors(plan: readonly MigrationEntry[], targets: readonly MigrationEntry[]): Set<string> {
  const byKey = new Map(plan.map((e) => [e.key, e]));
  const wanted = new Set<string>();
  const add = (entry: MigrationEntry): void => {
    if (wanted.has(entry.key)) return;
    wanted.add(entry.key);
    for (const d of entry.dependencies) add(byKey.get(d) as MigrationEntry);
  };
  targets.forEach(add);
  return wanted;
}

interface SqliteHandle {
  run(sql: string, callback: (error: Error | null) => void): void;
}

/** True for a raw sqlite3 `Database` (what the SQLite connection manager hands out). */
function isSqliteHandle(value: object): value is SqliteHandle {
  return 'run' in value && typeof value.run === 'function';
}

function runOn(handle: SqliteHandle, sql: string): Promise<void> {
  return new Promise((resolve, reject) => handle.run(sql, (error) => (error ? reject(error) : resolve())));
}

/**
 * Run `fn` with SQLite's foreign-key enforcement off on every connection it uses (a table
 * rebuild drops and renames tables other tables point at), as Django's SQLite schema editor
 * does; enforcement is back on afterwards.
 */
async function withSqliteForeignKeysOff<T>(sequelize: Sequelize, fn: () => Promise<T>): Promise<T> {
  const manager = sequelize.connectionManager;
  const original = manager.getConnection;
  const touched = new Set<SqliteHandle>();
  manager.getConnection = async (options) => {
    const handle = await original.call(manager, options);
    if (isSqliteHandle(handle) && !touched.has(handle)) {
      touched.add(handle);
      await runOn(handle, 'PRAGMA foreign_keys = OFF');
    }
    return handle;
  };
  try {
    return await fn();
  } finally {
    manager.getConnection = original;
    for (const handle of touched) await runOn(handle, 'PRAGMA foreign_keys = ON').catch(() => undefined);
  }
}

/** Runs the statements a schema editor queued. */
async function runStatements(sequelize: Sequelize, statements: Statement[]): Promise<void> {
  for (const statement of statements) {
    if (statement.sql.startsWith('--')) continue;
    try {
      await sequelize.query(statement.sql, statement.params.length ? { bind: statement.params } : {});
    } catch (error) {
      const cause = error as Error & { parent?: Error; original?: Error };
      const message = cause.message || cause.parent?.message || cause.original?.message || String(error);
      throw new MigrationError(`${message}\n  while running: ${displaySql(sequelize, statement)}`, { cause: error });
    }
  }
}

function hasOperations(entry: MigrationEntry): boolean {
  return Array.isArray(entry.module.operations);
}

class Runner {
  readonly vendor: 'sqlite' | 'mysql';
  private readonly released: Array<() => void> = [];

  constructor(
    readonly sequelize: Sequelize,
    private readonly states: Map<string, ProjectState>,
  ) {
    this.vendor = vendorOf(sequelize);
  }

  private context(): OperationContext {
    return {
      live: true,
      historicalApps: (state: ProjectState): HistoricalApps => {
        const built = buildHistoricalApps(this.sequelize, state);
        this.released.push(() => built.release());
        return built;
      },
    };
  }

  private legacyContext(): MigrationContext {
    return { queryInterface: this.sequelize.getQueryInterface(), sequelize: this.sequelize, Sequelize: SequelizeModule, vendor: this.vendor };
  }

  /** Run `fn` as one unit: a transaction (plus the recorder write) where the engine allows. */
  private async unit(entry: MigrationEntry, fn: () => Promise<void>): Promise<void> {
    try {
      if (this.vendor !== 'sqlite') {
        await fn();
        return;
      }
      await withSqliteForeignKeysOff(this.sequelize, async () => {
        const body = async (): Promise<void> => {
          await fn();
          const violations = await this.sequelize.query<Record<string, unknown>>('PRAGMA foreign_key_check', { type: QueryTypes.SELECT });
          if (violations.length) {
            const first = violations[0];
            throw new MigrationError(`Migration ${entry.key} leaves rows of ${String(first.table)} pointing at missing rows of ${String(first.parent)}.`);
          }
        };
        if (entry.module.atomic === false) await body();
        else await atomic(body);
      });
    } finally {
      for (const release of this.released.splice(0)) release();
    }
  }

  async apply(entry: MigrationEntry, record: () => Promise<void>): Promise<void> {
    await this.unit(entry, async () => {
      if (hasOperations(entry)) {
        const editor = createSchemaEditor(this.vendor);
        let state = this.states.get(entry.key) as ProjectState;
        const context = this.context();
        for (const operation of entry.module.operations ?? []) {
          const next = state.clone();
          operation.stateForwards(entry.app, next);
          await operation.databaseForwards(entry.app, editor, state, next, context);
          await runStatements(this.sequelize, editor.drain());
          state = next;
        }
      } else {
        await entry.module.up?.(this.legacyContext());
      }
      await record();
    });
  }

  async unapply(entry: MigrationEntry, record: () => Promise<void>): Promise<void> {
    if (hasOperations(entry)) {
      const irreversible = (entry.module.operations ?? []).find((o) => !o.reversible);
      if (irreversible) throw new MigrationError(`Operation '${irreversible.describe()}' in ${entry.key} is not reversible.`);
    } else if (!entry.module.down) {
      throw new MigrationError(`Migration ${entry.key} is not reversible (it has no down()).`);
    }
    await this.unit(entry, async () => {
      if (hasOperations(entry)) {
        const operations = entry.module.operations ?? [];
        const states = [this.states.get(entry.key) as ProjectState];
        for (const operation of operations) {
          const next = states[states.length - 1].clone();
          operation.stateForwards(entry.app, next);
          states.push(next);
        }
        const editor = createSchemaEditor(this.vendor);
        const context = this.context();
        for (let i = operations.length - 1; i >= 0; i--) {
          await operations[i].databaseBackwards(entry.app, editor, states[i + 1], states[i], context);
          await runStatements(this.sequelize, editor.drain());
        }
      } else {
        await entry.module.down?.(this.legacyContext());
      }
      await record();
    });
  }

  /** The tables an initial migration creates (declared `creates`, or its CreateModel operations). */
  createdTables(entry: MigrationEntry): string[] {
    if (!hasOperations(entry)) return [...(entry.module.creates ?? [])];
    const editor = createSchemaEditor(this.vendor);
    let state = this.states.get(entry.key) as ProjectState;
    const tables: string[] = [];
    for (const operation of entry.module.operations ?? []) {
      const next = state.clone();
      operation.stateForwards(entry.app, next);
      tables.push(...operation.createdTables(entry.app, next, editor));
      state = next;
    }
    return tables;
  }
}

/**
 * Apply (or, with `migrationName`, also unapply) migrations like Django's `migrate`; prints
 * `Applying auth.0001_initial... OK`. Calls each app's `postMigrate` hook afterwards.
 * Returns the keys applied/unapplied.
 */
export function migrate(options: MigrateOptions = {}): Promise<{ applied: string[]; unapplied: string[] }> {
  // With read replicas, the recorded migrations and everything post-migrate hooks read come from the primary.
  return usePrimary(() => migrateOnPrimary(options));
}

async function migrateOnPrimary(options: MigrateOptions): Promise<{ applied: string[]; unapplied: string[] }> {
  const out = options.stdout ?? { write: () => undefined };
  const configs = apps.getAppConfigs();
  const plan = loadMigrationPlan(configs);
  const { sequelize } = getConnectionState();
  const recorder = new MigrationRecorder(sequelize);
  const executed = new Set(await recorder.applied());

  let wanted = new Set(plan.map((e) => e.key));
  let backwards: MigrationEntry[] = [];
  out.write('Operations to perform:\n');
  if (options.appLabel) {
    const config = apps.getAppConfig(options.appLabel);
    const own = plan.filter((e) => e.app === config.label);
    if (!own.length) throw new ImproperlyConfigured(`App '${config.label}' does not have migrations.`);
    if (options.migrationName) {
      const target = options.migrationName === 'zero' ? null : findMigration(plan, config.label, options.migrationName);
      const keep = target ? ancestors(plan, [target]) : new Set<string>();
      // Unapply the app's migrations past the target, and anything applied that depends on them.
      const doomed = new Set(own.filter((e) => !keep.has(e.key)).map((e) => e.key));
      let grew = true;
      while (grew) {
        grew = false;
        for (const entry of plan) {
          if (!doomed.has(entry.key) && entry.dependencies.some((d) => doomed.has(d))) {
            doomed.add(entry.key);
            grew = true;
          }
        }
      }
      backwards = plan.filter((e) => doomed.has(e.key) && executed.has(e.key)).reverse();
      wanted = keep;
      out.write(`  Target specific migration: ${target ? target.name : 'zero'}, from ${config.label}\n`);
    } else {
      wanted = ancestors(plan, own);
      out.write(`  Apply all migrations: ${config.label}\n`);
    }
  } else {
    out.write(`  Apply all migrations: ${[...new Set(plan.map((e) => e.app))].sort().join(', ') || '(none)'}\n`);
  }
  const pending = plan.filter((e) => wanted.has(e.key) && !executed.has(e.key));
  const runner = new Runner(sequelize, statesBefore(plan));
  if (runner.vendor === 'mysql' && !options.fake && (pending.length || backwards.length)) {
    out.write('  Note: MySQL DDL is not transactional; each statement commits, so a migration that fails midway stays partly applied.\n');
  }
  out.write('Running migrations:\n');
  const applied: string[] = [];
  const unapplied: string[] = [];
  if (!pending.length && !backwards.length) out.write('  No migrations to apply.\n');

  for (const entry of backwards) {
    out.write(`  Unapplying ${entry.key}...`);
    if (options.fake) await recorder.recordUnapplied(entry.key);
    else await runner.unapply(entry, () => recorder.recordUnapplied(entry.key));
    unapplied.push(entry.key);
    out.write(options.fake ? ' FAKED\n' : ' OK\n');
  }

  let tables: Set<string> | null = null;
  for (const entry of pending) {
    out.write(`  Applying ${entry.key}...`);
    let fake = Boolean(options.fake);
    if (!fake && options.fakeInitial && entry.initial) {
      const created = runner.createdTables(entry);
      tables ??= new Set((await sequelize.getQueryInterface().showAllTables()).map((t) => String(t).toLowerCase()));
      const existing = tables;
      fake = created.length > 0 && created.every((t) => existing.has(t.toLowerCase()));
    }
    if (fake) await recorder.recordApplied(entry.key);
    else {
      await runner.apply(entry, () => recorder.recordApplied(entry.key));
      tables = null;
    }
    applied.push(entry.key);
    out.write(fake ? ' FAKED\n' : ' OK\n');
  }

  if (!options.skipPostMigrate) {
    for (const config of configs) await config.postMigrate?.();
  }
  return { applied, unapplied };
}

/** Django's `showmigrations` listing: `app` then ` [X] 0001_initial` lines. */
export async function showMigrations(options: { appLabels?: string[]; stdout: Output }): Promise<void> {
  const configs = apps.getAppConfigs();
  const selected = options.appLabels?.length ? options.appLabels.map((label) => apps.getAppConfig(label)) : appsWithMigrations(configs);
  const plan = loadMigrationPlan(configs);
  const { sequelize } = getConnectionState();
  const executed = new Set(await usePrimary(() => new MigrationRecorder(sequelize).applied()));
  for (const config of [...selected].sort((a, b) => a.label.localeCompare(b.label))) {
    options.stdout.write(`${config.label}\n`);
    const entries = plan.filter((e) => e.app === config.label);
    if (!entries.length) options.stdout.write(' (no migrations)\n');
    for (const entry of entries) options.stdout.write(` [${executed.has(entry.key) ? 'X' : ' '}] ${entry.name}\n`);
  }
}

/** A statement with its bound parameters written in as literals (for display only). */
export function displaySql(sequelize: Sequelize, statement: Statement): string {
  if (statement.sql.startsWith('--')) return statement.sql;
  const sql = statement.sql.replace(/\$(\d+)/g, (whole, n: string) => {
    const index = Number(n) - 1;
    return index < statement.params.length ? sequelize.escape(statement.params[index] as string) : whole;
  });
  return `${sql};`;
}

/**
 * The SQL of one migration (Django's `sqlmigrate`), forwards or backwards, wrapped in
 * BEGIN/COMMIT where the engine runs it in a transaction.
 */
export function sqlMigrate(options: { appLabel: string; migrationName: string; backwards?: boolean }): Promise<string> {
  return usePrimary(async () => {
    const config = apps.getAppConfig(options.appLabel);
    const plan = loadMigrationPlan();
    const entry = findMigration(plan, config.label, options.migrationName);
    if (!hasOperations(entry)) throw new MigrationError(`${entry.key} is a hand-written migration (up/down): sqlmigrate can only show declarative migrations.`);
    const { sequelize } = getConnectionState();
    const editor = createSchemaEditor(vendorOf(sequelize));
    const context: OperationContext = {
      live: false,
      historicalApps: () => {
        throw new MigrationError('No models under sqlmigrate.');
      },
    };
    const operations = entry.module.operations ?? [];
    const states = [statesBefore(plan).get(entry.key) as ProjectState];
    for (const operation of operations) {
      const next = states[states.length - 1].clone();
      operation.stateForwards(entry.app, next);
      states.push(next);
    }
    const lines: string[] = [];
    const atomicRun = editor.atomicDdl && entry.module.atomic !== false;
    if (atomicRun) lines.push('BEGIN;');
    const order = options.backwards ? operations.map((_, i) => operations.length - 1 - i) : operations.map((_, i) => i);
    for (const i of order) {
      const operation = operations[i];
      lines.push('--', `-- ${operation.describe()}`, '--');
      if (options.backwards) {
        if (!operation.reversible) throw new MigrationError(`Operation '${operation.describe()}' in ${entry.key} is not reversible.`);
        await operation.databaseBackwards(entry.app, editor, states[i + 1], states[i], context);
      } else await operation.databaseForwards(entry.app, editor, states[i], states[i + 1], context);
      for (const statement of editor.drain()) lines.push(displaySql(sequelize, statement));
    }
    if (atomicRun) lines.push('COMMIT;');
    return `${lines.join('\n')}\n`;
  });
}
