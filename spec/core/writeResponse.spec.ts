/**
 * `writeResponse()` writes the head with one `writeHead()` of the whole header list: the bytes
 * on the wire (status line, header order and spelling, Set-Cookie lines, Connection,
 * Content-Length, body) must be those of setting the headers one by one with `setHeader()`, as
 * the server did before. Each row answers one response both ways over a raw socket and
 * compares everything but the Date line.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { writeResponse } from '../../lib/core/server';
import { HttpResponse } from '../../lib/core/http';

/** The server's former way: setHeader one by one, then Content-Length, then end(bytes). */
function writeOneByOne(req: IncomingMessage, res: ServerResponse, response: HttpResponse): void {
  res.statusCode = response.status;
  res.statusMessage = response.reasonPhrase;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  const cookies = response.cookieHeaders();
  if (cookies.length) res.setHeader('Set-Cookie', cookies);
  if (response.closeConnection) res.setHeader('Connection', 'close');
  const body = response.contentBytes;
  if (response.status === 204 || response.status === 304 || response.status < 200) {
    res.removeHeader('Content-Length');
    res.end();
    return;
  }
  res.setHeader('Content-Length', body.length);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/** The raw bytes answered to `method /` (Date line removed). */
async function rawAnswer(handler: (req: IncomingMessage, res: ServerResponse) => void, method: string): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.write(`${method} / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    let raw = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (raw += chunk));
    await new Promise((resolve) => socket.on('close', resolve));
    return raw.replace(/^Date: .*\r\n/m, '');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const rows: Array<{ name: string; method?: string; build: () => HttpResponse }> = [
  { name: 'JSON body', build: () => new HttpResponse('{"a": 1}', { contentType: 'application/json', headers: { Vary: 'Accept', Allow: 'GET, HEAD' } }) },
  { name: 'non-ASCII text body', build: () => new HttpResponse('héllo ☃', { contentType: 'text/plain; charset=utf-8' }) },
  { name: 'Buffer body', build: () => new HttpResponse(Buffer.from([0, 1, 2, 255]), { contentType: 'application/octet-stream' }) },
  { name: 'empty body', build: () => new HttpResponse('') },
  { name: 'HEAD', method: 'HEAD', build: () => new HttpResponse('{"a": 1}', { contentType: 'application/json' }) },
  { name: 'a view-set Content-Length keeps its place', build: () => new HttpResponse('abc', { headers: { 'content-length': 99, 'X-After': 'yes' } }) },
  {
    name: 'cookies, in place of a Set-Cookie header',
    build: () => {
      const response = new HttpResponse('x', { headers: { 'set-cookie': 'old=1', 'X-Last': '1' } });
      response.setCookie('sessionid', 'abc', { httpOnly: true, sameSite: 'Lax' });
      response.setCookie('csrftoken', 'def', { maxAge: 60 });
      return response;
    },
  },
  {
    name: 'Connection: close (closeConnection)',
    build: () => {
      const response = new HttpResponse('gone', { status: 413, headers: { connection: 'keep-alive', 'X-Z': 'z' } });
      response.closeConnection = true;
      return response;
    },
  },
  { name: '204 drops Content-Length', build: () => new HttpResponse('', { status: 204, headers: { 'Content-Length': 0, Vary: 'Accept' } }) },
  { name: '304', build: () => new HttpResponse('', { status: 304, headers: { ETag: '"1"' } }) },
  { name: 'custom reason phrase', build: () => new HttpResponse('teapot', { status: 418, reason: 'Short And Stout' }) },
  { name: 'unknown status', build: () => new HttpResponse('?', { status: 599 }) },
];

const bytes = suite('writeResponse: one writeHead, the same bytes');

for (const row of rows) {
  bytes(row.name, async () => {
    const method = row.method ?? 'GET';
    const expected = await rawAnswer((req, res) => writeOneByOne(req, res, row.build()), method);
    const actual = await rawAnswer((req, res) => void writeResponse(req, res, row.build()), method);
    assert.is(actual, expected);
    assert.ok(actual.startsWith('HTTP/1.1 '), actual);
  });
}

bytes('the number of body bytes is answered (UTF-8 length of a text body, 0 for HEAD)', async () => {
  let written = -1;
  await rawAnswer((req, res) => void writeResponse(req, res, new HttpResponse('héllo')).then((n) => (written = n)), 'GET');
  assert.is(written, 6);
  await rawAnswer((req, res) => void writeResponse(req, res, new HttpResponse('héllo')).then((n) => (written = n)), 'HEAD');
  assert.is(written, 0);
});

bytes.run();
