/**
 * The end of a database outage is noticed on any engine: after a failure marked the database
 * unavailable, the next query that succeeds through the connection ends the outage and logs it
 * once (SQLite's locked-database outages included, which have no driver-level timeout).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { getSequelize } from '../../lib/core/db';
import { useTestDatabase } from '../../lib/core/db/testing';
import { isUnavailable, reportOutage, resetOutages } from '../../lib/core/outage';

const test = suite('resilience: outage recovery');
useTestDatabase(test);

test.after(() => resetOutages());

test('recovery :: the first successful query ends the outage, logged once', async () => {
  resetOutages();
  let log = '';
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    log += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    await overrideSettings({ LOG_SERVER_ERRORS: true }, async () => {
      const error = Object.assign(new Error('database is locked'), { name: 'SequelizeTimeoutError' });
      reportOutage('database', error);
      reportOutage('database', error);
      assert.ok(isUnavailable('database'));
      await getSequelize().query('SELECT 1');
      await new Promise((resolve) => setImmediate(resolve));
      assert.not.ok(isUnavailable('database'));
      await getSequelize().query('SELECT 1');
    });
  } finally {
    process.stderr.write = original;
  }
  assert.match(log, /^Database unavailable: SequelizeTimeoutError: database is locked\. Requests that need it answer 503 until it recovers\.$/m);
  assert.is(log.match(/^Database available again after [\d.]+ s \(2 failures\)\.$/gm)?.length, 1, log);
  assert.is(log.split('\n').filter(Boolean).length, 2, log);
});

test.run();
