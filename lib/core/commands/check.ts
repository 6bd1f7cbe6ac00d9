/**
 * `manage.ts check [app_label ...] [--tag TAG] [--list-tags] [--deploy] [--fail-level LEVEL]
 * [--database]`: run the system checks, as the host framework's `check` command.
 */
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { apps } from '../apps';
import { LEVELS, registry, runSystemChecks, Tags } from '../checks';

/** Checks the entire project for potential problems. */
export default class CheckCommand extends BaseCommand {
  static override help = 'Checks the entire project for potential problems.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'app_label', positional: true, multiple: true, required: false, help: 'App labels whose installation to check (all by default).' });
    parser.addArgument({ name: 'tag', short: 't', type: 'string', multiple: true, help: 'Run only checks labeled with given tag.' });
    parser.addArgument({ name: 'list-tags', type: 'boolean', help: 'List available tags.' });
    parser.addArgument({ name: 'deploy', type: 'boolean', help: 'Check deployment settings.' });
    parser.addArgument({
      name: 'fail-level',
      type: 'string',
      default: 'ERROR',
      metavar: '{CRITICAL,ERROR,WARNING,INFO,DEBUG}',
      help: 'Message level that will cause the command to exit with a non-zero status. Default is ERROR.',
    });
    parser.addArgument({ name: 'database', type: 'boolean', help: 'Also run the database checks (unapplied migrations).' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const deploy = Boolean(options.deploy);
    if (options.listTags) {
      this.stdout.write(`${registry.tagsAvailable(deploy).join('\n')}\n`);
      return;
    }
    const failLevelName = String(options.failLevel);
    const failLevel = LEVELS[failLevelName];
    if (failLevel === undefined) {
      throw new CommandError(`argument --fail-level: invalid choice: '${failLevelName}' (choose from 'CRITICAL', 'ERROR', 'WARNING', 'INFO', 'DEBUG')`);
    }
    const tags = Array.isArray(options.tag) ? options.tag.map(String) : [];
    const known = new Set<string>([...Object.values(Tags), ...registry.tagsAvailable(true)]);
    const unknownTags = tags.filter((tag) => !known.has(tag));
    if (unknownTags.length) throw new CommandError(`There is no system check with the "${unknownTags[0]}" tag.`);
    const labels = Array.isArray(options.appLabel) ? options.appLabel.map(String) : [];
    for (const label of labels) {
      try {
        apps.getAppConfig(label);
      } catch (error) {
        throw new CommandError(error instanceof Error ? error.message : String(error));
      }
    }
    await runSystemChecks({
      tags,
      includeDeploymentChecks: deploy,
      includeDatabaseChecks: Boolean(options.database),
      failLevel,
      displayNumErrors: true,
      stdout: this.stdout,
      stderr: this.stderr,
    });
  }
}
