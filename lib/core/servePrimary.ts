/**
 * `serve`'s supervising primary (`--workers N`, N >= 2), started by `executeFromCommandLine()`
 * before anything of the project or of the framework loads: it reads `--workers` and `--bind`
 * itself, checks that the address is free and forks the workers (`superviseWorkers()`), which
 * load the settings, the apps and the server. Node built-ins only, so the primary costs about
 * what a bare node process costs. `serve --workers 1` has no primary: the process serves itself
 * (through the management layer, `commands/serve.ts`). A command line the primary does not
 * recognise (`--help`, an unknown or malformed option) goes the ordinary way, through the
 * management layer, which prints the usage or the error.
 */
import cluster from 'node:cluster';
import os from 'node:os';
import { parseAddrPort } from './addrPort';
import { superviseWorkers } from './cluster';
import { listenErrorMessage, probeListen } from './listenProbe';

/** `serve`'s default `--bind`. */
export const SERVE_DEFAULT_BIND = '127.0.0.1:8000';

/** `serve`'s default `--workers`: one per CPU. */
export function defaultServeWorkers(): number {
  return os.availableParallelism();
}

/** What the primary needs to supervise: how many workers, on which address. */
export interface ServePrimaryArguments {
  workers: number;
  host: string;
  port: number;
}

/** Options that take a value, by every spelling, and the name they set. */
const VALUED_OPTIONS: Readonly<Record<string, 'workers' | 'bind' | 'settings'>> = {
  '--workers': 'workers', '-w': 'workers', '--bind': 'bind', '-b': 'bind', '--settings': 'settings',
};

/** Flags without a value that only the workers act on (they read them from the same argv). */
const WORKER_FLAGS = new Set(['--skip-checks', '--access-log']);

/**
 * The value of `--workers` / `-w` / `--workers=N` in a `serve` command line (`argv` without
 * the command name), `defaultServeWorkers()` when absent, null when malformed (the management
 * layer then reports it).
 */
export function requestedServeWorkers(argv: readonly string[]): number | null {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--workers' || arg === '-w') value = argv[++i];
    else if (arg.startsWith('--workers=')) value = arg.slice('--workers='.length);
  }
  if (value === undefined) return defaultServeWorkers();
  if (!/^\d+$/.test(value)) return null;
  const workers = Number(value);
  return Number.isSafeInteger(workers) && workers >= 1 ? workers : null;
}

/**
 * True when a `serve` command line (`argv` without the command name) asks for a supervising
 * primary, i.e. for more than one worker; `serve --workers 1` serves in its own process.
 */
export function serveSupervises(argv: readonly string[]): boolean {
  const workers = requestedServeWorkers(argv);
  return workers === null || workers > 1;
}

/**
 * The arguments of `serve` when `argv` (without node and the script) is a `serve` command line
 * this process supervises as a primary (two workers or more); null for any other command, in
 * a worker, for `--workers 1` (that process serves itself), or when the command line holds
 * anything else than `--workers`, `--bind`, `--settings`, `--skip-checks` and `--access-log`
 * with valid values (the management layer then runs it and reports).
 */
export function servePrimaryArguments(argv: readonly string[]): ServePrimaryArguments | null {
  if (argv[0] !== 'serve' || !cluster.isPrimary) return null;
  const values: Partial<Record<'workers' | 'bind' | 'settings', string>> = {};
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (WORKER_FLAGS.has(arg)) continue;
    const equals = arg.indexOf('=');
    const name = VALUED_OPTIONS[equals > 0 && arg.startsWith('--') ? arg.slice(0, equals) : arg];
    if (!name) return null;
    let value: string;
    if (equals > 0 && arg.startsWith('--')) {
      value = arg.slice(equals + 1);
    } else {
      if (i + 1 >= argv.length) return null;
      value = argv[++i];
    }
    values[name] = value;
  }
  const workers = requestedServeWorkers(argv.slice(1));
  if (workers === null || workers === 1) return null;
  const address = parseAddrPort(values.bind ?? SERVE_DEFAULT_BIND);
  if (!address) return null;
  return { workers, host: address.host, port: address.port };
}

/**
 * Supervise `serve`'s workers from this primary and resolve with the exit status: 1 with
 * `Error: That port is already in use.` (and the like) when the address cannot be listened on,
 * else `superviseWorkers()`'s status. The workers check the settings (`ALLOWED_HOSTS`), the
 * database and the project before serving; one failing stops the command with its status.
 */
export async function runServePrimary(args: ServePrimaryArguments): Promise<number> {
  if (args.port !== 0) {
    try {
      await probeListen(args.host, args.port);
    } catch (error) {
      const message = listenErrorMessage(error);
      if (!message) throw error;
      process.stderr.write(`Error: ${message}\n`);
      return 1;
    }
  }
  return superviseWorkers({ workers: args.workers, host: args.host, port: args.port });
}
