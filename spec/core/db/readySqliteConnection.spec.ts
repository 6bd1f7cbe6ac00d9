/**
 * The statement runner takes SQLite's open shared connection at once
 * (`readySqliteConnection()` in `lib/core/db/connection.ts`) only while the connection
 * manager's `getConnection` is the one that opened and tuned it: a replaced `getConnection`
 * (as `migrate` wraps it for its run) is called for every statement again, and once it is
 * put back the shared connection is ready again.
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

test.run();
