/**
 * `manage.ts migrate [app_label] [migration_name] [--fake] [--fake-initial]`: bring the
 * database schema up to date, as Django's `migrate` does (same output).
 */
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { ImproperlyConfigured } from '../conf';
import { migrate, MigrationError } from '../db/migrations';
import { checkDatabaseForCommand } from '../databaseCheck';
import { runSystemChecks } from '../checks';

/** Applies (or unapplies) migrations and records them in `django_migrations`. */
export default class MigrateCommand extends BaseCommand {
  static override help = 'Updates database schema. Manages both apps with migrations and those without.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'app_label', positional: true, required: false, help: 'App label of an application to synchronize the state.' });
    parser.addArgument({
      name: 'migration_name',
      positional: true,
      required: false,
      help: 'Database state will be brought to the state after that migration. Use the name "zero" to unapply all migrations.',
    });
    parser.addArgument({ name: 'fake', type: 'boolean', help: 'Mark migrations as run without actually running them.' });
    parser.addArgument({
      name: 'fake-initial',
      type: 'boolean',
      help: 'Detect if tables already exist and fake-apply initial migrations if so. Make sure that the current database schema matches your initial migration before using this flag.',
    });
    parser.addArgument({ name: 'no-input', type: 'boolean', help: 'Tells the command to NOT prompt the user for input of any kind.' });
    parser.addArgument({ name: 'skip-checks', type: 'boolean', help: 'Skip system checks.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const appLabel = typeof options.appLabel === 'string' ? options.appLabel : undefined;
    const migrationName = typeof options.migrationName === 'string' ? options.migrationName : undefined;
    // System check errors stop the command; warnings are printed (to stderr) and it goes on.
    if (!options.skipChecks) await runSystemChecks({ stdout: this.stdout, stderr: this.stderr });
    await checkDatabaseForCommand();
    try {
      await migrate({
        appLabel,
        migrationName,
        fake: Boolean(options.fake),
        fakeInitial: Boolean(options.fakeInitial),
        stdout: this.stdout,
      });
    } catch (error) {
      if (error instanceof ImproperlyConfigured || error instanceof MigrationError) throw new CommandError(error.message);
      throw error;
    }
  }
}
