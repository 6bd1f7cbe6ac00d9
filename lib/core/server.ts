/**
 * The HTTP server: node:http with keep-alive, header/request timeouts, HEAD answered without
 * a body, streaming responses written with backpressure, a one-line access log, graceful
 * shutdown on SIGTERM/SIGINT and a node:cluster mode (`serve --workers N`).
 *
 * Work in flight is bounded: past `SERVER_MAX_CONCURRENT_REQUESTS` requests in progress in the
 * process, or `SERVER_MAX_PIPELINED_REQUESTS` on one connection, a request is answered 503 with
 * `Retry-After` at once (nothing queues). An answer given before the request body was read (an
 * early 401/403/413, a 503) closes the connection, so the rest of the upload is not read.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `lib/core/server.ts` exports `onShutdown(fn)`: hooks run after the server stopped on
 *   SIGTERM/SIGINT and after every management command (the db layer registers
 *   `closeConnections` there).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import cluster from 'node:cluster';
import { type AddressInfo, type Socket } from 'node:net';
import { onSettingChanged, settings, type SettingName } from './conf';
import { HttpRequest, HttpResponse, StreamingHttpResponse } from './http';
import { handleRequest, logError, requestAborted } from './handler';
import { RequestAborted } from './exceptions';
import { runShutdownHooks } from './shutdown';
import { lingerOnClose } from './http/lingeringClose';
import { superviseWorkers, type ClusterOptions } from './cluster';
import { accessLog, accessLogLine } from './accessLog';
import { releaseYoungGeneration } from './startupHeap';

/** Answers a request; the default is the project's handler (middleware, URLs, views). */
export type RequestHandlerFunction = (request: HttpRequest) => Promise<HttpResponse>;

export { onShutdown, runShutdownHooks } from './shutdown';
export { parseAddrPort } from './addrPort';
export { type ClusterOptions } from './cluster';
export { childExecArgv } from './childProcess';

// ---------------------------------------------------------------------------------------------
// Writing responses
// ---------------------------------------------------------------------------------------------

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), 'utf8');
}

async function writeStream(res: ServerResponse, response: StreamingHttpResponse): Promise<number> {
  const source = response.streamingContent;
  const iterator: AsyncIterator<Buffer | string> | Iterator<Buffer | string> =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<Buffer | string>)[Symbol.iterator]();
  let closed = false;
  const onClose = (): void => {
    closed = true;
  };
  res.once('close', onClose);
  let bytes = 0;
  try {
    for (;;) {
      const step = await iterator.next();
      if (step.done || closed) break;
      const chunk = toBuffer(step.value);
      if (chunk.length === 0) continue;
      bytes += chunk.length;
      if (!res.write(chunk)) await waitForDrain(res);
      if (closed) break;
    }
    if (!closed) res.end();
  } catch (error) {
    logError(`Error while streaming the response: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    res.destroy();
  } finally {
    res.off('close', onClose);
    if (closed && typeof iterator.return === 'function') {
      try {
        await iterator.return();
      } catch {
        // The client went away; nothing more to do.
      }
    }
  }
  return bytes;
}

/**
 * Put `name: value` in node's flat header list: where the response's own headers already hold
 * that name (any case), in its place and spelled `name`, as `setHeader()` would; else last.
 */
function putHeader(list: Array<string | string[]>, response: HttpResponse, name: string, value: string | string[]): void {
  if (response.headers.has(name)) {
    const lower = name.toLowerCase();
    for (let i = 0; i < list.length; i += 2) {
      if ((list[i] as string).toLowerCase() === lower) {
        list[i] = name;
        list[i + 1] = value;
        return;
      }
    }
  }
  list.push(name, value);
}

/** Drop `name` (any case) from node's flat header list. */
function dropHeader(list: Array<string | string[]>, response: HttpResponse, name: string): void {
  if (!response.headers.has(name)) return;
  const lower = name.toLowerCase();
  for (let i = 0; i < list.length; i += 2) {
    if ((list[i] as string).toLowerCase() === lower) {
      list.splice(i, 2);
      return;
    }
  }
}

/**
 * The head of `response` as node's flat `[name, value, ...]` list for one `writeHead()`: the
 * response's headers in the order first set, then `Set-Cookie`, `Connection: close` and
 * `Content-Length` (when `contentLength` is not null; else any Content-Length is dropped),
 * each replacing a header of that name in place. The same lines, order and spelling as
 * `setHeader()` one by one gave.
 */
function headerList(response: HttpResponse, contentLength: number | null): Array<string | string[]> {
  const list: Array<string | string[]> = [];
  response.headers.appendTo(list);
  if (response.hasCookies) putHeader(list, response, 'Set-Cookie', response.cookieHeaders());
  if (response.closeConnection) putHeader(list, response, 'Connection', 'close');
  if (contentLength === null) dropHeader(list, response, 'Content-Length');
  else putHeader(list, response, 'Content-Length', String(contentLength));
  return list;
}

/** The largest body (bytes) written as latin1 text together with the head. */
const SMALL_BODY = 16 * 1024;

/**
 * Write `response` to node's `res`. HEAD gets the same headers (Content-Length included) and
 * no body. Answers the number of body bytes written.
 *
 * An in-memory body goes out with one `writeHead()` of the whole header list and one `end()`
 * (a text body as text, so node writes head and body in one chunk).
 */
export async function writeResponse(req: IncomingMessage, res: ServerResponse, response: HttpResponse): Promise<number> {
  return writeResponseNow(req, res, response);
}

/**
 * `writeResponse()` without an async step for an in-memory body: answers the number of bytes
 * written, or a promise of it for a streaming response.
 */
function writeResponseNow(req: IncomingMessage, res: ServerResponse, response: HttpResponse): number | Promise<number> {
  const head = req.method === 'HEAD';
  const bodiless = response.status === 204 || response.status === 304 || response.status < 200;
  if (response instanceof StreamingHttpResponse || response.streaming) {
    res.statusCode = response.status;
    res.statusMessage = response.reasonPhrase;
    for (const [name, value] of response.headers) res.setHeader(name, value);
    const cookies = response.cookieHeaders();
    if (cookies.length) res.setHeader('Set-Cookie', cookies);
    if (response.closeConnection) res.setHeader('Connection', 'close');
    if (head || bodiless) {
      res.end();
      return 0;
    }
    return writeStream(res, response as StreamingHttpResponse);
  }
  if (bodiless) {
    res.removeHeader('Content-Length');
    res.writeHead(response.status, response.reasonPhrase, headerList(response, null));
    res.end();
    return 0;
  }
  const content = response.content;
  const length = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.length;
  res.writeHead(response.status, response.reasonPhrase, headerList(response, length));
  if (head) {
    res.end();
    return 0;
  }
  // A small body in bytes goes out as latin1 text (one character per byte, so the same bytes):
  // node then writes the head and the body as one string, without a separate buffer write.
  if (typeof content !== 'string' && length <= SMALL_BODY) res.end(content.toString('latin1'), 'latin1');
  else res.end(content);
  return length;
}

// ---------------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------------

/** Options of `createServer()`. */
export interface ServerOptions {
  /** Answers requests (default: the project's handler). */
  handler?: RequestHandlerFunction;
  /**
   * Write the access log (buffered, on stderr); default: on only when `settings.ACCESS_LOG` is
   * `true` (runserver also logs when it is `null`, its default; serve only with `--access-log`).
   */
  accessLog?: boolean;
}

const shuttingDown = new WeakSet<http.Server>();

/** The number of requests in progress on a connection, kept on its socket. */
const IN_FLIGHT = Symbol('api_framework.inFlight');

/** A socket as the server counts requests on it. */
type CountedSocket = Socket & { [IN_FLIGHT]?: number };

/** The body of the last-resort 500, when the handler or the response writing fails. */
const SERVER_ERROR_BODY = Buffer.from('{"error": "Server Error (500)"}');

/** The body of the 503 given past the caps on work in flight (the API framework's ServiceUnavailable text). */
export const SERVER_BUSY_BODY = Buffer.from('{"detail":"Service temporarily unavailable, try again later."}');

/** The access-log status of a request whose client went away before the answer (nginx's 499). */
const CLIENT_CLOSED_STATUS = 499;

/** A non-negative integer setting; `fallback` when unset or malformed, 0 meaning "no cap". */
function countSetting(name: SettingName, fallback: number): number {
  const value: unknown = settings[name];
  if (value === null || value === false) return 0;
  const number = Number(value);
  return value === undefined || !Number.isFinite(number) || number < 0 ? fallback : Math.floor(number);
}

/** The caps on work in flight, read from the settings once and again after any setting changes. */
interface WorkCaps {
  concurrent: number;
  pipelined: number;
  retryAfter: number;
}

let cachedWorkCaps: WorkCaps | null = null;
onSettingChanged(() => {
  cachedWorkCaps = null;
});

function workCaps(): WorkCaps {
  cachedWorkCaps ??= {
    concurrent: countSetting('SERVER_MAX_CONCURRENT_REQUESTS', DEFAULT_MAX_CONCURRENT_REQUESTS),
    pipelined: countSetting('SERVER_MAX_PIPELINED_REQUESTS', DEFAULT_MAX_PIPELINED_REQUESTS),
    retryAfter: Math.max(1, countSetting('SERVER_BUSY_RETRY_AFTER', 1)),
  };
  return cachedWorkCaps;
}

/** The default `SERVER_MAX_CONCURRENT_REQUESTS`: requests in progress per process. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 128;
/** The default `SERVER_MAX_PIPELINED_REQUESTS`: requests in progress per connection. */
export const DEFAULT_MAX_PIPELINED_REQUESTS = 16;

/**
 * True while the request's body is still arriving: a 'request' event comes before the message is
 * complete even without a body, so only a declared body counts.
 */
function bodyStillArriving(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Answer 503 + Retry-After without running the handler; the connection closes when a body is unread. */
function answerBusy(req: IncomingMessage, res: ServerResponse, retryAfter: number): number {
  res.statusCode = 503;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Retry-After', String(retryAfter));
  res.setHeader('Content-Length', SERVER_BUSY_BODY.length);
  if (bodyStillArriving(req)) {
    res.setHeader('Connection', 'close');
    lingerOnClose(req.socket);
  }
  if (req.method === 'HEAD') {
    res.end();
    return 0;
  }
  res.end(SERVER_BUSY_BODY);
  return SERVER_BUSY_BODY.length;
}

/** Writing the response failed: a framed 500 when nothing was sent yet, else the connection is cut. */
function writeFailed(res: ServerResponse, error: unknown): void {
  logError(`Error while writing the response: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  if (!res.headersSent) {
    // Nothing was sent yet: drop what the failed response set (its status text, its
    // Content-Length, its cookies) so the error body is framed and described alone.
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    res.statusCode = 500;
    res.statusMessage = 'Internal Server Error';
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', SERVER_ERROR_BODY.length);
    res.setHeader('Connection', 'close');
    res.end(SERVER_ERROR_BODY);
  } else {
    res.destroy();
  }
}

/**
 * An `http.Server` serving the project (not listening yet). Timeouts come from
 * `SERVER_HEADERS_TIMEOUT`, `SERVER_REQUEST_TIMEOUT`, `SERVER_KEEP_ALIVE_TIMEOUT` (seconds).
 */
export function createServer(options: ServerOptions = {}): http.Server {
  const handler = options.handler ?? handleRequest;
  const requestTimeout = Math.max(0, Number(settings.SERVER_REQUEST_TIMEOUT) || 0) * 1000;
  let headersTimeout = Math.max(0, Number(settings.SERVER_HEADERS_TIMEOUT) || 0) * 1000;
  if (requestTimeout > 0 && headersTimeout > requestTimeout) headersTimeout = requestTimeout;
  // Node checks those timeouts every connectionsCheckingInterval (30 s by default), so a slow
  // client could hold its connection up to 30 s past them: check at least every second.
  const connectionsCheckingInterval = Math.max(250, Math.min(1000, headersTimeout || 1000, requestTimeout || 1000));
  const server = http.createServer({ requestTimeout, headersTimeout, keepAlive: true, connectionsCheckingInterval });
  server.keepAliveTimeout = Math.max(0, Number(settings.SERVER_KEEP_ALIVE_TIMEOUT) || 0) * 1000;

  const accessLogOn = (): boolean => options.accessLog ?? settings.ACCESS_LOG === true;
  let inFlight = 0;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // The clock is read only when the line will be written (the setting is read once per request).
    const logging = accessLogOn();
    const started = logging ? process.hrtime.bigint() : 0n;
    const socket = req.socket as CountedSocket;
    const caps = workCaps();
    const onSocket = socket[IN_FLIGHT] ?? 0;
    if ((caps.concurrent > 0 && inFlight >= caps.concurrent) || (caps.pipelined > 0 && onSocket >= caps.pipelined)) {
      const bytes = answerBusy(req, res, caps.retryAfter);
      if (logging) accessLog.write(accessLogLine(req, 503, bytes, started));
      return;
    }
    inFlight += 1;
    socket[IN_FLIGHT] = onSocket + 1;
    const request = new HttpRequest(req);
    let pending: Promise<HttpResponse>;
    try {
      pending = handler(request);
    } catch (error) {
      pending = Promise.reject(error);
    }
    // One promise reaction per request: the answer is written in it, without an async frame
    // unless the upload is still arriving or the body streams (`deliver`).
    void pending.then(
      (response) => deliver(req, res, socket, request, response, logging, started),
      (error: unknown) => deliver(req, res, socket, request, failureResponse(req, request, error), logging, started),
    );
  });

  /** The last-resort answer to a handler that failed (the handler turns its own errors into responses). */
  function failureResponse(req: IncomingMessage, request: HttpRequest, error: unknown): HttpResponse {
    if (error instanceof RequestAborted) return requestAborted(request, error);
    logError(`Internal Server Error: ${req.url}\n${error instanceof Error ? error.stack : String(error)}`);
    return new HttpResponse(SERVER_ERROR_BODY, { status: 500, contentType: 'application/json' });
  }

  /**
   * Write `response`, log it, and finish the request (the counts of work in flight, the
   * request's cleanups). At once for an in-memory body on a connection whose request was read;
   * else `deliverLater()`.
   */
  function deliver(
    req: IncomingMessage, res: ServerResponse, socket: CountedSocket, request: HttpRequest, response: HttpResponse, logging: boolean, started: bigint,
  ): void {
    if (bodyStillArriving(req) || response.streaming || response instanceof StreamingHttpResponse) {
      void deliverLater(req, res, socket, request, response, logging, started);
      return;
    }
    try {
      if (shuttingDown.has(server)) response.closeConnection = true;
      writeAndLog(req, res, response, logging, started);
    } finally {
      finished(socket);
    }
    // The request is finished: remove uploaded temporary files and the like.
    if (request.hasCleanups) void request.runCleanups();
  }

  /** `deliver()` when the upload is still arriving or the body streams. */
  async function deliverLater(
    req: IncomingMessage, res: ServerResponse, socket: CountedSocket, request: HttpRequest, response: HttpResponse, logging: boolean, started: bigint,
  ): Promise<void> {
    try {
      // Answered before the body was read (an early 401/403/413...): close rather than read
      // (and discard) the rest of the upload to keep the connection alive.
      // The parser may still hold the rest of a small body received with the headers: give it
      // one turn before deciding.
      if (bodyStillArriving(req)) await new Promise<void>((resolve) => setImmediate(resolve));
      const uploadUnread = bodyStillArriving(req);
      if (shuttingDown.has(server) || uploadUnread) response.closeConnection = true;
      if (uploadUnread) lingerOnClose(req.socket);
      await writeAndLog(req, res, response, logging, started);
    } finally {
      finished(socket);
    }
    // The request is finished: remove uploaded temporary files and the like.
    if (request.hasCleanups) await request.runCleanups();
  }

  /**
   * Write `response` (unless the client went away: logged as 499) and write its access-log
   * line; a promise only while a streamed body is being written. A failed write answers a
   * framed 500 when nothing was sent yet (`writeFailed()`).
   */
  function writeAndLog(req: IncomingMessage, res: ServerResponse, response: HttpResponse, logging: boolean, started: bigint): void | Promise<void> {
    const clientGone = req.destroyed && !req.complete;
    let written: number | Promise<number> = 0;
    try {
      if (!clientGone) written = writeResponseNow(req, res, response);
    } catch (error) {
      writeFailed(res, error);
    }
    if (typeof written === 'number') {
      if (logging) accessLog.write(accessLogLine(req, clientGone ? CLIENT_CLOSED_STATUS : res.statusCode, written, started));
      return undefined;
    }
    return written.then(
      (bytes) => {
        if (logging) accessLog.write(accessLogLine(req, res.statusCode, bytes, started));
      },
      (error: unknown) => {
        writeFailed(res, error);
        if (logging) accessLog.write(accessLogLine(req, res.statusCode, 0, started));
      },
    );
  }

  /** Count a request on `socket` as finished. */
  function finished(socket: CountedSocket): void {
    inFlight -= 1;
    socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 1) - 1;
  }

  return server;
}

/** Options of `runServer()`. */
export interface RunServerOptions extends ServerOptions {
  host?: string;
  /** 0 picks a free port; read the bound one from the result. */
  port?: number;
  /** Stop gracefully on SIGTERM/SIGINT and run the shutdown hooks. */
  handleSignals?: boolean;
  /** Seconds to wait for in-flight requests before closing connections (default: SERVER_REQUEST_TIMEOUT). */
  shutdownTimeout?: number;
}

/** A listening server. */
export interface RunningServer {
  server: http.Server;
  host: string;
  /** The bound port. */
  port: number;
  /** `http://host:port`. */
  url: string;
  /** Stop accepting, let in-flight requests finish, close idle keep-alive connections. */
  close(): Promise<void>;
  /** Settles once the server is closed (by `close()` or a signal). */
  closed: Promise<void>;
}

/**
 * Stop `server` gracefully: no new connections, idle keep-alive sockets closed, in-flight
 * requests answered with `Connection: close`; after `timeoutMs` the rest are cut.
 */
export function closeGracefully(server: http.Server, timeoutMs: number): Promise<void> {
  shuttingDown.add(server);
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    const timer = setTimeout(() => server.closeAllConnections(), Math.max(timeoutMs, 1));
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Start serving on `host:port`; resolves once listening. Listening ends start-up: V8's young
 * generation, held small while `serve` loaded the project, may grow again (`startupHeap.ts`).
 */
export async function runServer(options: RunServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Start-up is over: the young generation may grow with the requests (`startupHeap.ts`).
  releaseYoungGeneration();
  const address = server.address() as AddressInfo;
  const timeoutMs = (options.shutdownTimeout ?? (Number(settings.SERVER_REQUEST_TIMEOUT) || 30)) * 1000;
  let closing: Promise<void> | null = null;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
  const onSignal = (): void => {
    void running.close().then(runShutdownHooks);
  };
  const running: RunningServer = {
    server,
    host,
    port: address.port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close() {
      if (!closing) {
        if (options.handleSignals) for (const signal of signals) process.off(signal, onSignal);
        closing = closeGracefully(server, timeoutMs).then(markClosed);
      }
      return closing;
    },
    closed,
  };
  if (options.handleSignals) for (const signal of signals) process.once(signal, onSignal);
  return running;
}

// ---------------------------------------------------------------------------------------------
// Cluster mode
// ---------------------------------------------------------------------------------------------

/**
 * In the primary: fork `workers` processes (this same entry point), restart any that crash,
 * and on SIGTERM/SIGINT stop them all (`superviseWorkers()`). In a worker: serve on the port
 * the primary chose. Resolves once everything has stopped, with the primary's exit status.
 */
export async function runCluster(options: ClusterOptions & Pick<ServerOptions, 'accessLog'>): Promise<number> {
  if (cluster.isPrimary) return superviseWorkers(options);
  // The primary resolved port 0 to a concrete port so that every worker (and every
  // replacement) shares one listening handle.
  const assigned = Number(process.env.API_FRAMEWORK_BIND_PORT);
  const port = Number.isInteger(assigned) && assigned > 0 ? assigned : options.port ?? 8000;
  const running = await runServer({ host: options.host ?? '127.0.0.1', port, handleSignals: true, accessLog: options.accessLog });
  process.send?.({ type: 'listening', port: running.port });
  await running.closed;
  return 0;
}
