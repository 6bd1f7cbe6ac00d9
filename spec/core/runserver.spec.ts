/**
 * `manage.ts runserver` with the auto-reloader, in a child process on a free port: the parent
 * watches the folders of env API_FRAMEWORK_WATCH_DIRS (a temp folder here), and a change to a
 * source file there restarts the server child (a new PID answers); other files are ignored;
 * `--noreload` serves from the command's own process and never restarts. The parent loads
 * nothing of the project (no settings), survives saves by rename and replaced folders, ignores
 * node_modules; a port in use and failed system checks end the command with exit status 1.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { PROJECT_ROOT, SOURCE_ROOT } from '../../lib/core/conf';
import { watchedDirs } from '../../lib/core/commands/runserver';

const test = suite('runserver');
const TS_NODE = require.resolve('ts-node/register/transpile-only');
let tempDir = '';
const children: ChildProcess[] = [];

test.before(() => {
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runserver-spec-'));
  fs.writeFileSync(path.join(tempDir, 'watched.ts'), 'export const version = 1;\n');
});
test.after(() => {
  for (const child of children) stop(child);
  fs.rmSync(tempDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Kill the command and its server child (they share a process group). */
function stop(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Start `manage.ts runserver 127.0.0.1:<port> ...args`; collect its output. */
function runserver(port: number, args: string[] = [], extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['-r', TS_NODE, 'manage.ts', 'runserver', `127.0.0.1:${port}`, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, SETTINGS_MODULE: 'spec/core/fixtures/settings', API_FRAMEWORK_QUIET: '1', API_FRAMEWORK_WATCH_DIRS: tempDir, RUN_MAIN: '', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((fn) => fn());
  child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); wake(); });
  child.stderr!.on('data', (chunk: Buffer) => { err += chunk.toString(); wake(); });
  child.on('exit', wake);
  /** Resolve once the output holds `count` matches of `pattern` (fails after 60 s or on exit). */
  const waitFor = (pattern: RegExp, count = 1): Promise<void> => new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; stdout: ${out}; stderr: ${err}`)), 60_000);
    const check = () => {
      const found = out.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
      if (found >= count) {
        clearTimeout(guard);
        resolve();
      } else if (child.exitCode !== null || child.signalCode !== null) {
        clearTimeout(guard);
        reject(new Error(`runserver exited (${child.exitCode ?? child.signalCode}); stdout: ${out}; stderr: ${err}`));
      } else {
        waiters.push(check);
      }
    };
    check();
  });
  return { child, waitFor, output: () => out, errors: () => err };
}

async function servingPid(port: number): Promise<number> {
  const response = await request(`http://127.0.0.1:${port}/pid/`, { reset: true });
  assert.is(response.statusCode, 200);
  return ((await response.body.json()) as { pid: number }).pid;
}

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));

test('watchedDirs :: the project folder by default; API_FRAMEWORK_WATCH_DIRS replaces it', () => {
  assert.equal(watchedDirs({}), [SOURCE_ROOT]);
  assert.equal(watchedDirs({ API_FRAMEWORK_WATCH_DIRS: `spec${path.delimiter}${tempDir}` }), [path.join(SOURCE_ROOT, 'spec'), tempDir]);
});

test('reloader :: a changed source file restarts the server child; other files do not', async () => {
  const port = await freePort();
  const server = runserver(port);
  try {
    await server.waitFor(/Watching for file changes with fs\.watch/);
    await server.waitFor(/Starting development server at http:\/\/127\.0\.0\.1:\d+\//);
    const first = await servingPid(port);
    assert.is.not(first, server.child.pid, 'a child serves, the command only watches');

    fs.writeFileSync(path.join(tempDir, 'notes.txt'), 'not a source file\n');
    fs.writeFileSync(path.join(tempDir, 'watched.ts'), 'export const version = 2;\n');
    await server.waitFor(/watched\.ts changed, reloading\./);
    await server.waitFor(/Starting development server at/, 2);
    const second = await servingPid(port);
    assert.is.not(second, first, 'a new server process answers');
    assert.not.match(server.output(), /notes\.txt changed/);

    server.child.kill('SIGTERM');
    assert.is(await exited(server.child), 0);
  } finally {
    stop(server.child);
  }
});

test('--noreload :: the command serves itself and a changed file restarts nothing', async () => {
  const port = await freePort();
  const server = runserver(port, ['--noreload']);
  try {
    await server.waitFor(/Starting development server at/);
    assert.is(await servingPid(port), server.child.pid);
    fs.writeFileSync(path.join(tempDir, 'watched.ts'), 'export const version = 3;\n');
    // Give a watcher (there must be none) well over its 100 ms debounce to react.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.is(await servingPid(port), server.child.pid);
    assert.not.match(server.output(), /Watching for file changes|changed, reloading/);
    server.child.kill('SIGTERM');
    await exited(server.child);
  } finally {
    stop(server.child);
  }
});

test('reloader :: the parent loads no settings; saves by rename, new and replaced folders restart; node_modules is ignored', async () => {
  const port = await freePort();
  const marker = path.join(tempDir, 'settings-loads.txt');
  const server = runserver(port, [], { SETTINGS_LOAD_MARKER: marker });
  try {
    await server.waitFor(/Starting development server at/);
    const loads = () => fs.readFileSync(marker, 'utf8').trim().split('\n').map(Number);
    assert.not.ok(loads().includes(server.child.pid as number), 'the watching parent never loaded the settings');
    assert.ok(loads().includes(await servingPid(port)), 'the server child did');
    let starts = 1;

    // An editor that writes a temporary file and renames it over the original.
    const temp = path.join(tempDir, '.watched.ts.swp');
    fs.writeFileSync(temp, 'export const version = 10;\n');
    fs.renameSync(temp, path.join(tempDir, 'watched.ts'));
    await server.waitFor(/watched\.ts changed, reloading\./);
    await server.waitFor(/Starting development server at/, ++starts);

    // A folder created after start, then removed and created again (git checkout does that).
    const sub = path.join(tempDir, 'app');
    fs.mkdirSync(sub);
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.writeFileSync(path.join(sub, 'models.ts'), 'export const a = 1;\n');
    await server.waitFor(/app\/models\.ts changed, reloading\./);
    await server.waitFor(/Starting development server at/, ++starts);
    fs.rmSync(sub, { recursive: true });
    fs.mkdirSync(sub);
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.writeFileSync(path.join(sub, 'views.ts'), 'export const b = 1;\n');
    await server.waitFor(/app\/views\.ts changed, reloading\./);
    await server.waitFor(/Starting development server at/, ++starts);

    // Dependencies are not the project's sources.
    fs.mkdirSync(path.join(tempDir, 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(tempDir, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.not.match(server.output(), /node_modules/);
    assert.is(server.output().match(/Starting development server at/g)?.length, starts);

    server.child.kill('SIGTERM');
    assert.is(await exited(server.child), 0);
  } finally {
    stop(server.child);
  }
});

test('port in use :: one line on stderr and exit status 1 (with and without the reloader)', async () => {
  const blocker = net.createServer();
  const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as net.AddressInfo).port)));
  try {
    for (const args of [[], ['--noreload']]) {
      const server = runserver(port, args);
      try {
        assert.is(await exited(server.child), 1, args.join(' '));
        assert.is(server.errors(), 'Error: That port is already in use.\n', args.join(' '));
      } finally {
        stop(server.child);
      }
    }
  } finally {
    blocker.close();
  }
});

test('port in use :: serve prints the same line and exits 1 (in process, and before starting workers)', async () => {
  const blocker = net.createServer();
  const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as net.AddressInfo).port)));
  try {
    for (const workers of ['1', '2']) {
      const child = spawn(process.execPath, ['-r', TS_NODE, 'manage.ts', 'serve', '--workers', workers, '--bind', `127.0.0.1:${port}`], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, SETTINGS_MODULE: 'spec/core/fixtures/settings', API_FRAMEWORK_QUIET: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      children.push(child);
      let err = '';
      child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.stdout!.resume();
      // Before the fix the primary waited forever for workers that could not listen.
      const code = await Promise.race([exited(child), new Promise<string>((resolve) => setTimeout(() => resolve('still running after 60 s'), 60_000).unref())]);
      assert.is(code, 1, `--workers ${workers}`);
      assert.is(err, 'Error: That port is already in use.\n', `--workers ${workers}`);
    }
  } finally {
    blocker.close();
  }
});

test('system checks :: errors stop runserver before it listens (exit status 1)', async () => {
  const port = await freePort();
  const server = runserver(port, [], { MIDDLEWARE_FIXTURE: 'broken' });
  try {
    assert.is(await exited(server.child), 1);
    assert.match(server.errors(), /^SystemCheckError: System check identified some issues:\n\nERRORS:\nMIDDLEWARE: \(core\.E002\)/);
    assert.match(server.output(), 'Performing system checks...');
    assert.not.match(server.output(), 'Starting development server');
  } finally {
    stop(server.child);
  }
});

test.run();
