/**
 * `manage.ts loaddata fixture [fixture ...] [-i] [-e LABEL] [--app LABEL]`: install JSON
 * fixtures in the host framework's format: a file path, `-` (standard input), or a name found
 * in an installed app's `fixtures/` folder, `FIXTURE_DIRS` or the working directory
 * (`.json` and gzip-compressed `.json.gz`).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { settings, PROJECT_ROOT } from '../conf';
import { apps } from '../apps';
import { modulePathToFile } from '../modules';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { checkDatabaseForCommand } from '../databaseCheck';
import { installFixtures, type LoadedFixture } from '../fixtures/deserialize';

import type { FixtureObject } from '../fixtures/serialize';

const EXTENSIONS = ['.json', '.json.gz'];

/** Installs the named fixture(s) in the database. */
export default class LoaddataCommand extends BaseCommand {
  static override help = 'Installs the named fixture(s) in the database.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'fixture', positional: true, multiple: true, metavar: 'fixture', help: 'Fixture labels.' });
    parser.addArgument({ name: 'app', type: 'string', help: 'Only look for fixtures in the specified app.' });
    parser.addArgument({ name: 'ignorenonexistent', short: 'i', type: 'boolean', help: 'Ignores entries in the serialized data for fields that do not currently exist on the model.' });
    parser.addArgument({ name: 'exclude', short: 'e', type: 'string', multiple: true, help: 'An app_label or app_label.ModelName to exclude. Can be used multiple times.' });
    parser.addArgument({ name: 'format', type: 'string', help: 'Format of serialized data when reading from stdin.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const labels = Array.isArray(options.fixture) ? options.fixture.map(String) : [];
    if (!labels.length) throw new CommandError('No database fixture specified. Please provide the path of at least one fixture in the command line.');
    if (labels.includes('-') && options.format !== undefined && options.format !== 'json') throw new CommandError(`Problem installing fixture '-': ${String(options.format)} is not a known serialization format.`);
    const excludes = Array.isArray(options.exclude) ? options.exclude.map(String) : [];
    const fixtures: LoadedFixture[] = [];
    for (const label of labels) {
      for (const file of label === '-' ? ['-'] : this.findFixtures(label, typeof options.app === 'string' ? options.app : null)) {
        const objects = await this.read(file);
        fixtures.push({ source: file === '-' ? 'stdin' : file, objects: objects.filter((o) => !this.isExcluded(o, excludes)) });
      }
    }
    await checkDatabaseForCommand();
    const total = fixtures.reduce((sum, f) => sum + (Array.isArray(f.objects) ? f.objects.length : 0), 0);
    const installed = await installFixtures(fixtures, { ignoreNonexistent: Boolean(options.ignorenonexistent) });
    if (Number(options.verbosity ?? 1) >= 1) {
      const count = fixtures.filter((f) => f.objects.length).length;
      this.stdout.write(installed === total
        ? `Installed ${installed} object(s) from ${count} fixture(s)\n`
        : `Installed ${installed} object(s) (of ${total}) from ${count} fixture(s)\n`);
    }
  }

  private isExcluded(object: FixtureObject, excludes: readonly string[]): boolean {
    const label = typeof object?.model === 'string' ? object.model.toLowerCase() : '';
    return excludes.some((e) => (e.includes('.') ? e.toLowerCase() === label : label.split('.')[0] === e));
  }

  /** The folders searched for a fixture name: apps' `fixtures/`, `FIXTURE_DIRS`, the working directory. */
  private fixtureDirs(appLabel: string | null): string[] {
    const dirs: string[] = [];
    for (const config of apps.getAppConfigs()) {
      if (appLabel && config.label !== appLabel) continue;
      const appDir = config.migrationsDir ? path.dirname(config.migrationsDir) : modulePathToFile(config.name ?? config.label);
      dirs.push(path.join(appDir, 'fixtures'));
    }
    const configured = settings.FIXTURE_DIRS;
    if (Array.isArray(configured)) for (const dir of configured) dirs.push(path.resolve(PROJECT_ROOT, String(dir)));
    dirs.push(process.cwd());
    return [...new Set(dirs)];
  }

  private findFixtures(label: string, appLabel: string | null): string[] {
    const hasExtension = EXTENSIONS.some((ext) => label.endsWith(ext));
    const names = hasExtension ? [label] : EXTENSIONS.map((ext) => `${label}${ext}`);
    if (path.isAbsolute(label) || label.includes(path.sep)) {
      const found = names.map((name) => path.resolve(name)).filter((file) => fs.existsSync(file));
      if (!found.length) throw new CommandError(`No fixture named '${path.basename(stripExtension(label))}' found.`);
      return found.slice(0, 1);
    }
    for (const dir of this.fixtureDirs(appLabel)) {
      const found = names.map((name) => path.join(dir, name)).filter((file) => fs.existsSync(file));
      if (found.length > 1) throw new CommandError(`Multiple fixtures named '${stripExtension(label)}' in ${dir}. Aborting.`);
      if (found.length) return found;
    }
    throw new CommandError(`No fixture named '${stripExtension(label)}' found.`);
  }

  private async read(file: string): Promise<FixtureObject[]> {
    let raw: Buffer;
    if (file === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of this.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      raw = Buffer.concat(chunks);
    } else {
      raw = fs.readFileSync(file);
      if (file.endsWith('.gz')) raw = zlib.gunzipSync(raw);
    }
    try {
      const parsed = JSON.parse(raw.toString('utf8')) as unknown;
      if (!Array.isArray(parsed)) throw new Error('a JSON fixture is a list of objects');
      return parsed as FixtureObject[];
    } catch (error) {
      throw new CommandError(`Problem installing fixture '${file === '-' ? 'stdin' : file}': ${(error as Error).message}`);
    }
  }
}

function stripExtension(label: string): string {
  for (const ext of EXTENSIONS) if (label.endsWith(ext)) return label.slice(0, -ext.length);
  return label;
}

