/**
 * Errors of `listen()` as the host framework's `runserver` words them (`Error: That port is
 * already in use.`), shared by `runserver` and `serve`.
 */
import net from 'node:net';
import { CommandError } from './management';

/** A listen error, printed as the host framework does: `Error: That port is already in use.` */
export class ServerStartError extends CommandError {
  override displayText(): string {
    return `Error: ${this.message}`;
  }
}

const LISTEN_ERRORS: Record<string, string> = {
  EACCES: "You don't have permission to access that port.",
  EADDRINUSE: 'That port is already in use.',
  EADDRNOTAVAIL: "That IP address can't be assigned to.",
};

/** The one-line message for an error of `listen()`, or null for other errors. */
export function listenErrorMessage(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code !== undefined && code in LISTEN_ERRORS ? LISTEN_ERRORS[code] : null;
}

/**
 * Check that `host:port` can be listened on (listen, then close at once); a `ServerStartError`
 * when it cannot. For a supervising process (`serve`'s primary) before it starts workers.
 */
export async function ensureCanListen(host: string, port: number): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen(port, host, () => probe.close(() => resolve()));
    });
  } catch (error) {
    const message = listenErrorMessage(error);
    if (message) throw new ServerStartError(message);
    throw error;
  }
}
