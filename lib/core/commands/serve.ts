/**
 * `manage.ts serve --workers N --bind HOST:PORT`: the production server, one process per
 * worker (node:cluster) sharing the port; crashed workers are replaced.
 */
import os from 'node:os';
import cluster from 'node:cluster';
import { settings } from '../conf';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { runCluster, parseAddrPort } from '../server';
import { checkDatabaseForCommand } from '../databaseCheck';
import { runSystemChecks } from '../checks';
import { ensureCanListen } from '../listenErrors';
import { closeConnections } from '../db/connection';

/** Serves the project with several worker processes. */
export default class ServeCommand extends BaseCommand {
  static override help = 'Serves the project in production: N worker processes (node:cluster) on one address.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'workers', short: 'w', type: 'number', default: os.availableParallelism(), help: 'Number of worker processes (default: one per CPU).' });
    parser.addArgument({ name: 'bind', short: 'b', type: 'string', default: '127.0.0.1:8000', help: 'HOST:PORT to listen on (default 127.0.0.1:8000).' });
    parser.addArgument({ name: 'skip-checks', type: 'boolean', help: 'Skip system checks.' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const bind = String(options.bind);
    const parsed = parseAddrPort(bind);
    if (!parsed) throw new CommandError(`"${bind}" is not a valid port number or address:port pair.`);
    const workers = Number(options.workers);
    if (!Number.isInteger(workers) || workers < 1) throw new CommandError('--workers must be a positive integer.');
    if (!settings.DEBUG && settings.ALLOWED_HOSTS.length === 0) {
      throw new CommandError('You must set settings.ALLOWED_HOSTS if DEBUG is False.');
    }
    // The primary process runs the system checks (errors stop it, warnings are printed) and
    // checks the database once (closing it again) before forking workers.
    if (cluster.isPrimary) {
      // A port in use is one line and exit status 1 (workers would fail to listen one by one).
      if (parsed.port !== 0) await ensureCanListen(parsed.host, parsed.port);
      await checkDatabaseForCommand();
      try {
        if (!options.skipChecks) await runSystemChecks({ includeDatabaseChecks: true, stdout: this.stdout, stderr: this.stderr });
      } finally {
        await closeConnections();
      }
    }
    await runCluster({
      workers,
      host: parsed.host,
      port: parsed.port,
      log: (line) => (cluster.isPrimary ? this.stderr.write(`${line}\n`) : undefined),
    });
  }
}
