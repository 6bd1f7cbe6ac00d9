import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { Readable } from 'node:stream';
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, request } from 'undici';
import { overrideSettings, PROJECT_ROOT } from '../../lib/core/conf';
import { runServer, type RunningServer } from '../../lib/core/server';
import { handleRequest } from '../../lib/core/handler';
import { HttpRequest, HttpResponse } from '../../lib/core/http';

const server = suite<{ running: RunningServer; restore: () => void; client: Client }>('server');

server.before(async (ctx) => {
  ctx.restore = overrideSettings.enter({
    MIDDLEWARE: ['lib.core.middleware.CommonMiddleware'],
    ROOT_URLCONF: 'spec.core.fixtures.urls',
    ALLOWED_HOSTS: ['127.0.0.1', 'localhost', '.example.com'],
    ACCESS_LOG: false,
    DEBUG: false,
  });
  ctx.running = await runServer({ host: '127.0.0.1', port: 0 });
  ctx.client = new Client(ctx.running.url);
});

server.after(async (ctx) => {
  await ctx.client.close();
  await ctx.running.close();
  ctx.restore();
});

/** The host framework's default error page (Django 3.2's bytes). */
function errorPage(title: string, details = ''): string {
  return `\n<!doctype html>\n<html lang="en">\n<head>\n  <title>${title}</title>\n</head>\n<body>\n  <h1>${title}</h1><p>${details}</p>\n</body>\n</html>\n`;
}

async function text(body: { text(): Promise<string> }): Promise<string> {
  return body.text();
}

/** Stderr is noisy when views fail on purpose; capture it (with error logging on) for that call. */
async function quietly<T>(fn: () => Promise<T>): Promise<{ result: T; output: string }> {
  const original = process.stderr.write.bind(process.stderr);
  let output = '';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    output += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    const result = await overrideSettings({ LOG_SERVER_ERRORS: true }, fn);
    return { result, output };
  } finally {
    process.stderr.write = original;
  }
}

server('query :: repeated keys are kept and cookies are parsed', async ({ client, running }) => {
  const res = await client.request({
    path: '/echo/?a=1&a=2&b=&c=x%20y',
    method: 'GET',
    headers: { cookie: 'sessionid=abc; theme=dark%20mode; theme="light \\"mode\\""; name=Andr\u00c3\u00a9' },
  });
  assert.is(res.statusCode, 200);
  const data = JSON.parse(await text(res.body));
  assert.equal(data.query, [['a', ['1', '2']], ['b', ['']], ['c', ['x y']]]);
  // Not percent-decoded, the last repeated name wins, quotes are undone, UTF-8 bytes read as UTF-8.
  assert.equal(data.cookies, { sessionid: 'abc', theme: 'light "mode"', name: 'André' });
  assert.is(data.host, `127.0.0.1:${running.port}`);
});

server('body :: a small POST body is read', async ({ client }) => {
  const res = await client.request({ path: '/echo/', method: 'POST', body: 'x'.repeat(100), headers: { 'content-type': 'text/plain' } });
  assert.is(res.statusCode, 200);
  assert.is(JSON.parse(await text(res.body)).length, 100);
});

server('body :: over DATA_UPLOAD_MAX_MEMORY_SIZE by Content-Length -> 413 JSON, connection closed', async ({ running }) => {
  await overrideSettings({ DATA_UPLOAD_MAX_MEMORY_SIZE: 1000 }, async () => {
    const res = await request(`${running.url}/echo/`, { method: 'POST', body: Buffer.alloc(4 * 1024 * 1024, 97) });
    assert.is(res.statusCode, 413);
    assert.is(res.headers['content-type'], 'application/json');
    assert.is(res.headers.connection, 'close');
    assert.equal(JSON.parse(await text(res.body)), { detail: 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.' });
  });
});

server('body :: over the limit while reading a chunked body -> 413 JSON', async ({ running }) => {
  await overrideSettings({ DATA_UPLOAD_MAX_MEMORY_SIZE: 1000 }, async () => {
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, 98);
    }
    const res = await request(`${running.url}/echo/`, { method: 'POST', body: Readable.from(chunks()) });
    assert.is(res.statusCode, 413);
    assert.equal(JSON.parse(await text(res.body)), { detail: 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.' });
  });
});

server('body :: a raw socket sending a too-big body is answered and closed', async ({ running }) => {
  await overrideSettings({ DATA_UPLOAD_MAX_MEMORY_SIZE: 10 }, async () => {
    const socket = net.connect(running.port, '127.0.0.1');
    socket.write('POST /echo/ HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n');
    socket.write('20\r\n' + 'z'.repeat(32) + '\r\n');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    // The server must end the connection by itself although the body never finished
    // (the guard only keeps a broken server from hanging the suite).
    let timedOut = false;
    const guard = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, 10000);
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    clearTimeout(guard);
    assert.not.ok(timedOut, 'the server left the connection open');
    assert.match(received, /^HTTP\/1\.1 413 /);
    assert.match(received, /Request body exceeded settings\.DATA_UPLOAD_MAX_MEMORY_SIZE\./);
  });
});

/** Send one whole request in a single write on a raw socket; answers what came back once the server closed it, or after `waitMs`. */
async function oneWriteRequest(port: number, requestText: string, waitMs: number): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  socket.write(requestText);
  await new Promise<void>((resolve) => {
    const guard = setTimeout(() => {
      socket.destroy();
      resolve();
    }, waitMs);
    socket.on('close', () => {
      clearTimeout(guard);
      resolve();
    });
  });
  return received;
}

server('body :: a chunked body that arrived whole with its headers is read at once, and refused with 413 past the limit', async ({ running }) => {
  await overrideSettings({ DATA_UPLOAD_MAX_MEMORY_SIZE: 10 }, async () => {
    // Chunked, so no Content-Length check applies before reading; the view reads the body one
    // turn of the event loop later, when node already holds all of it.
    const head = 'POST /echo-later/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n';
    const small = await oneWriteRequest(running.port, `${head}Connection: close\r\n\r\n8\r\nsmallone\r\n0\r\n\r\n`, 10000);
    assert.match(small, /^HTTP\/1\.1 200 /);
    assert.match(small, /"length":8/);
    const big = await oneWriteRequest(running.port, `${head}\r\n20\r\n${'z'.repeat(32)}\r\n0\r\n\r\n`, 10000);
    assert.match(big, /^HTTP\/1\.1 413 /);
    assert.match(big, /Request body exceeded settings\.DATA_UPLOAD_MAX_MEMORY_SIZE\./);
  });
});

server('HEAD :: same headers as GET (Content-Length included), no body', async ({ client }) => {
  const get = await client.request({ path: '/hello/', method: 'GET' });
  const getBody = await text(get.body);
  const head = await client.request({ path: '/hello/', method: 'HEAD' });
  const headBody = await text(head.body);
  assert.is(getBody, 'hello GET');
  assert.is(headBody, '');
  assert.is(head.statusCode, 200);
  assert.is(head.headers['content-length'], String(Buffer.byteLength('hello HEAD')));
  assert.is(head.headers['x-hello'], 'world');
  assert.is(head.headers['content-type'], get.headers['content-type']);
});

server('cookies :: Set-Cookie carries the options', async ({ client }) => {
  const res = await client.request({ path: '/hello/', method: 'GET' });
  await text(res.body);
  const cookie = String(res.headers['set-cookie']);
  assert.match(cookie, /^visited=yes; /);
  assert.match(cookie, /Max-Age=60/);
  assert.match(cookie, /Path=\//);
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /Expires=/);
});

server('keep-alive :: sequential requests reuse one connection', async ({ running }) => {
  let connections = 0;
  const onConnection = (): void => {
    connections += 1;
  };
  running.server.on('connection', onConnection);
  const client = new Client(running.url);
  try {
    for (let i = 0; i < 3; i++) {
      const res = await client.request({ path: '/hello/', method: 'GET' });
      assert.is(res.statusCode, 200);
      assert.is(await text(res.body), 'hello GET');
    }
  } finally {
    running.server.off('connection', onConnection);
    await client.close();
  }
  assert.is(connections, 1);
});

server('streaming :: chunks arrive in order without Content-Length', async ({ client }) => {
  const res = await client.request({ path: '/stream/', method: 'GET' });
  assert.is(res.statusCode, 200);
  assert.is(res.headers['content-length'], undefined);
  assert.is(res.headers['transfer-encoding'], 'chunked');
  assert.is(await text(res.body), 'chunk-0;chunk-1;chunk-2;chunk-3;chunk-4;');
});

server('host :: a Host not in ALLOWED_HOSTS -> the default 400 page', async ({ client }) => {
  const { result: res, output } = await quietly(() => client.request({ path: '/hello/', method: 'GET', headers: { host: 'evil.com' } }));
  assert.is(res.statusCode, 400);
  assert.is(res.headers['content-type'], 'text/html');
  assert.is(await text(res.body), errorPage('Bad Request (400)'));
  assert.match(output, /Invalid HTTP_HOST header: 'evil.com'/);
});

server('host :: leading-dot patterns accept subdomains', async ({ client }) => {
  const res = await client.request({ path: '/hello/', method: 'GET', headers: { host: 'api.example.com:8080' } });
  assert.is(res.statusCode, 200);
  await text(res.body);
});

server('APPEND_SLASH :: GET without the slash -> 301 to the slashed path, query kept', async ({ client }) => {
  const res = await client.request({ path: '/items/7?x=1&y=2', method: 'GET' });
  assert.is(res.statusCode, 301);
  assert.is(res.headers.location, '/items/7/?x=1&y=2');
  await text(res.body);
});

server('APPEND_SLASH :: any method is redirected (Django 3.2); with DEBUG a POST is a 500; no redirect when the slashed path does not resolve', async ({ client }) => {
  const post = await client.request({ path: '/items/7?x=1', method: 'POST', body: '' });
  assert.is(post.statusCode, 301);
  assert.is(post.headers.location, '/items/7/?x=1');
  await text(post.body);
  await overrideSettings({ DEBUG: true }, async () => {
    const { result: refused, output } = await quietly(() => client.request({ path: '/items/7', method: 'PUT', body: '' }));
    assert.is(refused.statusCode, 500);
    await text(refused.body);
    assert.match(output, /You called this URL via PUT, but the URL doesn't end in a slash and you have APPEND_SLASH set\./);
    const get = await client.request({ path: '/items/7', method: 'GET' });
    assert.is(get.statusCode, 301);
    await text(get.body);
  });
  const scheme = await client.request({ path: '//evil.com/items/7', method: 'GET' });
  assert.is(scheme.statusCode, 404, 'no such route: nothing to redirect to');
  await text(scheme.body);
  const missing = await client.request({ path: '/nowhere', method: 'GET' });
  assert.is(missing.statusCode, 404);
  await text(missing.body);
});

server('APPEND_SLASH :: off -> plain 404', async ({ client }) => {
  await overrideSettings({ APPEND_SLASH: false }, async () => {
    const res = await client.request({ path: '/items/7', method: 'GET' });
    assert.is(res.statusCode, 404);
    await text(res.body);
  });
});

server('404 :: the host framework\'s default HTML page', async ({ client }) => {
  const res = await client.request({ path: '/does-not-exist/', method: 'GET' });
  assert.is(res.statusCode, 404);
  assert.is(res.headers['content-type'], 'text/html');
  assert.is(await text(res.body), errorPage('Not Found', 'The requested resource was not found on this server.'));
});

server('500 :: logging follows LOG_SERVER_ERRORS, and API_FRAMEWORK_QUIET when it is null', async ({ client }) => {
  const quiet = process.env.API_FRAMEWORK_QUIET;
  try {
    process.env.API_FRAMEWORK_QUIET = '1';
    let run = await quietly(() => overrideSettings({ LOG_SERVER_ERRORS: null }, () => client.request({ path: '/boom/', method: 'GET' })));
    assert.is(run.result.statusCode, 500);
    await run.result.body.text();
    assert.is(run.output, '');
    delete process.env.API_FRAMEWORK_QUIET;
    run = await quietly(() => overrideSettings({ LOG_SERVER_ERRORS: null }, () => client.request({ path: '/boom/', method: 'GET' })));
    await run.result.body.text();
    assert.match(run.output, /Internal Server Error: \/boom\//);
    run = await quietly(() => overrideSettings({ LOG_SERVER_ERRORS: false }, () => client.request({ path: '/boom/', method: 'GET' })));
    await run.result.body.text();
    assert.is(run.output, '');
  } finally {
    if (quiet === undefined) delete process.env.API_FRAMEWORK_QUIET;
    else process.env.API_FRAMEWORK_QUIET = quiet;
  }
});

server('500 :: a throwing view -> the default 500 page, logged, and the server keeps serving', async ({ client }) => {
  const { result: res, output } = await quietly(() => client.request({ path: '/boom/', method: 'GET' }));
  assert.is(res.statusCode, 500);
  assert.is(res.headers['content-type'], 'text/html');
  assert.is(await text(res.body), errorPage('Server Error (500)'));
  assert.match(output, /Internal Server Error: \/boom\//);
  assert.match(output, /the view exploded/);
  const next = await client.request({ path: '/hello/', method: 'GET' });
  assert.is(next.statusCode, 200);
  assert.is(await text(next.body), 'hello GET');
});

server('500 :: a view returning nothing is a 500', async ({ client }) => {
  const { result: res, output } = await quietly(() => client.request({ path: '/none/', method: 'GET' }));
  assert.is(res.statusCode, 500);
  await text(res.body);
  assert.match(output, /didn't return an HttpResponse object/);
});

server('500 :: DEBUG answers the technical page (exception, message, stack), only when DEBUG', async ({ client }) => {
  await overrideSettings({ DEBUG: true }, async () => {
    const { result: res } = await quietly(() => client.request({ path: '/boom/', method: 'GET' }));
    assert.is(res.statusCode, 500);
    const body = await text(res.body);
    assert.match(body, '<h1>Error at /boom/</h1>\n  <pre class="exception_value">the view exploded</pre>');
    assert.match(body, /<code class="fname">[^<]*urls\.ts<\/code>, line \d+, in boom/);
  });
  const { result: res } = await quietly(() => client.request({ path: '/boom/', method: 'GET' }));
  assert.is(await text(res.body), errorPage('Server Error (500)'));
});

server('access log :: one line per request when ACCESS_LOG', async ({ client }) => {
  await overrideSettings({ ACCESS_LOG: true }, async () => {
    const { output } = await quietly(async () => {
      const res = await client.request({ path: '/hello/?x=1', method: 'GET' });
      await text(res.body);
      // The line is written once the response has been handed to the socket.
      await new Promise((resolve) => setImmediate(resolve));
    });
    assert.match(output, /^127\.0\.0\.1 "GET \/hello\/\?x=1 HTTP\/1\.1" 200 9 \d+\.\dms\n$/);
  });
  // null (the default): only runserver logs (it passes accessLog: true); this server does not.
  await overrideSettings({ ACCESS_LOG: null }, async () => {
    const { output } = await quietly(async () => {
      const res = await client.request({ path: '/hello/', method: 'GET' });
      await text(res.body);
      await new Promise((resolve) => setImmediate(resolve));
    });
    assert.is(output, '');
  });
  const { output } = await quietly(async () => {
    const res = await client.request({ path: '/hello/', method: 'GET' });
    await text(res.body);
    await new Promise((resolve) => setImmediate(resolve));
  });
  assert.is(output, '');
});

server('urls :: converters and regex groups reach the view as kwargs', async ({ client }) => {
  const res = await client.request({ path: '/items/42/', method: 'GET' });
  assert.equal(JSON.parse(await text(res.body)), { kwargs: { pk: 42 } });
  const legacy = await client.request({ path: '/legacy/2024/', method: 'GET' });
  assert.equal(JSON.parse(await text(legacy.body)), { kwargs: { year: '2024' } });
  const bad = await client.request({ path: '/items/abc/', method: 'GET' });
  assert.is(bad.statusCode, 404);
  await text(bad.body);
});

server.run();

// -------------------------------------------------------------------------------------------
// Child processes: graceful shutdown and cluster workers
// -------------------------------------------------------------------------------------------

const processes = suite('server processes');

const TS_NODE = require.resolve('ts-node/register/transpile-only');

function collect(child: ChildProcess): { out: () => string; err: () => string; waitFor: (re: RegExp) => Promise<RegExpMatchArray> } {
  let out = '';
  let err = '';
  const waiters: Array<{ re: RegExp; resolve: (m: RegExpMatchArray) => void }> = [];
  const check = (): void => {
    for (const waiter of [...waiters]) {
      const match = (out + err).match(waiter.re);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  child.stdout?.on('data', (chunk) => {
    out += chunk.toString();
    check();
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk.toString();
    check();
  });
  return {
    out: () => out,
    err: () => err,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        waiters.push({ re, resolve });
        child.once('exit', () => setImmediate(() => reject(new Error(`process exited before ${re}: ${out}${err}`))));
        check();
      }),
  };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

processes('graceful shutdown :: SIGTERM lets the in-flight request finish, then runs the hooks', async () => {
  const child = spawn(process.execPath, ['-r', TS_NODE, path.join(PROJECT_ROOT, 'spec/core/fixtures/serveChild.ts')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, API_FRAMEWORK_QUIET: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const io = collect(child);
  try {
    const [, port] = await io.waitFor(/listening (\d+)/);
    const pending = request(`http://127.0.0.1:${port}/slow/`);
    await io.waitFor(/slow-view-started/);
    child.kill('SIGTERM');
    const res = await pending;
    assert.is(res.statusCode, 200);
    assert.is(await res.body.text(), 'slow done');
    assert.is(res.headers.connection, 'close');
    assert.is(await exited(child), 0);
    assert.match(io.out(), /shutdown-hook-ran/);
    // Nothing listens any more.
    const refused = await request(`http://127.0.0.1:${port}/hello/`).then(
      () => false,
      () => true,
    );
    assert.ok(refused);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

processes('serve --workers 2 :: workers answer on the shared port and stop on SIGTERM', async () => {
  const child = spawn(process.execPath, ['-r', TS_NODE, 'manage.ts', 'serve', '--workers', '2', '--bind', '127.0.0.1:0'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, SETTINGS_MODULE: 'spec/core/fixtures/settings', API_FRAMEWORK_QUIET: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const io = collect(child);
  try {
    const [, port] = await io.waitFor(/Listening at http:\/\/127\.0\.0\.1:(\d+)/);
    const pids = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const res = await request(`http://127.0.0.1:${port}/pid/`, { reset: true });
      assert.is(res.statusCode, 200);
      const { pid } = (await res.body.json()) as { pid: number };
      assert.is.not(pid, child.pid);
      pids.add(pid);
    }
    // The primary hands connections to the workers in turn.
    assert.is(pids.size, 2);
    // A crashed worker is replaced.
    const dying = await request(`http://127.0.0.1:${port}/die/`, { reset: true }).catch((e) => {
      throw new Error(`die: ${e.message} ${io.err()}`);
    });
    const { dying: deadPid } = (await dying.body.json()) as { dying: number };
    await io.waitFor(new RegExp(`Worker ${deadPid} exited \\(code 3\\); starting a new one\\.`));
    const after = await request(`http://127.0.0.1:${port}/pid/`, { reset: true }).catch((e) => {
      throw new Error(`after: ${e.message} ${io.err()}`);
    });
    assert.is(after.statusCode, 200);
    assert.is.not(((await after.body.json()) as { pid: number }).pid, deadPid);
    child.kill('SIGTERM');
    assert.is(await exited(child), 0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

/** `manage.ts serve <args>` under ts-node with the host-layer fixture settings. */
function spawnServe(args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ['-r', TS_NODE, 'manage.ts', 'serve', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, SETTINGS_MODULE: 'spec/core/fixtures/settings', API_FRAMEWORK_QUIET: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The pids of the child processes of `pid` (from /proc). */
function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return children;
}

/** True once `pid` has a handler for `signal` (its SigCgt mask in /proc). */
function catchesSignal(pid: number, signal: number): boolean {
  const mask = /^SigCgt:\s+([0-9a-f]+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '0';
  return (BigInt(`0x${mask}`) & (1n << BigInt(signal - 1))) !== 0n;
}

processes('serve --workers 1 :: serves in its own process (no supervisor), drains on SIGTERM and exits 0', async () => {
  const child = spawnServe(['--workers', '1', '--bind', '127.0.0.1:0'], { DATABASE_URL: 'sqlite::memory:' });
  const io = collect(child);
  try {
    const [line, port] = await io.waitFor(/Listening at http:\/\/127\.0\.0\.1:(\d+) .*\n/);
    assert.is(line, `Listening at http://127.0.0.1:${port} (pid ${child.pid}, 1 process)\n`);
    const res = await request(`http://127.0.0.1:${port}/pid/`, { reset: true });
    assert.equal(await res.body.json(), { pid: child.pid });
    // V8's young generation was held while the project loaded, and released once serving.
    const young = await request(`http://127.0.0.1:${port}/young-generation/`, { reset: true });
    assert.equal(await young.body.json(), { heldWhileLoading: true, heldNow: false });
    // No worker process, and the database layer loaded here.
    assert.equal(childPids(child.pid as number), []);
    assert.ok(fs.readFileSync(`/proc/${child.pid}/maps`, 'utf8').includes('node_sqlite3.node'));
    // SIGTERM lets the request in flight finish (Connection: close), then the process exits 0.
    const pending = request(`http://127.0.0.1:${port}/slow/`);
    await io.waitFor(/slow-view-started/);
    child.kill('SIGTERM');
    const slow = await pending;
    assert.is(slow.statusCode, 200);
    assert.is(await slow.body.text(), 'slow done');
    assert.is(slow.headers.connection, 'close');
    assert.is(await exited(child), 0);
    assert.is(io.err(), line);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

processes('serve --workers 1 :: a crash ends the process with its status (restarts are the process manager\'s job)', async () => {
  const child = spawnServe(['--workers', '1', '--bind', '127.0.0.1:0'], { API_FRAMEWORK_WORKER: '1' });
  const io = collect(child);
  try {
    const [, port] = await io.waitFor(/Listening at http:\/\/127\.0\.0\.1:(\d+)/);
    const res = await request(`http://127.0.0.1:${port}/die/`, { reset: true });
    assert.equal(await res.body.json(), { dying: child.pid });
    assert.is(await exited(child), 3);
    assert.not.match(io.err(), /starting a new one/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

processes('serve --workers 1 :: SIGTERM during start-up (a database that does not answer) exits 0 at once', async () => {
  // A server that accepts connections and never answers: the database check waits.
  const silent = net.createServer(() => undefined);
  const sockets = new Set<net.Socket>();
  silent.on('connection', (socket) => sockets.add(socket));
  const port = await new Promise<number>((resolve) => silent.listen(0, '127.0.0.1', () => resolve((silent.address() as net.AddressInfo).port)));
  const child = spawnServe(['--workers', '1', '--bind', '127.0.0.1:0'], { DATABASE_URL: `mysql://root@127.0.0.1:${port}/silent` });
  const io = collect(child);
  try {
    while (sockets.size === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(catchesSignal(child.pid as number, 15), 'serve handles SIGTERM while it starts');
    child.kill('SIGTERM');
    assert.is(await exited(child), 0);
    assert.not.match(io.err(), /Listening at/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});

processes('serve --workers 1 :: system check errors stop it before it listens (exit status 1)', async () => {
  const child = spawnServe(['--workers', '1', '--bind', '127.0.0.1:0'], { MIDDLEWARE_FIXTURE: 'broken' });
  const io = collect(child);
  try {
    assert.is(await exited(child), 1);
    assert.match(io.err(), /^SystemCheckError: System check identified some issues:\n\nERRORS:\nMIDDLEWARE: \(core\.E002\)/);
    assert.not.match(io.err(), /Listening at/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

processes('serve --workers 2 :: the primary only supervises: the database layer loads in the workers, not in it', async () => {
  const child = spawnServe(['--workers', '2', '--bind', '127.0.0.1:0'], { DATABASE_URL: 'sqlite::memory:' });
  const io = collect(child);
  try {
    const [, port] = await io.waitFor(/Listening at http:\/\/127\.0\.0\.1:(\d+)/);
    const res = await request(`http://127.0.0.1:${port}/pid/`, { reset: true });
    const { pid: workerPid } = (await res.body.json()) as { pid: number };
    // The workers, too, load the project with the young generation held and release it.
    const young = await request(`http://127.0.0.1:${port}/young-generation/`, { reset: true });
    assert.equal(await young.body.json(), { heldWhileLoading: true, heldNow: false });
    // The worker checked the database (the SQLite driver's native module is mapped); the
    // primary never loaded it.
    const mapped = (pid: number): boolean => fs.readFileSync(`/proc/${pid}/maps`, 'utf8').includes('node_sqlite3.node');
    assert.ok(mapped(workerPid));
    assert.not.ok(mapped(child.pid as number));
    child.kill('SIGTERM');
    assert.is(await exited(child), 0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

processes('serve --workers 2 :: the primary loads no settings; a worker reports a settings error and serve exits with it', async () => {
  const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'serve-primary-')), 'settings-loads');
  const child = spawnServe(['--workers', '2', '--bind', '127.0.0.1:0'], { SETTINGS_LOAD_MARKER: marker });
  const io = collect(child);
  try {
    const [, port] = await io.waitFor(/Listening at http:\/\/127\.0\.0\.1:(\d+)/);
    const res = await request(`http://127.0.0.1:${port}/pid/`, { reset: true });
    const { pid: workerPid } = (await res.body.json()) as { pid: number };
    const loads = fs.readFileSync(marker, 'utf8').trim().split('\n').map(Number);
    assert.is(loads.length, 2);
    assert.ok(loads.includes(workerPid));
    assert.not.ok(loads.includes(child.pid as number));
    child.kill('SIGTERM');
    assert.is(await exited(child), 0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

// DEBUG off and no ALLOWED_HOSTS: serve says so once and leaves with status 1, whether it
// serves in process or supervises workers.
for (const workers of ['1', '2']) {
  processes(`serve --workers ${workers} :: a project that must not serve (no ALLOWED_HOSTS) is one line and exit status 1`, async () => {
    const refused = spawnServe(['--workers', workers, '--bind', '127.0.0.1:0'], { ALLOWED_HOSTS_FIXTURE: 'none' });
    const refusedIo = collect(refused);
    try {
      assert.is(await exited(refused), 1);
      assert.is(refusedIo.err(), 'CommandError: You must set settings.ALLOWED_HOSTS if DEBUG is False.\n');
    } finally {
      if (refused.exitCode === null) refused.kill('SIGKILL');
    }
  });
}

processes('serve :: a worker that fails before serving stops serve with its status, without restarts', async () => {
  const child = spawn(process.execPath, ['-r', TS_NODE, 'manage.ts', 'serve', '--workers', '2', '--bind', '127.0.0.1:0'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, SETTINGS_MODULE: 'spec/core/fixtures/settings', API_FRAMEWORK_QUIET: '1', DATABASE_URL: 'mysql://root@127.0.0.1:1/unreachable' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const io = collect(child);
  try {
    assert.is(await exited(child), 1);
    assert.match(io.err(), /^CommandError: .+$/m);
    assert.not.match(io.err(), /starting a new one|Listening at/);
    assert.not.match(io.err(), /^CommandError: $/m);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

processes.run();

// -------------------------------------------------------------------------------------------
// The handler in process: middleware hooks, error views, rendering
// -------------------------------------------------------------------------------------------

const handler = suite<{ restore: () => void }>('handler');

handler.before((ctx) => {
  ctx.restore = overrideSettings.enter({
    MIDDLEWARE: ['spec.core.fixtures.middleware.Outer', 'spec.core.fixtures.middleware.Inner'],
    ROOT_URLCONF: 'spec.core.fixtures.handlerUrls',
    ALLOWED_HOSTS: ['testserver'],
    DEBUG: false,
  });
});

handler.after((ctx) => ctx.restore());

const get = (url: string) => handleRequest(HttpRequest.create({ url, headers: { host: 'testserver' } }));

handler('middleware :: onion order and processView', async () => {
  const response = await get('/ok/');
  assert.is(response.status, 200);
  assert.is(response.text, 'ok 3');
  assert.is(response.getHeader('X-Trail'), 'outer:request,inner:request,inner:view:ok,inner:response,outer:response');
});

handler('middleware :: processView may answer instead of the view', async () => {
  const response = await get('/blocked/');
  assert.is(response.status, 403);
  assert.is(response.text, '{"blocked":true}');
});

handler('middleware :: processException may rescue; otherwise the error view answers', async () => {
  const rescued = await get('/rescue/');
  assert.is(rescued.status, 418);
  assert.is(rescued.text, 'rescued');
  const { result: crashed, output } = await quietly(() => get('/crash/'));
  assert.is(crashed.status, 500);
  // The custom handler500 failed as well: the default answers and both errors are logged.
  assert.is(crashed.text, errorPage('Server Error (500)'));
  assert.match(output, /not rescued/);
  assert.match(output, /Error in handler500: .*the 500 handler is broken too/);
  // Outer middleware still saw the response.
  assert.match(crashed.getHeader('X-Trail') ?? '', /inner:exception,inner:response,outer:response$/);
});

handler('errors :: PermissionDenied -> 403, Http404 and unknown paths -> handler404 (dotted path)', async () => {
  const denied = await get('/denied/');
  assert.is(denied.status, 403);
  assert.is(denied.getHeader('Content-Type'), 'text/html');
  assert.is(denied.text, errorPage('403 Forbidden'));
  const missing = await get('/missing/');
  assert.is(missing.status, 404);
  assert.is(missing.text, 'custom 404 for /missing/: No such thing.');
  const unknown = await get('/unknown/');
  assert.is(unknown.status, 404);
  assert.match(unknown.text, /^custom 404 for \/unknown\//);
});

handler('rendering :: responses with render() are rendered after the view', async () => {
  const response = await get('/lazy/');
  assert.is(response.text, 'rendered late');
});

// [query, status, body or null, X-Trail seen by Outer or null]: a middleware step failing
// synchronously or asynchronously becomes the error response the middleware around it sees.
const CHAIN_ROWS: Array<[string, number, string | null, string | null, string | null]> = [
  ['', 200, 'ok 3', 'none', 'outer:request,inner:request,inner:view:ok,inner:response,outer:response'],
  ['?fail=sync', 500, null, null, 'outer:request,outer:response'],
  ['?fail=async', 500, null, null, 'outer:request,outer:response'],
  ['?fail=plain', 200, 'plain answer', null, 'outer:request,outer:response'],
  ['?hook=request', 500, null, null, 'outer:request,outer:response'],
  ['?hook=response', 500, null, null, 'outer:request,inner:request,inner:view:ok,inner:response,outer:response'],
  ['?hook=early', 202, 'early answer', 'early', 'outer:request,outer:response'],
  ['?hook=late', 200, 'ok 3', 'late', 'outer:request,inner:request,inner:view:ok,inner:response,outer:response'],
];

handler('middleware :: errors of a step, thrown or rejected, become the response the outer middleware sees, for every row', async () => {
  await overrideSettings({
    MIDDLEWARE: ['spec.core.fixtures.middleware.Outer', 'spec.core.fixtures.middleware.Failing', 'spec.core.fixtures.middleware.Hooks', 'spec.core.fixtures.middleware.Inner'],
  }, async () => {
    for (const [query, status, body, hooks, trail] of CHAIN_ROWS) {
      const { result: response } = await quietly(() => get(`/ok/${query}`));
      assert.is(response.status, status, query);
      if (body !== null) assert.is(response.text, body, query);
      assert.is(response.getHeader('X-Hooks'), hooks ?? undefined, query);
      assert.is(response.getHeader('X-Trail'), trail ?? undefined, query);
    }
  });
});

handler('middleware :: the framework middleware answer a rejected promise (never a throw) when they fail', async () => {
  const { AuthenticationMiddleware } = await import('../../contrib/auth/middleware');
  const { SessionMiddleware } = await import('../../contrib/sessions/middleware');
  const { CsrfViewMiddleware } = await import('../../lib/core/middleware/csrf');
  const { MiddlewareMixin } = await import('../../lib/core/middleware');
  const next = async () => new HttpResponse('next');
  class BrokenStore extends SessionMiddleware {
    override storeClass(): never {
      throw new Error('no store');
    }
  }
  class BrokenHook extends MiddlewareMixin {
    override processRequest(): never {
      throw new Error('no request');
    }
  }
  const request = () => HttpRequest.create({ url: '/', headers: { host: 'testserver' } });
  const cases: Array<[string, () => Promise<unknown>, RegExp]> = [
    ['AuthenticationMiddleware without a session', () => new AuthenticationMiddleware(next).handle(request()), /requires session middleware/],
    ['SessionMiddleware with a failing store', () => new BrokenStore(next).handle(request()), /no store/],
    ['MiddlewareMixin with a failing processRequest', () => new BrokenHook(next).handle(request()), /no request/],
  ];
  for (const [label, run, message] of cases) {
    let pending: Promise<unknown> | undefined;
    assert.not.throws(() => {
      pending = run();
    }, label);
    try {
      await pending;
      assert.unreachable(label);
    } catch (error) {
      assert.match((error as Error).message, message, label);
    }
  }
  await overrideSettings({ CSRF_USE_SESSIONS: true }, async () => {
    // CSRF_USE_SESSIONS without a session: the error arrives as a rejection too.
    let pending: Promise<unknown> | undefined;
    assert.not.throws(() => {
      pending = new CsrfViewMiddleware(next).handle(request());
    });
    await pending?.then(() => undefined, () => undefined);
  });
});

handler('settings :: the chain is rebuilt when MIDDLEWARE changes', async () => {
  await overrideSettings({ MIDDLEWARE: [] }, async () => {
    const response = await get('/ok/');
    assert.is(response.text, 'ok 0');
    assert.not.ok(response.hasHeader('X-Trail'));
  });
  assert.ok((await get('/ok/')).hasHeader('X-Trail'));
});

handler('settings :: a bad MIDDLEWARE entry is a logged 500, not a crash', async () => {
  await overrideSettings({ MIDDLEWARE: ['spec.core.fixtures.middleware.Missing'] }, async () => {
    const { result: response, output } = await quietly(() => get('/ok/'));
    assert.is(response.status, 500);
    assert.match(output, /does not define a "Missing" attribute\/class/);
  });
});

handler.run();
