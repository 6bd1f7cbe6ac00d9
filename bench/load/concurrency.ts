/**
 * 1,000 concurrent clients on an unpaginated 1,000-row list (issue 13, item 1): the demo served
 * by `manage.ts serve --workers 1` over a fresh SQLite file holding 1,000 snippets; 1,000
 * keep-alive connections each ask `GET /snippets/` ROUNDS times, all at once. Prints, per cap
 * on work in flight (`SERVER_MAX_CONCURRENT_REQUESTS`), the answers (200 / 503 / errors), the
 * wall time, the server process's peak RSS (VmHWM) and whether it survived.
 *
 * Not part of `npm run bench` (it lives in a sub-folder) nor of CI: it takes about a minute
 * and most of the machine. Run: `npx ts-node bench/load/concurrency.ts [caps...]`
 * (default caps `0 128`: 0 is no cap, the behaviour before the caps existed). Environment:
 * `CLIENTS` (1000), `ROUNDS` (3), `ROWS` (1000).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/lib/processes';

const ROOT = path.resolve(__dirname, '..', '..');
const CLIENTS = Number(process.env.CLIENTS ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ROWS = Number(process.env.ROWS ?? 1000);
const SECRET_KEY = 'bench-load-secret-key-0123456789-0123456789-0123456789-0123456789';

function manage(args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', 'manage.ts', ...args], { cwd: ROOT, env, encoding: 'utf8' });
}

/** VmHWM (peak RSS) and VmRSS of `pid` in MB, or null once it is gone. */
function memory(pid: number): { peak: number; rss: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { peak: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
  } catch {
    return null;
  }
}

/** One keep-alive client: ROUNDS sequential GETs; answers the statuses (or 'error'). */
function client(port: number): Promise<string[]> {
  return new Promise((resolve) => {
    const statuses: string[] = [];
    const socket = net.connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    const send = (): void => { socket.write('GET /snippets/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n'); };
    socket.on('connect', send);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        statuses.push(head.slice(9, 12));
        buffer = buffer.subarray(end + 4 + length);
        if (statuses.length >= ROUNDS || /\r\nconnection: close/i.test(head)) {
          socket.destroy();
          return;
        }
        send();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      while (statuses.length < ROUNDS) statuses.push('error');
      resolve(statuses);
    });
  });
}

async function runOnce(cap: number, databaseUrl: string): Promise<void> {
  const port = await freePort();
  const env = {
    ...process.env, SETTINGS_MODULE: 'bench/load/settings', DATABASE_URL: databaseUrl, DEBUG: '0', SECRET_KEY,
    API_FRAMEWORK_QUIET: '1', BENCH_MAX_CONCURRENT: String(cap), BENCH_MAX_PIPELINED: '16',
  };
  let output = '';
  const server: ChildProcess = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'manage.ts', 'serve', '--workers', '1', '--bind', `127.0.0.1:${port}`], { cwd: ROOT, env });
  server.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  server.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const deadline = Date.now() + 60_000;
  while (!/Listening at/.test(output)) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`serve did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // `serve --workers 1` serves in its own process (no supervisor).
  const worker = server.pid as number;
  // Warm up (JIT, pools), then measure from here.
  for (let i = 0; i < 5; i += 1) await client(port);
  const idle = memory(worker);
  let peakSeen = idle?.rss ?? 0;
  const sampler = setInterval(() => {
    const now = memory(worker);
    if (now) peakSeen = Math.max(peakSeen, now.rss);
  }, 50);
  const started = Date.now();
  const results = (await Promise.all(Array.from({ length: CLIENTS }, () => client(port)))).flat();
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const after = memory(worker);
  const survived = after !== null && !/exited/.test(output);
  const count = (status: string): number => results.filter((s) => s === status).length;
  console.log(
    `cap ${String(cap || 'none').padStart(5)} | ${CLIENTS} clients x ${ROUNDS} | 200: ${String(count('200')).padStart(5)}  503: ${String(count('503')).padStart(5)}  ` +
    `errors: ${String(count('error')).padStart(5)} | ${seconds.toFixed(1)} s | worker RSS idle ${idle?.rss.toFixed(0)} MB, ` +
    `peak ${(after?.peak ?? peakSeen).toFixed(0)} MB (sampled ${peakSeen.toFixed(0)} MB) | worker ${survived ? 'alive' : 'DIED'}`,
  );
  if (!survived) console.log(output.split('\n').filter((line) => /heap|exited|memory|Error/i.test(line)).slice(0, 5).join('\n'));
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
}

async function main(): Promise<void> {
  const caps = process.argv.slice(2).map(Number);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
  const databaseUrl = `sqlite:${path.join(dir, 'db.sqlite3')}`;
  const env = { ...process.env, SETTINGS_MODULE: 'demo/settings', DATABASE_URL: databaseUrl, DEBUG: '0', SECRET_KEY, API_FRAMEWORK_QUIET: '1' };
  try {
    manage(['migrate'], env);
    manage(['shell', '-c', [
      "const owner = await User.objects.createUser('bench', 'bench@example.com', 'bench-password');",
      `for (let i = 0; i < ${ROWS}; i += 1) await Snippet.objects.create({ owner_id: owner.id, title: 'snippet ' + i, code: 'def f(x):\\n    return x * ' + i + '\\n', language: 'python' });`,
    ].join('\n')], env);
    console.log(`${ROWS} snippets; node ${process.version}, ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB`);
    for (const cap of caps.length ? caps : [0, 128]) await runOnce(cap, databaseUrl);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
