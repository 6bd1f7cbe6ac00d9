/**
 * The development server's auto-reloader: a parent process that only watches the project's
 * files and restarts the server child when one changes. It loads Node built-ins and this
 * folder's `fileWatcher`/`childProcess` only (no settings, no project code, no framework), so
 * watching costs a bare Node process; the child (`RUN_MAIN=true`) runs `runserver` itself.
 */
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { FileWatcher } from './fileWatcher';
import { childExecArgv } from './childProcess';

/** The environment variable that marks the server child (the host framework's name). */
export const RUN_MAIN = 'RUN_MAIN';

/** The message the server child sends the reloader (over IPC) once it is serving. */
export const SERVING_MESSAGE = 'api_framework:serving';

/** True when `argv` (without node and the script) asks for `runserver` with the reloader. */
export function reloaderRequested(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  if (argv[0] !== 'runserver' || env[RUN_MAIN] === 'true') return false;
  return !argv.some((arg) => arg === '--noreload' || arg === '-h' || arg === '--help');
}

/**
 * The folders the reloader watches: env `API_FRAMEWORK_WATCH_DIRS` (separated by the
 * platform's path delimiter, relative to `projectDir` or absolute) or else the project folder
 * itself (the folder of its manage.ts), whose `node_modules`, `dist`, VCS and hidden folders
 * are skipped, so an installed framework is never watched.
 */
export function watchedDirs(projectDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const configured = (env.API_FRAMEWORK_WATCH_DIRS ?? '').split(path.delimiter).filter(Boolean);
  return (configured.length ? configured : ['.']).map((dir) => path.resolve(projectDir, dir));
}

/** The file extensions whose changes restart the server. */
export function watchedExtensions(): string[] {
  // Under ts-node the sources are .ts; compiled, the project runs .js (and both read .json).
  return __filename.endsWith('.ts') ? ['.ts', '.tsx', '.js', '.json'] : ['.js', '.json'];
}
/**
 * The V8 flags the reloader adds for its server child: `--optimize-for-size` when the project
 * runs from TypeScript sources (under ts-node), none when it runs compiled. Transpiling the
 * project leaves about 100 MB of the compiler's garbage that V8's default heap growth keeps
 * committed (measured: the child's idle RSS 255 -> 137 MB); the development server then
 * answers more slowly, a cost the production server (`serve`) never pays. A choice of the
 * user's own (`--optimize-for-size` or `--no-optimize-for-size` among node's flags) wins. They
 * go first on the child's command line: under ts-node's bin, `execArgv` ends with that bin.
 */
export function reloaderChildFlags(execArgv: readonly string[] = process.execArgv, fromSources = __filename.endsWith('.ts')): string[] {
  if (!fromSources || execArgv.some((flag) => /^--(no-)?optimize[-_]for[-_]size$/.test(flag))) return [];
  return ['--optimize-for-size'];
}

/**
 * Environment the reloader adds for its server child when the project runs from TypeScript
 * sources: glibc's malloc returns freed memory at the top of its heap to the system
 * (`MALLOC_TRIM_THRESHOLD_=0`, ignored elsewhere), which the compiler's transpiling leaves
 * behind (measured: the child's idle RSS about 25 MB lower). A value the user set wins.
 */
export function reloaderChildEnv(env: NodeJS.ProcessEnv = process.env, fromSources = __filename.endsWith('.ts')): Record<string, string> {
  if (!fromSources || env.MALLOC_TRIM_THRESHOLD_ !== undefined) return {};
  return { MALLOC_TRIM_THRESHOLD_: '0' };
}

/** Options of `runWithReloader()`. */
export interface ReloaderOptions {
  /** The folder of the project's manage script (watched unless API_FRAMEWORK_WATCH_DIRS). */
  projectDir: string;
  /** The command-line arguments of the command (`['runserver', '8000']`). */
  argv: readonly string[];
  stdout?: { write(text: string): unknown };
  env?: NodeJS.ProcessEnv;
  /** Milliseconds to wait for more changes before restarting (default 100). */
  debounceMs?: number;
}

/**
 * Run the server in a child process and restart it when a watched file changes; resolve to the
 * exit code. A first server that stops before it served (a port in use, failed system checks,
 * broken settings) ends the reloader with its exit code; later failures (a syntax error being
 * edited) wait for the next change. SIGINT/SIGTERM stop the child, then the reloader.
 */
export function runWithReloader(options: ReloaderOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const env = options.env ?? process.env;
  const script = process.argv[1];
  let child: ChildProcess | null = null;
  let served = false;
  let generation = 0;
  let restartPending = false;
  let stopping = false;
  let debounce: NodeJS.Timeout | null = null;
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finish = resolve));

  const start = (): void => {
    generation++;
    const thisGeneration = generation;
    const spawned = spawn(process.execPath, [...reloaderChildFlags(), ...childExecArgv(), script, ...options.argv], {
      env: { ...env, ...reloaderChildEnv(env), [RUN_MAIN]: 'true' },
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    child = spawned;
    spawned.on('message', (message) => {
      if (message === SERVING_MESSAGE) served = true;
    });
    spawned.on('exit', (code, signal) => {
      if (child === spawned) child = null;
      if (stopping) return;
      if (restartPending) {
        restartPending = false;
        start();
        return;
      }
      if (thisGeneration === 1 && !served) {
        stop(code ?? (signal ? 1 : 0));
        return;
      }
      stdout.write('Watching for file changes to restart the server.\n');
    });
  };

  const restart = (file: string): void => {
    stdout.write(`${path.relative(options.projectDir, file) || file} changed, reloading.\n`);
    if (child) {
      restartPending = true;
      child.kill('SIGTERM');
    } else {
      start();
    }
  };

  const watcher = new FileWatcher({
    extensions: watchedExtensions(),
    onChange: (file) => {
      if (stopping) return;
      if (debounce) clearTimeout(debounce);
      debounce = setTimeout(() => restart(file), options.debounceMs ?? 100);
    },
  });
  for (const dir of watchedDirs(options.projectDir, env)) watcher.add(dir);

  const stop = (code: number): void => {
    if (stopping) return;
    stopping = true;
    if (debounce) clearTimeout(debounce);
    watcher.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!child) {
      finish(code);
      return;
    }
    child.once('exit', () => finish(code));
    child.kill('SIGTERM');
  };
  const onSignal = (): void => stop(0);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  stdout.write('Watching for file changes with fs.watch\n');
  start();
  return done;
}

/** Tell the reloader (when there is one) that the server child is serving. */
export function notifyServing(): void {
  if (process.env[RUN_MAIN] !== 'true' || typeof process.send !== 'function') return;
  process.send(SERVING_MESSAGE);
  process.channel?.unref(); // the channel must not keep the child alive after the server stops
}
