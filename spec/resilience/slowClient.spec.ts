/**
 * Slow clients against a real `runServer()` (the project's handler, short timeouts): a client
 * that dribbles its headers is answered 408 and cut at SERVER_HEADERS_TIMEOUT, one that dribbles
 * its body is cut at SERVER_REQUEST_TIMEOUT, an idle keep-alive connection is closed after
 * SERVER_KEEP_ALIVE_TIMEOUT — and while twenty of them hang on, other clients are served at once.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import { request } from 'undici';
import { overrideSettings } from '../../lib/core/conf';
import { runServer, type RunningServer } from '../../lib/core/server';
import { HttpResponse, type HttpRequest } from '../../lib/core/http';

const test = suite<{ running: RunningServer; restore: () => void }>('resilience: slow clients');

async function handler(request: HttpRequest): Promise<HttpResponse> {
  const body = await request.body();
  return new HttpResponse(JSON.stringify({ size: body.length }), { contentType: 'application/json' });
}

test.before(async (ctx) => {
  ctx.restore = overrideSettings.enter({
    SERVER_HEADERS_TIMEOUT: 1,
    SERVER_REQUEST_TIMEOUT: 2,
    SERVER_KEEP_ALIVE_TIMEOUT: 1,
    ACCESS_LOG: false,
  });
  ctx.running = await runServer({ host: '127.0.0.1', port: 0, handler });
});

test.after(async (ctx) => {
  await ctx.running.close();
  ctx.restore();
});

interface Slow {
  socket: net.Socket;
  /** Resolves with what the server sent and when it closed (ms after the start). */
  closed: Promise<{ text: string; ms: number }>;
  stop(): void;
}

/** Open a connection and send `first`, then one byte of `drip` every 200 ms. */
function slowClient(port: number, first: string, drip: string): Slow {
  const started = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  let index = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && index < drip.length) socket.write(drip[index++]);
  }, 200);
  socket.on('data', (chunk) => { text += chunk.toString('latin1'); });
  socket.on('error', () => undefined);
  const closed = new Promise<{ text: string; ms: number }>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, ms: Date.now() - started });
    });
  });
  socket.write(first);
  return { socket, closed, stop: () => { clearInterval(timer); socket.destroy(); } };
}

test('headers dribbled :: 408 and closed at SERVER_HEADERS_TIMEOUT, others served meanwhile', async ({ running }) => {
  const slow = Array.from({ length: 20 }, () => slowClient(running.port, 'GET / HTTP/1.1\r\n', 'X-Slow: ' + 'y'.repeat(100)));
  try {
    for (let i = 0; i < 5; i += 1) {
      const started = Date.now();
      const response = await request(`${running.url}/`, { method: 'POST', body: 'abc' });
      assert.is(response.statusCode, 200);
      assert.is(await response.body.text(), '{"size":3}');
      assert.ok(Date.now() - started < 1000, 'served while the slow clients hang on');
    }
    for (const client of slow) {
      const { text, ms } = await client.closed;
      assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.ok(ms < 6000, `closed after ${ms} ms (SERVER_HEADERS_TIMEOUT is 1 s)`);
    }
  } finally {
    for (const client of slow) client.stop();
  }
});

test('body dribbled :: the connection is cut at SERVER_REQUEST_TIMEOUT', async ({ running }) => {
  const slow = slowClient(running.port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n', 'z'.repeat(1000));
  try {
    const { text, ms } = await slow.closed;
    assert.ok(!/ 200 OK/.test(text), 'the dribbled body was never answered 200');
    assert.ok(ms < 7000, `closed after ${ms} ms (SERVER_REQUEST_TIMEOUT is 2 s)`);
  } finally {
    slow.stop();
  }
});

test('idle keep-alive :: closed after SERVER_KEEP_ALIVE_TIMEOUT', async ({ running }) => {
  const idle = slowClient(running.port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', '');
  const { text, ms } = await idle.closed;
  assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
  assert.ok(ms < 5000, `closed after ${ms} ms (SERVER_KEEP_ALIVE_TIMEOUT is 1 s)`);
});

test.run();
