/**
 * The declarative migrations of contrib (auth, sessions, authtoken) and the demo's snippets
 * make the tables the original makes: on SQLite compared with the database Django migrated
 * (`django-auth.sqlite3`), on MariaDB with `spec/fixtures/django-schema.mariadb.json` (the
 * schema the hand-written migrations made before, `mariadb-schema-before-declarative.sql`,
 * with Django's TextField `longtext` and foreign keys without ON DELETE). The models need no
 * new migration, and a Django-migrated database is recognised by `migrate --fake-initial`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Sequelize } from 'sequelize-typescript';
import { useTestDatabase } from '../../lib/core/db/testing';
import { getSequelize, getVendor } from '../../lib/core/db';
import { callCommand } from '../../lib/core/management';
import { useTestApps } from '../core/db/helpers';
import { schemaSnapshot, type SchemaSnapshot } from '../core/db/schemaSnapshot';
import { reportSkipped } from '../skip';

const FIXTURE = '/work/shared/fixtures/django-auth.sqlite3';
const test = suite('contrib: declarative migrations make the original schema');
useTestApps(test, ['contrib.auth', 'contrib.sessions', 'contrib.authtoken', 'demo.snippets']);
useTestDatabase(test, { migrate: false });

const notBookkeeping = (table: string): boolean => table !== 'django_migrations';

test('migrate :: applies the declarative migrations', async () => {
  const result = await callCommand('migrate');
  assert.is(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, '  Applying auth.0001_initial... OK\n');
  assert.match(result.stdout, '  Applying snippets.0001_initial... OK\n');
});

// Without the original's SQLite database the comparison cannot run: counted as skipped.
const fixtureMissing = getVendor() !== 'mysql' && !fs.existsSync(FIXTURE);
if (fixtureMissing) reportSkipped('contrib: original schema :: SQLite comparison', `${FIXTURE} missing.`);

(fixtureMissing ? test.skip : test)('schema :: column for column, index for index, the original', async () => {
  const ours = await schemaSnapshot(getSequelize(), notBookkeeping);
  if (getVendor() === 'mysql') {
    const expected = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/django-schema.mariadb.json'), 'utf8')) as SchemaSnapshot;
    assert.equal(ours, expected);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'django-schema-'));
  const copy = path.join(dir, 'db.sqlite3');
  fs.copyFileSync(FIXTURE, copy);
  const original = new Sequelize({ dialect: 'sqlite', storage: copy, logging: false });
  try {
    const theirs = await schemaSnapshot(original, notBookkeeping);
    const { snippets_snippet: snippets, ...rest } = ours;
    assert.equal(rest, theirs);
    // The tutorial's table is not in that database: Django's DDL for it.
    assert.equal(snippets, {
      columns: [
        'id integer NOT NULL PK',
        'created datetime NOT NULL',
        'title varchar(100) NOT NULL',
        'code text NOT NULL',
        'linenos bool NOT NULL',
        'language varchar(100) NOT NULL',
        'style varchar(100) NOT NULL',
        'highlighted text NOT NULL',
        'owner_id integer NOT NULL',
      ],
      indexes: ['snippets_snippet_owner_id_20604299 (owner_id)'],
      foreignKeys: ['owner_id -> auth_user.id'],
    });
  } finally {
    await original.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('makemigrations --check :: the models match their migrations (exit 0)', async () => {
  const result = await callCommand('makemigrations', ['--check', '--noinput']);
  assert.is(result.stdout, 'No changes detected\n');
  assert.is(result.exitCode, 0, result.stderr);
});

test('migrate --fake-initial :: tables made elsewhere are recognised from the CreateModel operations', async () => {
  await getSequelize().query('DELETE FROM django_migrations');
  const result = await callCommand('migrate', ['--fake-initial']);
  assert.is(result.exitCode, 0, result.stderr);
  for (const key of ['auth.0001_initial', 'sessions.0001_initial', 'authtoken.0001_initial', 'snippets.0001_initial']) {
    assert.match(result.stdout, `  Applying ${key}... FAKED\n`);
  }
});

test('migrate snippets zero, then migrate :: the table goes and comes back identical', async () => {
  const before = await schemaSnapshot(getSequelize(), notBookkeeping);
  assert.is((await callCommand('migrate', ['snippets', 'zero'])).exitCode, 0);
  assert.not.ok(Object.keys(await schemaSnapshot(getSequelize(), notBookkeeping)).includes('snippets_snippet'));
  assert.is((await callCommand('migrate')).exitCode, 0);
  assert.equal(await schemaSnapshot(getSequelize(), notBookkeeping), before);
});

test.run();
