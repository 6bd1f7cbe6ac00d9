/**
 * Query paths through the ORM, each timed three ways in interleaved rounds on the same
 * database (SQLite file by default, MySQL with DATABASE_URL):
 *
 * - `findAll`: Sequelize building the statement per call (`Model.findAll` with the same
 *   include/order/limit the QuerySet asks for) — the path every QuerySet took before the
 *   compiled queries;
 * - `QuerySet`: the framework's API (`objects.get(...)`, a page of 100 rows with
 *   `selectRelated('owner')`, the token lookup, `objects.create`, `save()` of a changed
 *   instance, a bulk `delete()`, `values()`, `prefetchRelated()` of a many-to-many);
 * - `floor`: one hand-written statement through `sequelize.query` with bound values and raw
 *   rows (no instances), what the same answer costs without an ORM.
 *
 * Prints µs per operation (median round) and the ratios, then the CPU µs per operation (user +
 * system: writes to a SQLite file mostly wait for the disk, which the wall time shows and the
 * CPU time does not). Read the ratios, not the absolute figures (they depend on the machine and
 * on the other processes running). `BENCH_QUERIES=create,save` runs only the scenarios whose
 * names start with one of those.
 *
 *   queries: get-by-pk   findAll X µs  QuerySet Y µs  floor Z µs  findAll/QuerySet ...
 *
 * Run it alone with `npx ts-node bench/queries.bench.ts` (or `npm run bench queries`).
 */
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Op, QueryTypes } from 'sequelize';
import { Model } from 'sequelize-typescript';
import { setupSettings } from '../lib/core/conf';
import { setupTestDatabase } from '../lib/core/db/testing';
import { closeConnections } from '../lib/core/db';
import { ensureModel, getSequelize, getVendor } from '../lib/core/db/connection';
import { User } from '../contrib/auth/models';
import { Token } from '../contrib/authtoken/models';
import { SArticle, SArticleTag, STag, serializerModels } from '../spec/models/serializers/models';

const ROUNDS = 9;
/** The columns a snippet-like list serializer reads (what the list mixin asks `readOnlyRows()` for). */
const LIST_PATHS = [['id'], ['title'], ['body'], ['published'], ['status'], ['owner', 'username']];
const OPS = 200;

interface Scenario {
  name: string;
  findAll: () => Promise<unknown>;
  queryset: () => Promise<unknown>;
  floor: () => Promise<unknown>;
}

/** Wall-clock and CPU (user + system, this process and its driver threads) µs per operation. */
async function microseconds(fn: () => Promise<unknown>, ops: number): Promise<{ wall: number; cpu: number }> {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) await fn();
  const wall = Number(process.hrtime.bigint() - start) / 1e3 / ops;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / ops };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

type Kind = 'findAll' | 'queryset' | 'floor';
const KINDS: readonly Kind[] = ['findAll', 'queryset', 'floor'];

async function measure(scenario: Scenario, ops: number): Promise<void> {
  const wall: Record<Kind, number[]> = { findAll: [], queryset: [], floor: [] };
  const cpu: Record<Kind, number[]> = { findAll: [], queryset: [], floor: [] };
  for (const kind of KINDS) await microseconds(scenario[kind], Math.max(5, ops / 10));
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of KINDS) {
      const taken = await microseconds(scenario[kind], ops);
      wall[kind].push(taken.wall);
      cpu[kind].push(taken.cpu);
    }
  }
  const [a, q, f] = KINDS.map((kind) => median(wall[kind]));
  const [ca, cq, cf] = KINDS.map((kind) => median(cpu[kind]));
  process.stdout.write(`queries: ${scenario.name.padEnd(16)} findAll ${a.toFixed(0)} µs  QuerySet ${q.toFixed(0)} µs  floor ${f.toFixed(0)} µs  `
    + `findAll/QuerySet ${(a / q).toFixed(2)}  QuerySet/floor ${(q / f).toFixed(2)}  `
    + `| CPU findAll ${ca.toFixed(0)}  QuerySet ${cq.toFixed(0)}  floor ${cf.toFixed(0)} µs\n`);
}

/** Heap retained by 300 rows + owners held at once: instances against plain rows. */
async function retainedMemory(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const heldBy = async (load: () => Promise<unknown[]>): Promise<number> => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const held = await load();
    gc();
    const bytes = process.memoryUsage().heapUsed - before;
    assert.equal(held.length, 300);
    return bytes;
  };
  const held: number[] = [];
  for (let i = 0; i < 5; i++) held.push(await heldBy(() => SArticle.objects.selectRelated('owner').orderBy('id').slice(0, 300).fetch()));
  const instances = median(held);
  const rows: number[] = [];
  for (let i = 0; i < 5; i++) rows.push(await heldBy(() => SArticle.objects.orderBy('id').slice(0, 300).readOnlyRows(LIST_PATHS).fetch()));
  const plain = median(rows);
  process.stdout.write(`queries: memory held by 300 rows + owner: instances ${(instances / 1024).toFixed(0)} KiB  plain rows ${(plain / 1024).toFixed(0)} KiB  ratio ${(instances / plain).toFixed(1)}\n`);
}

/** The bench, as `bench/run.ts` calls it. */
export default async function run(): Promise<void> {
  const db = await setupTestDatabase({ models: serializerModels });
  try {
    const sequelize = getSequelize();
    const owners: User[] = [];
    for (let i = 1; i <= 5; i++) owners.push(await User.objects.create({ username: `owner${i}`, password: '!' }));
    const token = await Token.objects.create({ key: 'a'.repeat(40), user_id: owners[0].id });
    for (let i = 1; i <= 300; i++) {
      await SArticle.objects.create({ title: `Snippet ${i}`, body: 'print("hello")', published: i % 2 === 0, status: 'draft', owner_id: owners[i % 5].id });
    }
    const tags: STag[] = [];
    for (let i = 1; i <= 5; i++) tags.push(await STag.objects.create({ name: `tag${i}` }));
    for (let i = 1; i <= 20; i++) {
      for (let j = 0; j < i % 4; j++) await SArticleTag.objects.create({ article_id: i, tag_id: tags[(i + j) % 5].id });
    }
    const edited = await SArticle.objects.get({ pk: 7 });
    const editedByOrm = await SArticle.objects.get({ pk: 8 });
    let edits = 0;
    /** Sequelize's own `Model#save()` (what `BaseModel#save()` ran before the compiled writes). */
    const ormSave = (instance: Model): Promise<unknown> => Model.prototype.save.call(instance);
    const quote = (name: string): string => sequelize.getQueryInterface().quoteIdentifier(name);
    const table = (model: { getTableName(): unknown }): string => quote(String(model.getTableName()));
    const articles = table(SArticle);
    const users = table(User);
    const tokens = table(Token);
    let created = 0;
    const scenarios: Scenario[] = [
      {
        name: 'get-by-pk',
        findAll: () => SArticle.findAll({ where: { id: 42 }, limit: 21 }),
        queryset: () => SArticle.objects.get({ pk: 42 }),
        floor: () => sequelize.query(`SELECT * FROM ${articles} WHERE id = $1`, { bind: [42], type: QueryTypes.SELECT, raw: true }),
      },
      {
        name: 'list 100 + owner',
        findAll: () => SArticle.findAll({ include: [{ association: 'owner', required: false }], order: [['id', 'ASC']], limit: 100, subQuery: false }),
        queryset: () => SArticle.objects.selectRelated('owner').orderBy('id').slice(0, 100).fetch(),
        floor: () => sequelize.query(`SELECT a.*, u.username FROM ${articles} a LEFT JOIN ${users} u ON u.id = a.owner_id ORDER BY a.id LIMIT 100`,
          { type: QueryTypes.SELECT, raw: true }),
      },
      {
        name: 'list 100 rows',
        findAll: () => SArticle.findAll({ include: [{ association: 'owner', required: false }], order: [['id', 'ASC']], limit: 100, subQuery: false }),
        queryset: () => SArticle.objects.orderBy('id').slice(0, 100).readOnlyRows(LIST_PATHS).fetch(),
        floor: () => sequelize.query(`SELECT a.id, a.title, a.body, a.published, a.status, u.username FROM ${articles} a LEFT JOIN ${users} u ON u.id = a.owner_id ORDER BY a.id LIMIT 100`,
          { type: QueryTypes.SELECT, raw: true }),
      },
      {
        name: 'count',
        findAll: () => SArticle.count({ where: { published: true } }),
        queryset: () => SArticle.objects.filter({ published: true }).count(),
        floor: () => sequelize.query(`SELECT COUNT(*) AS n FROM ${articles} WHERE published = $1`, { bind: [1], type: QueryTypes.SELECT, raw: true }),
      },
      {
        name: 'token + user',
        findAll: () => Token.findAll({ where: { key: token.key }, include: [{ association: 'user', required: false }], limit: 21, subQuery: false }),
        queryset: () => Token.objects.selectRelated('user').get({ key: token.key }),
        floor: () => sequelize.query(`SELECT t.*, u.* FROM ${tokens} t JOIN ${users} u ON u.id = t.user_id WHERE t.${quote('key')} = $1`,
          { bind: [token.key], type: QueryTypes.SELECT, raw: true }),
      },
      {
        name: 'create',
        findAll: () => ormSave(SArticle.build({ title: `c${++created}`, body: '', published: false, status: 'draft', owner_id: owners[0].id, created: new Date() })),
        queryset: () => SArticle.objects.create({ title: `c${++created}`, body: '', published: false, status: 'draft', owner_id: owners[0].id }),
        floor: () => sequelize.query(`INSERT INTO ${articles} (title, body, views, price, published, status, contact, owner_id, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          { bind: [`c${++created}`, '', 0, '0.00', 0, 'draft', '', owners[0].id, '2024-01-01 00:00:00.000000'], type: QueryTypes.INSERT }),
      },
      {
        name: 'save (update)',
        findAll: () => {
          editedByOrm.title = `u${++edits}`;
          return ormSave(editedByOrm);
        },
        queryset: () => {
          edited.title = `u${++edits}`;
          return edited.save();
        },
        floor: () => sequelize.query(`UPDATE ${articles} SET title = $1 WHERE id = $2`, { bind: [`u${++edits}`, 9], type: QueryTypes.UPDATE }),
      },
      {
        name: 'delete (none)',
        findAll: () => SArticle.destroy({ where: { id: -1 } }),
        queryset: () => SArticle.objects.filter({ pk: -1 }).delete(),
        floor: () => sequelize.query(`DELETE FROM ${articles} WHERE id = $1`, { bind: [-1], type: QueryTypes.BULKDELETE }),
      },
      {
        name: 'values 100',
        findAll: () => SArticle.findAll({ attributes: ['id', 'title', 'published'], order: [['id', 'ASC']], limit: 100, raw: true }),
        queryset: () => SArticle.objects.orderBy('id').slice(0, 100).values('id', 'title', 'published'),
        floor: () => sequelize.query(`SELECT id, title, published FROM ${articles} ORDER BY id LIMIT 100`, { type: QueryTypes.SELECT, raw: true }),
      },
      {
        name: 'prefetch m2m 20',
        findAll: () => SArticle.findAll({ include: [{ association: 'tags', through: { attributes: [] } }], where: { id: { [Op.lte]: 20 } }, order: [['id', 'ASC']] }),
        queryset: () => SArticle.objects.filter({ id__lte: 20 }).orderBy('id').prefetchRelated('tags').fetch(),
        floor: async () => {
          await sequelize.query(`SELECT * FROM ${articles} WHERE id <= $1 ORDER BY id`, { bind: [20], type: QueryTypes.SELECT, raw: true });
          return sequelize.query(`SELECT t.*, j.article_id FROM ${table(STag)} t JOIN ${table(SArticleTag)} j ON j.tag_id = t.id WHERE j.article_id IN (${Array.from({ length: 20 }, (_, i) => `$${i + 1}`).join(', ')})`,
            { bind: Array.from({ length: 20 }, (_, i) => i + 1), type: QueryTypes.SELECT, raw: true });
        },
      },
    ];
    const check = await SArticle.objects.selectRelated('owner').orderBy('id').slice(0, 100).fetch();
    assert.equal(check.length, 100);
    assert.equal((check[0].get('owner') as User).username, owners[1].username);
    const only = process.env.BENCH_QUERIES;
    for (const scenario of scenarios) {
      if (only && !only.split(',').some((name) => scenario.name.startsWith(name))) continue;
      await measure(scenario, scenario.name.startsWith('list') || scenario.name.startsWith('values') || scenario.name.startsWith('prefetch') ? OPS / 4 : OPS);
    }
    connectionLookup();
    await retainedMemory();
  } finally {
    await db.teardown();
  }
}

/** Nanoseconds per call of `fn` (median of `ROUNDS` rounds of `calls` calls). */
function nanoseconds(fn: () => unknown, calls: number): number {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    rounds.push(Number(process.hrtime.bigint() - start) / calls);
  }
  return median(rounds);
}

/**
 * The per-call connection path every ORM call takes (`ensureModel`, several times per
 * request), `getSequelize()` and `getVendor()` (read by filters and field mapping), in ns.
 */
function connectionLookup(): void {
  const calls = 200_000;
  nanoseconds(() => ensureModel(SArticle), calls / 10);
  const ensure = nanoseconds(() => ensureModel(SArticle), calls);
  const sequelize = nanoseconds(() => getSequelize(), calls);
  const vendor = nanoseconds(() => getVendor(), calls);
  process.stdout.write(
    `queries: connection path  ensureModel ${ensure.toFixed(0)} ns  getSequelize ${sequelize.toFixed(0)} ns  getVendor ${vendor.toFixed(0)} ns\n`,
  );
}

if (require.main === module) {
  setupSettings(process.env.SETTINGS_MODULE || 'spec/settings');
  run().then(() => closeConnections()).then(() => process.exit(0), (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
