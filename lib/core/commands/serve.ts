/**
 * `manage.ts serve --workers N --bind HOST:PORT`: the production server.
 *
 * - `--workers 1`: the process serves itself, with no supervisor (as uvicorn with one worker):
 *   restarting it when it crashes is the process manager's job (systemd, a container runtime).
 *   It checks that the address is free, checks the database and runs the system checks (errors
 *   stop it, warnings are printed), listens, prints `Listening at http://HOST:PORT (pid P, 1
 *   process)` on stderr, and on SIGTERM/SIGINT drains the requests in flight and exits 0.
 * - `--workers N` (N >= 2, the default is one per CPU): a primary supervises N worker
 *   processes (node:cluster) sharing the port and replaces crashed ones.
 *   `executeFromCommandLine()` starts that primary through `servePrimary.ts`, which reads the
 *   arguments and forks the workers without loading the settings or anything of the project; a
 *   command line it leaves to management (unusual options) runs this core command there
 *   without loading the installed apps. The first worker checks the database and runs the
 *   system checks (errors stop it, warnings are printed once) before it serves; the others
 *   start once it serves. A worker failing before it served stops the whole command with its
 *   status.
 */
import cluster from 'node:cluster';
import { settings } from '../conf';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { ensureCanListen, listenErrorMessage, ServerStartError } from '../listenErrors';
import { parseAddrPort } from '../addrPort';
import { STARTUP_CHECKS_ENV, superviseWorkers } from '../cluster';
import { defaultServeWorkers, SERVE_DEFAULT_BIND } from '../servePrimary';
import type { RunningServer } from '../server';

/** Where `serve` listens, and whether it writes the access log. */
interface ServeTarget {
  host: string;
  port: number;
  accessLog: true | undefined;
}

/** Serves the project: in this process (`--workers 1`) or with supervised worker processes. */
export default class ServeCommand extends BaseCommand {
  static override help =
    'Serves the project in production. With --workers 1 the process serves itself, without a supervisor ' +
    '(restarting it is the process manager\'s job: systemd, containers); with --workers N (N >= 2) a primary ' +
    'process supervises N worker processes (node:cluster) on one address and replaces crashed ones. ' +
    'SIGTERM/SIGINT let the requests in flight finish, then exit 0.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'workers', short: 'w', type: 'number', default: defaultServeWorkers(), help: 'Number of processes (default: one per CPU); 1 serves in this process, without a supervisor.' });
    parser.addArgument({ name: 'bind', short: 'b', type: 'string', default: SERVE_DEFAULT_BIND, help: 'HOST:PORT to listen on (default 127.0.0.1:8000).' });
    parser.addArgument({ name: 'skip-checks', type: 'boolean', help: 'Skip system checks.' });
    parser.addArgument({ name: 'access-log', type: 'boolean', help: 'Write the access log (one line per request, buffered) to stderr; off by default unless ACCESS_LOG is true.' });
  }

  override async handle(options: CommandOptions): Promise<number> {
    const bind = String(options.bind);
    const parsed = parseAddrPort(bind);
    if (!parsed) throw new CommandError(`"${bind}" is not a valid port number or address:port pair.`);
    const workers = Number(options.workers);
    if (!Number.isInteger(workers) || workers < 1) throw new CommandError('--workers must be a positive integer.');
    if (!settings.DEBUG && settings.ALLOWED_HOSTS.length === 0) {
      throw new CommandError('You must set settings.ALLOWED_HOSTS if DEBUG is False.');
    }
    const target: ServeTarget = { host: parsed.host, port: parsed.port, accessLog: options.accessLog ? true : undefined };
    if (cluster.isPrimary && workers === 1) return this.serveInProcess(target, Boolean(options.skipChecks));
    const clusterOptions = { workers, host: parsed.host, port: parsed.port };
    // A worker that failed before serving has said why: the primary leaves with its status.
    if (cluster.isPrimary) {
      // A port in use is one line and exit status 1 (workers would fail to listen one by one).
      if (parsed.port !== 0) await ensureCanListen(parsed.host, parsed.port);
      return superviseWorkers({ ...clusterOptions, log: (line) => this.stderr.write(`${line}\n`) });
    }
    // A worker: the project (database layer, checks, server, handler) loads here.
    await this.startupChecks(process.env[STARTUP_CHECKS_ENV] === '1' && !options.skipChecks);
    const { runCluster } = await import('../server');
    return runCluster({ ...clusterOptions, accessLog: target.accessLog });
  }

  /**
   * `--workers 1`: serve in this process until SIGTERM/SIGINT (then drain and resolve 0). A
   * signal during start-up (checks, listening) stops it at once with status 0, as the
   * supervisor did.
   */
  private async serveInProcess(target: ServeTarget, skipChecks: boolean): Promise<number> {
    // A port in use is one line and exit status 1, before the checks print anything.
    if (target.port !== 0) await ensureCanListen(target.host, target.port);
    const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
    let onEarlySignal: () => void = () => undefined;
    const earlySignal = new Promise<null>((resolve) => (onEarlySignal = () => resolve(null)));
    for (const signal of signals) process.once(signal, onEarlySignal);
    const starting = this.startInProcess(target, skipChecks);
    // Stopped during start-up: what start-up still does (or throws) no longer matters.
    starting.catch(() => undefined);
    let running: RunningServer | null;
    try {
      running = await Promise.race([starting, earlySignal]);
    } finally {
      for (const signal of signals) process.off(signal, onEarlySignal);
    }
    if (running === null) return 0;
    this.stderr.write(`Listening at ${running.url} (pid ${process.pid}, 1 process)\n`);
    await running.closed;
    return 0;
  }

  /** The start-up of `--workers 1`: checks, then listen (listen errors in one line). */
  private async startInProcess(target: ServeTarget, skipChecks: boolean): Promise<RunningServer> {
    await this.startupChecks(!skipChecks);
    const { runServer } = await import('../server');
    try {
      return await runServer({ host: target.host, port: target.port, handleSignals: true, accessLog: target.accessLog });
    } catch (error) {
      const message = listenErrorMessage(error);
      if (message) throw new ServerStartError(message);
      throw error;
    }
  }

  /** Check the database (always) and run the system checks (when `systemChecks`) before serving. */
  private async startupChecks(systemChecks: boolean): Promise<void> {
    const { checkDatabaseForCommand } = await import('../databaseCheck');
    await checkDatabaseForCommand();
    if (systemChecks) {
      const { runSystemChecks } = await import('../checks');
      await runSystemChecks({ includeDatabaseChecks: true, stdout: this.stdout, stderr: this.stderr });
    }
  }
}
