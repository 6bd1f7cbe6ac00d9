/**
 * `manage.ts makemigrations [app_label ...] [--check] [--dry-run] [--name NAME] [--empty]
 * [--merge] [--noinput]`: write the migrations the models need, as Django's command does.
 */
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { ImproperlyConfigured } from '../conf';
import { MigrationError } from '../db/migrations';
import { makeMigrations } from '../db/migrations/makemigrations';
import { UnsupportedFieldError } from '../db/migrations/modelState';
import { InteractiveQuestioner, NonInteractiveQuestioner, QuestionerAbort } from '../db/migrations/questioner';

/** Creates new migration(s) for apps. */
export default class MakeMigrationsCommand extends BaseCommand {
  static override help = 'Creates new migration(s) for apps.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'app_label', positional: true, multiple: true, required: false, help: 'Specify the app label(s) to create migrations for.' });
    parser.addArgument({ name: 'dry-run', type: 'boolean', help: "Just show what migrations would be made; don't actually write them." });
    parser.addArgument({ name: 'merge', type: 'boolean', help: 'Enable fixing of migration conflicts.' });
    parser.addArgument({ name: 'empty', type: 'boolean', help: 'Create an empty migration.' });
    parser.addArgument({ name: 'noinput', type: 'boolean', help: 'Tells the command to NOT prompt the user for input of any kind.' });
    parser.addArgument({ name: 'no-input', type: 'boolean', help: 'Same as --noinput.' });
    parser.addArgument({ name: 'name', help: 'Use this name for migration file(s).' });
    parser.addArgument({ name: 'check', type: 'boolean', help: 'Exit with a non-zero status if model changes are missing migrations (writes nothing).' });
  }

  override async handle(options: CommandOptions): Promise<number | void> {
    const raw = options.appLabel;
    const appLabels = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? [raw] : [];
    const interactive = !(options.noinput || options.noInput);
    const questioner = interactive ? new InteractiveQuestioner(this.stdin, this.stdout) : new NonInteractiveQuestioner();
    try {
      return await makeMigrations({
        appLabels,
        check: Boolean(options.check),
        dryRun: Boolean(options.dryRun),
        name: typeof options.name === 'string' ? options.name : undefined,
        empty: Boolean(options.empty),
        merge: Boolean(options.merge),
        questioner,
        stdout: this.stdout,
      });
    } catch (error) {
      if (error instanceof QuestionerAbort) {
        this.stderr.write(`${error.message}\n`);
        return error.exitCode;
      }
      if (error instanceof ImproperlyConfigured || error instanceof MigrationError || error instanceof UnsupportedFieldError) throw new CommandError(error.message);
      throw error;
    }
  }
}
