/**
 * `manage.ts sqlmigrate app_label migration_name [--backwards]`: print the SQL of one
 * migration for the configured database, as Django's command does.
 */
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { ImproperlyConfigured } from '../conf';
import { MigrationError, sqlMigrate } from '../db/migrations';

/** Prints the SQL statements for the named migration. */
export default class SqlMigrateCommand extends BaseCommand {
  static override help = 'Prints the SQL statements for the named migration.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'app_label', positional: true, required: true, help: 'App label of the application containing the migration.' });
    parser.addArgument({ name: 'migration_name', positional: true, required: true, help: 'Migration name to print the SQL for.' });
    parser.addArgument({ name: 'backwards', type: 'boolean', help: 'Creates SQL to unapply the migration, rather than to apply it' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    try {
      this.stdout.write(
        await sqlMigrate({ appLabel: String(options.appLabel), migrationName: String(options.migrationName), backwards: Boolean(options.backwards) }),
      );
    } catch (error) {
      if (error instanceof ImproperlyConfigured || error instanceof MigrationError) throw new CommandError(error.message);
      throw error;
    }
  }
}
