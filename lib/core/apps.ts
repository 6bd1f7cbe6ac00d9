/**
 * The app registry: every entry of `INSTALLED_APPS` names a folder whose `app.ts` default-exports
 * an `AppConfig`. Apps contribute models, migrations and management commands.
 */
import { settings, ImproperlyConfigured } from './conf';
import { importModule } from './modules';

/** A model class as the registry sees it (a sequelize-typescript model constructor). */
export type ModelClass = abstract new (...args: never[]) => object;

/** A management command class (see `lib/core/management.ts`). */
export type CommandClass = new (...args: never[]) => object;

/** What an installed app declares about itself. */
export interface AppConfig {
  /** Short unique name, used in `django_migrations.app` and permission codenames (`auth`). */
  label: string;
  /** The dotted module path listed in INSTALLED_APPS; filled in by the registry. */
  name?: string;
  /** Human-readable name. */
  verboseName?: string;
  /** The models this app defines. Called after all apps are imported. */
  models?: () => ModelClass[];
  /** Folder of migration files (`0001_initial.ts`, ...). */
  migrationsDir?: string;
  /** Management commands contributed by the app, by command name. */
  commands?: () => Record<string, CommandClass>;
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

  /** Load every installed app (idempotent for the same INSTALLED_APPS). */
  populate(installedApps: string[] = settings.INSTALLED_APPS): void {
    const key = installedApps.join(',');
    if (this.populatedFor === key) return;
    const configs: AppConfig[] = [];
    const labels = new Set<string>();
    for (const name of installedApps) {
      let mod: Record<string, unknown>;
      try {
        mod = importModule(`${name}.app`);
      } catch (error) {
        throw new ImproperlyConfigured(
          `INSTALLED_APPS lists '${name}', but '${name}.app' could not be imported: ${(error as Error).message.split('\n')[0]}`,
        );
      }
      const config = (mod.default ?? mod.appConfig) as AppConfig | undefined;
      if (!config || typeof config.label !== 'string') {
        throw new ImproperlyConfigured(`'${name}.app' must default-export an AppConfig with a 'label'.`);
      }
      if (labels.has(config.label)) {
        throw new ImproperlyConfigured(`Application labels aren't unique, duplicates: ${config.label}`);
      }
      labels.add(config.label);
      configs.push({ ...config, name });
    }
    this.configs = configs;
    this.populatedFor = key;
    for (const config of configs) config.ready?.();
  }

  /** Forget the loaded apps (tests that change INSTALLED_APPS call this). */
  reset(): void {
    this.configs = [];
    this.populatedFor = null;
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

  /** True when an app with this label (or dotted name) is installed. */
  isInstalled(labelOrName: string): boolean {
    return this.getAppConfigs().some((c) => c.label === labelOrName || c.name === labelOrName);
  }

  /** Every model of every installed app. */
  getModels(): ModelClass[] {
    return this.getAppConfigs().flatMap((c) => (c.models ? c.models() : []));
  }
}

/** The process-wide app registry. */
export const apps = new Apps();
