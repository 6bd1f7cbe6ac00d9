/**
 * `serve`'s supervising primary, started by `executeFromCommandLine()` before anything of the
 * project or of the framework loads: it reads `--workers` and `--bind` itself, checks that the
 * address is free and forks the workers (`superviseWorkers()`), which load the settings, the
 * apps and the server. Node built-ins only, so the primary costs about what a bare node process
 * costs. A command line it does not recognise (`--help`, an unknown or malformed option) goes
 * the ordinary way, through the management layer, which prints the usage or the error.
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

/** Flags without a value that only the workers act on. */
const WORKER_FLAGS = new Set(['--skip-checks']);

/**
 * The arguments of `serve` when `argv` (without node and the script) is a `serve` command line
 * this process supervises as a primary; null for any other command, in a worker, or when the
 * command line holds anything else than `--workers`, `--bind`, `--settings` and
 * `--skip-checks` with valid values (the management layer then runs it and reports).
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
  const workers = values.workers === undefined ? defaultServeWorkers() : Number(values.workers);
  if (values.workers !== undefined && !/^\d+$/.test(values.workers)) return null;
  if (!Number.isInteger(workers) || workers < 1) return null;
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
