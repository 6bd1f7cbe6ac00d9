/**
 * The app registry: every entry of `INSTALLED_APPS` names a folder whose `app.ts` default-exports
 * an `AppConfig`. Apps contribute models, migrations and management commands.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * An installed app is a module path in `INSTALLED_APPS` (`'api_framework.contrib.auth'`,
 * `'demo.snippets'`) whose folder has `app.ts` exporting `default` an `AppConfig`:
 * `{ label: 'auth', name?, path?, verboseName?, models?: ModelsDeclaration, migrationsDir?: string,
 *   commands?: string | (() => Record<string, CommandClass>), ready?: () => void,
 *   postMigrate?: () => Promise<void> }`. The registry fills in `name` (canonical spelling) and
 * `path` (the app folder); `migrationsDir` defaults to `<path>/migrations` when that folder
 * exists. `models` is the classes, a module path relative to the app folder (`'./models'`:
 * every model class it exports) or a function returning classes or a module; read it through
 * `appModels(config)`, never call it. `postMigrate` is Django's `post_migrate`, called after every
 * `migrate` run. `apps.populate()` loads them in
 * order (idempotent for the same list); `apps.getAppConfigs()`, `apps.getModels()`,
 * `apps.getAppConfig(label)`, `apps.reset()` (specs that change `INSTALLED_APPS`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { settings, ImproperlyConfigured } from './conf';
import { canonicalModulePath, importModule, moduleFile } from './modules';

/** A model class as the registry sees it (a sequelize-typescript model constructor). */
export type ModelClass = abstract new (...args: never[]) => object;

/**
 * How an app names its models: the classes themselves, a module path relative to the app's
 * folder (`'./models'`: every model class the module exports), or a function returning either
 * the classes or the module (`() => require('./models')`), called when the models are first
 * needed so that importing the app does not load the database layer.
 */
export type ModelsDeclaration = readonly ModelClass[] | string | (() => readonly ModelClass[] | Record<string, unknown>);

/** A management command class (see `lib/core/management.ts`). */
export type CommandClass = new (...args: never[]) => object;

/** What an installed app declares about itself. */
export interface AppConfig {
  /** Short unique name, used in `django_migrations.app` and permission codenames (`auth`). */
  label: string;
  /**
   * The app's dotted module path, filled in by the registry from INSTALLED_APPS in its
   * canonical spelling (`api_framework.contrib.auth` also when listed as `contrib.auth`).
   */
  name?: string;
  /** The app's folder; filled in by the registry. */
  path?: string;
  /** Human-readable name. */
  verboseName?: string;
  /** The models this app defines (see `ModelsDeclaration`); read after all apps are imported. */
  models?: ModelsDeclaration;
  /**
   * Folder of migration files (`0001_initial.ts`, ...); default: the app folder's `migrations/`
   * when it exists (an app without one has no migrations).
   */
  migrationsDir?: string;
  /**
   * Management commands contributed by the app: a folder relative to the app's folder
   * (`'./commands'`: every `<name>.ts` in it default-exports the command `<name>`, loaded when
   * run, as the core commands are), or a function returning the classes by command name.
   */
  commands?: string | (() => Record<string, CommandClass>);
  /** Called once every app is loaded (connect signals here). */
  ready?: () => void;
  /**
   * Called after every `migrate` run (Django's `post_migrate` signal), in INSTALLED_APPS
   * order, whether or not migrations were applied: create default rows here.
   */
  postMigrate?: () => Promise<void>;
}

/** The registry of installed apps, populated once from `settings.INSTALLED_APPS`. */
export class Apps {
  private configs: AppConfig[] = [];
  private populatedFor: string | null = null;
  private readonly listeners = new Set<() => void>();

  /**
   * Call `listener` whenever the registry is loaded anew or reset (caches of what the apps
   * declare, such as the models bound to the database connection, drop their answer).
   * Returns a function that removes the listener.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Load every installed app (idempotent for the same INSTALLED_APPS). */
  populate(installedApps: string[] = settings.INSTALLED_APPS): void {
    const key = installedApps.join(',');
    if (this.populatedFor === key) return;
    const configs: AppConfig[] = [];
    const labels = new Set<string>();
    for (const listed of installedApps) {
      const name = canonicalModulePath(listed);
      let mod: Record<string, unknown>;
      try {
        mod = importModule(`${listed}.app`);
      } catch (error) {
        throw new ImproperlyConfigured(
          `INSTALLED_APPS lists '${listed}', but '${listed}.app' could not be imported: ${(error as Error).message.split('\n')[0]}`,
        );
      }
      const config = (mod.default ?? mod.appConfig) as AppConfig | undefined;
      if (!config || typeof config.label !== 'string') {
        throw new ImproperlyConfigured(`'${listed}.app' (${moduleFile(`${listed}.app`)}) must default-export an AppConfig with a 'label'.`);
      }
      if (labels.has(config.label)) {
        throw new ImproperlyConfigured(`Application labels aren't unique, duplicates: ${config.label}`);
      }
      labels.add(config.label);
      const folder = path.dirname(moduleFile(`${listed}.app`));
      const defaultMigrations = path.join(folder, 'migrations');
      const migrationsDir = config.migrationsDir ?? (fs.existsSync(defaultMigrations) ? defaultMigrations : undefined);
      configs.push({ ...config, name, path: folder, migrationsDir });
    }
    this.configs = configs;
    this.populatedFor = key;
    this.changed();
    for (const config of configs) config.ready?.();
  }

  /** Forget the loaded apps (tests that change INSTALLED_APPS call this). */
  reset(): void {
    this.configs = [];
    this.populatedFor = null;
    this.changed();
  }

  /** The installed apps' configs, in INSTALLED_APPS order. */
  getAppConfigs(): readonly AppConfig[] {
    this.populate();
    return this.configs;
  }

  /** The config of the app with this label; throws when it is not installed. */
  getAppConfig(label: string): AppConfig {
    const config = this.getAppConfigs().find((c) => c.label === label);
    if (!config) throw new ImproperlyConfigured(`No installed app with label '${label}'.`);
    return config;
  }

  /** True when an app with this label (or dotted name, in any spelling) is installed. */
  isInstalled(labelOrName: string): boolean {
    const name = canonicalModulePath(labelOrName);
    return this.getAppConfigs().some((c) => c.label === labelOrName || c.name === name);
  }

  /** Every model of every installed app. */
  getModels(): ModelClass[] {
    return this.getAppConfigs().flatMap((c) => appModels(c));
  }
}

/** True for a model class (a class with sequelize-typescript's model methods). */
function isModelClass(value: unknown): value is ModelClass {
  return typeof value === 'function' && typeof (value as { getAttributes?: unknown }).getAttributes === 'function';
}

/** True for a join-table model bound through its relations (`static autoCreated = true`). */
function isAutoCreated(model: ModelClass): boolean {
  return 'autoCreated' in model && model.autoCreated === true;
}

/**
 * The model classes a module exports (its default export and named exports, once each), in
 * export order. Auto-created join-table models are left out, as Django's `get_models()` leaves
 * them out: they are bound through the relations that name them.
 */
function modelsOfModule(mod: Record<string, unknown>): ModelClass[] {
  return [...new Set(Object.values(mod).filter(isModelClass))].filter((model) => !isAutoCreated(model));
}

/**
 * The model classes an app declares (see `ModelsDeclaration`), in declaration order. A module
 * path resolves from the app's folder.
 */
export function appModels(config: AppConfig): ModelClass[] {
  const declared = config.models;
  if (declared === undefined) return [];
  if (typeof declared === 'string') {
    const folder = config.path ?? '.';
    const file = path.resolve(folder, declared);
    let mod: Record<string, unknown>;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      mod = require(file) as Record<string, unknown>;
    } catch (error) {
      throw new ImproperlyConfigured(`The models module '${declared}' of app '${config.label}' (${file}) could not be imported: ${(error as Error).message.split('\n')[0]}`);
    }
    return modelsOfModule(mod);
  }
  if (typeof declared === 'function') {
    const result = declared();
    if (result instanceof Promise) {
      throw new ImproperlyConfigured(`The models of app '${config.label}' must be returned synchronously (got a Promise): use models: './models'.`);
    }
    return Array.isArray(result) ? [...(result as readonly ModelClass[])] : modelsOfModule(result as Record<string, unknown>);
  }
  return [...declared];
}

/** The process-wide app registry. */
export const apps = new Apps();
