/**
 * The server (lib/core/server.ts) and handler under bad input over real sockets: malformed
 * request lines and headers (node answers 400 and closes), absurd Content-Length values,
 * a handler or middleware that throws (a 500, and the server keeps serving), clients that go
 * away mid-request and mid-response (the view sees an error, cleanups run, streams are closed),
 * a stream failing half-way, HEAD on a streaming response, and a header node refuses to send.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net from 'node:net';
import { overrideSettings } from '../../lib/core/conf';
import { HttpResponse } from '../../lib/core/http';
import { runServer, type RunningServer } from '../../lib/core/server';
import { events, waitForEvent } from './serverFixtures';

interface Context {
  running: RunningServer;
  restore: () => void;
}

const test = suite<Context>('badInput server');

test.before(async (ctx) => {
  ctx.restore = overrideSettings.enter({
    MIDDLEWARE: [],
    ROOT_URLCONF: 'spec.badInput.serverFixtures',
    ALLOWED_HOSTS: ['127.0.0.1', 'localhost'],
    ACCESS_LOG: false,
    DEBUG: false,
  });
  ctx.running = await runServer({ host: '127.0.0.1', port: 0 });
});

test.after(async (ctx) => {
  await ctx.running.close();
  ctx.restore();
});

test.before.each(() => {
  events.length = 0;
});

/** Send `data` on a fresh connection and collect everything until the server closes it. */
function exchange(port: number, data: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    socket.write(data);
  });
}

/** `GET path` with `Connection: close`, answered in full. */
function get(port: number, path: string, method = 'GET', extra = ''): Promise<string> {
  return exchange(port, `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`);
}

function statusLine(response: string): string {
  return response.split('\r\n')[0];
}

function bodyOf(response: string): string {
  return response.slice(response.indexOf('\r\n\r\n') + 4);
}

/** Capture stderr (errors are logged on purpose in these tests). */
async function quietly<T>(fn: () => Promise<T>): Promise<{ result: T; output: string }> {
  const original = process.stderr.write.bind(process.stderr);
  let output = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    output += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    const result = await fn();
    return { result, output };
  } finally {
    process.stderr.write = original;
  }
}

test('request line :: malformed lines and headers get node\'s 400 and a closed connection', async ({ running }) => {
  const cases = [
    'GARBAGE\r\n\r\n',
    'GET\r\n\r\n',
    'GET /ok/ HTTP/9\r\nHost: 127.0.0.1\r\n\r\n',
    'GET /ok/ HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n',
    'GET /ok/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: \u0001\r\n\r\n',
    'GET /o k/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
  ];
  for (const raw of cases) {
    const response = await exchange(running.port, raw);
    assert.is(statusLine(response), 'HTTP/1.1 400 Bad Request', JSON.stringify(raw));
  }
  assert.is(bodyOf(await get(running.port, '/ok/')), 'ok', 'still serving');
});

test('Content-Length :: absurd values are refused by the parser, never reach a view', async ({ running }) => {
  for (const value of ['-1', 'abc', '1.5', '10, 20', '99999999999999999999999']) {
    const response = await exchange(running.port, `POST /upload/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${value}\r\n\r\nabc`);
    assert.is(statusLine(response), 'HTTP/1.1 400 Bad Request', value);
  }
  // Both framings at once (a request smuggling vector) is refused too.
  const both = await exchange(running.port, 'POST /upload/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
  assert.is(statusLine(both), 'HTTP/1.1 400 Bad Request');
  // A bad chunk size in a chunked body.
  const badChunk = await exchange(running.port, 'POST /upload/ HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n');
  assert.ok(['HTTP/1.1 400 Bad Request', ''].includes(statusLine(badChunk)), statusLine(badChunk));
  assert.not.ok(events.some((event) => event.startsWith('upload-read')), 'no view read a body');
});

test('Host :: bad characters and foreign hosts are the 400 page, not a 500', async ({ running }) => {
  const hosts = ['bad_host!', '127.0.0.1:abc', '127.0.0.1:', '[::1', 'evil.example', '127.0.0.1.evil.example', '127.0.0.1@evil.example'];
  const { result: responses } = await quietly(async () => {
    const out: string[] = [];
    for (const host of hosts) out.push(await exchange(running.port, `GET /host/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
    return out;
  });
  responses.forEach((response, index) => {
    assert.is(statusLine(response), 'HTTP/1.1 400 Bad Request', hosts[index]);
    assert.match(bodyOf(response), '<h1>Bad Request (400)</h1>');
  });
  // A port is not part of the match, as in the host framework; a trailing dot is dropped.
  const withPort = await exchange(running.port, 'GET /host/ HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: close\r\n\r\n');
  assert.is(bodyOf(withPort), '127.0.0.1:8080');
  const dotted = await exchange(running.port, 'GET /host/ HTTP/1.1\r\nHost: localhost.\r\nConnection: close\r\n\r\n');
  assert.is(bodyOf(dotted), 'localhost.');
});

test('handler :: a custom handler that throws synchronously gets the fallback 500; the server keeps serving', async () => {
  let calls = 0;
  const running = await runServer({
    host: '127.0.0.1',
    port: 0,
    handler: (request) => {
      calls += 1;
      if (request.path === '/explode/') throw new Error('handler exploded');
      return Promise.resolve(new HttpResponse('fine', { contentType: 'text/plain' }));
    },
  });
  try {
    const { result: response, output } = await quietly(() => get(running.port, '/explode/'));
    assert.is(statusLine(response), 'HTTP/1.1 500 Internal Server Error');
    assert.match(response, 'Content-Type: application/json');
    assert.is(bodyOf(response), '{"error": "Server Error (500)"}');
    assert.match(output, 'Internal Server Error: /explode/');
    assert.match(output, 'handler exploded');
    assert.is(bodyOf(await get(running.port, '/other/')), 'fine');
    assert.is(calls, 2);
  } finally {
    await running.close();
  }
});

test('middleware :: one that throws in its constructor is a logged 500 on every request until fixed', async ({ running }) => {
  await overrideSettings({ MIDDLEWARE: ['spec.badInput.serverFixtures.BrokenConstructorMiddleware'], LOG_SERVER_ERRORS: true }, async () => {
    const { result: responses, output } = await quietly(async () => [await get(running.port, '/ok/'), await get(running.port, '/ok/')]);
    for (const response of responses) {
      assert.is(statusLine(response), 'HTTP/1.1 500 Internal Server Error');
      assert.match(bodyOf(response), '<h1>Server Error (500)</h1>');
    }
    assert.match(output, 'middleware could not start');
  });
  assert.is(bodyOf(await get(running.port, '/ok/')), 'ok');
});

test('middleware :: one whose handle() throws synchronously is a 500, other requests pass', async ({ running }) => {
  await overrideSettings({ MIDDLEWARE: ['spec.badInput.serverFixtures.SyncThrowingMiddleware'] }, async () => {
    const { result: response } = await quietly(() => get(running.port, '/ok/?explode=1'));
    assert.is(statusLine(response), 'HTTP/1.1 500 Internal Server Error');
    assert.is(bodyOf(await get(running.port, '/ok/')), 'ok');
  });
});

test('client abort :: mid-request body: the view sees an error, cleanups run, the server keeps serving', async ({ running }) => {
  const { output } = await quietly(async () => {
    const socket = net.connect(running.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('POST /upload/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n');
    socket.write(Buffer.alloc(1000, 120));
    await waitForEvent(/^upload-start$/);
    socket.destroy();
    await waitForEvent(/^upload-cleanup$/);
  });
  assert.ok(events.some((event) => event.startsWith('upload-error:')), events.join(','));
  assert.not.ok(events.some((event) => event.startsWith('upload-read:')), 'a truncated body is never taken for the whole body');
  void output;
  assert.is(bodyOf(await get(running.port, '/ok/')), 'ok');
});

test('client abort :: mid-response: the endless stream is closed (its finally runs)', async ({ running }) => {
  await new Promise<void>((resolve) => {
    const socket = net.connect(running.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.destroy();
      resolve();
    });
    socket.write('GET /endless/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  });
  await waitForEvent(/^endless-closed$/);
  assert.is(bodyOf(await get(running.port, '/ok/')), 'ok');
});

test('streaming :: a stream failing half-way is logged and the response cut (no terminating chunk)', async ({ running }) => {
  const { result: response, output } = await quietly(() => get(running.port, '/failing/'));
  assert.is(statusLine(response), 'HTTP/1.1 200 OK');
  assert.match(response, 'first;');
  assert.not.ok(response.endsWith('0\r\n\r\n'), 'a client can tell the body is incomplete');
  assert.match(output, 'Error while streaming the response');
  assert.match(output, 'the stream broke');
});

test('streaming :: HEAD sends the headers only and never starts the stream; a 204 stream has no body', async ({ running }) => {
  const head = await get(running.port, '/head-stream/', 'HEAD');
  assert.is(statusLine(head), 'HTTP/1.1 200 OK');
  assert.match(head, 'Content-Type: text/plain');
  assert.is(bodyOf(head), '');
  assert.not.ok(events.includes('head-stream-started'));
  const empty = await get(running.port, '/empty-stream/');
  assert.is(statusLine(empty), 'HTTP/1.1 204 No Content');
  assert.is(bodyOf(empty), '');
});

test('streaming :: a large stream is written with backpressure, every byte in order', async ({ running }) => {
  const data = await new Promise<string>((resolve, reject) => {
    http.get(`${running.url}/big/`, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      res.on('error', reject);
    }).on('error', reject);
  });
  assert.is(data.length, 64 * 32 * 1024);
  for (let i = 0; i < 64; i++) assert.is(data[i * 32 * 1024], String.fromCharCode(97 + (i % 26)), `chunk ${i}`);
});

test('response :: a header node refuses to send (CR/LF from input) is a clean 500 without the view\'s headers', async ({ running }) => {
  const { result: response, output } = await quietly(() => get(running.port, `/bad-header/?v=${encodeURIComponent('a\r\nSet-Cookie: owned=1')}`));
  assert.is(statusLine(response), 'HTTP/1.1 500 Internal Server Error');
  assert.not.match(response, 'owned=1');
  assert.not.match(response, 'Content-Length: 2\r\n', "the view's Content-Length does not frame the error body");
  assert.is(bodyOf(response), '{"error": "Server Error (500)"}');
  assert.match(output, 'Error while writing the response');
  // A plain value goes out; the real body length wins over the view's wrong Content-Length.
  const plain = await get(running.port, '/bad-header/?v=plain');
  assert.match(plain, 'X-Echo: plain\r\n');
  assert.is(bodyOf(plain), 'fine');
});

test.run();
