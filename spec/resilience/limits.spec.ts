/**
 * Bounded work in flight and early refusals, against a real `runServer()` with a handler of
 * the spec's own (gated, so requests can be held in progress):
 * - past `SERVER_MAX_CONCURRENT_REQUESTS` in the process, or `SERVER_MAX_PIPELINED_REQUESTS`
 *   on one connection, a request is answered 503 + Retry-After at once, and the slots free up;
 * - an answer given before the body was read carries `Connection: close` and the server stops
 *   reading the upload;
 * - a client hanging up mid-body is logged as a client abort (no 500, no "Internal Server Error").
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import { overrideSettings } from '../../lib/core/conf';
import { runServer, SERVER_BUSY_BODY, type RunningServer } from '../../lib/core/server';
import { handleRequest } from '../../lib/core/handler';
import { HttpResponse, type HttpRequest } from '../../lib/core/http';

interface Context {
  running: RunningServer;
  restore: () => void;
  /** Requests held by the gate until `open()`. */
  held: number;
  open: () => void;
  gate: Promise<void>;
  /** Bytes the server read on each accepted connection. */
  sockets: net.Socket[];
}

const limits = suite<Context>('resilience: work in flight and early refusals');

function resetGate(ctx: Context): void {
  ctx.held = 0;
  ctx.gate = new Promise<void>((resolve) => (ctx.open = resolve));
}

/** /hold/ waits for the gate; /deny/ answers 403 without reading the body; /read/ reads it; else the project. */
async function handler(this: Context, request: HttpRequest): Promise<HttpResponse> {
  if (request.path === '/hold/') {
    this.held += 1;
    await this.gate;
    return new HttpResponse('{"ok":true}', { contentType: 'application/json' });
  }
  if (request.path === '/deny/') return new HttpResponse('{"detail":"no"}', { status: 403, contentType: 'application/json' });
  if (request.path === '/read/') {
    const body = await request.body();
    return new HttpResponse(JSON.stringify({ size: body.length }), { contentType: 'application/json' });
  }
  return handleRequest(request);
}

limits.before(async (ctx) => {
  ctx.restore = overrideSettings.enter({ ACCESS_LOG: false, ALLOWED_HOSTS: ['*'] });
  resetGate(ctx);
  ctx.sockets = [];
  ctx.running = await runServer({ host: '127.0.0.1', port: 0, handler: handler.bind(ctx) });
  ctx.running.server.on('connection', (socket: net.Socket) => ctx.sockets.push(socket));
});

limits.after(async (ctx) => {
  ctx.open();
  await ctx.running.close();
  ctx.restore();
});

limits.before.each((ctx) => resetGate(ctx));
limits.after.each((ctx) => ctx.open());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parse every HTTP/1.1 response in `text` (Content-Length framed). */
function parseResponses(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

/** Open a raw connection, write `payload`, collect everything until the server closes or `until` holds. */
function rawExchange(port: number, payload: string, until: (text: string) => boolean): { done: Promise<string>; socket: net.Socket } {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  const done = new Promise<string>((resolve, reject) => {
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (until(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  socket.write(payload);
  return { done, socket };
}

async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function get(path: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
}

limits('concurrent cap :: past SERVER_MAX_CONCURRENT_REQUESTS -> 503 + Retry-After at once; the slots free up', async (ctx) => {
  await overrideSettings({ SERVER_MAX_CONCURRENT_REQUESTS: 3, SERVER_BUSY_RETRY_AFTER: 7 }, async () => {
    const held = [1, 2, 3].map(() => rawExchange(ctx.running.port, get('/hold/'), (text) => parseResponses(text).length === 1));
    await waitUntil(() => ctx.held === 3, 'three requests in progress');
    // Two more connections: refused without waiting for the gate.
    for (const path of ['/hold/', '/anything/']) {
      const text = await rawExchange(ctx.running.port, get(path), (t) => parseResponses(t).length === 1).done;
      const [answer] = parseResponses(text);
      assert.is(answer.status, 503);
      assert.is(answer.headers['retry-after'], '7');
      assert.is(answer.headers['content-type'], 'application/json');
      assert.is(answer.body, SERVER_BUSY_BODY.toString());
      assert.is(answer.body, '{"detail":"Service temporarily unavailable, try again later."}');
    }
    assert.is(ctx.held, 3);
    ctx.open();
    for (const exchange of held) assert.is(parseResponses(await exchange.done)[0].status, 200);
    // Released: the next ones are served (the count went back down).
    for (let i = 0; i < 4; i += 1) {
      const text = await rawExchange(ctx.running.port, get('/hold/'), (t) => parseResponses(t).length === 1).done;
      assert.is(parseResponses(text)[0].status, 200);
    }
  });
});

limits('pipelined cap :: past SERVER_MAX_PIPELINED_REQUESTS on one connection -> 503, in order', async (ctx) => {
  await overrideSettings({ SERVER_MAX_PIPELINED_REQUESTS: 2, SERVER_MAX_CONCURRENT_REQUESTS: 100 }, async () => {
    const exchange = rawExchange(ctx.running.port, get('/hold/').repeat(6), (text) => parseResponses(text).length === 6);
    await waitUntil(() => ctx.held === 2, 'two pipelined requests in progress');
    // A request on another connection is not refused: the cap is per connection.
    const other = rawExchange(ctx.running.port, get('/hold/'), (text) => parseResponses(text).length === 1);
    await waitUntil(() => ctx.held === 3, 'the other connection in progress');
    ctx.open();
    const answers = parseResponses(await exchange.done);
    assert.equal(answers.map((answer) => answer.status), [200, 200, 503, 503, 503, 503]);
    for (const answer of answers.slice(2)) assert.is(answer.headers['retry-after'], '1');
    assert.is(parseResponses(await other.done)[0].status, 200);
  });
});

limits('caps off :: 0 disables both caps', async (ctx) => {
  await overrideSettings({ SERVER_MAX_PIPELINED_REQUESTS: 0, SERVER_MAX_CONCURRENT_REQUESTS: 0 }, async () => {
    const exchange = rawExchange(ctx.running.port, get('/hold/').repeat(40), (text) => parseResponses(text).length === 40);
    await waitUntil(() => ctx.held === 40, 'forty requests in progress');
    ctx.open();
    assert.ok(parseResponses(await exchange.done).every((answer) => answer.status === 200));
  });
});

limits('early refusal :: 403 before the body -> Connection: close, the upload is not read', async (ctx) => {
  const declared = 100 * 1024 * 1024;
  const socket = net.connect(ctx.running.port, '127.0.0.1');
  let text = '';
  let closed = false;
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`POST /deny/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 120);
  // Keep sending (as a client ignoring the early answer would) until the server hangs up.
  let sent = 0;
  while (!closed && sent < declared) {
    if (!socket.write(chunk)) await new Promise((resolve) => { socket.once('drain', resolve); socket.once('close', resolve); });
    sent += chunk.length;
  }
  await waitUntil(() => closed, 'the server to close the connection');
  const [answer] = parseResponses(text);
  assert.is(answer.status, 403);
  assert.is(answer.headers.connection, 'close');
  const serverSide = ctx.sockets[ctx.sockets.length - 1];
  assert.ok(serverSide.bytesRead < 16 * 1024 * 1024, `the server read ${serverSide.bytesRead} bytes of a 100 MiB upload`);
  assert.ok(sent < declared, 'the client could send the whole upload');
});

limits('early refusal :: a fully received body keeps the connection alive', async (ctx) => {
  const body = '{"a":1}';
  const request = `POST /deny/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  const text = await rawExchange(ctx.running.port, request + get('/read/'), (t) => parseResponses(t).length === 2).done;
  const answers = parseResponses(text);
  assert.equal(answers.map((answer) => answer.status), [403, 200], text);
  assert.is(answers[0].headers.connection, 'keep-alive');
});

/** Capture stderr (with error logging and the access log on) while `fn` runs. */
async function captureStderr(fn: (output: () => string) => Promise<void>): Promise<string> {
  const original = process.stderr.write.bind(process.stderr);
  let output = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    output += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    await overrideSettings({ LOG_SERVER_ERRORS: true, ACCESS_LOG: true }, () => fn(() => output));
  } finally {
    process.stderr.write = original;
  }
  return output;
}

limits('client abort :: hanging up mid-body is logged as a client abort, not a 500', async (ctx) => {
  const output = await captureStderr(async (soFar) => {
    const socket = net.connect(ctx.running.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /read/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":');
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await waitUntil(() => /"POST \/read\/ HTTP\/1\.1" \d+/.test(soFar()), 'the access-log line');
  });
  assert.match(output, /^Client aborted: POST \/read\/ \(The client closed the connection before sending the whole request body\.\)$/m);
  assert.match(output, /"POST \/read\/ HTTP\/1\.1" 499 0 /);
  assert.not.match(output, /Internal Server Error/);
  assert.not.match(output, /" 500 /);
});

limits.run();
