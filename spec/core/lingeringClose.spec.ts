/**
 * `lingerOnClose()`: a connection answered before its upload was read half-closes after the
 * answer and stops reading, so a client still sending receives the whole answer and the end of
 * the stream (not a reset that throws the answer away), the server does not read the upload, and
 * the connection is closed `LINGER_MS` later at the latest.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { LINGER_MS, lingerOnClose } from '../../lib/core/http/lingeringClose';

const DECLARED = 64 * 1024 * 1024;
const ANSWER = '{"detail":"Authentication credentials were not provided."}';

interface Seen {
  text: string;
  ended: boolean;
  sent: number;
  closedAfterMs: number;
}

const lingering = suite<{ server: http.Server; port: number; bodyBytesRead: number }>('lingerOnClose');

lingering.before(async (ctx) => {
  ctx.bodyBytesRead = 0;
  ctx.server = http.createServer((req, res) => {
    req.on('data', (chunk: Buffer) => { ctx.bodyBytesRead += chunk.length; });
    lingerOnClose(req.socket);
    res.writeHead(401, { 'Content-Type': 'application/json', 'Content-Length': ANSWER.length, Connection: 'close' });
    res.end(ANSWER);
  });
  await new Promise<void>((resolve) => ctx.server.listen(0, '127.0.0.1', resolve));
  ctx.port = (ctx.server.address() as AddressInfo).port;
});

lingering.after(async (ctx) => {
  ctx.server.closeAllConnections();
  await new Promise((resolve) => ctx.server.close(resolve));
});

/** Upload to the server until it answers (or closes); `leave` closes the client once it has the end. */
async function upload(port: number, leave: boolean): Promise<Seen> {
  const socket = net.connect(port, '127.0.0.1');
  const seen: Seen = { text: '', ended: false, sent: 0, closedAfterMs: -1 };
  let closed = false;
  let endedAt = 0;
  socket.on('data', (chunk: Buffer) => { seen.text += chunk.toString('latin1'); });
  socket.on('error', () => undefined);
  const gone = new Promise<void>((resolve) => socket.on('close', () => {
    closed = true;
    seen.closedAfterMs = endedAt ? Date.now() - endedAt : -1;
    resolve();
  }));
  socket.on('end', () => {
    seen.ended = true;
    endedAt = Date.now();
    if (leave) socket.destroy();
  });
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`POST /upload/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${DECLARED}\r\n\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 32);
  while (!closed && !seen.ended && seen.sent < DECLARED) {
    if (!socket.write(chunk)) {
      // A full window: wait for room, the answer's end, or the close.
      await new Promise((resolve) => { socket.once('drain', resolve); socket.once('end', resolve); socket.once('close', resolve); });
    }
    seen.sent += chunk.length;
  }
  await gone;
  return seen;
}

lingering('a client still uploading gets the whole answer and the end of the stream, every time', async ({ port }) => {
  for (let round = 0; round < 12; round += 1) {
    const seen = await upload(port, true);
    assert.ok(seen.text.startsWith('HTTP/1.1 401 '), `round ${round}: ${JSON.stringify(seen.text.slice(0, 60))}`);
    assert.ok(seen.text.endsWith(`\r\n\r\n${ANSWER}`), `round ${round}: the whole body`);
    assert.match(seen.text, /\r\nConnection: close\r\n/);
    assert.ok(seen.ended, `round ${round}: the server half-closed after the answer`);
    assert.ok(seen.sent < DECLARED, `round ${round}: the whole upload was accepted`);
  }
});

lingering('the server stops reading the upload and closes the connection itself after LINGER_MS', async (ctx) => {
  const before = ctx.bodyBytesRead;
  const seen = await upload(ctx.port, false);
  assert.ok(seen.text.startsWith('HTTP/1.1 401 '));
  assert.ok(seen.ended);
  // The client stayed: the server closed it, no sooner than the linger and well before 3 x.
  assert.ok(seen.closedAfterMs >= LINGER_MS - 100 && seen.closedAfterMs < 3 * LINGER_MS, `closed ${seen.closedAfterMs} ms after the end`);
  assert.ok(ctx.bodyBytesRead - before < DECLARED / 4, `the server read ${ctx.bodyBytesRead - before} bytes of the upload`);
});

lingering.run();
