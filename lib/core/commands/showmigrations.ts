/**
 * `manage.ts showmigrations [app_label ...]`: list each app's migrations, `[X]` marking the
 * applied ones, as Django's `showmigrations` does.
 */
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { ImproperlyConfigured } from '../conf';
import { showMigrations, MigrationError } from '../db/migrations';
import { checkDatabaseForCommand } from '../databaseCheck';

/** Shows all available migrations for the current project. */
export default class ShowMigrationsCommand extends BaseCommand {
  static override help = 'Shows all available migrations for the current project';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'app_label', positional: true, multiple: true, required: false, help: 'App labels of applications to limit the output to.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const raw = options.appLabel;
    const appLabels = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? [raw] : [];
    await checkDatabaseForCommand();
    try {
      await showMigrations({ appLabels, stdout: this.stdout });
    } catch (error) {
      if (error instanceof ImproperlyConfigured || error instanceof MigrationError) throw new CommandError(error.message);
      throw error;
    }
  }
}
