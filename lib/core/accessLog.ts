/**
 * The access log: one line per request (`remote "METHOD path HTTP/x.y" status bytes ms`) on
 * stderr. Lines are buffered and written together once per turn of the event loop (and at
 * exit), never with one synchronous write per request: stderr is a synchronous stream when
 * it is a file or a pipe, and under load one `write()` per request costs as much as a small
 * view.
 */
import type { IncomingMessage } from 'node:http';

/** The log line of one answered request (`started` from `process.hrtime.bigint()`). */
export function accessLogLine(req: IncomingMessage, status: number, bytes: number, started: bigint): string {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const remote = req.socket?.remoteAddress ?? '-';
  return `${remote} "${req.method} ${req.url} HTTP/${req.httpVersion}" ${status} ${bytes} ${ms.toFixed(1)}ms`;
}

/**
 * Collects access-log lines and writes them to a stream in one write per turn of the event
 * loop. Use `accessLog` (stderr) unless a test needs its own stream.
 */
export class BufferedLog {
  private pending = '';
  private scheduled = false;
  private exitHooked = false;

  constructor(private readonly stream: () => NodeJS.WritableStream) {}

  /** Queue `line` (without its newline); it is written at the end of this turn of the event loop. */
  write(line: string): void {
    this.pending += `${line}\n`;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
    if (!this.exitHooked) {
      this.exitHooked = true;
      process.once('exit', this.flush);
    }
  }

  /** Write what is queued now (also run at process exit, so no line is lost). */
  readonly flush = (): void => {
    this.scheduled = false;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.stream().write(text);
  };
}

/** The server's access log, on stderr (read at each flush, so a test may replace `process.stderr.write`). */
export const accessLog = new BufferedLog(() => process.stderr);
