/**
 * `[HOST:]PORT` parsing for `runserver` and `serve` (a module of its own so that a process
 * can read its bind address without loading the server).
 */

/**
 * Parse `[HOST:]PORT` (`8000`, `0.0.0.0:8000`, `[::1]:8000`, `localhost:8000`); null when
 * malformed.
 */
export function parseAddrPort(text: string, defaultHost = '127.0.0.1'): { host: string; port: number } | null {
  const match = /^(?:(\d{1,3}(?:\.\d{1,3}){3}|\[[a-fA-F0-9:]+\]|[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*):)?(\d+)$/.exec(text);
  if (!match) return null;
  const port = Number(match[2]);
  if (port > 65535) return null;
  let host = match[1] ?? defaultHost;
  if (host.startsWith('[')) host = host.slice(1, -1);
  return { host, port };
}
