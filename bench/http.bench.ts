/**
 * HTTP throughput of the demo against a floor of the project's own: `bench/fixtures/httpFloor.ts`,
 * a hand-written `node:http` server with a prepared SQLite statement answering the same bytes.
 *
 *   (e) `GET /`            the API root, no database
 *   (a) `GET /snippets/1/` one snippet and its owner's username
 *
 * Both servers run as child processes on one fresh SQLite file (migrated by `manage.ts
 * migrate`, one user and one snippet): the demo the production way, `serve --workers 1`
 * (from `dist/` after `npm run build`, else under ts-node), with the demo's settings (its
 * access log included); the floor as one process. Bodies are compared before timing. The client
 * (undici, keep-alive, `CONNECTIONS` connections) runs here; rounds alternate demo and floor,
 * each `SECONDS` long, and the median of `ROUNDS` counts. Printed: req/s of each, the ratio
 * demo/floor per scenario, and the idle RSS of each server (all its processes).
 *
 * On a machine shared with other work the ratios move by 10-20%; read them from one run, and
 * prefer `../shared/bench` (wrk, pinned CPUs) on a quiet machine. Not part of the test suite.
 * Run it alone with `npx ts-node bench/http.bench.ts` (or `npm run bench http`).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import ts from 'typescript';
import { Pool } from 'undici';
import { PROJECT_ROOT } from '../lib/core/conf';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const TS_NODE = require.resolve('ts-node/register/transpile-only');

const SCENARIOS: ReadonlyArray<readonly [string, string]> = [['(e) GET /', '/'], ['(a) GET /snippets/1/', '/snippets/1/']];

/** How to run manage.ts: compiled when built, else under ts-node. */
function manageCommand(): string[] {
  const dist = path.join(PROJECT_ROOT, 'dist', 'manage.js');
  return fs.existsSync(dist) ? [dist] : ['-r', TS_NODE, path.join(PROJECT_ROOT, 'manage.ts')];
}

function serverEnv(databaseFile: string): NodeJS.ProcessEnv {
  return {
    ...process.env, DATABASE_URL: `sqlite:${databaseFile}`, DEBUG: '0', SECRET_KEY: 'bench-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz',
    NODE_ENV: 'production', SETTINGS_MODULE: 'demo/settings', API_FRAMEWORK_QUIET: '1',
  };
}

function prepareDatabase(file: string): void {
  const migrated = spawnSync(process.execPath, [...manageCommand(), 'migrate'], { cwd: PROJECT_ROOT, env: serverEnv(file), encoding: 'utf8' });
  if (migrated.status !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const now = '2024-01-02 03:04:05.000000';
  const seeded = spawnSync('sqlite3', [file,
    `INSERT INTO auth_user (id, password, is_superuser, username, first_name, last_name, email, is_staff, is_active, date_joined) VALUES (1, '!', 0, 'alice', '', '', '', 0, 1, '${now}');` +
    `INSERT INTO snippets_snippet (id, created, title, code, linenos, language, style, highlighted, owner_id) VALUES (1, '${now}', 'hello', 'print("hello, world")', 0, 'python', 'friendly', '', 1);`,
  ], { encoding: 'utf8' });
  if (seeded.status !== 0) throw new Error(`seeding needs the sqlite3 command: ${seeded.stderr ?? seeded.error}`);
}

/** Start a server child and resolve with its port once it prints `pattern`. */
function start(args: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (!match) return;
      // Keep draining the server's output (the access log) without holding it.
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve({ child, port: Number(match[1]) });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${output}`)));
  });
}

/** RSS of `pid` and its children, in MB. */
function treeRss(pid: number): number {
  const pids = [pid];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  let kb = 0;
  for (const one of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${one}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

/** Requests per second over `seconds` with `connections` concurrent keep-alive clients. */
async function load(pool: Pool, target: string, seconds: number, connections: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let count = 0;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (Date.now() < end) {
      const { statusCode, body } = await pool.request({ method: 'GET', path: target, headers: { accept: 'application/json' } });
      await body.dump();
      if (statusCode !== 200) throw new Error(`${target}: status ${statusCode}`);
      count += 1;
    }
  }));
  return count / seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The bench, as `bench/run.ts` calls it. */
export default async function run(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-framework-http-bench-'));
  const file = path.join(dir, 'bench.sqlite3');
  const children: ChildProcess[] = [];
  const pools: Pool[] = [];
  try {
    prepareDatabase(file);
    const project = await start([...manageCommand(), 'serve', '--workers', '1', '--bind', '127.0.0.1:0'], serverEnv(file), /Listening at http:\/\/127\.0\.0\.1:(\d+)/);
    children.push(project.child);
    // The floor runs as plain JavaScript (transpiled here), so neither ts-node nor the
    // compiler weigh on its memory.
    const floorScript = path.join(dir, 'httpFloor.js');
    const source = fs.readFileSync(path.join(__dirname, 'fixtures', 'httpFloor.ts'), 'utf8');
    fs.writeFileSync(floorScript, ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, esModuleInterop: true } }).outputText);
    const floor = await start([floorScript], { ...process.env, DATABASE_FILE: file, NODE_ENV: 'production', NODE_PATH: path.join(PROJECT_ROOT, 'node_modules') },
      /listening (\d+)/);
    children.push(floor.child);
    const targets = [['demo', project], ['floor', floor]] as const;
    for (const [, server] of targets) pools.push(new Pool(`http://127.0.0.1:${server.port}`, { connections: CONNECTIONS }));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = targets.map(([, server]) => treeRss(server.child.pid as number));
    // Same bytes, or the comparison means nothing (the API root names the host it was asked on).
    for (const [, target] of SCENARIOS) {
      const bodies = await Promise.all(pools.map(async (pool) => {
        const { body } = await pool.request({ method: 'GET', path: target, headers: { accept: 'application/json', host: 'bench.example.com' } });
        return body.text();
      }));
      assert.equal(bodies[0], bodies[1], `${target}: the demo and the floor answer different bytes`);
    }
    process.stdout.write(`http: ${ROUNDS} interleaved rounds of ${SECONDS}s, ${CONNECTIONS} connections, SQLite\n`);
    for (const [label, target] of SCENARIOS) {
      for (const pool of pools) await load(pool, target, 1, CONNECTIONS);
      const rates: number[][] = [[], []];
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < pools.length; i++) rates[i].push(await load(pools[i], target, SECONDS, CONNECTIONS));
      }
      const [demo, bare] = rates.map(median);
      process.stdout.write(`${label.padEnd(24)} demo ${Math.round(demo).toString().padStart(6)} req/s  floor ${Math.round(bare).toString().padStart(6)} req/s  ` +
        `demo/floor ${(demo / bare).toFixed(2)}\n`);
    }
    process.stdout.write(`idle RSS: demo (serve --workers 1, all processes) ${idle[0].toFixed(0)} MB, floor ${idle[1].toFixed(0)} MB\n`);
  } finally {
    for (const pool of pools) await pool.close();
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  run().then(() => process.exit(0), (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
