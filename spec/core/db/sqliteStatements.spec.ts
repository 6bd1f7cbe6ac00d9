/**
 * SQLite keeps prepared statements per connection (`lib/core/db/sqliteStatements.ts`): the same
 * bound statement is prepared once and re-run with new values, results and write counts stay
 * right, a statement that fails to prepare reports its error every time (and is not kept), and
 * the connection closes cleanly with statements kept.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase } from '../../../lib/core/db/testing';
import { getSequelize, getVendor } from '../../../lib/core/db';
import { LibAuthor } from './library/models';
import { useTestApps } from './helpers';

const test = suite('core/db/sqlite statements');
useTestApps(test);
useTestDatabase(test);

interface Handle { prepare(sql: string, ...rest: unknown[]): unknown }

async function withPrepareCount(fn: () => Promise<void>): Promise<string[]> {
  const manager = (getSequelize() as unknown as { connectionManager: { getConnection(o?: unknown): Promise<Handle> } }).connectionManager;
  const handle = await manager.getConnection({});
  const prepared: string[] = [];
  const original = handle.prepare;
  handle.prepare = function (this: Handle, sql: string, ...rest: unknown[]): unknown {
    prepared.push(sql);
    return original.call(this, sql, ...rest);
  };
  try {
    await fn();
  } finally {
    handle.prepare = original;
  }
  return prepared;
}

test('statements :: one prepare per bound statement, right rows and counts each run', async () => {
  if (getVendor() !== 'sqlite') return;
  const names = ['ann', 'bob', 'cyd', "o'neil", 'nul\0name'];
  const prepared = await withPrepareCount(async () => {
    for (const name of names) await LibAuthor.objects.create({ name });
    for (const name of names) assert.is((await LibAuthor.objects.get({ name })).name, name);
    for (const name of names) assert.is(await LibAuthor.objects.filter({ name }).update({ email: `${name.length}@x` }), 1);
    assert.is(await LibAuthor.objects.filter({ name: 'nobody' }).update({ email: 'z' }), 0);
  });
  const selects = prepared.filter((sql) => sql.startsWith('SELECT'));
  const updates = prepared.filter((sql) => sql.startsWith('UPDATE'));
  assert.is(new Set(selects).size, selects.length, 'each SELECT text prepared once');
  assert.is(updates.length, 1, 'the UPDATE prepared once for six runs');
  assert.is(await LibAuthor.objects.filter({ email: '3@x' }).count(), 3);
});

test('statements :: a statement that cannot be prepared fails every time, the same way', async () => {
  if (getVendor() !== 'sqlite') return;
  for (let i = 0; i < 3; i++) {
    let message = '';
    try {
      await getSequelize().query('SELECT nope FROM library_author WHERE name = $1', { bind: ['ann'] });
    } catch (error) {
      message = (error as Error).message;
    }
    assert.match(message, 'no such column: nope');
  }
  assert.is(await LibAuthor.objects.filter({ name: 'ann' }).count(), 1);
});

test('statements :: a full cache evicts the least recently used statement, not the first prepared', async () => {
  if (getVendor() !== 'sqlite') return;
  const sequelize = getSequelize();
  const select = (i: number): Promise<unknown> => sequelize.query(`SELECT ${i} AS n, name FROM library_author WHERE name = $1`, { bind: ['ann'] });
  const prepared = await withPrepareCount(async () => {
    await select(0);
    await select(1);
    // Statements 2..300 fill the cache past its 256 entries; statement 0 is used between them,
    // so it is always recent, and statement 1 is the oldest unused one.
    for (let i = 2; i <= 300; i++) {
      await select(i);
      if (i % 50 === 0) await select(0);
    }
    await select(0);
    await select(1);
  });
  const count = (i: number): number => prepared.filter((sql) => sql.startsWith(`SELECT ${i} AS n,`)).length;
  assert.is(count(0), 1, 'the statement kept in use is prepared once');
  assert.is(count(1), 2, 'the least recently used statement was evicted and is prepared again');
  assert.is(count(300), 1);
});

test.run();
