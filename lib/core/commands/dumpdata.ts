/**
 * `manage.ts dumpdata [app_label[.ModelName] ...] [--indent N] [-o FILE] [-e LABEL] [--pks PKS]`:
 * the database's rows as a JSON fixture in the host framework's format
 * (`[{"model": "auth.user", "pk": 1, "fields": {...}}]`), byte for byte as its `dumpdata` writes
 * it, so fixtures move between the two.
 */
import fs from 'node:fs';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { checkDatabaseForCommand } from '../databaseCheck';
import { pythonJsonDumps } from '../fixtures/pythonJson';
import { fixtureModels, modelLabel, selectModels, type FixtureModel } from '../fixtures/models';
import { serializeModel } from '../fixtures/serialize';

/** Writes the objects of the selected models as a JSON fixture. */
export default class DumpdataCommand extends BaseCommand {
  static override help = 'Output the contents of the database as a fixture of the given format (using each model\'s default manager unless --all is specified).';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'app_label', positional: true, multiple: true, required: false, metavar: 'app_label[.ModelName]', help: 'Restricts dumped data to the specified app_label or app_label.ModelName.' });
    parser.addArgument({ name: 'format', type: 'string', default: 'json', help: 'Specifies the output serialization format for fixtures (json).' });
    parser.addArgument({ name: 'indent', type: 'number', help: 'Specifies the indent level to use when pretty-printing output.' });
    parser.addArgument({ name: 'exclude', short: 'e', type: 'string', multiple: true, help: 'An app_label or app_label.ModelName to exclude (use multiple --exclude to exclude multiple apps/models).' });
    parser.addArgument({ name: 'all', short: 'a', type: 'boolean', help: 'Use the base manager (every row is dumped either way: managers do not filter rows here).' });
    parser.addArgument({ name: 'pks', type: 'string', help: 'Only dump objects with given primary keys. Accepts a comma-separated list of keys. This option only works when you specify one model.' });
    parser.addArgument({ name: 'output', short: 'o', type: 'string', help: 'Specifies file to which the output is written.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const format = String(options.format);
    if (format !== 'json') throw new CommandError(`Unknown serialization format: ${format}`);
    const labels = Array.isArray(options.appLabel) ? options.appLabel.map(String) : [];
    const indent = typeof options.indent === 'number' ? options.indent : null;
    const pks = typeof options.pks === 'string' ? options.pks.split(',').map((pk) => pk.trim()) : null;
    if (pks && (labels.length !== 1 || !labels[0].includes('.'))) throw new CommandError('You can only use --pks option with one model');
    const excluded = this.excludedModels(Array.isArray(options.exclude) ? options.exclude.map(String) : []);
    const models = selectModels(labels).filter((model) => !excluded.has(model));
    await checkDatabaseForCommand();

    const output = typeof options.output === 'string' && options.output ? options.output : null;
    const chunks: string[] = [];
    let fd: number | null = null;
    const write = (text: string): void => {
      if (fd !== null) fs.writeSync(fd, text);
      else chunks.push(text);
    };
    try {
      if (output) fd = fs.openSync(output, 'w');
      await this.serialize(models, { indent, pks }, write);
    } catch (error) {
      if (error instanceof CommandError) throw error;
      throw new CommandError(`Unable to serialize database: ${(error as Error).message}`);
    } finally {
      if (fd !== null) fs.closeSync(fd);
    }
    if (!output) this.stdout.write(chunks.join(''));
  }

  /** The models named by `--exclude` labels (an app label excludes all of its models). */
  private excludedModels(labels: readonly string[]): Set<FixtureModel> {
    const excluded = new Set<FixtureModel>();
    for (const label of labels) {
      const [appLabel, modelName] = label.split('.', 2);
      const matching = fixtureModels().filter((m) => modelLabel(m).split('.')[0] === appLabel && (modelName === undefined || m.name.toLowerCase() === modelName.toLowerCase()));
      if (!matching.length) throw new CommandError(modelName === undefined ? `No installed app with label '${appLabel}'.` : `Unknown model in excludes: ${label}`);
      for (const model of matching) excluded.add(model);
    }
    return excluded;
  }

  /** The JSON serializer's output, written piece by piece as the host framework writes it. */
  private async serialize(models: readonly FixtureModel[], options: { indent: number | null; pks: string[] | null }, write: (text: string) => void): Promise<void> {
    const { indent } = options;
    write('[');
    let first = true;
    for (const model of models) {
      for await (const object of serializeModel(model, options.pks ? { pks: options.pks } : {})) {
        if (!first) write(indent === null ? ', ' : ',');
        if (indent !== null) write('\n');
        write(pythonJsonDumps(object, indent));
        first = false;
      }
    }
    if (indent !== null) write('\n');
    write(']');
    if (indent !== null) write('\n');
  }
}
