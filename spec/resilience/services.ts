/**
 * Private MariaDB and Redis instances for outage tests: each on a free port, with its own data
 * directory in a temporary folder, so a test can freeze (SIGSTOP), resume (SIGCONT) or kill it
 * without touching the shared servers on 3306/6379. `available()` says whether the binaries are
 * installed (the outage suites skip with a note when not).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/lib/processes';

/** A server process of the test's own. */
export interface PrivateService {
  port: number;
  /** `mysql://root@127.0.0.1:<port>/<db>` or `redis://127.0.0.1:<port>/0`. */
  url: string;
  /** Freeze the process (its sockets stay open, nothing answers); resolves once every thread stopped. */
  freeze(): Promise<void>;
  /** Resume a frozen process. */
  resume(): void;
  /** Stop it for good and remove its files. */
  stop(): Promise<void>;
}

const MARIADBD = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].find((file) => fs.existsSync(file)) ?? null;

function which(binary: string): string | null {
  const result = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The binaries found: mariadbd + mariadb-install-db, and redis-server. */
export function available(): { mariadb: boolean; redis: boolean } {
  return { mariadb: MARIADBD !== null && which('mariadb-install-db') !== null, redis: which('redis-server') !== null };
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the service did not listen on ${port}:\n${output()}`);
}

/** True when every thread of `pid` is stopped (state T in /proc), or /proc cannot tell. */
function allThreadsStopped(pid: number): boolean {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).every((task) => {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      return /^\d+ \(.*\) [Tt] /s.test(stat);
    });
  } catch {
    return true;
  }
}

function control(child: ChildProcess, dir: string): Omit<PrivateService, 'port' | 'url'> {
  return {
    freeze: async () => {
      child.kill('SIGSTOP');
      // The stop reaches each thread asynchronously: a thread already woken by a request could
      // still answer it. Wait until /proc shows them all stopped.
      const deadline = Date.now() + 5000;
      while (child.pid !== undefined && !allThreadsStopped(child.pid) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    resume: () => { child.kill('SIGCONT'); },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGCONT');
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Start a MariaDB server of the test's own (root without password, database `database`). */
export async function startMariaDb(database = 'outage'): Promise<PrivateService> {
  if (!MARIADBD) throw new Error('mariadbd is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resilience-mariadb-'));
  const datadir = path.join(dir, 'data');
  const install = spawnSync('mariadb-install-db', [
    '--no-defaults', `--datadir=${datadir}`, `--user=${os.userInfo().username}`,
    '--auth-root-authentication-method=normal', '--skip-test-db',
  ], { encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`mariadb-install-db failed:\n${install.stderr}${install.stdout}`);
  const port = await freePort();
  let output = '';
  const child = spawn(MARIADBD, [
    '--no-defaults', `--datadir=${datadir}`, `--user=${os.userInfo().username}`, `--port=${port}`,
    '--bind-address=127.0.0.1', `--socket=${path.join(dir, 'mysqld.sock')}`, `--pid-file=${path.join(dir, 'mysqld.pid')}`,
    '--skip-log-bin', '--innodb-buffer-pool-size=16M', '--performance-schema=off', '--skip-name-resolve',
    `--init-file=${writeInitFile(dir, database)}`,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  try {
    await waitForPort(port, child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { port, url: `mysql://root@127.0.0.1:${port}/${database}`, ...control(child, dir) };
}

function writeInitFile(dir: string, database: string): string {
  const file = path.join(dir, 'init.sql');
  fs.writeFileSync(file, `CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;\n`);
  return file;
}

/** Start a Redis server of the test's own (no persistence). */
export async function startRedis(): Promise<PrivateService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resilience-redis-'));
  const port = await freePort();
  let output = '';
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  try {
    await waitForPort(port, child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { port, url: `redis://127.0.0.1:${port}/0`, ...control(child, dir) };
}
