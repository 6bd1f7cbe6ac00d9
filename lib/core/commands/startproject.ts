/**
 * `startproject NAME [DIRECTORY]` (usually `npx api-framework startproject mysite`): writes a
 * project that depends on this framework: package.json, tsconfig.json, manage.ts,
 * NAME/settings.ts, NAME/urls.ts, testSetup.ts, .gitignore and a README.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FRAMEWORK_PACKAGE_ROOT } from '../conf';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { projectFiles } from '../templates/project';
import { validateName, writeTemplate } from '../templates/write';

/** The version range a new project depends on: this framework's own version, caret. */
export function frameworkVersionRange(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(FRAMEWORK_PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  return `^${pkg.version}`;
}

/** Creates a project folder structure for the given project name. */
export default class StartProjectCommand extends BaseCommand {
  static override help = 'Creates a project directory structure for the given project name in the current directory or optionally in the given directory.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'name', positional: true, help: 'Name of the project.' });
    parser.addArgument({ name: 'directory', positional: true, required: false, help: 'Optional destination directory (it must exist).' });
  }

  override handle(options: CommandOptions): void {
    const name = String(options.name ?? '');
    validateName(name, 'project');
    let target: string;
    if (typeof options.directory === 'string' && options.directory) {
      target = path.resolve(options.directory);
      if (!fs.existsSync(target)) throw new CommandError(`Destination directory '${target}' does not exist, please create it first.`);
    } else {
      target = path.resolve(name);
      if (fs.existsSync(target)) throw new CommandError(`'${target}' already exists`);
    }
    writeTemplate(target, projectFiles({ name, frameworkVersion: frameworkVersionRange() }));
    if (Number(options.verbosity ?? 1) >= 1) {
      const cd = path.relative(process.cwd(), target);
      this.stdout.write(
        `Project '${name}' created in ${target}.\nNext: ${cd ? `cd ${cd} && ` : ''}npm install && npx ts-node manage.ts migrate && npm start\n`,
      );
    }
  }
}
