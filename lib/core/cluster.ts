/**
 * The supervising half of cluster mode (`serve --workers N`): the primary process forks the
 * workers, restarts crashed ones and stops them on SIGTERM/SIGINT. It imports only node's own
 * modules, so a primary that supervises loads none of the project (its settings aside): the
 * workers load the apps, models and URL conf, and serve (`runCluster()` in `server.ts`).
 */
import cluster, { type Worker } from 'node:cluster';
import net, { type AddressInfo } from 'node:net';
import { childExecArgv } from './childProcess';

function findFreePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Options of `runCluster()` and `superviseWorkers()`. */
export interface ClusterOptions {
  workers: number;
  host?: string;
  port?: number;
  /** Where the primary reports (default stderr). */
  log?: (line: string) => void;
  /** Extra node flags for the workers (after the primary's own). */
  workerExecArgv?: readonly string[];
}

/**
 * Set (to `1`) in the environment of the first worker only: it runs the start-up checks
 * (`serve` runs the system checks there) before serving, and the other workers start after it.
 */
export const STARTUP_CHECKS_ENV = 'API_FRAMEWORK_STARTUP_CHECKS';

/** What a worker tells the primary once it serves. */
interface ListeningMessage {
  type?: string;
  port?: number;
}

/**
 * In the primary: fork `workers` processes running this same entry point (which serve on the
 * shared port): the first alone (with `STARTUP_CHECKS_ENV` set), the others once it serves;
 * replace any that exits, and on SIGTERM/SIGINT stop them all. A worker that
 * exits with an error before it ever served (a database that cannot be reached, a broken
 * project: it printed why) stops the whole cluster instead of being restarted in a loop.
 * Resolves with the exit status once every worker has stopped: 0, or the failed worker's.
 */
export async function superviseWorkers(options: ClusterOptions): Promise<number> {
  const host = options.host ?? '127.0.0.1';
  let port = options.port ?? 8000;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  cluster.setupPrimary({ execArgv: [...childExecArgv(), ...(options.workerExecArgv ?? [])] });
  // Port 0 is resolved here so that every worker (and every replacement) shares one handle.
  if (port === 0) port = await findFreePort(host);
  let stopping = false;
  let exitCode = 0;
  const live = new Set<Worker>();
  const ready = new Set<number>();
  let announced = false;
  const fork = (first = false): void => {
    const env: Record<string, string> = { API_FRAMEWORK_WORKER: '1', API_FRAMEWORK_BIND_PORT: String(port) };
    if (first) env[STARTUP_CHECKS_ENV] = '1';
    const worker = cluster.fork(env);
    live.add(worker);
    worker.on('message', (message: ListeningMessage) => {
      if (message?.type !== 'listening') return;
      ready.add(worker.id);
      if (first && !stopping) for (let i = 1; i < options.workers; i++) fork();
      // Announce once every worker of the first generation is serving.
      if (!announced && ready.size >= options.workers) {
        announced = true;
        log(`Listening at http://${host}:${message.port} (pid ${process.pid}, ${options.workers} workers)`);
      }
    });
  };
  return new Promise<number>((resolve) => {
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      if (live.size === 0) resolve(exitCode);
      for (const worker of live) worker.process.kill('SIGTERM');
    };
    const onSignal = (): void => {
      if (!stopping) log('Shutting down workers...');
      stop();
    };
    cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
      live.delete(worker);
      if (stopping) {
        if (live.size === 0) resolve(exitCode);
        return;
      }
      if (!ready.has(worker.id) && code !== 0 && signal === null) {
        exitCode = code ?? 1;
        stop();
        return;
      }
      log(`Worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting a new one.`);
      fork();
    });
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    fork(true);
  });
}
