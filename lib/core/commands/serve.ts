/**
 * `manage.ts serve --workers N --bind HOST:PORT`: the production server, one process per
 * worker (node:cluster) sharing the port; crashed workers are replaced.
 *
 * The primary only supervises: `executeFromCommandLine()` starts it through `servePrimary.ts`,
 * which reads the arguments and forks the workers without loading the settings or anything of
 * the project; a command line it leaves to management (unusual options) runs this core command
 * there without loading the installed apps. The first worker checks the database and runs the system checks
 * (errors stop it, warnings are printed once) before it serves; the others start once it
 * serves. A worker failing before it served stops the whole command with its status.
 */
import cluster from 'node:cluster';
import { settings } from '../conf';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { ensureCanListen } from '../listenErrors';
import { parseAddrPort } from '../addrPort';
import { STARTUP_CHECKS_ENV, superviseWorkers } from '../cluster';
import { defaultServeWorkers, SERVE_DEFAULT_BIND } from '../servePrimary';

/** Serves the project with several worker processes. */
export default class ServeCommand extends BaseCommand {
  static override help = 'Serves the project in production: N worker processes (node:cluster) on one address.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'workers', short: 'w', type: 'number', default: defaultServeWorkers(), help: 'Number of worker processes (default: one per CPU).' });
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
    const clusterOptions = { workers, host: parsed.host, port: parsed.port };
    // A worker that failed before serving has said why: the primary leaves with its status.
    if (cluster.isPrimary) {
      // A port in use is one line and exit status 1 (workers would fail to listen one by one).
      if (parsed.port !== 0) await ensureCanListen(parsed.host, parsed.port);
      return superviseWorkers({ ...clusterOptions, log: (line) => this.stderr.write(`${line}\n`) });
    }
    // A worker: the project (database layer, checks, server, handler) loads here.
    const { checkDatabaseForCommand } = await import('../databaseCheck');
    await checkDatabaseForCommand();
    if (process.env[STARTUP_CHECKS_ENV] === '1' && !options.skipChecks) {
      const { runSystemChecks } = await import('../checks');
      await runSystemChecks({ includeDatabaseChecks: true, stdout: this.stdout, stderr: this.stderr });
    }
    const { runCluster } = await import('../server');
    return runCluster({ ...clusterOptions, accessLog: options.accessLog ? true : undefined });
  }
}
