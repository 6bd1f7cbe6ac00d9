/**
 * A SQLite `DATABASE_URL` whose folder does not exist is refused with one line naming the
 * setting and the folder, and no folder is created (the driver would create every missing
 * one, at the filesystem root for `sqlite:/no/such/dir/db.sqlite3`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ImproperlyConfigured, overrideSettings } from '../../../lib/core/conf';
import { closeConnection, getSequelize } from '../../../lib/core/db';

const test = suite('core/db sqlite folder');

test('missing parent folder :: one-line ImproperlyConfigured, nothing created', () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-folder-'));
  const missing = path.join(base, 'no', 'such', 'dir');
  const url = `sqlite:${path.join(missing, 'db.sqlite3')}`;
  try {
    overrideSettings({ DATABASE_URL: url }, () => getSequelize());
    assert.unreachable('a missing folder was accepted');
  } catch (error) {
    assert.instance(error, ImproperlyConfigured);
    assert.is((error as Error).message, `DATABASE_URL '${url}': the folder ${missing} does not exist; create it or use another path.`);
    assert.not.ok((error as Error).message.includes('\n'));
  } finally {
    assert.not.ok(fs.existsSync(path.join(base, 'no')), 'a folder was created');
    fs.rmSync(base, { recursive: true, force: true });
  }
});

test('existing folder :: accepted', async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-folder-'));
  const url = `sqlite:${path.join(base, 'db.sqlite3')}`;
  try {
    const sequelize = overrideSettings({ DATABASE_URL: url }, () => getSequelize());
    assert.ok(sequelize);
  } finally {
    await closeConnection(url);
    fs.rmSync(base, { recursive: true, force: true });
  }
});

test.run();
