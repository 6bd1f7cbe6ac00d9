/**
 * The driver executor (lib/core/db/statementRunner.ts) against `sequelize.query`: the same SQL
 * fails with the same error (class, message, fields) — unique, foreign key, not-null, syntax —
 * is captured with the same text, writes report the same counts, and statements run in the
 * current `atomic()` transaction (rolled back with it) or outside it when told. SQLite and,
 * with DATABASE_URL=mysql://..., MariaDB.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QueryTypes } from 'sequelize';
import { atomic, getSequelize } from '../../../lib/core/db';
import { captureQueries, useTestDatabase } from '../../../lib/core/db/testing';
import { currentTransaction } from '../../../lib/core/db/transaction';
import { runStatement, type StatementType } from '../../../lib/core/db/statementRunner';
import { isUnavailable, reportOutage, resetOutages } from '../../../lib/core/outage';
import { STag, serializerModels } from '../../models/serializers/models';

const test = suite('core/db/statement runner');
useTestDatabase(test, { models: serializerModels });

function q(name: string): string {
  return getSequelize().getQueryInterface().quoteIdentifier(name);
}

/** The error `fn` rejects with (fails the test when it resolves). */
async function failure(fn: () => Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await fn();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected a failure');
}

test.before(async () => {
  await STag.objects.create({ name: 'taken' });
});

const ERROR_CASES: Array<[string, () => string, () => unknown[], StatementType]> = [
  ['unique violation', () => `INSERT INTO ${q('sertest_tag')} (${q('name')}) VALUES ($1)`, () => ['taken'], 'INSERT'],
  ['not-null violation', () => `INSERT INTO ${q('sertest_tag')} (${q('name')}) VALUES ($1)`, () => [null], 'INSERT'],
  ['foreign key violation', () => `INSERT INTO ${q('sertest_article_tags')} (${q('article_id')}, ${q('tag_id')}) VALUES ($1, $2)`, () => [987654, 876543], 'INSERT'],
  ['syntax error', () => `SELEC ${q('id')} FROM ${q('sertest_tag')} WHERE ${q('id')} = $1`, () => [1], 'SELECT'],
  ['syntax error without bound values', () => `SELECT ${q('id')} FROM ${q('sertest_tag')} WHERE`, () => [], 'SELECT'],
  ['unknown column without bound values', () => `SELECT ${q('nope')} FROM ${q('sertest_tag')}`, () => [], 'SELECT'],
  ['unknown column', () => `UPDATE ${q('sertest_tag')} SET ${q('nope')} = $1`, () => [1], 'BULKUPDATE'],
];

for (const [label, sql, params, type] of ERROR_CASES) {
  test(`errors, ${label}: the error sequelize.query raises`, async () => {
    const expected = await failure(() => getSequelize().query(sql(), { bind: params(), type: QueryTypes[type] }));
    const actual = await failure(() => runStatement(getSequelize(), sql(), params(), { type }));
    assert.is(actual.constructor, expected.constructor, `${label}: ${actual.name} vs ${expected.name}`);
    assert.is(actual.name, expected.name, label);
    assert.is(actual.message, expected.message, label);
    assert.equal(actual.fields, expected.fields, `${label}: fields`);
    assert.is((actual.parent as { code?: unknown } | undefined)?.code, (expected.parent as { code?: unknown } | undefined)?.code, `${label}: driver code`);
    assert.is(actual.sql, expected.sql, `${label}: sql`);
  });
}

test('capture: the statement is logged with the text sequelize.query logs', async () => {
  const sql = `SELECT ${q('name')} FROM ${q('sertest_tag')} WHERE ${q('name')} = $1;`;
  const viaSequelize = await captureQueries(() => getSequelize().query(sql, { bind: ['taken'], type: QueryTypes.SELECT }));
  const viaRunner = await captureQueries(() => runStatement(getSequelize(), sql, ['taken'], { type: 'SELECT' }));
  assert.equal(viaRunner, viaSequelize);
});

test('results: rows, changed rows and the new id', async () => {
  const inserted = await runStatement(getSequelize(), `INSERT INTO ${q('sertest_tag')} (${q('name')}) VALUES ($1)`, ['fresh'], { type: 'INSERT' });
  assert.is(inserted.changes, 1);
  const rows = await runStatement(getSequelize(), `SELECT ${q('id')}, ${q('name')} FROM ${q('sertest_tag')} WHERE ${q('name')} IN ($1, $2) ORDER BY ${q('id')}`, ['fresh', 'taken'], { type: 'SELECT' });
  assert.equal(rows.rows.map((row) => row.name), ['taken', 'fresh']);
  assert.is(Number(inserted.insertId), Number(rows.rows[1].id));
  const updated = await runStatement(getSequelize(), `UPDATE ${q('sertest_tag')} SET ${q('name')} = $1 WHERE ${q('name')} = $2`, ['fresher', 'fresh'], { type: 'BULKUPDATE' });
  assert.is(updated.changes, 1);
  const deleted = await runStatement(getSequelize(), `DELETE FROM ${q('sertest_tag')} WHERE ${q('name')} = $1`, ['fresher'], { type: 'BULKDELETE' });
  assert.is(deleted.changes, 1);
});

test('transactions: statements join atomic() and roll back with it; transaction null runs outside', async () => {
  const insert = `INSERT INTO ${q('sertest_tag')} (${q('name')}) VALUES ($1)`;
  const count = async (name: string): Promise<number> =>
    (await runStatement(getSequelize(), `SELECT ${q('id')} FROM ${q('sertest_tag')} WHERE ${q('name')} = $1`, [name], { type: 'SELECT' })).rows.length;
  await atomic(async () => {
    await runStatement(getSequelize(), insert, ['inside'], { type: 'INSERT' });
    assert.is(await count('inside'), 1, 'seen inside the transaction');
    assert.ok(currentTransaction());
    throw new Error('roll back');
  }).catch((error: Error) => assert.is(error.message, 'roll back'));
  assert.is(await count('inside'), 0, 'rolled back');
  await atomic(async () => {
    await runStatement(getSequelize(), insert, ['explicit'], { type: 'INSERT', transaction: currentTransaction() });
    const outside = await runStatement(getSequelize(), `SELECT ${q('id')} FROM ${q('sertest_tag')} WHERE ${q('name')} = $1`, ['explicit'], { type: 'SELECT', transaction: null });
    assert.is(outside.rows.length, 0, 'transaction: null reads outside the uncommitted transaction');
  });
  assert.is(await count('explicit'), 1, 'committed');
});

test('a finished transaction is refused with Sequelize’s message', async () => {
  let finished: unknown;
  await atomic(async () => {
    finished = currentTransaction();
  });
  const sql = `SELECT 1 AS ${q('one')} FROM ${q('sertest_tag')} WHERE ${q('id')} = $1`;
  const expected = await failure(() => getSequelize().query(sql, { bind: [1], type: QueryTypes.SELECT, transaction: finished as never }));
  const actual = await failure(() => runStatement(getSequelize(), sql, [1], { type: 'SELECT', transaction: finished }));
  assert.is(actual.message, expected.message);
});

test('outages: the first statement that succeeds after a database outage ends it', async () => {
  resetOutages();
  try {
    reportOutage('database', Object.assign(new Error('database is locked'), { name: 'SequelizeTimeoutError' }));
    assert.ok(isUnavailable('database'));
    await runStatement(getSequelize(), `SELECT ${q('id')} FROM ${q('sertest_tag')} WHERE ${q('id')} = $1`, [1], { type: 'SELECT' });
    assert.not.ok(isUnavailable('database'));
  } finally {
    resetOutages();
  }
});

test.run();
