/**
 * Serializer throughput: 10,000 snippet-like model rows (id, title, code, linenos,
 * language, style, owner -> owner.username, created datetime) through a ModelSerializer,
 * compared with a hand-written naive serializer that reads every attribute through
 * Sequelize's getters and builds its field objects per row.
 */
import { setupTestDatabase } from '../lib/core/db/testing';
import { closeConnections } from '../lib/core/db';
import { ReadOnlyField } from '../lib/fields';
import { ModelSerializer } from '../lib/serializers';
import { User } from '../contrib/auth/models';
import { SArticle, serializerModels } from '../spec/models/serializers/models';

const ROWS = 10_000;

class SnippetLikeSerializer extends ModelSerializer {
  static Meta = { model: SArticle, fields: ['id', 'title', 'body', 'published', 'status', 'contact', 'owner', 'created'] };
  static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) };
}

/** The slow way: field lookups by name and closures per row. */
function naive(rows: SArticle[]): unknown[] {
  return rows.map((row) => {
    const fields: Record<string, () => unknown> = {
      id: () => row.get('id'), title: () => row.get('title'), body: () => row.get('body'),
      published: () => Boolean(row.get('published')), status: () => row.get('status'), contact: () => row.get('contact'),
      owner: () => (row.get('owner') as User).get('username'), created: () => (row.get('created') as Date).toISOString(),
    };
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(fields)) out[name] = fields[name]();
    return out;
  });
}

function measure(label: string, fn: () => unknown): void {
  fn();
  const runs = 5;
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) fn();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const rate = Math.round((ROWS * runs) / seconds);
  process.stdout.write(`${label.padEnd(40)} ${rate.toLocaleString('en-US')} rows/s\n`);
}

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
    measure('naive (getters, per-row closures)', () => naive(rows));
    measure('ModelSerializer many=True (.data)', () => new SnippetLikeSerializer(rows, { many: true }).data);
  } finally {
    await db.teardown();
    await closeConnections();
  }
}
