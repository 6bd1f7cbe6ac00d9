/**
 * HTTP throughput of the demo against a floor of the project's own: `bench/fixtures/httpFloor.ts`,
 * a hand-written `node:http` server with prepared SQLite statements answering the same bytes.
 * The scenarios, their data (`bench/fixtures/httpSeed.ts`) and their requests are those of the
 * official harness, `../shared/bench` (its README, `floor/server.mjs`, `lua/bench.lua`):
 *
 *   (a) `GET /snippets/1/`                one snippet and its owner's username
 *   (b) `GET /snippets/`                  100 snippets with their owners
 *   (c) `POST /snippets/`                 `Authorization: Token`, validation, insert
 *   (d) `GET /quickstart/users/?page=2`   Basic authentication (PBKDF2, 260000 iterations: bound by it)
 *   (e) `GET /`                           the API root, no database
 *
 * Both servers run as child processes on one fresh SQLite file (migrated by `manage.ts
 * migrate`, then seeded as the harness seeds): the demo the production way, `serve --workers 1`
 * (from `dist/` after `npm run build`, else under ts-node), with the demo's settings (no
 * access log: serve's default); the floor as one process. Bodies are compared before timing (c's
 * without the new id). The client (undici, keep-alive, `CONNECTIONS` connections, `Accept:
 * application/json`) runs here; rounds alternate demo and floor, each `SECONDS` long, and the
 * median of `ROUNDS` counts; snippets created by (c) are deleted after each round. Printed:
 * req/s of each, the ratio demo/floor per scenario, and the idle RSS of each server (all its
 * processes). `SCENARIOS=a,b` runs some only.
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
import { LANGUAGE_CHOICES, STYLE_CHOICES } from '../demo/snippets/choices';
import { BENCH_PASSWORD, BENCH_SNIPPETS, deleteCreatedSnippets, seedBenchDatabase, snippetCode, type SeededData } from './fixtures/httpSeed';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const TS_NODE = require.resolve('ts-node/register/transpile-only');

/** One request of a scenario, as the harness's wrk script sends it. */
interface Scenario {
  id: string;
  label: string;
  method: 'GET' | 'POST';
  path: (seed: SeededData) => string;
  authorization?: (seed: SeededData) => string;
  body?: string;
  status: number;
  /** Writes rows that are deleted after each round. */
  mutates?: boolean;
}

const SCENARIOS: readonly Scenario[] = [
  { id: 'a', label: '(a) GET /snippets/1/', method: 'GET', path: () => '/snippets/1/', status: 200 },
  { id: 'b', label: `(b) GET /snippets/ (${BENCH_SNIPPETS})`, method: 'GET', path: () => '/snippets/', status: 200 },
  {
    id: 'c', label: '(c) POST /snippets/ token', method: 'POST', path: () => '/snippets/', status: 201, mutates: true,
    authorization: (seed) => `Token ${seed.adminToken}`,
    body: JSON.stringify({ title: 'bench post', code: snippetCode(0), linenos: false, language: 'python', style: 'friendly' }),
  },
  {
    id: 'd', label: '(d) GET users?page=2 basic', method: 'GET', path: () => '/quickstart/users/?page=2', status: 200,
    authorization: () => `Basic ${Buffer.from(`admin:${BENCH_PASSWORD}`).toString('base64')}`,
  },
  { id: 'e', label: '(e) GET /', method: 'GET', path: () => '/', status: 200 },
];

const ONLY = (process.env.SCENARIOS ?? '').split(',').map((id) => id.trim()).filter(Boolean);

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

async function prepareDatabase(file: string): Promise<SeededData> {
  const migrated = spawnSync(process.execPath, [...manageCommand(), 'migrate'], { cwd: PROJECT_ROOT, env: serverEnv(file), encoding: 'utf8' });
  if (migrated.status !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const seed = await seedBenchDatabase(file);
  if (seed.snippetMaxId !== BENCH_SNIPPETS) throw new Error(`the seeded snippets should be ids 1..${BENCH_SNIPPETS} (GET /snippets/1/)`);
  return seed;
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

function headersOf(scenario: Scenario, seed: SeededData, host?: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (scenario.authorization) headers.authorization = scenario.authorization(seed);
  if (scenario.body) headers['content-type'] = 'application/json';
  if (host) headers.host = host;
  return headers;
}

/** Requests per second over `seconds` with `connections` concurrent keep-alive clients. */
async function load(pool: Pool, scenario: Scenario, seed: SeededData, seconds: number, connections: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  const path = scenario.path(seed);
  const headers = headersOf(scenario, seed);
  let count = 0;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (Date.now() < end) {
      const { statusCode, body } = await pool.request({ method: scenario.method, path, headers, body: scenario.body });
      await body.dump();
      if (statusCode !== scenario.status) throw new Error(`${scenario.label}: status ${statusCode}`);
      count += 1;
    }
  }));
  return count / seconds;
}

/** The body of `text` as the comparison sees it: a created row's new id left out. */
function comparable(scenario: Scenario, text: string): string {
  if (!scenario.mutates) return text;
  const { id: _id, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify(rest);
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
    const seed = await prepareDatabase(file);
    const scenarios = SCENARIOS.filter((scenario) => !ONLY.length || ONLY.includes(scenario.id));
    const project = await start([...manageCommand(), 'serve', '--workers', '1', '--bind', '127.0.0.1:0'], serverEnv(file), /Listening at http:\/\/127\.0\.0\.1:(\d+)/);
    children.push(project.child);
    // The floor runs as plain JavaScript (transpiled here), so neither ts-node nor the
    // compiler weigh on its memory; it reads the demo's snippet choices from a file.
    const floorScript = path.join(dir, 'httpFloor.js');
    const choicesFile = path.join(dir, 'choices.json');
    fs.writeFileSync(choicesFile, JSON.stringify({ languages: LANGUAGE_CHOICES.map(([value]) => value), styles: STYLE_CHOICES.map(([value]) => value) }));
    const source = fs.readFileSync(path.join(__dirname, 'fixtures', 'httpFloor.ts'), 'utf8');
    fs.writeFileSync(floorScript, ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText);
    const floor = await start([floorScript], {
      ...process.env, DATABASE_FILE: file, CHOICES_FILE: choicesFile, NODE_ENV: 'production', NODE_PATH: path.join(PROJECT_ROOT, 'node_modules'),
    }, /listening (\d+)/);
    children.push(floor.child);
    const targets = [['demo', project], ['floor', floor]] as const;
    for (const [, server] of targets) pools.push(new Pool(`http://127.0.0.1:${server.port}`, { connections: CONNECTIONS }));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = targets.map(([, server]) => treeRss(server.child.pid as number));
    // Same status and bytes, or the comparison means nothing (URLs name the host they were asked on).
    for (const scenario of scenarios) {
      const bodies = await Promise.all(pools.map(async (pool) => {
        const { statusCode, body } = await pool.request({
          method: scenario.method, path: scenario.path(seed), headers: headersOf(scenario, seed, 'bench.example.com'), body: scenario.body,
        });
        const text = await body.text();
        assert.equal(statusCode, scenario.status, `${scenario.label}: status ${statusCode} ${text.slice(0, 200)}`);
        return comparable(scenario, text);
      }));
      assert.equal(bodies[0], bodies[1], `${scenario.label}: the demo and the floor answer different bytes`);
      if (scenario.mutates) await deleteCreatedSnippets(file, seed.snippetMaxId);
    }
    process.stdout.write(`http: ${ROUNDS} interleaved rounds of ${SECONDS}s, ${CONNECTIONS} connections, SQLite\n`);
    for (const scenario of scenarios) {
      for (const pool of pools) await load(pool, scenario, seed, 1, CONNECTIONS);
      if (scenario.mutates) await deleteCreatedSnippets(file, seed.snippetMaxId);
      const rates: number[][] = [[], []];
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < pools.length; i++) {
          rates[i].push(await load(pools[i], scenario, seed, SECONDS, CONNECTIONS));
          if (scenario.mutates) await deleteCreatedSnippets(file, seed.snippetMaxId);
        }
      }
      const [demo, bare] = rates.map(median);
      const digits = demo < 100 ? 1 : 0;
      process.stdout.write(`${scenario.label.padEnd(30)} demo ${demo.toFixed(digits).padStart(7)} req/s  floor ${bare.toFixed(digits).padStart(7)} req/s  ` +
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
