/**
 * Errors of `listen()` as the host framework's `runserver` words them (`Error: That port is
 * already in use.`), shared by `runserver` and `serve`.
 */
import { CommandError } from './management';
import { listenErrorMessage, probeListen } from './listenProbe';

export { listenErrorMessage };

/** A listen error, printed as the host framework does: `Error: That port is already in use.` */
export class ServerStartError extends CommandError {
  override displayText(): string {
    return `Error: ${this.message}`;
  }
}

/**
 * Check that `host:port` can be listened on (listen, then close at once); a `ServerStartError`
 * when it cannot. For a supervising process (`serve`'s primary) before it starts workers.
 */
export async function ensureCanListen(host: string, port: number): Promise<void> {
  try {
    await probeListen(host, port);
  } catch (error) {
    const message = listenErrorMessage(error);
    if (message) throw new ServerStartError(message);
    throw error;
  }
}
