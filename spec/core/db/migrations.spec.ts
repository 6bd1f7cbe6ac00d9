import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QueryTypes } from 'sequelize';
import { useTestDatabase } from '../../../lib/core/db/testing';
import { getSequelize, getVendor } from '../../../lib/core/db';
import { loadMigrationPlan, MigrationError } from '../../../lib/core/db/migrations';
import { callCommand } from '../../../lib/core/management';
import { postMigrateCalls } from './library/app';
import { useTestApps } from './helpers';

const test = suite('core/db/migrations');
// shelf is listed first but depends on library: the plan must still run library first.
useTestApps(test, ['spec.core.db.shelf', 'spec.core.db.library']);
useTestDatabase(test, { migrate: false });

/** The plan's note on MySQL, where DDL is not transactional (nothing on SQLite). */
function ddlNote(): string {
  return getVendor() === 'mysql'
    ? '  Note: MySQL DDL is not transactional; each statement commits, so a migration that fails midway stays partly applied.\n'
    : '';
}

async function tables(): Promise<string[]> {
  return (await getSequelize().getQueryInterface().showAllTables()).map(String).filter((t) => t !== 'sqlite_sequence').sort();
}

async function recorded(): Promise<string[]> {
  const rows = await getSequelize().query<{ app: string; name: string }>('SELECT app, name FROM django_migrations ORDER BY id', { type: QueryTypes.SELECT });
  return rows.map((r) => `${r.app}.${r.name}`);
}

test('showmigrations :: nothing applied yet', async () => {
  const result = await callCommand('showmigrations');
  assert.is(result.exitCode, 0, result.stderr);
  assert.is(result.stdout, 'library\n [ ] 0001_initial\n [ ] 0002_author_index\nshelf\n [ ] 0001_initial\n');
});

test('migrate :: applies in dependency order with Django output, runs postMigrate', async () => {
  const before = postMigrateCalls.length;
  const result = await callCommand('migrate');
  assert.is(result.exitCode, 0, result.stderr);
  assert.is(
    result.stdout,
    `Operations to perform:\n  Apply all migrations: library, shelf\n${ddlNote()}Running migrations:\n` +
      '  Applying library.0001_initial... OK\n  Applying library.0002_author_index... OK\n  Applying shelf.0001_initial... OK\n',
  );
  assert.is(postMigrateCalls.length, before + 1);
  assert.equal(await tables(), ['django_migrations', 'library_author', 'library_book', 'library_book_tags', 'library_tag', 'shelf_slot']);
  assert.equal(await recorded(), ['library.0001_initial', 'library.0002_author_index', 'shelf.0001_initial']);
});

test('migrate :: idempotent', async () => {
  const before = postMigrateCalls.length;
  const result = await callCommand('migrate');
  assert.is(result.stdout, 'Operations to perform:\n  Apply all migrations: library, shelf\nRunning migrations:\n  No migrations to apply.\n');
  assert.is(postMigrateCalls.length, before + 1);
  assert.is((await recorded()).length, 3);
});

test('showmigrations :: marks applied migrations, filters by app', async () => {
  assert.is((await callCommand('showmigrations')).stdout, 'library\n [X] 0001_initial\n [X] 0002_author_index\nshelf\n [X] 0001_initial\n');
  assert.is((await callCommand('showmigrations', ['shelf'])).stdout, 'shelf\n [X] 0001_initial\n');
});

test('migrate <app> <name> :: unapplies later migrations and their dependents', async () => {
  const result = await callCommand('migrate', ['library', '0001']);
  assert.is(result.exitCode, 0, result.stderr);
  assert.is(
    result.stdout,
    `Operations to perform:\n  Target specific migration: 0001_initial, from library\n${ddlNote()}Running migrations:\n` +
      '  Unapplying shelf.0001_initial... OK\n  Unapplying library.0002_author_index... OK\n',
  );
  assert.equal(await recorded(), ['library.0001_initial']);
  assert.not.ok((await tables()).includes('shelf_slot'));
});

test('migrate --fake-initial :: recognises tables created elsewhere (a Django-migrated database)', async () => {
  await getSequelize().query('DELETE FROM django_migrations');
  // Rows of apps this project does not know (Django's admin, ...) are left alone.
  await getSequelize().getQueryInterface().bulkInsert('django_migrations', [{ app: 'admin', name: '0001_initial', applied: new Date() }]);
  const result = await callCommand('migrate', ['--fake-initial']);
  assert.is(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, '  Applying library.0001_initial... FAKED\n  Applying library.0002_author_index... OK\n  Applying shelf.0001_initial... OK\n');
  assert.equal(await recorded(), ['admin.0001_initial', 'library.0001_initial', 'library.0002_author_index', 'shelf.0001_initial']);
});

test('migrate --fake :: records without running', async () => {
  const result = await callCommand('migrate', ['shelf', 'zero', '--fake']);
  assert.is(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, '  Unapplying shelf.0001_initial... FAKED\n');
  assert.ok((await tables()).includes('shelf_slot'));
  assert.not.ok((await recorded()).includes('shelf.0001_initial'));
  assert.match((await callCommand('migrate', ['shelf', '--fake'])).stdout, '  Applying shelf.0001_initial... FAKED\n');
  assert.ok((await recorded()).includes('shelf.0001_initial'));
});

test('migrate :: errors become CommandError', async () => {
  const unknown = await callCommand('migrate', ['nope']);
  assert.is(unknown.exitCode, 1);
  assert.is(unknown.stderr, "CommandError: No installed app with label 'nope'.\n");
  const badName = await callCommand('migrate', ['library', '0009']);
  assert.is(badName.stderr, "CommandError: Cannot find a migration matching '0009' from app 'library'.\n");
});

test('plan :: a missing dependency is reported', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  try {
    fs.writeFileSync(path.join(dir, '0001_initial.js'), "exports.dependencies = [['ghost', '0001_initial']]; exports.up = async () => {};\n");
    assert.throws(
      () => loadMigrationPlan([{ label: 'broken', migrationsDir: dir }]),
      (e: Error) => e instanceof MigrationError && e.message === "Migration broken.0001_initial dependencies reference nonexistent parent node ('ghost', '0001_initial').",
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
