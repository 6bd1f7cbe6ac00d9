/**
 * The body of a project's `manage.ts` (the host framework's `execute_from_command_line`):
 * makes the project the process serves, loads its settings and runs the management command.
 * `runserver` with its reloader starts the watching parent first, which loads nothing of the
 * project (nor the framework's settings, models or server).
 *
 * @example
 * // manage.ts of a project
 * import { executeFromCommandLine } from 'api_framework/management';
 *
 * executeFromCommandLine(process.argv.slice(2), { projectDir: __dirname, settingsModule: 'mysite/settings' });
 */
import { reloaderRequested, runWithReloader } from './autoreload';

/** Options of `executeFromCommandLine()`. */
export interface CommandLineOptions {
  /**
   * The folder of the project's manage.ts (pass `__dirname`): project modules resolve from it
   * (its parent holds the data files when it is a compiled `dist/`), and the reloader watches
   * it. Default: the working directory.
   */
  projectDir?: string;
  /** The settings module used when neither `--settings` nor `SETTINGS_MODULE` names one. */
  settingsModule?: string;
}

/** Commands that run without a project's settings (they write a new project). */
const SETTINGS_FREE_COMMANDS = new Set(['startproject']);

/** The value of `--settings X` / `--settings=X` in `argv`, if any. */
export function settingsFromArgv(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--settings') return argv[i + 1];
    if (argv[i].startsWith('--settings=')) return argv[i].slice('--settings='.length);
  }
  return undefined;
}

/**
 * Run the management command in `argv` (without node and the script) for the project and
 * resolve to its exit code. Settings errors are printed in one line; `help` still lists the
 * core commands without settings, as in the host framework.
 */
export async function runCommandLine(argv: string[], options: CommandLineOptions = {}): Promise<number> {
  // Loaded here, not at the top, so that the reloader's parent stays a bare watcher.
  /* eslint-disable @typescript-eslint/no-require-imports */
  require('reflect-metadata');
  const { ImproperlyConfigured, setProjectRoot, setupSettings } = require('./conf') as typeof import('./conf');
  const { runFromArgv } = require('./management') as typeof import('./management');
  /* eslint-enable @typescript-eslint/no-require-imports */
  if (options.projectDir !== undefined) setProjectRoot(options.projectDir);
  const command = argv.find((arg) => !arg.startsWith('-'));
  if (command !== undefined && SETTINGS_FREE_COMMANDS.has(command)) return runFromArgv(argv);
  const settingsModule = settingsFromArgv(argv);
  if (settingsModule) process.env.SETTINGS_MODULE = settingsModule;
  else if (!process.env.SETTINGS_MODULE && options.settingsModule) process.env.SETTINGS_MODULE = options.settingsModule;
  try {
    if (!process.env.SETTINGS_MODULE) {
      throw new ImproperlyConfigured("No settings module: run the project's manage.ts, pass --settings or set SETTINGS_MODULE.");
    }
    setupSettings();
  } catch (error) {
    process.stderr.write(`${(error as Error).name}: ${(error as Error).message}\n`);
    if (command !== undefined && command !== 'help') return 1;
  }
  return runFromArgv(argv);
}

/**
 * Run the command in `argv`, then the shutdown hooks (closing connections and servers), then
 * exit the process with the command's exit code; unexpected errors print their stack and exit
 * 1. `runserver` (unless `--noreload`) runs under the reloader, which watches `projectDir`;
 * `serve`'s primary supervises its workers without loading the project (`servePrimary.ts`);
 * `serve --workers 1` has none and serves in this process.
 */
export function executeFromCommandLine(argv: string[] = process.argv.slice(2), options: CommandLineOptions = {}): void {
  if (reloaderRequested(argv)) {
    void runWithReloader({ projectDir: options.projectDir ?? process.cwd(), argv }).then((code) => process.exit(code));
    return;
  }
  if (argv[0] === 'serve') {
    // serve's primary (two workers or more) only supervises: it loads node's cluster and
    // nothing of the project. `serve --workers 1` serves in this process, through management.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { runServePrimary, servePrimaryArguments } = require('./servePrimary') as typeof import('./servePrimary');
    const serve = servePrimaryArguments(argv);
    if (serve) {
      runServePrimary(serve).then((code) => process.exit(code), (error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
        process.exit(1);
      });
      return;
    }
    // This process loads the project and serves: keep V8's young generation small until it
    // listens (`startupHeap.ts`; about 7 MB of idle RSS).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('./startupHeap') as typeof import('./startupHeap')).holdYoungGeneration();
    // Pinned to one CPU: V8's parallel scavenger threads would only take turns with this one.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('./singleCpuGc') as typeof import('./singleCpuGc')).tuneGcForAvailableCpus();
  }
  runCommandLine(argv, options)
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      return 1;
    })
    .then(async (code) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { runShutdownHooks } = require('./shutdown') as typeof import('./shutdown');
      await runShutdownHooks();
      process.exit(code);
    });
}
