/**
 * `makemigrations`: detect model changes and write the migration files (Django's command of
 * the same name): numbering after the app's latest migration, dependencies on it and on the
 * migrations of other apps its relations need (the swappable user model through
 * `swappableDependency`), `--check`, `--dry-run`, `--name`, `--empty`, `--merge`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { apps, type AppConfig } from '../../apps';
import { ImproperlyConfigured, settings } from '../../conf';
import { detectChanges } from './autodetector';
import { leafMigrations, loadMigrationPlan, MigrationError, projectState, type MigrationDependency, type MigrationEntry } from './loader';
import { ModelStateBuilder } from './modelState';
import type { Operation } from './operations/base';
import type { Questioner } from './questioner';
import { modelKeyOf } from './state';
import { suggestName, writeMigration } from './writer';

/** Options of `makeMigrations()`. */
export interface MakeMigrationsOptions {
  appLabels?: readonly string[];
  /** Exit 1 when changes are missing a migration; write nothing. */
  check?: boolean;
  /** Print what would be written; write nothing. */
  dryRun?: boolean;
  /** The name instead of the suggested one (`0002_<name>`). */
  name?: string;
  /** Write a migration without operations (for RunSQL / RunCode by hand). */
  empty?: boolean;
  /** Write merge migrations for apps with two leaf migrations. */
  merge?: boolean;
  questioner: Questioner;
  stdout: { write(text: string): void };
}

interface PlannedFile {
  app: string;
  config: AppConfig;
  name: string;
  file: string;
  initial: boolean;
  dependencies: MigrationDependency[];
  swappable: string[];
  operations: Operation[];
}

function nextNumber(plan: readonly MigrationEntry[], app: string): string {
  const numbers = plan.filter((e) => e.app === app).map((e) => Number(e.name.slice(0, 4)));
  return String((numbers.length ? Math.max(...numbers) : 0) + 1).padStart(4, '0');
}

function configFor(label: string): AppConfig {
  const config = apps.getAppConfigs().find((c) => c.label === label);
  if (!config) throw new ImproperlyConfigured(`App '${label}' could not be found. Is it in INSTALLED_APPS?`);
  if (!config.migrationsDir) throw new ImproperlyConfigured(`App '${label}' has no migrationsDir in its AppConfig (add migrationsDir: path.join(__dirname, 'migrations')).`);
  return config;
}

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') ? file : relative;
}

function validateName(name: string): void {
  if (!/^\w+$/.test(name)) throw new ImproperlyConfigured(`The migration name must be a valid identifier (letters, digits, _): '${name}'.`);
}

/**
 * Run `makemigrations`; returns the exit status (0, or 1 for `--check` with changes).
 * Errors (unknown app, conflicts without `--merge`, unsupported fields) are thrown.
 */
export async function makeMigrations(options: MakeMigrationsOptions): Promise<number> {
  const out = options.stdout;
  const labels = [...(options.appLabels ?? [])];
  for (const label of labels) configFor(label);
  if (options.name) validateName(options.name);
  const plan = loadMigrationPlan();
  const appsInPlan = [...new Set(plan.map((e) => e.app))];
  const conflicts = appsInPlan.map((app) => [app, leafMigrations(plan, app)] as const).filter(([app, leaves]) => leaves.length > 1 && (!labels.length || labels.includes(app)));

  if (options.merge) {
    if (!conflicts.length) {
      out.write('No conflicts detected to merge.\n');
      return 0;
    }
    for (const [app, leaves] of conflicts) {
      out.write(`Merging ${app}\n`);
      for (const leaf of leaves) out.write(`  Branch ${leaf.name}\n`);
      if (!(await options.questioner.askMerge(app))) continue;
      const config = configFor(app);
      const name = `${nextNumber(plan, app)}_${options.name ?? `merge_${leaves.map((l) => l.name).sort().join('_')}`}`;
      const file = path.join(config.migrationsDir as string, `${name}.ts`);
      const source = writeMigration({ initial: false, dependencies: leaves.map((l) => [app, l.name] as const), operations: [] }, config.migrationsDir as string);
      if (options.dryRun) out.write(source);
      else fs.writeFileSync(file, source);
      out.write(`\nCreated new merge migration ${displayPath(file)}\n`);
    }
    return 0;
  }
  if (conflicts.length) {
    const listing = conflicts.map(([app, leaves]) => `${leaves.map((l) => l.name).join(', ')} in ${app}`).join('; ');
    throw new MigrationError(`Conflicting migrations detected; multiple leaf nodes in the migration graph: (${listing}).\nTo fix them run 'manage.ts makemigrations --merge'`);
  }

  const files: PlannedFile[] = [];
  const fileFor = (app: string, operations: Operation[]): PlannedFile => {
    const config = configFor(app);
    const leaf = leafMigrations(plan, app)[0];
    const initial = !leaf;
    const suffix = options.name ?? (options.empty && !initial ? 'auto' : suggestName(operations, initial));
    const name = `${nextNumber(plan, app)}_${suffix}`;
    return {
      app,
      config,
      name,
      file: path.join(config.migrationsDir as string, `${name}.ts`),
      initial,
      dependencies: leaf ? [[app, leaf.name]] : [],
      swappable: [],
      operations,
    };
  };

  if (options.empty) {
    if (!labels.length) throw new ImproperlyConfigured('You must supply at least one app label when using --empty.');
    for (const label of labels) files.push(fileFor(label, []));
  } else {
    const from = projectState(plan);
    const to = new ModelStateBuilder().build();
    const changes = await detectChanges(from, to, options.questioner, labels);
    for (const [app, operations] of [...changes].sort(([a], [b]) => a.localeCompare(b))) files.push(fileFor(app, operations));
    // Dependencies on the migrations that create the models relations point at.
    const newFiles = new Map(files.map((f) => [f.app, f]));
    for (const file of files) {
      for (const operation of file.operations) {
        const { args } = operation.deconstruct();
        const specs = [
          ...(((args as { fields?: Array<[string, { to?: string; through?: string }]> }).fields ?? []).map(([, s]) => s)),
          ...((args as { field?: { to?: string; through?: string } }).field ? [(args as { field: { to?: string; through?: string } }).field] : []),
        ];
        for (const spec of specs) {
          for (const reference of [spec.to, spec.through]) {
            if (!reference) continue;
            const key = modelKeyOf(reference, file.app);
            const app = key.slice(0, key.indexOf('.'));
            if (app === file.app) continue;
            if (reference === settings.AUTH_USER_MODEL) {
              if (!file.swappable.includes('AUTH_USER_MODEL')) file.swappable.push('AUTH_USER_MODEL');
              continue;
            }
            const target = newFiles.get(app);
            const leaf = target ? target.name : leafMigrations(plan, app)[0]?.name;
            if (leaf && !file.dependencies.some(([a, n]) => a === app && n === leaf)) file.dependencies.push([app, leaf]);
          }
        }
      }
    }
  }

  if (!files.length) {
    out.write(labels.length === 1 ? `No changes detected in app '${labels[0]}'\n` : labels.length ? `No changes detected in apps '${labels.join("', '")}'\n` : 'No changes detected\n');
    return 0;
  }
  for (const file of files) {
    file.dependencies.sort(([a1, n1], [a2, n2]) => (a1 === file.app ? -1 : a2 === file.app ? 1 : a1.localeCompare(a2) || n1.localeCompare(n2)));
    const source = writeMigration(
      { initial: file.initial, dependencies: file.dependencies, swappableDependencies: file.swappable, operations: file.operations },
      file.config.migrationsDir as string,
    );
    out.write(`Migrations for '${file.app}':\n  ${displayPath(file.file)}\n`);
    for (const operation of file.operations) out.write(`    - ${operation.describe()}\n`);
    if (options.dryRun) out.write(`${source}`);
    else if (!options.check) {
      fs.mkdirSync(path.dirname(file.file), { recursive: true });
      fs.writeFileSync(file.file, source);
    }
  }
  return options.check ? 1 : 0;
}
