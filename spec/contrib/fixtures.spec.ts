/**
 * A database made by the original framework (Django 3.2 + DRF 3.14) is served unchanged:
 * `migrate --fake-initial` recognises it, and its users log in with their passwords.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { Q, closeConnection } from '../../lib/core/db';
import { callCommand } from '../../lib/core/management';
import { authenticate } from '../../contrib/auth';
import { Group, Permission, User } from '../../contrib/auth/models';

const FIXTURE = '/work/shared/fixtures/django-auth.sqlite3';

const test = suite('fixtures: django-auth.sqlite3');
let dir = '';
let url = '';
let restore: () => void = () => undefined;

test.before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'django-auth-'));
  const file = path.join(dir, 'db.sqlite3');
  fs.copyFileSync(FIXTURE, file);
  fs.chmodSync(file, 0o600);
  url = `sqlite://${file}`;
  restore = overrideSettings.enter({ DATABASE_URL: url });
});

test.after(async () => {
  await closeConnection(url);
  restore();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('migrate --fake-initial :: recognises the original schema', async () => {
  const result = await callCommand('migrate', ['--fake-initial']);
  assert.is(result.exitCode, 0, result.stderr);
  assert.not.match(result.stdout, /Applying auth\.0001_initial\.\.\. OK/);
  assert.not.match(result.stdout, /Applying sessions\.0001_initial\.\.\. OK/);
  const again = await callCommand('migrate', []);
  assert.is(again.exitCode, 0, again.stderr);
  assert.match(again.stdout, 'No migrations to apply.');
});

test('users :: alice logs in with her password and is in editors', async () => {
  const alice = await authenticate(null, { username: 'alice', password: 'alice-password-1' });
  assert.ok(alice, 'alice authenticates');
  assert.is(alice.username, 'alice');
  assert.not.ok(alice.is_superuser);
  const user = await User.objects.get({ username: 'alice' });
  assert.is(user.email, 'alice@example.com');
  assert.ok(user.is_active);
  assert.instance(user.date_joined, Date);
  assert.is(user.date_joined.getUTCFullYear(), 2026);
  const groups = await Group.objects.filter(new Q({ user__username: 'alice' })).fetch();
  assert.equal(groups.map((g) => g.name), ['editors']);
  assert.is(await authenticate(null, { username: 'alice', password: 'wrong-password' }), null);
});

test('users :: admin is a superuser', async () => {
  const admin = await authenticate(null, { username: 'admin', password: 'admin-password-1' });
  assert.ok(admin);
  assert.ok(admin.is_superuser);
  assert.ok(admin.is_staff);
  assert.ok(await admin.hasPerm('auth.delete_user'));
  assert.is(await authenticate(null, { username: 'admin', password: 'alice-password-1' }), null);
});

test('permissions :: the original rows are kept, none duplicated', async () => {
  assert.is(await Permission.objects.filter({ codename: 'add_user' }).count(), 1);
  const perm = await Permission.objects.selectRelated('content_type').get({ codename: 'view_session' });
  assert.is(perm.name, 'Can view session');
  assert.is(perm.content_type?.app_label, 'sessions');
});

test.run();
