/**
 * Migrations: every installed app's `migrationsDir` holds `NNNN_name.ts` files exporting
 * `up({ queryInterface, sequelize, Sequelize })`, optionally `down(...)`,
 * `dependencies = [['auth', '0001_initial']]`, `creates = ['auth_user', ...]` (tables the
 * migration creates; lets `--fake-initial` recognise a database Django already migrated) and
 * `atomic = false` (SQLite runs each migration in a transaction otherwise).
 *
 * Applied migrations are recorded in Django's own `django_migrations` table, so a database
 * migrated by Django is recognised. Runs go through umzug with a storage on that table.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as SequelizeModule from 'sequelize';
import { DataTypes, QueryTypes, type QueryInterface } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { Umzug, type UmzugStorage } from 'umzug';
import { apps, type AppConfig } from '../apps';
import { ImproperlyConfigured } from '../conf';
import { getConnectionState, usePrimary } from './connection';
import { atomic } from './transaction';

/** What a migration's `up`/`down` receive. */
export interface MigrationContext {
  queryInterface: QueryInterface;
  sequelize: Sequelize;
  /** The `sequelize` module (for `Sequelize.DataTypes`, `Sequelize.Op`, ...). */
  Sequelize: typeof SequelizeModule;
  /** `'sqlite'` or `'mysql'`. */
  vendor: 'sqlite' | 'mysql';
}

/** The shape of a migration module. */
export interface MigrationModule {
  up(context: MigrationContext): Promise<unknown> | unknown;
  down?(context: MigrationContext): Promise<unknown> | unknown;
  dependencies?: ReadonlyArray<readonly [string, string]>;
  creates?: readonly string[];
  initial?: boolean;
  atomic?: boolean;
}

/** One migration in the plan. */
export interface MigrationEntry {
  app: string;
  name: string;
  /** `app.name`, the umzug migration name. */
  key: string;
  file: string;
  module: MigrationModule;
  /** Keys this migration depends on (the previous one of its app included). */
  dependencies: string[];
  initial: boolean;
}

/** Raised for broken migration graphs (missing dependency, cycle). */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

const FILE_PATTERN = /^(\d{4}_\w+)\.(ts|js)$/;

function migrationFiles(dir: string): Array<{ name: string; file: string }> {
  if (!fs.existsSync(dir)) return [];
  const byName = new Map<string, string>();
  for (const entry of fs.readdirSync(dir).sort()) {
    const match = FILE_PATTERN.exec(entry);
    if (!match || entry.endsWith('.d.ts')) continue;
    if (!byName.has(match[1]) || entry.endsWith('.ts')) byName.set(match[1], path.join(dir, entry));
  }
  return [...byName].map(([name, file]) => ({ name, file }));
}

function loadModule(file: string): MigrationModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require(file) as MigrationModule & { default?: MigrationModule };
  const module = typeof loaded.up === 'function' ? loaded : loaded.default;
  if (!module || typeof module.up !== 'function') throw new MigrationError(`Migration ${file} does not export an up() function.`);
  return module;
}

/** The apps (of `configs`) that have a migrations folder. */
export function appsWithMigrations(configs: readonly AppConfig[] = apps.getAppConfigs()): AppConfig[] {
  return configs.filter((c) => c.migrationsDir && fs.existsSync(c.migrationsDir));
}

/**
 * Every migration of the installed apps, ordered so dependencies come first (apps in
 * INSTALLED_APPS order, files in name order within an app).
 */
export function loadMigrationPlan(configs: readonly AppConfig[] = apps.getAppConfigs()): MigrationEntry[] {
  const byApp = new Map<string, MigrationEntry[]>();
  for (const config of appsWithMigrations(configs)) {
    const entries: MigrationEntry[] = [];
    for (const { name, file } of migrationFiles(config.migrationsDir as string)) {
      const module = loadModule(file);
      const previous = entries[entries.length - 1];
      entries.push({
        app: config.label,
        name,
        key: `${config.label}.${name}`,
        file,
        module,
        dependencies: previous ? [previous.key] : [],
        initial: module.initial ?? !previous,
      });
    }
    byApp.set(config.label, entries);
  }
  const all = new Map<string, MigrationEntry>();
  for (const entries of byApp.values()) for (const e of entries) all.set(e.key, e);
  for (const entry of all.values()) {
    for (const [app, name] of entry.module.dependencies ?? []) {
      const list = byApp.get(app) ?? [];
      const target = name === '__first__' ? list[0] : name === '__latest__' ? list[list.length - 1] : list.find((e) => e.name === name);
      if (!target) {
        throw new MigrationError(`Migration ${entry.key} dependencies reference nonexistent parent node ('${app}', '${name}').`);
      }
      entry.dependencies.push(target.key);
    }
  }
  const ordered: MigrationEntry[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (entry: MigrationEntry): void => {
    const mark = state.get(entry.key);
    if (mark === 'done') return;
    if (mark === 'visiting') throw new MigrationError(`Circular dependency between migrations involving ${entry.key}.`);
    state.set(entry.key, 'visiting');
    for (const dependency of entry.dependencies) visit(all.get(dependency) as MigrationEntry);
    state.set(entry.key, 'done');
    ordered.push(entry);
  };
  for (const entries of byApp.values()) for (const entry of entries) visit(entry);
  return ordered;
}

const TABLE = 'django_migrations';

/** Django's migration recorder: the `django_migrations` table, as an umzug storage. */
export class DjangoMigrationStorage implements UmzugStorage<MigrationContext> {
  private ensured = false;

  constructor(private readonly sequelize: Sequelize) {}

  /** Create `django_migrations` when missing (Django's `ensure_schema`). */
  async ensureSchema(): Promise<void> {
    if (this.ensured) return;
    const qi = this.sequelize.getQueryInterface();
    const tables = (await qi.showAllTables()).map(String);
    if (!tables.includes(TABLE)) {
      const mysql = this.sequelize.getDialect() !== 'sqlite';
      await qi.createTable(TABLE, {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
        app: { type: DataTypes.STRING(255), allowNull: false },
        name: { type: DataTypes.STRING(255), allowNull: false },
        applied: { type: mysql ? DataTypes.DATE(6) : DataTypes.DATE, allowNull: false },
      });
    }
    this.ensured = true;
  }

  /** Record `app.name` as applied. */
  async logMigration({ name }: { name: string }): Promise<void> {
    await this.ensureSchema();
    const [app, migration] = splitKey(name);
    await this.sequelize.getQueryInterface().bulkInsert(TABLE, [{ app, name: migration, applied: new Date() }]);
  }

  /** Forget `app.name`. */
  async unlogMigration({ name }: { name: string }): Promise<void> {
    await this.ensureSchema();
    const [app, migration] = splitKey(name);
    await this.sequelize.getQueryInterface().bulkDelete(TABLE, { app, name: migration });
  }

  /** Every recorded `app.name` (apps this project does not know included). */
  async executed(): Promise<string[]> {
    await this.ensureSchema();
    const rows = await this.sequelize.query<{ app: string; name: string }>(
      `SELECT ${quote(this.sequelize, 'app')}, ${quote(this.sequelize, 'name')} FROM ${quote(this.sequelize, TABLE)}`,
      { type: QueryTypes.SELECT },
    );
    return rows.map((r) => `${r.app}.${r.name}`);
  }
}

function quote(sequelize: Sequelize, name: string): string {
  return sequelize.getQueryInterface().quoteIdentifier(name);
}

function splitKey(key: string): [string, string] {
  const dot = key.indexOf('.');
  return [key.slice(0, dot), key.slice(dot + 1)];
}

/** Options of `migrate()`. */
export interface MigrateOptions {
  /** Only this app (and what it depends on). */
  appLabel?: string;
  /** Migrate the app to this migration (name or unique prefix; `zero` unapplies all). */
  migrationName?: string;
  /** Record migrations as applied without running them. */
  fake?: boolean;
  /** Record initial migrations whose tables all exist as applied. */
  fakeInitial?: boolean;
  /** Where progress goes (Django's output); silent when omitted. */
  stdout?: { write(text: string): void };
  /** Skip the apps' `postMigrate` hooks. */
  skipPostMigrate?: boolean;
}

function contextFor(sequelize: Sequelize): MigrationContext {
  return {
    queryInterface: sequelize.getQueryInterface(),
    sequelize,
    Sequelize: SequelizeModule,
    vendor: sequelize.getDialect() === 'sqlite' ? 'sqlite' : 'mysql',
  };
}

function findMigration(plan: MigrationEntry[], app: string, name: string): MigrationEntry {
  const candidates = plan.filter((e) => e.app === app && (e.name === name || e.name.startsWith(name)));
  const exact = candidates.find((e) => e.name === name);
  if (exact) return exact;
  if (candidates.length > 1) throw new ImproperlyConfigured(`More than one migration matches '${name}' in app '${app}'. Please be more specific.`);
  if (!candidates.length) throw new ImproperlyConfigured(`Cannot find a migration matching '${name}' from app '${app}'.`);
  return candidates[0];
}

function withDependencies(plan: MigrationEntry[], targets: MigrationEntry[]): Set<string> {
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
  const storage = new DjangoMigrationStorage(sequelize);
  const context = contextFor(sequelize);
  const executed = new Set(await storage.executed());

  let targets = plan;
  let backwards: MigrationEntry[] = [];
  if (options.appLabel) {
    const config = apps.getAppConfig(options.appLabel);
    const own = plan.filter((e) => e.app === config.label);
    if (!own.length) throw new ImproperlyConfigured(`App '${config.label}' does not have migrations.`);
    let upTo = own;
    if (options.migrationName) {
      if (options.migrationName === 'zero') upTo = [];
      else {
        const target = findMigration(plan, config.label, options.migrationName);
        upTo = own.slice(0, own.indexOf(target) + 1);
      }
      const undo = own.slice(upTo.length).map((e) => e.key);
      // Unapply the app's later migrations and anything applied that depends on them.
      const doomed = new Set(undo);
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
    }
    const wanted = withDependencies(plan, upTo);
    targets = plan.filter((e) => wanted.has(e.key));
    out.write(`Operations to perform:\n`);
    out.write(
      options.migrationName
        ? `  Target specific migration: ${options.migrationName === 'zero' ? 'zero' : upTo[upTo.length - 1]?.name}, from ${config.label}\n`
        : `  Apply all migrations: ${config.label}\n`,
    );
  } else {
    out.write(`Operations to perform:\n`);
    out.write(`  Apply all migrations: ${[...new Set(plan.map((e) => e.app))].sort().join(', ') || '(none)'}\n`);
  }
  out.write('Running migrations:\n');

  const pending = targets.filter((e) => !executed.has(e.key));
  const applied: string[] = [];
  const unapplied: string[] = [];
  if (!pending.length && !backwards.length) out.write('  No migrations to apply.\n');

  for (const entry of backwards) {
    out.write(`  Unapplying ${entry.key}...`);
    if (!options.fake) {
      if (!entry.module.down) throw new MigrationError(`Migration ${entry.key} is not reversible (it has no down()).`);
      const down = entry.module.down.bind(entry.module);
      await runMaybeAtomic(context, entry, () => down(context));
    }
    await storage.unlogMigration({ name: entry.key });
    unapplied.push(entry.key);
    out.write(options.fake ? ' FAKED\n' : ' OK\n');
  }

  const byKey = new Map(plan.map((e) => [e.key, e]));
  const faked = new Set<string>();
  let tables: Set<string> | null = null;
  const umzug = new Umzug<MigrationContext>({
    migrations: pending.map((entry) => ({
      name: entry.key,
      path: entry.file,
      up: async () => {
        if (options.fake) {
          faked.add(entry.key);
          return;
        }
        if (options.fakeInitial && entry.initial && entry.module.creates?.length) {
          tables ??= new Set((await sequelize.getQueryInterface().showAllTables()).map((t) => String(t).toLowerCase()));
          const existing = tables;
          if (entry.module.creates.every((t) => existing.has(t.toLowerCase()))) {
            faked.add(entry.key);
            return;
          }
        }
        await runMaybeAtomic(context, entry, () => entry.module.up(context));
        tables = null;
      },
      down: async () => {
        await byKey.get(entry.key)?.module.down?.(context);
      },
    })),
    context,
    storage,
    logger: undefined,
  });
  umzug.on('migrating', ({ name }) => out.write(`  Applying ${name}...`));
  umzug.on('migrated', ({ name }) => {
    applied.push(name);
    out.write(faked.has(name) ? ' FAKED\n' : ' OK\n');
  });
  if (pending.length) await umzug.up({ migrations: pending.map((e) => e.key) });

  if (!options.skipPostMigrate) {
    for (const config of configs) await config.postMigrate?.();
  }
  return { applied, unapplied };
}

async function runMaybeAtomic(context: MigrationContext, entry: MigrationEntry, fn: () => unknown): Promise<void> {
  if (context.vendor === 'sqlite' && entry.module.atomic !== false) await atomic(async () => fn());
  else await fn();
}

/** Django's `showmigrations` listing: `app` then ` [X] 0001_initial` lines. */
export async function showMigrations(options: { appLabels?: string[]; stdout: { write(text: string): void } }): Promise<void> {
  const configs = apps.getAppConfigs();
  const selected = options.appLabels?.length ? options.appLabels.map((label) => apps.getAppConfig(label)) : appsWithMigrations(configs);
  const plan = loadMigrationPlan(configs);
  const { sequelize } = getConnectionState();
  const executed = new Set(await usePrimary(() => new DjangoMigrationStorage(sequelize).executed()));
  for (const config of [...selected].sort((a, b) => a.label.localeCompare(b.label))) {
    options.stdout.write(`${config.label}\n`);
    const entries = plan.filter((e) => e.app === config.label);
    if (!entries.length) options.stdout.write(' (no migrations)\n');
    for (const entry of entries) options.stdout.write(` [${executed.has(entry.key) ? 'X' : ' '}] ${entry.name}\n`);
  }
}
