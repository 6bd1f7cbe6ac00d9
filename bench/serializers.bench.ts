/**
 * Serializer throughput: 10,000 snippet-like model rows (id, title, body, published, status,
 * contact, owner -> owner.username, created datetime) through a ModelSerializer with
 * `many: true`, compared with a hand-written naive serializer producing the very same output
 * (checked before timing): it reads every attribute through Sequelize's `get()` and builds
 * its field closures per row.
 *
 * Both are timed in alternating rounds after a warm-up; each figure is the median round.
 * Read the ratio, not the absolute figures (they depend on the machine). Prints:
 *
 *   serializers: 10000 rows  naive X rows/s  ModelSerializer Y rows/s  ratio Y/X
 *
 * Run it alone with `npx ts-node bench/serializers.bench.ts` (or `npm run bench serializers`).
 */
import assert from 'node:assert/strict';
import { setupSettings, settings } from '../lib/core/conf';
import { setupTestDatabase } from '../lib/core/db/testing';
import { closeConnections } from '../lib/core/db';
import { ReadOnlyField } from '../lib/fields';
import { ModelSerializer } from '../lib/serializers';
import { User } from '../contrib/auth/models';
import { SArticle, serializerModels } from '../spec/models/serializers/models';

const ROWS = 10_000;
const ROUNDS = 15;

class SnippetLikeSerializer extends ModelSerializer {
  static Meta = { model: SArticle, fields: ['id', 'title', 'body', 'published', 'status', 'contact', 'owner', 'created'] };
  static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) };
}

/** Python's isoformat() of a UTC datetime, as the serializer prints it. */
function isoformat(date: Date): string {
  const iso = date.toISOString();
  return date.getUTCMilliseconds() ? `${iso.slice(0, 23)}000Z` : `${iso.slice(0, 19)}Z`;
}

/** The naive way: attributes through `get()`, field closures built per row, looked up by name. */
function naive(rows: SArticle[]): unknown[] {
  return rows.map((row) => {
    const fields: Record<string, () => unknown> = {
      id: () => row.get('id'), title: () => row.get('title'), body: () => row.get('body'),
      published: () => Boolean(row.get('published')), status: () => row.get('status'), contact: () => row.get('contact'),
      owner: () => (row.get('owner') as User).get('username'), created: () => isoformat(row.get('created') as Date),
    };
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(fields)) out[name] = fields[name]();
    return out;
  });
}

function serialize(rows: SArticle[]): unknown[] {
  return SnippetLikeSerializer.many(rows).data;
}

function seconds(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function rate(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** The bench, as `bench/run.ts` calls it. */
export default async function run(): Promise<void> {
  const db = await setupTestDatabase({ models: serializerModels });
  try {
    const owner = User.build({ id: 1, username: 'alice', password: '!' });
    const rows: SArticle[] = [];
    for (let i = 1; i <= ROWS; i++) {
      const row = SArticle.build({ id: i, title: `Snippet ${i}`, body: 'print("hello")', published: i % 2 === 0, status: 'draft',
        contact: '', owner_id: 1, created: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, i % 1000)) });
      (row.dataValues as Record<string, unknown>).owner = owner;
      rows.push(row);
    }
    // Same output, or the comparison means nothing.
    assert.deepEqual(serialize(rows), naive(rows));
    for (let i = 0; i < 3; i++) {
      naive(rows);
      serialize(rows);
    }
    const naiveTimes: number[] = [];
    const serializerTimes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      naiveTimes.push(seconds(() => naive(rows)));
      serializerTimes.push(seconds(() => serialize(rows)));
    }
    const naiveRate = ROWS / median(naiveTimes);
    const serializerRate = ROWS / median(serializerTimes);
    process.stdout.write(`serializers: ${ROWS} rows  naive ${rate(naiveRate)} rows/s  ModelSerializer ${rate(serializerRate)} rows/s  ` +
      `ratio ${(serializerRate / naiveRate).toFixed(2)}\n`);
  } finally {
    await db.teardown();
  }
}

if (require.main === module) {
  process.env.API_FRAMEWORK_QUIET = '1';
  if (!settings.SECRET_KEY) setupSettings(process.env.SETTINGS_MODULE || 'spec/settings');
  run()
    .then(() => closeConnections())
    .then(() => process.exit(0), (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
