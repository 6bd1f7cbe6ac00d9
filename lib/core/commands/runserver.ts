/**
 * `manage.ts runserver [HOST:]PORT`: the development server. Unless `--noreload`, a parent
 * process that loads nothing of the project (`lib/core/autoreload.ts`) watches the project's
 * folders and restarts the server child when a source file changes. Env
 * `API_FRAMEWORK_WATCH_DIRS` (folders separated by the platform's path delimiter, relative to
 * the project or absolute) replaces the watched folders.
 */
import { settings, SOURCE_ROOT } from '../conf';
import { BaseCommand, CommandError, CommandParser, PROG, type CommandOptions } from '../management';
import { runServer, parseAddrPort } from '../server';
import { checkDatabaseForCommand } from '../databaseCheck';
import { RUN_MAIN, notifyServing, runWithReloader, watchedDirs as watchedProjectDirs } from '../autoreload';
import { runSystemChecks, unappliedMigrations } from '../checks';
import { listenErrorMessage, ServerStartError } from '../listenErrors';

export { listenErrorMessage, ServerStartError };

/** The folders the reloader watches: env `API_FRAMEWORK_WATCH_DIRS`, else the project folder. */
export function watchedDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  return watchedProjectDirs(SOURCE_ROOT, env);
}

/** Starts a development web server that restarts when the code changes. */
export default class RunserverCommand extends BaseCommand {
  static override help = 'Starts a lightweight web server for development (reloads on code changes).';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'addrport', positional: true, required: false, help: 'Optional port number, or ipaddr:port' });
    parser.addArgument({ name: 'noreload', type: 'boolean', help: 'Tells the server to NOT use the auto-reloader.' });
    parser.addArgument({ name: 'skip-checks', type: 'boolean', help: 'Skip system checks.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const addrport = (options.addrport as string | undefined) ?? '8000';
    const parsed = parseAddrPort(addrport);
    if (!parsed) throw new CommandError(`"${addrport}" is not a valid port number or address:port pair.`);
    if (!settings.DEBUG && settings.ALLOWED_HOSTS.length === 0) {
      throw new CommandError('You must set settings.ALLOWED_HOSTS if DEBUG is False.');
    }
    if (!options.noreload && process.env[RUN_MAIN] !== 'true') {
      // Reached only when the command runs in process (manage.ts starts the reloader before
      // loading anything); the watching still happens in a separate, thin loop.
      const code = await runWithReloader({ projectDir: SOURCE_ROOT, argv: process.argv.slice(2), stdout: this.stdout });
      if (code !== 0) throw new CommandError(`The server stopped with exit code ${code}.`, { returnCode: code });
      return;
    }
    if (!options.skipChecks) {
      this.stdout.write('Performing system checks...\n\n');
      await runSystemChecks({ displayNumErrors: true, stdout: this.stdout, stderr: this.stderr });
    }
    // An unreachable database stops the command here, in one line.
    await checkDatabaseForCommand();
    await this.checkMigrations();
    let running;
    try {
      running = await runServer({ host: parsed.host, port: parsed.port, handleSignals: true, accessLog: settings.ACCESS_LOG !== false });
    } catch (error) {
      const message = listenErrorMessage(error);
      if (message) throw new ServerStartError(message);
      throw error;
    }
    this.stdout.write(`Starting development server at ${running.url}/\nQuit the server with CONTROL-C.\n`);
    notifyServing();
    await running.closed;
  }

  /** Print the host framework's notice about unapplied migrations (nothing when up to date). */
  private async checkMigrations(): Promise<void> {
    let pending: Array<{ app: string }>;
    try {
      pending = await unappliedMigrations();
    } catch {
      return; // a broken migration folder is migrate's and showmigrations' report
    }
    if (!pending.length) return;
    const labels = [...new Set(pending.map((m) => m.app))].sort();
    this.stdout.write(
      `\nYou have ${pending.length} unapplied migration(s). Your project may not work properly until you apply the migrations for app(s): ${labels.join(', ')}.\n` +
        `Run '${PROG} migrate' to apply them.\n`,
    );
  }
}
