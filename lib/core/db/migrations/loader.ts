/**
 * Finding and ordering migrations: every installed app's `migrationsDir` holds
 * `NNNN_name.ts` files. A declarative migration exports `operations` (and `dependencies`,
 * `initial`); a hand-written one exports `up(context)` / `down(context)` (and `creates`, the
 * tables `--fake-initial` looks for). `atomic = false` opts out of the per-migration
 * transaction.
 *
 * A migration depends on the ones its `dependencies` name; one naming no migration of its own
 * app also depends on the previous file of its app.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { QueryInterface } from 'sequelize';
import type * as SequelizeModule from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { apps, type AppConfig } from '../../apps';
import { settings } from '../../conf';
import type { Operation } from './operations/base';
import { ProjectState } from './state';

/** What a hand-written migration's `up`/`down` receive. */
export interface MigrationContext {
  queryInterface: QueryInterface;
  sequelize: Sequelize;
  /** The `sequelize` module (for `Sequelize.DataTypes`, `Sequelize.Op`, ...). */
  Sequelize: typeof SequelizeModule;
  /** `'sqlite'` or `'mysql'`. */
  vendor: 'sqlite' | 'mysql';
}

/** A dependency: `[appLabel, migrationName]` (`'__first__'` / `'__latest__'` allowed). */
export type MigrationDependency = readonly [string, string];

/** The shape of a migration module. */
export interface MigrationModule {
  /** Declarative migrations: the operations, in order. */
  operations?: readonly Operation[];
  /** Hand-written migrations: apply. */
  up?(context: MigrationContext): Promise<unknown> | unknown;
  /** Hand-written migrations: unapply. */
  down?(context: MigrationContext): Promise<unknown> | unknown;
  dependencies?: readonly MigrationDependency[];
  /** Hand-written migrations: the tables `up` creates (for `--fake-initial`). */
  creates?: readonly string[];
  initial?: boolean;
  atomic?: boolean;
}

/** One migration in the plan. */
export interface MigrationEntry {
  app: string;
  name: string;
  /** `app.name`. */
  key: string;
  file: string;
  module: MigrationModule;
  /** Keys this migration depends on (the previous one of its app included). */
  dependencies: string[];
  initial: boolean;
}

/** Raised for broken migration graphs (missing dependency, cycle) and failed migrations. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

const FILE_PATTERN = /^(\d{4}_\w+)\.(ts|js)$/;

/** The migration files of a folder, by name (`.ts` preferred over a compiled `.js`). */
export function migrationFiles(dir: string): Array<{ name: string; file: string }> {
  if (!fs.existsSync(dir)) return [];
  const byName = new Map<string, string>();
  for (const entry of fs.readdirSync(dir).sort()) {
    const match = FILE_PATTERN.exec(entry);
    if (!match || entry.endsWith('.d.ts')) continue;
    if (!byName.has(match[1]) || entry.endsWith('.ts')) byName.set(match[1], path.join(dir, entry));
  }
  return [...byName].map(([name, file]) => ({ name, file }));
}

const loadedFiles = new Map<string, number>();

function loadModule(file: string): MigrationModule {
  // A file changed since it was loaded (makemigrations wrote it, an editor saved it) is read again.
  const mtime = fs.statSync(file).mtimeMs;
  const resolved = require.resolve(file);
  if (loadedFiles.get(resolved) !== mtime) delete require.cache[resolved];
  loadedFiles.set(resolved, mtime);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require(resolved) as MigrationModule & { default?: MigrationModule };
  const module = Array.isArray(loaded.operations) || typeof loaded.up === 'function' ? loaded : loaded.default;
  if (!module || !(Array.isArray(module.operations) || typeof module.up === 'function')) {
    throw new MigrationError(`Migration ${file} exports neither 'operations' nor an up() function.`);
  }
  return module;
}

/**
 * The dependency on the app of a swappable model setting (`AUTH_USER_MODEL`): its first
 * migration, whichever app the project points the setting at.
 */
export function swappableDependency(setting: 'AUTH_USER_MODEL'): MigrationDependency {
  const value = settings[setting];
  return [value.slice(0, value.indexOf('.')), '__first__'];
}

/** The value of a swappable model setting (`to: swappableSetting('AUTH_USER_MODEL')`). */
export function swappableSetting(setting: 'AUTH_USER_MODEL'): string {
  return settings[setting];
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
      const namesOwnApp = (module.dependencies ?? []).some(([app]) => app === config.label);
      entries.push({
        app: config.label,
        name,
        key: `${config.label}.${name}`,
        file,
        module,
        dependencies: previous && !namesOwnApp ? [previous.key] : [],
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
      const target = name === '__first__' ? list[0] : name === '__latest__' ? leafOf(list) : list.find((e) => e.name === name);
      if (!target) {
        throw new MigrationError(`Migration ${entry.key} dependencies reference nonexistent parent node ('${app}', '${name}').`);
      }
      if (!entry.dependencies.includes(target.key)) entry.dependencies.push(target.key);
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

function leafOf(list: MigrationEntry[]): MigrationEntry | undefined {
  return list[list.length - 1];
}

/** The migrations of `app` no other migration of that app depends on (more than one: a conflict to merge). */
export function leafMigrations(plan: readonly MigrationEntry[], app: string): MigrationEntry[] {
  const own = plan.filter((e) => e.app === app);
  const parents = new Set(own.flatMap((e) => e.dependencies));
  return own.filter((e) => !parents.has(e.key));
}

/** Apply the operations of `entry` to `state` (hand-written migrations change nothing). */
export function applyToState(entry: MigrationEntry, state: ProjectState): void {
  for (const operation of entry.module.operations ?? []) operation.stateForwards(entry.app, state);
}

/** The project state after every migration of the plan (or only those `include` accepts). */
export function projectState(plan: readonly MigrationEntry[], include: (entry: MigrationEntry) => boolean = () => true): ProjectState {
  const state = new ProjectState();
  for (const entry of plan) if (include(entry)) applyToState(entry, state);
  return state;
}
