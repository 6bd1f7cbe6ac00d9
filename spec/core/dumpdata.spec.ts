/**
 * `dumpdata`, `loaddata` and `flush` with the host framework's JSON fixtures: a fixture dumped
 * by the original (Django 3.2 + DRF 3.14, `spec/core/fixtures/django/`) loads, and dumping the
 * same rows writes the original's bytes (with and without `--indent`); our own rows (M2M to
 * permissions, milliseconds, non-ASCII text) survive dump -> flush -> load; selections,
 * exclusions and errors as the original words them; a bad fixture installs nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { apps } from '../../lib/core/apps';
import { callCommand } from '../../lib/core/management';
import { useTestDatabase } from '../../lib/core/db/testing';
import { Q } from '../../lib/core/db';
import { Group, Permission, User } from '../../contrib/auth/models';
import { pythonJsonDumps } from '../../lib/core/fixtures/pythonJson';

const test = suite('core/dumpdata, loaddata, flush');
const DJANGO = path.join(__dirname, 'fixtures', 'django');
const LABELS = ['auth.user', 'auth.group', 'snippets', 'authtoken'];
let restore: () => void = () => undefined;
let tmp = '';

test.before(() => {
  restore = overrideSettings.enter({ INSTALLED_APPS: ['contrib.auth', 'contrib.sessions', 'contrib.authtoken', 'demo.snippets'] });
  apps.reset();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dumpdata-spec-'));
});
useTestDatabase(test);
test.after(() => {
  restore();
  apps.reset();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function run(name: string, argv: string[], stdin?: string) {
  const result = await callCommand(name, argv, stdin === undefined ? {} : { stdin });
  return result;
}

async function counts(): Promise<Record<string, number>> {
  return { users: await User.objects.count(), groups: await Group.objects.count(), permissions: await Permission.objects.count() };
}

test("loaddata :: the original's fixture loads; dumpdata writes the original's bytes back", async () => {
  const loaded = await run('loaddata', [path.join(DJANGO, 'dumpdata-indent.json')]);
  assert.is(loaded.exitCode, 0, loaded.stderr);
  assert.is(loaded.stdout, 'Installed 7 object(s) from 1 fixture(s)\n');
  const bob = await User.objects.get({ username: 'bob' });
  assert.is(bob.last_name, 'Ström');
  assert.is(bob.date_joined.toISOString(), '2024-05-01T12:30:00.123Z');
  assert.equal((await Group.objects.filter(new Q({ user: bob.id })).orderBy('pk').valuesList('name', { flat: true })), ['editors', 'readers']);
  assert.ok(await bob.checkPassword('bob-pw'), "the original's password hash logs in");

  const indented = await run('dumpdata', [...LABELS, '--indent', '2']);
  assert.is(indented.exitCode, 0, indented.stderr);
  assert.is(indented.stdout, fs.readFileSync(path.join(DJANGO, 'dumpdata-indent.json'), 'utf8'));
  const plain = await run('dumpdata', LABELS);
  assert.is(plain.stdout, fs.readFileSync(path.join(DJANGO, 'dumpdata.json'), 'utf8'));
});

test('round trip :: our rows (M2M to permissions, milliseconds, text) survive dumpdata -> flush -> loaddata', async () => {
  const carol = await User.objects.createUser('carol', 'carol@example.com', 'pw-carol-1');
  carol.first_name = 'Çarol "the" \\ <b>';
  carol.date_joined = new Date('2025-01-02T03:04:05.678Z');
  await carol.save();
  const group = await Group.objects.create({ name: 'auditors' });
  const perms = await Permission.objects.filter({ codename__in: ['view_user', 'change_group'] }).toArray();
  await group.$set('permissions', perms);
  await carol.$set('groups', [group]);
  await carol.$set('user_permissions', perms.slice(0, 1));

  const file = path.join(tmp, 'all.json');
  const dumped = await run('dumpdata', ['--indent', '4', '-o', file]);
  assert.is(dumped.exitCode, 0, dumped.stderr);
  assert.is(dumped.stdout, '');
  const first = fs.readFileSync(file, 'utf8');
  const objects = JSON.parse(first) as Array<{ model: string; pk: number; fields: Record<string, unknown> }>;
  const carolRow = objects.find((o) => o.model === 'auth.user' && o.fields.username === 'carol');
  assert.ok(carolRow);
  assert.is(carolRow.fields.date_joined, '2025-01-02T03:04:05.678Z');
  assert.equal(carolRow.fields.groups, [group.id]);
  assert.equal(carolRow.fields.user_permissions, [perms[0].id]);
  assert.ok(objects.some((o) => o.model === 'contenttypes.contenttype'));
  assert.not.ok(objects.some((o) => /^auth\.(usergroup|userpermission|grouppermission)$/.test(o.model)), 'link tables are lists on their relation');

  const before = await counts();
  const flushed = await run('flush', ['--noinput']);
  assert.is(flushed.exitCode, 0, flushed.stderr);
  assert.is((await counts()).users, 0);
  assert.is((await counts()).permissions, before.permissions, 'post-migrate recreated the permissions');

  const loaded = await run('loaddata', [file]);
  assert.is(loaded.exitCode, 0, loaded.stderr);
  assert.is(loaded.stdout, `Installed ${objects.length} object(s) from 1 fixture(s)\n`);
  assert.equal(await counts(), before);
  const again = await run('dumpdata', ['--indent', '4']);
  assert.is(again.stdout, first);
  const reloaded = await User.objects.get({ username: 'carol' });
  assert.is(reloaded.first_name, 'Çarol "the" \\ <b>');
  assert.ok(await reloaded.checkPassword('pw-carol-1'));
});

test('dumpdata :: labels, --exclude, --pks and their errors', async () => {
  const groups = await run('dumpdata', ['auth.group']);
  assert.ok((JSON.parse(groups.stdout) as Array<{ model: string }>).every((o) => o.model === 'auth.group'));
  const auth = JSON.parse((await run('dumpdata', ['auth', '-e', 'auth.permission', '-e', 'contenttypes'])).stdout) as Array<{ model: string }>;
  assert.equal([...new Set(auth.map((o) => o.model))], ['auth.group', 'auth.user']);
  const one = JSON.parse((await run('dumpdata', ['auth.user', '--pks', '1'])).stdout) as Array<{ pk: number }>;
  assert.equal(one.map((o) => o.pk), [1]);
  const errors: Array<[string[], string]> = [
    [['nope'], "CommandError: No installed app with label 'nope'.\n"],
    [['auth.nope'], 'CommandError: Unknown model: auth.nope\n'],
    [['auth', '--pks', '1'], 'CommandError: You can only use --pks option with one model\n'],
    [['-e', 'auth.nope'], 'CommandError: Unknown model in excludes: auth.nope\n'],
    [['--format', 'xml'], 'CommandError: Unknown serialization format: xml\n'],
  ];
  for (const [argv, message] of errors) {
    const result = await run('dumpdata', argv);
    assert.is(result.exitCode, 1, argv.join(' '));
    assert.is(result.stderr, message, argv.join(' '));
  }
  assert.is((await run('dumpdata', ['authtoken'])).stdout.startsWith('['), true);
});

test('pythonJsonDumps :: separators and escapes as Python json.dumps(ensure_ascii=False)', () => {
  assert.is(pythonJsonDumps({ a: [1, 'é\n"'], b: {}, c: [] }), '{"a": [1, "é\\n\\""], "b": {}, "c": []}');
  assert.is(pythonJsonDumps({ a: [1, null] }, 2), '{\n  "a": [\n    1,\n    null\n  ]\n}');
  assert.is(pythonJsonDumps([]), '[]');
});

test('loaddata :: a bad foreign key installs nothing and names the row', async () => {
  const before = await counts();
  const file = path.join(tmp, 'bad.json');
  fs.writeFileSync(file, JSON.stringify([
    { model: 'auth.group', pk: 900, fields: { name: 'ghosts', permissions: [] } },
    { model: 'snippets.snippet', pk: 900, fields: { created: '2024-01-01T00:00:00Z', title: 't', code: 'c', linenos: false, language: 'python', style: 'friendly', owner: 4242, highlighted: '' } },
  ]));
  const result = await run('loaddata', [file]);
  assert.is(result.exitCode, 1);
  assert.is(result.stderr, "CommandError: Problem installing fixtures: The row in table 'snippets_snippet' with primary key '900' has an invalid foreign key: snippets_snippet.owner_id contains a value '4242' that does not have a corresponding value in auth_user.id.\n");
  assert.equal(await counts(), before);
  assert.is(await Group.objects.filter({ name: 'ghosts' }).count(), 0);
});

test('loaddata :: unknown fields (and -i), forward references, names, gzip, stdin, missing fixtures', async () => {
  const file = path.join(tmp, 'extra.json');
  const rows = [
    // The user is named before it exists: foreign keys are checked at the end of the load.
    { model: 'authtoken.token', pk: 'f'.repeat(40), fields: { user: 77, created: '2024-02-03T04:05:06' } },
    { model: 'auth.user', pk: 77, fields: { username: 'dora', password: '!', email: '', is_superuser: false, is_staff: false, is_active: true, first_name: '', last_name: '', date_joined: '2024-01-01T00:00:00Z', last_login: null, groups: [], user_permissions: [], nickname: 'dd' } },
  ];
  fs.writeFileSync(file, JSON.stringify(rows));
  const refused = await run('loaddata', [file]);
  assert.is(refused.exitCode, 1);
  assert.is(refused.stderr, `CommandError: Problem installing fixture '${file}': User has no field named 'nickname'\n`);
  const ignored = await run('loaddata', [file, '-i']);
  assert.is(ignored.stdout, 'Installed 2 object(s) from 1 fixture(s)\n', ignored.stderr);
  assert.is((await User.objects.get({ username: 'dora' })).id, 77);

  fs.writeFileSync(path.join(tmp, 'zipped.json.gz'), zlib.gzipSync(JSON.stringify([{ model: 'auth.group', pk: 501, fields: { name: 'zipped', permissions: [] } }])));
  const byName = await overrideSettings({ FIXTURE_DIRS: [tmp] }, () => run('loaddata', ['zipped']));
  assert.is(byName.stdout, 'Installed 1 object(s) from 1 fixture(s)\n', byName.stderr);
  const fromStdin = await run('loaddata', ['-'], JSON.stringify([{ model: 'auth.group', pk: 502, fields: { name: 'piped' } }]));
  assert.is(fromStdin.stdout, 'Installed 1 object(s) from 1 fixture(s)\n', fromStdin.stderr);
  assert.equal(await Group.objects.filter({ pk__in: [501, 502] }).orderBy('pk').valuesList('name', { flat: true }), ['zipped', 'piped']);

  const missing = await run('loaddata', ['nothere']);
  assert.is(missing.stderr, "CommandError: No fixture named 'nothere' found.\n");
  const badModel = await run('loaddata', ['-'], '[{"model": "auth.nope", "pk": 1, "fields": {}}]');
  assert.is(badModel.stderr, "CommandError: Invalid model identifier: 'auth.nope'\n");
  const notJson = await run('loaddata', ['-'], '{oops');
  assert.match(notJson.stderr, "CommandError: Problem installing fixture 'stdin': ");
});

test('flush :: asks first; anything but yes cancels', async () => {
  const before = await counts();
  assert.ok(before.users > 0);
  const cancelled = await run('flush', [], 'no\n');
  assert.is(cancelled.exitCode, 0);
  assert.is(
    cancelled.stdout,
    "You have requested a flush of the database.\nThis will IRREVERSIBLY DESTROY all data currently in the 'default' database,\nand return each table to an empty state.\nAre you sure you want to do this?\n\n    Type 'yes' to continue, or 'no' to cancel: Flush cancelled.\n",
  );
  assert.equal(await counts(), before);
  const confirmed = await run('flush', [], 'yes\n');
  assert.is(confirmed.exitCode, 0, confirmed.stderr);
  assert.is((await counts()).users, 0);
  assert.is((await counts()).groups, 0);
  const user = await User.objects.createUser('after-flush', '', 'x');
  assert.is(user.id, 1, 'the id sequence starts again');
});

test.run();
