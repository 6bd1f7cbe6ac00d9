/**
 * `dbshell` (the client program and its arguments for each engine, a clear error without
 * it), `collectstatic` (STATIC_ROOT from every static folder, unchanged files skipped,
 * --clear, the confirmation) and `test` (the project's specs through uvu, with the project's
 * settings and the test client's host).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { apps } from '../../lib/core/apps';
import { callCommand } from '../../lib/core/management';
import { shellCommand } from '../../lib/core/commands/dbshell';
import { uvuTarget } from '../../lib/core/commands/test';

const test = suite('core/commands: dbshell, collectstatic, test');
// uvu colours its report: compare the text.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
let tmp = '';
test.before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'commands-spec-'));
});
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A fake client on PATH that records its arguments and MYSQL_PWD. */
function fakeClient(name: string): { bin: string; record: string } {
  const bin = path.join(tmp, `bin-${name}`);
  fs.mkdirSync(bin, { recursive: true });
  const record = path.join(tmp, `${name}.txt`);
  fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\necho "MYSQL_PWD=$MYSQL_PWD" >> '${record}'\nexit 0\n`, { mode: 0o755 });
  return { bin, record };
}

async function withPath<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = dir;
  try {
    return await fn();
  } finally {
    process.env.PATH = saved;
  }
}

test('dbshell :: sqlite3 on the database file, arguments after -- passed on', async () => {
  const { bin, record } = fakeClient('sqlite3');
  const file = path.join(tmp, 'db.sqlite3');
  const result = await withPath(bin, () => overrideSettings({ DATABASE_URL: `sqlite://${file}` }, () => callCommand('dbshell', ['--', '-cmd', '.tables'])));
  assert.is(result.exitCode, 0, result.stderr);
  assert.is(fs.readFileSync(record, 'utf8'), `${file}\n-cmd\n.tables\nMYSQL_PWD=\n`);
});

test('dbshell :: mariadb (else mysql) with user, host, port, database; the password in MYSQL_PWD', async () => {
  const { bin, record } = fakeClient('mysql');
  const result = await withPath(bin, () => overrideSettings({ DATABASE_URL: 'mysql://app:s3cret@db.internal:3307/shop' }, () => callCommand('dbshell')));
  assert.is(result.exitCode, 0, result.stderr);
  assert.is(fs.readFileSync(record, 'utf8'), '--user=app\n--host=db.internal\n--port=3307\nshop\nMYSQL_PWD=s3cret\n');
  const config = { vendor: 'mysql' as const, user: 'u', host: 'h', port: 1, database: 'd', password: 'p' };
  assert.equal(shellCommand(config, ['-e', 'SELECT 1'], { PATH: bin }).args, ['--user=u', '--host=h', '--port=1', 'd', '-e', 'SELECT 1']);
});

test('dbshell :: a missing client or an in-memory database is a clear error', async () => {
  const empty = path.join(tmp, 'empty-bin');
  fs.mkdirSync(empty, { recursive: true });
  const missing = await withPath(empty, () => overrideSettings({ DATABASE_URL: `sqlite://${path.join(tmp, 'x.sqlite3')}` }, () => callCommand('dbshell')));
  assert.is(missing.exitCode, 1);
  assert.is(missing.stderr, "CommandError: You appear not to have the 'sqlite3' program installed or on your path.\n");
  const mysql = await withPath(empty, () => overrideSettings({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/x' }, () => callCommand('dbshell')));
  assert.is(mysql.stderr, "CommandError: You appear not to have the 'mysql' program installed or on your path.\n");
  const memory = await overrideSettings({ DATABASE_URL: 'sqlite::memory:' }, () => callCommand('dbshell'));
  assert.match(memory.stderr, 'CommandError: The database is in memory');
});

test('collectstatic :: copies every static folder into STATIC_ROOT; unchanged files skipped; --clear; confirmation', async () => {
  const root = path.join(tmp, 'static-root');
  const extra = path.join(tmp, 'assets');
  fs.mkdirSync(path.join(extra, 'site'), { recursive: true });
  fs.writeFileSync(path.join(extra, 'site', 'app.css'), 'body { color: red }\n');
  const restore = overrideSettings.enter({ INSTALLED_APPS: ['contrib.auth', 'contrib.browsable'], STATIC_ROOT: root, STATICFILES_DIRS: [extra] });
  apps.reset();
  try {
    const first = await callCommand('collectstatic', ['--noinput']);
    assert.is(first.exitCode, 0, first.stderr);
    const copied = Number(/^\n(\d+) static files copied to '(.*)'\.\n$/.exec(first.stdout)?.[1]);
    assert.ok(copied >= 3, first.stdout);
    assert.is(first.stdout, `\n${copied} static files copied to '${root}'.\n`);
    assert.is(fs.readFileSync(path.join(root, 'site', 'app.css'), 'utf8'), 'body { color: red }\n');
    assert.ok(fs.existsSync(path.join(root, 'api_framework', 'css', 'browsable.css')), 'the browsable API assets');

    const second = await callCommand('collectstatic', ['--noinput']);
    assert.is(second.stdout, `\n0 static files copied to '${root}', ${copied} unmodified.\n`);

    fs.writeFileSync(path.join(root, 'stale.txt'), 'old');
    const cleared = await callCommand('collectstatic', ['--noinput', '--clear', '-v', '0']);
    assert.is(cleared.exitCode, 0, cleared.stderr);
    assert.not.ok(fs.existsSync(path.join(root, 'stale.txt')));
    assert.ok(fs.existsSync(path.join(root, 'site', 'app.css')));

    const cancelled = await callCommand('collectstatic', [], { stdin: 'no\n' });
    assert.is(cancelled.exitCode, 1);
    assert.is(
      cancelled.stdout,
      `\nYou have requested to collect static files at the destination\nlocation as specified in your settings:\n\n    ${root}\n\nThis will overwrite existing files!\nAre you sure you want to do this?\n\nType 'yes' to continue, or 'no' to cancel: `,
    );
    assert.is(cancelled.stderr, 'CommandError: Collecting static files cancelled.\n');
    const confirmed = await callCommand('collectstatic', [], { stdin: 'yes\n' });
    assert.is(confirmed.exitCode, 0, confirmed.stderr);

    const unset = await overrideSettings({ STATIC_ROOT: null }, () => callCommand('collectstatic', ['--noinput']));
    assert.is(unset.stderr, "CommandError: You're using the staticfiles app without having set the STATIC_ROOT setting to a filesystem path.\n");
  } finally {
    restore();
    apps.reset();
  }
});

test('test :: labels become uvu folders, files or patterns', () => {
  const here = path.join(__dirname, 'fixtures');
  assert.equal(uvuTarget(null, here), { dir: here, pattern: '\\.spec\\.ts$' });
  assert.equal(uvuTarget('testRunner', here), { dir: path.join(here, 'testRunner'), pattern: '\\.spec\\.ts$' });
  assert.equal(uvuTarget('testRunner/sample.testcase.ts', here), { dir: path.join(here, 'testRunner'), pattern: '(^|[\\\\/])sample\\.testcase\\.ts$' });
  assert.equal(uvuTarget('books.*views', here), { dir: here, pattern: 'books.*views' });
});

test('test :: runs the specs with the project settings; failures exit 1', async () => {
  const file = path.join(__dirname, 'fixtures', 'testRunner', 'sample.testcase.ts');
  const saved = { settings: process.env.SETTINGS_MODULE, fail: process.env.TESTCASE_FAIL };
  process.env.SETTINGS_MODULE = 'spec/core/fixtures/settings';
  try {
    const passing = await callCommand('test', [file]);
    assert.is(passing.exitCode, 0, passing.stderr);
    assert.match(passing.stdout.replace(ANSI, ''), /Total:\s+2\s+Passed:\s+2/);
    process.env.TESTCASE_FAIL = '1';
    const failing = await callCommand('test', [file]);
    assert.is(failing.exitCode, 1);
    assert.match(failing.stdout.replace(ANSI, ''), /FAIL .*runner :: fails on request/);
    assert.match(failing.stderr, /CommandError: Some tests failed\.\n$/);
  } finally {
    if (saved.settings === undefined) delete process.env.SETTINGS_MODULE;
    else process.env.SETTINGS_MODULE = saved.settings;
    delete process.env.TESTCASE_FAIL;
  }
});

test('test :: a suite whose before() throws fails the run and names the error', async () => {
  const file = path.join(__dirname, 'fixtures', 'testRunner', 'failingBefore.testcase.ts');
  const saved = process.env.SETTINGS_MODULE;
  process.env.SETTINGS_MODULE = 'spec/core/fixtures/settings';
  try {
    const result = await callCommand('test', [file]);
    assert.is(result.exitCode, 1, result.stderr);
    assert.match(result.stderr, '[before() failed] suite "(default test suite)": its tests did not run.');
    assert.match(result.stderr, 'the fixture could not be set up');
    assert.not.match(`${result.stdout}${result.stderr}`, 'a test ran although before() failed');
    assert.match(result.stderr, /CommandError: Some tests failed\.\n$/);
  } finally {
    if (saved === undefined) delete process.env.SETTINGS_MODULE;
    else process.env.SETTINGS_MODULE = saved;
  }
});

test.run();
