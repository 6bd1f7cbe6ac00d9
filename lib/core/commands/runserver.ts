/**
 * `manage.ts runserver [HOST:]PORT`: the development server. Unless `--noreload`, a parent
 * process watches the sources (`lib/`, `contrib/`, `demo/`) and restarts the server child when
 * a file changes. Env `API_FRAMEWORK_WATCH_DIRS` (folders separated by the platform's path
 * delimiter, relative to the source root or absolute) replaces the watched folders, for
 * projects kept elsewhere and for tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { settings, PROJECT_ROOT, SOURCE_ROOT } from '../conf';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { runServer, parseAddrPort, childExecArgv } from '../server';
import { checkDatabaseForCommand } from '../databaseCheck';

const WATCHED_DIRS = ['lib', 'contrib', 'demo'];

/** The folders the reloader watches: env `API_FRAMEWORK_WATCH_DIRS`, else `WATCHED_DIRS`. */
export function watchedDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const configured = (env.API_FRAMEWORK_WATCH_DIRS ?? '').split(path.delimiter).filter(Boolean);
  return (configured.length ? configured : WATCHED_DIRS).map((dir) => path.resolve(SOURCE_ROOT, dir));
}

/** Starts a development web server that restarts when the code changes. */
export default class RunserverCommand extends BaseCommand {
  static override help = 'Starts a lightweight web server for development (reloads on code changes).';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'addrport', positional: true, required: false, help: 'Optional port number, or ipaddr:port' });
    parser.addArgument({ name: 'noreload', type: 'boolean', help: 'Tells the server to NOT use the auto-reloader.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const addrport = (options.addrport as string | undefined) ?? '8000';
    const parsed = parseAddrPort(addrport);
    if (!parsed) throw new CommandError(`"${addrport}" is not a valid port number or address:port pair.`);
    if (!settings.DEBUG && settings.ALLOWED_HOSTS.length === 0) {
      throw new CommandError('You must set settings.ALLOWED_HOSTS if DEBUG is False.');
    }
    const reloader = !options.noreload && process.env.RUN_MAIN !== 'true';
    // An unreachable database stops the command here, in one line (the reloader's process
    // closes its check connection: the server child opens its own).
    await checkDatabaseForCommand({ close: reloader });
    if (reloader) {
      await this.runWithReloader();
      return;
    }
    const running = await runServer({ host: parsed.host, port: parsed.port, handleSignals: true });
    this.stdout.write(`Starting development server at ${running.url}/\nQuit the server with CONTROL-C.\n`);
    await running.closed;
  }

  /** Run the server in a child process and restart it whenever a source file changes. */
  private runWithReloader(): Promise<void> {
    const script = process.argv[1];
    // Sources are .ts under ts-node, .js when compiled (the script may be ts-node's own bin).
    const extension = path.extname(__filename);
    let child: ChildProcess | null = null;
    let restartPending = false;
    let stopping = false;
    let debounce: NodeJS.Timeout | null = null;
    const start = (): void => {
      child = spawn(process.execPath, [...childExecArgv(), script, ...process.argv.slice(2)], {
        env: { ...process.env, RUN_MAIN: 'true' },
        stdio: 'inherit',
      });
      child.on('exit', () => {
        child = null;
        if (restartPending && !stopping) {
          restartPending = false;
          start();
        }
      });
    };
    const restart = (file: string): void => {
      this.stdout.write(`${file} changed, reloading.\n`);
      if (child) {
        restartPending = true;
        child.kill('SIGTERM');
      } else {
        start();
      }
    };
    const watchers: fs.FSWatcher[] = [];
    for (const full of watchedDirs()) {
      if (!fs.existsSync(full)) continue;
      watchers.push(
        fs.watch(full, { recursive: true }, (_event, filename) => {
          if (!filename || !String(filename).endsWith(extension)) return;
          if (debounce) clearTimeout(debounce);
          const changed = path.relative(PROJECT_ROOT, path.join(full, String(filename)));
          debounce = setTimeout(() => restart(changed), 100);
        }),
      );
    }
    this.stdout.write('Watching for file changes with fs.watch\n');
    start();
    return new Promise<void>((resolve) => {
      const stop = (): void => {
        stopping = true;
        if (debounce) clearTimeout(debounce);
        for (const watcher of watchers) watcher.close();
        if (!child) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  }
}
