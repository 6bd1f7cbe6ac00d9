/**
 * `manage.ts flush [--noinput]`: remove every row from the installed models' tables (the
 * migration history stays), then run the apps' post-migrate steps (default permissions), as
 * the host framework's `flush`. Asks for confirmation unless `--noinput`.
 */
import { apps } from '../apps';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { checkDatabaseForCommand } from '../databaseCheck';
import { getSequelize, getVendor } from '../db/connection';
import { atomic } from '../db/transaction';
import { readLine } from '../readLine';
import { getFieldInfo } from '../db/fieldInfo';
import { modelClasses } from '../db/modelClass';

/** The tables of the installed models and of their many-to-many links. */
export function flushTables(): string[] {
  const tables = new Set<string>();
  for (const model of modelClasses(apps.getModels())) {
    tables.add(String(model.getTableName()));
    for (const relation of getFieldInfo(model).relations) if (relation.through) tables.add(String(relation.through.getTableName()));
  }
  return [...tables];
}

/** Empty every table of the installed apps (one transaction; foreign keys checked at the end). */
export async function flushDatabase(): Promise<void> {
  const sequelize = getSequelize();
  const q = (name: string): string => sequelize.getQueryInterface().quoteIdentifier(name);
  const tables = flushTables();
  if (getVendor() === 'sqlite') {
    await atomic(async () => {
      await sequelize.query('PRAGMA defer_foreign_keys = ON');
      for (const table of tables) await sequelize.query(`DELETE FROM ${q(table)}`);
      const [sequence] = (await sequelize.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'")) as [unknown[], unknown];
      if (sequence.length && tables.length) {
        await sequelize.query(`DELETE FROM sqlite_sequence WHERE name IN (${tables.map(() => '?').join(', ')})`, { replacements: tables });
      }
    });
    return;
  }
  // TRUNCATE (which also resets AUTO_INCREMENT) commits by itself; the transaction only keeps
  // the statements on one connection, where foreign key checks are off meanwhile.
  await atomic(async () => {
    await sequelize.query('SET FOREIGN_KEY_CHECKS = 0');
    try {
      for (const table of tables) await sequelize.query(`TRUNCATE TABLE ${q(table)}`);
    } finally {
      await sequelize.query('SET FOREIGN_KEY_CHECKS = 1');
    }
  });
}

/** Removes ALL DATA from the database. */
export default class FlushCommand extends BaseCommand {
  static override help =
    'Removes ALL DATA from the database, including data added during migrations. Does not achieve a "fresh install" state.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'noinput', type: 'boolean', help: 'Tells the command to NOT prompt the user for input of any kind.' });
    parser.addArgument({ name: 'no-input', type: 'boolean', help: 'Same as --noinput.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const interactive = !(options.noinput || options.noInput);
    await checkDatabaseForCommand();
    if (interactive) {
      this.stdout.write(
        'You have requested a flush of the database.\n' +
          "This will IRREVERSIBLY DESTROY all data currently in the 'default' database,\n" +
          'and return each table to an empty state.\n' +
          'Are you sure you want to do this?\n\n' +
          "    Type 'yes' to continue, or 'no' to cancel: ",
      );
      const answer = await readLine(this.stdin);
      if (answer !== 'yes') {
        this.stdout.write('Flush cancelled.\n');
        return;
      }
    }
    try {
      await flushDatabase();
    } catch (error) {
      throw new CommandError(
        "Database 'default' couldn't be flushed. Possible reasons:\n" +
          '  * The database isn\'t running or isn\'t configured correctly.\n' +
          '  * At least one of the expected database tables doesn\'t exist.\n' +
          "  * The SQL was invalid.\nHint: Look at the output of 'manage.ts migrate' to see the SQL this command wasn't able to run.\n" +
          `The full error: ${(error as Error).message}`,
      );
    }
    // Django's flush sends post_migrate: the apps recreate what they own (permissions).
    for (const config of apps.getAppConfigs()) if (config.postMigrate) await config.postMigrate();
  }
}
