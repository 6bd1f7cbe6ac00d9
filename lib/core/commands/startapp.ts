/**
 * `manage.ts startapp NAME [DIRECTORY]`: writes an app folder in the project root (app.ts,
 * models.ts, serializers.ts, views.ts, urls.ts, admin.ts, an empty migrations/ and a spec).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../conf';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { appFiles } from '../templates/app';
import { validateName, writeTemplate } from '../templates/write';

/** Creates an app folder structure for the given app name. */
export default class StartAppCommand extends BaseCommand {
  static override help = 'Creates an app directory structure for the given app name in the project folder or optionally in the given directory.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'name', positional: true, help: 'Name of the application.' });
    parser.addArgument({ name: 'directory', positional: true, required: false, help: 'Optional destination directory (it must exist).' });
  }

  override handle(options: CommandOptions): void {
    const name = String(options.name ?? '');
    validateName(name, 'app');
    let target: string;
    if (typeof options.directory === 'string' && options.directory) {
      target = path.resolve(PROJECT_ROOT, options.directory);
      if (!fs.existsSync(target)) throw new CommandError(`Destination directory '${target}' does not exist, please create it first.`);
    } else {
      target = path.join(PROJECT_ROOT, name);
      if (fs.existsSync(target)) throw new CommandError(`'${target}' already exists`);
    }
    writeTemplate(target, appFiles({ name }));
    if (Number(options.verbosity ?? 1) >= 1) {
      this.stdout.write(`App '${name}' created in ${target}. Add '${name}' to INSTALLED_APPS and include '${name}/urls' in the project's URL conf.\n`);
    }
  }
}
