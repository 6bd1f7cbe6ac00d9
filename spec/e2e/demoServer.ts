/**
 * The end-to-end fixture: the demo project served by a real `manage.ts runserver` child
 * process on a free port, over a fresh database (a temporary SQLite file, or a schema of its
 * own on MySQL when DATABASE_URL is a MySQL URL), migrated and given users and a token through
 * `manage.ts` itself. On SQLite that preparation runs once per test process and each server
 * gets a copy of the prepared file. Requests go through undici over HTTP.
 *
 * Users: `alice` (superuser, made by `createsuperuser --noinput`, with a token from
 * `drf_create_token`) and `carol` (a regular user), both with password `pw`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { reportSkipped } from '../skip';

const ROOT = path.resolve(__dirname, '..', '..');
export const PASSWORD = 'pw';

/**
 * True when env `SKIP_E2E_TESTS=1` leaves the end-to-end suites out (`.ci/run` runs them in the
 * SQLite and MariaDB passes, not in the Redis one); prints a note naming `suiteNames`. A spec
 * file then registers its suites without calling `.run()`, so no server starts.
 */
export function skipE2E(...suiteNames: string[]): boolean {
  if (process.env.SKIP_E2E_TESTS !== '1') return false;
  reportSkipped(suiteNames, 'SKIP_E2E_TESTS=1, did not run.');
  return true;
}

/** The answer to one request: status, headers (lower-case names), raw bytes. */
export interface E2EResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  json(): any;
}

/** Per-request options. */
export interface CallOptions {
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else as JSON. */
  body?: unknown;
  /** `[username, password]` for HTTP Basic. */
  basic?: [string, string];
  /** A token key for `Authorization: Token <key>`. */
  token?: string;
  /** Cookies to send. */
  cookies?: Record<string, string>;
}

/** A running demo server. */
export interface DemoServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** alice's token key. */
  aliceToken: string;
  /** Send a request to the server. */
  call(method: string, urlPath: string, options?: CallOptions): Promise<E2EResponse>;
  /** Run `manage.ts` against the server's database. */
  manage(args: string[], env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }>;
  /** What the server process wrote to stdout and stderr so far. */
  output(): string;
  /**
   * Stop the server (SIGTERM, SIGKILL after 5 s) and remove its database; answers how it exited.
   * Later calls answer the same.
   */
  stop(): Promise<ServerExit>;
}

/** How the server process ended: its exit code or signal, and the ms from SIGTERM to exit. */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

interface Database {
  url: string;
  /** An SQLite file can be filled by copying the process's prepared template. */
  file: string | null;
  drop(): Promise<void>;
}

/** A migrated SQLite database with the users and token, made once per test process. */
interface Template {
  file: string;
  aliceToken: string;
}

let sqliteTemplate: Promise<Template> | null = null;

/** A database of its own: a temporary SQLite file, or a fresh schema on the MySQL server. */
async function createDatabase(): Promise<Database> {
  const parentUrl = process.env.DATABASE_URL ?? '';
  const name = `e2e_${crypto.randomBytes(4).toString('hex')}`;
  if (/^(mysql|mariadb):/.test(parentUrl)) {
    const url = new URL(parentUrl);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mysql = require('mysql2/promise') as typeof import('mysql2/promise');
    const admin = () => mysql.createConnection({
      host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    });
    const connection = await admin();
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
    await connection.end();
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      file: null,
      drop: async () => {
        const dropper = await admin();
        await dropper.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await dropper.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-e2e-'));
  const file = path.join(dir, 'db.sqlite3');
  return { url: `sqlite:${file}`, file, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The child's cache: Redis under a key prefix of its own when CACHE_URL is set, else memory. */
function childCacheUrl(): string {
  const parent = process.env.CACHE_URL;
  if (!parent) return 'locmem://';
  const prefix = `e2e_${crypto.randomBytes(4).toString('hex')}`;
  return `${parent}${parent.includes('?') ? '&' : '?'}key_prefix=${prefix}`;
}

function runManage(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'manage.ts', ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function parseCookies(setCookie: string | string[] | undefined, jar: Record<string, string>): void {
  const values = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  for (const value of values) {
    const [pair] = value.split(';');
    const eq = pair.indexOf('=');
    jar[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
}

/** Cookies set by a response (name -> value), for the next requests of a session. */
export function cookiesOf(response: E2EResponse, jar: Record<string, string> = {}): Record<string, string> {
  parseCookies((response.headers as Record<string, string | string[]>)['set-cookie'], jar);
  return jar;
}

async function waitForServer(child: ChildProcess, origin: string, agent: Agent, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`runserver exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await request(`${origin}/features/render/`, { dispatcher: agent });
      await response.body.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`runserver did not answer:\n${output()}`);
}

function childEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SETTINGS_MODULE: 'demo/settings',
    DATABASE_URL: databaseUrl,
    CACHE_URL: childCacheUrl(),
    DEBUG: '0',
    SECRET_KEY: `e2e-${crypto.randomBytes(32).toString('hex')}`,
    API_FRAMEWORK_QUIET: '1',
  };
}

/** Migrate, then make alice (superuser, with a token) and carol (regular) with `manage.ts`. */
async function prepare(env: NodeJS.ProcessEnv): Promise<string> {
  const must = async (args: string[], extra: Record<string, string> = {}) => {
    const result = await runManage(args, { ...env, ...extra });
    if (result.code !== 0) throw new Error(`manage.ts ${args.join(' ')} failed (${result.code}):\n${result.stderr}${result.stdout}`);
    return result.stdout;
  };
  await must(['migrate']);
  await must(['createsuperuser', '--noinput', '--username', 'alice', '--email', 'alice@example.com'], { SUPERUSER_PASSWORD: PASSWORD });
  const tokenOutput = await must(['drf_create_token', 'alice']);
  const match = /^Generated token ([0-9a-f]{40}) for user alice$/m.exec(tokenOutput);
  if (!match) throw new Error(`unexpected drf_create_token output: ${tokenOutput}`);
  await must(['shell', '-c', `await User.objects.createUser('carol', 'carol@example.com', '${PASSWORD}');`]);
  return match[1];
}

/**
 * Fill `database`: on SQLite, copy the process's template (prepared once, on the first call);
 * on MySQL, prepare the schema itself.
 */
async function populate(database: Database, env: NodeJS.ProcessEnv): Promise<string> {
  if (database.file === null) return prepare(env);
  if (sqliteTemplate === null) {
    const template = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-e2e-template-'));
    process.once('exit', () => fs.rmSync(template, { recursive: true, force: true }));
    const file = path.join(template, 'db.sqlite3');
    sqliteTemplate = prepare({ ...env, DATABASE_URL: `sqlite:${file}` }).then((aliceToken) => ({ file, aliceToken }));
    sqliteTemplate.catch(() => { sqliteTemplate = null; });
  }
  const { file, aliceToken } = await sqliteTemplate;
  // WAL journaling: the log may still hold the last transactions.
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, database.file + suffix);
  }
  return aliceToken;
}

/** Start the demo on a fresh database; call `stop()` in the suite's `after()`. */
export async function startDemoServer(): Promise<DemoServer> {
  const database = await createDatabase();
  const env = childEnv(database.url);
  const manage = async (args: string[], extra: Record<string, string> = {}) => runManage(args, { ...env, ...extra });

  let child: ChildProcess | null = null;
  const agent = new Agent({ keepAliveTimeout: 1000 });
  try {
    const aliceToken = await populate(database, env);

    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    let output = '';
    const server = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'manage.ts', 'runserver', `127.0.0.1:${port}`, '--noreload'], {
      cwd: ROOT,
      env,
    });
    child = server;
    server.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    server.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    await waitForServer(server, origin, agent, () => output);

    const call = async (method: string, urlPath: string, options: CallOptions = {}): Promise<E2EResponse> => {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.basic) headers.authorization = `Basic ${Buffer.from(options.basic.join(':')).toString('base64')}`;
      if (options.token) headers.authorization = `Token ${options.token}`;
      if (options.cookies && Object.keys(options.cookies).length) {
        headers.cookie = Object.entries(options.cookies).map(([name, value]) => `${name}=${value}`).join('; ');
      }
      let body: string | Buffer | undefined;
      if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      }
      const response = await request(`${origin}${urlPath}`, { method: method as 'GET', headers, body, dispatcher: agent });
      const bytes = Buffer.from(await response.body.arrayBuffer());
      const text = bytes.toString('utf8');
      return {
        status: response.statusCode,
        headers: response.headers as Record<string, string>,
        body: bytes,
        text,
        json: () => JSON.parse(text),
      };
    };

    let stopping: Promise<ServerExit> | null = null;
    const stop = (): Promise<ServerExit> => (stopping ??= stopOnce());
    const stopOnce = async (): Promise<ServerExit> => {
      await agent.close();
      let exit: ServerExit = { code: server.exitCode, signal: server.signalCode, ms: 0 };
      if (server.exitCode === null && server.signalCode === null) {
        const started = Date.now();
        const exited = new Promise<ServerExit>((resolve) => server.once('exit', (code, signal) => resolve({ code, signal, ms: Date.now() - started })));
        server.kill('SIGTERM');
        const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
        exit = await exited;
        clearTimeout(timer);
      }
      await database.drop();
      return exit;
    };

    return { port, origin, aliceToken, call, manage, output: () => output, stop };
  } catch (error) {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await agent.close();
    await database.drop();
    throw error;
  }
}
