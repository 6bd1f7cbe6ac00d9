/**
 * A lingering close for a connection answered before its request body was read (an early
 * 401/403/413/503 to an upload). Node ends such a connection by closing the socket as soon as
 * the answer is flushed; the client is usually still sending, so the kernel answers its next
 * segment with a reset, and a reset makes the client's kernel drop what it had received but not
 * yet read — the answer itself. The client then sees "connection reset" instead of the 401.
 *
 * Instead the connection half-closes (FIN after the answer), stops reading (the unread upload
 * stays in the kernel's buffers, so the client blocks instead of sending more), and is closed
 * `LINGER_MS` later (or when the connection is torn down first). Apache's and nginx's
 * `lingering_close` do the same for the same reason. Node built-ins only.
 */
import type { Socket } from 'node:net';

/** How long a half-closed connection waits for the client to read its answer. */
export const LINGER_MS = 2000;

/** The http server's own "paused by the server" flag: set, node does not resume the socket. */
interface ServerPausedSocket extends Socket {
  _paused?: boolean;
}

/**
 * Make the http server's close of `socket` (after the current response) a lingering close.
 * Call it before writing a `Connection: close` answer while the request body is still arriving.
 */
export function lingerOnClose(socket: Socket): void {
  const lingering = socket as ServerPausedSocket;
  lingering.destroySoon = function lingeringClose(this: ServerPausedSocket): void {
    // Stop reading first: the upload waits in the kernel and the client blocks on a full window.
    this._paused = true;
    this.pause();
    this.end();
    // Not unref'd: a paused socket keeps no handle active, and a graceful close waits for it.
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    this.once('close', () => clearTimeout(timer));
  };
}
