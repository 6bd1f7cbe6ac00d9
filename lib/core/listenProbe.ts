/**
 * Can this process listen on `host:port`? Node built-ins only, so that `serve`'s supervising
 * primary can ask before it forks workers without loading the management layer; the wording
 * of the failures is the host framework's `runserver` (`That port is already in use.`).
 */
import net from 'node:net';

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
 * Listen on `host:port` and close at once: resolves when that worked, rejects with the
 * `listen()` error otherwise (its message: `listenErrorMessage()`).
 */
export function probeListen(host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
