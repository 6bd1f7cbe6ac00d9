/**
 * The statement runner takes SQLite's open shared connection at once
 * (`readySqliteConnection()` in `lib/core/db/connection.ts`) only while the connection
 * manager's `getConnection` is the one that opened and tuned it: a replaced `getConnection`
 * (as `migrate` wraps it for its run) is called for every statement again, and once it is
 * put back the shared connection is ready again. A failed statement is attempted again on it
 * as Sequelize's `retry` option says (SQLITE_BUSY).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase } from '../../../lib/core/db/testing';
import { getSequelize, getVendor } from '../../../lib/core/db';
import { readySqliteConnection } from '../../../lib/core/db/connection';
import { runStatement } from '../../../lib/core/db/statementRunner';
import { useTestApps } from './helpers';

const test = suite('core/db/ready SQLite connection');
useTestApps(test);
useTestDatabase(test);

interface Manager {
  getConnection(options?: unknown): Promise<unknown>;
}

function managerOf(): Manager {
  return (getSequelize() as unknown as { connectionManager: Manager }).connectionManager;
}

async function selectOne(): Promise<unknown> {
  const { rows } = await runStatement(getSequelize(), 'SELECT 1 AS one', [], { type: 'SELECT' });
  return rows[0]?.one;
}

test('ready connection :: the shared connection is taken at once, and is the one getConnection() answers', async () => {
  if (getVendor() !== 'sqlite') return;
  assert.is(await selectOne(), 1);
  const manager = managerOf();
  const ready = readySqliteConnection(manager);
  assert.ok(ready !== null, 'the open shared connection is ready');
  assert.is(ready, await manager.getConnection({}));
});

test('ready connection :: a replaced getConnection() is called for every statement, then the shared one is used again', async () => {
  if (getVendor() !== 'sqlite') return;
  assert.is(await selectOne(), 1);
  const manager = managerOf();
  const original = manager.getConnection;
  let calls = 0;
  manager.getConnection = function (this: Manager, options?: unknown): Promise<unknown> {
    calls += 1;
    return original.call(this, options);
  };
  try {
    assert.is(readySqliteConnection(manager), null, 'not ready while getConnection is replaced');
    for (let i = 0; i < 3; i++) assert.is(await selectOne(), 1);
    assert.ok(calls >= 3, `the replacement was asked for each statement (${calls} calls)`);
  } finally {
    manager.getConnection = original;
  }
  assert.ok(readySqliteConnection(manager) !== null, 'ready again once getConnection is put back');
  assert.is(await selectOne(), 1);
});

test('ready connection :: a statement failing with SQLITE_BUSY is attempted again as Sequelize\'s retry option says, up to its max', async () => {
  if (getVendor() !== 'sqlite') return;
  assert.is(await selectOne(), 1);
  const sequelize = getSequelize() as unknown as { options: { retry?: unknown } };
  const handle = readySqliteConnection(managerOf()) as { all(sql: string, params: unknown, callback: (this: unknown, error: Error | null, rows?: unknown[]) => void): unknown };
  assert.ok(handle !== null);
  const originalAll = handle.all;
  const originalRetry = sequelize.options.retry;
  let failuresLeft = 0;
  let calls = 0;
  handle.all = function (this: unknown, sql: string, params: unknown, callback: (this: unknown, error: Error | null, rows?: unknown[]) => void): unknown {
    if (!sql.includes('busy_probe')) return originalAll.call(this, sql, params, callback);
    calls += 1;
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      process.nextTick(() => callback.call({}, Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY', errno: 5 })));
      return this;
    }
    return originalAll.call(this, sql, params, callback);
  };
  const probe = async (): Promise<unknown> => (await runStatement(getSequelize(), 'SELECT 7 AS busy_probe', [], { type: 'SELECT' })).rows[0]?.busy_probe;
  try {
    sequelize.options.retry = { max: 3, match: [/SQLITE_BUSY/], backoffBase: 1, backoffExponent: 1 };
    failuresLeft = 2;
    assert.is(await probe(), 7, 'answered by the third attempt');
    assert.is(calls, 3);

    calls = 0;
    failuresLeft = 5;
    let message = '';
    try {
      await probe();
    } catch (error) {
      message = (error as Error).message;
    }
    assert.match(message, 'SQLITE_BUSY', 'the last failure is reported');
    assert.is(calls, 3, 'no more attempts than retry.max');

    calls = 0;
    failuresLeft = 1;
    sequelize.options.retry = { max: 3, match: [/something else/], backoffBase: 1 };
    message = '';
    try {
      await probe();
    } catch (error) {
      message = (error as Error).message;
    }
    assert.match(message, 'SQLITE_BUSY');
    assert.is(calls, 1, 'an error retry.match does not name is not retried');
  } finally {
    handle.all = originalAll;
    sequelize.options.retry = originalRetry;
  }
});

test.run();
