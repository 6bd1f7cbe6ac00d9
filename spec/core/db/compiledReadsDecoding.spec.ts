/**
 * The compiled SELECT's own result handling (lib/core/db/rowDecoder.ts, run on the driver by
 * statementRunner.ts) against Sequelize's: for column types the demo does not use (BIGINT,
 * SMALLINT, DOUBLE, REAL, FLOAT, DECIMAL, BOOLEAN, DATETIME with and without fractions,
 * DATEONLY, TIME, JSON, UUID, BLOB, ENUM, a column whose name differs from its attribute),
 * NULLs, to-one joins one and two levels deep (LEFT JOINs that find nothing included), each
 * case answers what `Model.findAll()` with the QuerySet's options answers: the same values,
 * the same keys in the same order, instances in the same state (not new, previous values set,
 * nothing changed, includes attached); plain rows and `values()` likewise. Runs on SQLite and,
 * with DATABASE_URL=mysql://..., on MariaDB.
 */
import 'reflect-metadata';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FindOptions } from 'sequelize';
import { Table, Column, DataType, ForeignKey, BelongsTo, Model } from 'sequelize-typescript';
import { BaseModel, Manager, field, relation, type ModelMeta, type QuerySet } from '../../../lib/core/db';
import { useTestDatabase, captureDataQueries } from '../../../lib/core/db/testing';
import { countCalls } from '../../helpers';

@Table({ tableName: 'dectest_group', timestamps: false })
class DGroup extends BaseModel {
  declare static objects: Manager<DGroup>;
  static override meta: ModelMeta = { appLabel: 'dectest' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(40) }))
  declare title: string;

  @Column({ type: DataType.JSON, allowNull: true })
  declare meta: unknown;
}

@Table({ tableName: 'dectest_owner', timestamps: false })
class DOwner extends BaseModel {
  declare static objects: Manager<DOwner>;
  static override meta: ModelMeta = { appLabel: 'dectest' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(40) }))
  declare name: string;

  @Column({ type: DataType.BOOLEAN, allowNull: true })
  declare active: boolean | null;

  @Column({ type: DataType.DATE, allowNull: true })
  declare joined: Date | null;

  @Column({ type: DataType.DECIMAL(8, 2), allowNull: true })
  declare score: string | null;

  @ForeignKey(() => DGroup)
  @Column({ type: DataType.INTEGER, allowNull: true })
  declare group_id: number | null;

  @BelongsTo(() => DGroup, relation({ foreignKey: 'group_id', relatedName: 'owners' }))
  declare group?: DGroup | null;
}

@Table({ tableName: 'dectest_probe', timestamps: false })
class DProbe extends BaseModel {
  declare static objects: Manager<DProbe>;
  static override meta: ModelMeta = { appLabel: 'dectest' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column({ type: DataType.BIGINT, allowNull: true })
  declare big: string | number | null;

  @Column({ type: DataType.SMALLINT, allowNull: true })
  declare small: number | null;

  @Column({ type: DataType.DOUBLE, allowNull: true })
  declare dbl: number | null;

  @Column({ type: DataType.REAL, allowNull: true })
  declare rl: number | null;

  @Column({ type: DataType.FLOAT, allowNull: true })
  declare flt: number | null;

  @Column({ type: DataType.DECIMAL(12, 4), allowNull: true })
  declare dec: string | null;

  @Column({ type: DataType.BOOLEAN, allowNull: true })
  declare flag: boolean | null;

  @Column({ type: DataType.DATE, allowNull: true })
  declare stamp: Date | null;

  @Column({ type: DataType.DATE(6), allowNull: true })
  declare fine: Date | null;

  @Column({ type: DataType.DATEONLY, allowNull: true })
  declare day: string | null;

  @Column({ type: DataType.TIME, allowNull: true })
  declare at: string | null;

  @Column({ type: DataType.JSON, allowNull: true })
  declare doc: unknown;

  @Column({ type: DataType.UUID, allowNull: true })
  declare uid: string | null;

  @Column({ type: DataType.BLOB, allowNull: true })
  declare raw: Buffer | null;

  @Column({ type: DataType.ENUM('low', 'high'), allowNull: true })
  declare level: string | null;

  @Column({ type: DataType.STRING(20), allowNull: true, field: 'label_column' })
  declare label: string | null;

  @ForeignKey(() => DOwner)
  @Column({ type: DataType.INTEGER, allowNull: true })
  declare owner_id: number | null;

  @BelongsTo(() => DOwner, relation({ foreignKey: 'owner_id', relatedName: 'probes' }))
  declare owner?: DOwner | null;
}

/** A model whose instances carry a class field: built by Sequelize's `bulkBuild`, never by the fast builder. */
@Table({ tableName: 'dectest_fielded', timestamps: false })
class DFielded extends BaseModel {
  declare static objects: Manager<DFielded>;
  static override meta: ModelMeta = { appLabel: 'dectest' };

  /** Set by the constructor: must be there on every instance. */
  notes: string[] = ['constructed'];

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column({ type: DataType.BOOLEAN, allowNull: true })
  declare flag: boolean | null;
}

const test = suite('core/db/compiled reads: decoding');
useTestDatabase(test, { models: [DGroup, DOwner, DProbe, DFielded] });

test.before(async () => {
  const staff = await DGroup.objects.create({ title: 'staff', meta: { tags: ['a', 1, null], deep: { x: true } } });
  const ann = await DOwner.objects.create({ name: 'ann', active: true, joined: new Date('2024-02-29T23:59:58.000Z'), score: '12.50', group_id: staff.id });
  const bob = await DOwner.objects.create({ name: 'bob', active: false, joined: null, score: null, group_id: null });
  const rows: Array<Record<string, unknown>> = [
    {
      big: '9007199254740993', small: -32768, dbl: 1.5e300, rl: 0.25, flt: 3.5, dec: '12345678.1234', flag: true,
      stamp: new Date('2024-05-01T12:30:00.000Z'), fine: new Date('2024-05-01T12:30:00.123Z'), day: '2024-02-29', at: '23:59:59',
      doc: { list: [1, 'two', null], nested: { ok: false } }, uid: '0b7e9f0c-4a1e-4c55-8a7e-3f0cbd1f0e11', raw: Buffer.from([0, 1, 254, 255]),
      level: 'high', label: 'first', owner_id: ann.id,
    },
    { big: -5, small: 0, dbl: -0.5, rl: -1, flt: 0, dec: '-0.0001', flag: false, stamp: new Date('1999-12-31T23:00:00.000Z'), doc: [], level: 'low', label: "it's", owner_id: bob.id },
    { owner_id: null },
    { doc: 'a plain string', flag: true, owner_id: ann.id, label: '' },
  ];
  for (const row of rows) await DProbe.objects.create(row);
});

/** What an instance holds, nested instances included, in key order: the state `findAll()` leaves. */
function snapshot(instance: unknown): unknown {
  if (instance === null || instance === undefined) return instance;
  if (!(instance instanceof Model)) return instance;
  const internals = instance as unknown as {
    dataValues: Record<string, unknown>;
    _previousDataValues: Record<string, unknown>;
    isNewRecord: boolean;
    _options: { isNewRecord?: boolean; raw?: boolean; includeNames?: string[]; attributes?: unknown };
  };
  const values: Array<[string, unknown]> = Object.keys(internals.dataValues).map((key) => [key, snapshot(internals.dataValues[key])]);
  const previous: Array<[string, unknown]> = Object.keys(internals._previousDataValues).map((key) => [key, snapshot(internals._previousDataValues[key])]);
  return {
    model: instance.constructor.name,
    values,
    previous,
    isNewRecord: internals.isNewRecord,
    uniqno: (instance as unknown as { uniqno: unknown }).uniqno,
    changed: instance.changed(),
    optionKeys: Object.keys(internals._options).sort(),
    ownKeys: Object.getOwnPropertyNames(instance),
    includes: ((internals._options as { include?: Array<{ as: string }> }).include ?? []).map((entry) => entry.as),
    options: { isNewRecord: internals._options.isNewRecord, raw: internals._options.raw, includeNames: internals._options.includeNames, attributes: internals._options.attributes },
  };
}

/** `findAll()` with the QuerySet's options: Sequelize's own result handling. */
function byFindAll(qs: QuerySet<DProbe>): Promise<DProbe[]> {
  const options = (qs as unknown as { findOptions(): FindOptions }).findOptions();
  return DProbe.findAll(options);
}

const INSTANCE_CASES: Array<[string, () => QuerySet<DProbe>]> = [
  ['every column type, no join', () => DProbe.objects.orderBy('id')],
  ['selectRelated one level (a LEFT JOIN that finds nothing included)', () => DProbe.objects.selectRelated('owner').orderBy('id')],
  ['selectRelated two levels', () => DProbe.objects.selectRelated('owner__group').orderBy('-id')],
  ['bound filters across the join and a slice', () => DProbe.objects.selectRelated('owner').filter({ owner__name__in: ['ann', 'bob'], id__gte: 1 }).orderBy('owner__name', 'id').slice(1, 3)],
  ['ordering across a relation without selectRelated', () => DProbe.objects.orderBy(...(['owner__group__title', 'id'] as never[]))],
  ['nothing matches', () => DProbe.objects.filter({ label: 'nope' })],
];

for (const [label, build] of INSTANCE_CASES) {
  test(`instances, ${label}: what findAll() answers`, async () => {
    const expected = (await byFindAll(build())).map(snapshot);
    const first = (await build().fetch()).map(snapshot);
    assert.equal(first, expected, label);
    assert.equal((await build().fetch()).map(snapshot), expected, `${label}: the cached decoder answers the same`);
  });
}

test('instances: included objects are instances of the related model, a missing one is null', async () => {
  const probes = await DProbe.objects.selectRelated('owner__group').orderBy('id').fetch();
  assert.is(probes.length, 4);
  assert.instance(probes[0].owner, DOwner);
  assert.instance(probes[0].owner?.group, DGroup);
  assert.is(probes[1].owner?.group, null);
  assert.is(probes[2].owner, null);
  assert.instance(probes[0].raw, Buffer);
  assert.instance(probes[0].stamp, Date);
  assert.is(probes[0].flag, true);
  assert.is(probes[1].flag, false);
});

/** Calls of `model.bulkBuild` while `fn` runs. */
async function bulkBuildCalls(model: { bulkBuild: unknown }, fn: () => Promise<unknown>): Promise<number> {
  return (await countCalls([model], 'bulkBuild', fn))[1];
}

test('instances: built without bulkBuild once a shape is known; a model with a constructor keeps bulkBuild', async () => {
  await DProbe.objects.selectRelated('owner__group').orderBy('id').fetch();
  assert.is(await bulkBuildCalls(DProbe, () => DProbe.objects.selectRelated('owner__group').orderBy('id').fetch()), 0, 'fast builder');
  await DFielded.objects.create({ flag: true });
  await DFielded.objects.create({ flag: null });
  const expected = (await DFielded.findAll({ order: [['id', 'ASC']] })).map(snapshot);
  const rows = await DFielded.objects.orderBy('id').fetch();
  assert.equal(rows.map(snapshot), expected);
  assert.equal(rows.map((row) => row.notes), [['constructed'], ['constructed']], 'the constructor ran');
  assert.ok((await bulkBuildCalls(DFielded, () => DFielded.objects.orderBy('id').fetch())) > 0, 'bulkBuild kept');
});

const VALUE_CASES: Array<[string, () => QuerySet<DProbe>, string[]]> = [
  ['every column', () => DProbe.objects.orderBy('id'), ['id', 'big', 'small', 'dbl', 'rl', 'flt', 'dec', 'flag', 'stamp', 'fine', 'day', 'at', 'doc', 'uid', 'raw', 'level', 'label', 'owner_id']],
  ['a renamed column and a filter', () => DProbe.objects.filter({ label__isnull: false }).orderBy('-id'), ['label', 'flag']],
];

for (const [label, build, names] of VALUE_CASES) {
  test(`values(), ${label}: what findAll({ raw: true }) answers`, async () => {
    const options = (build() as unknown as { findOptions(): FindOptions }).findOptions();
    const expected = await DProbe.findAll({ ...options, attributes: names.map((name) => [name === 'label' ? 'label_column' : name, name]), raw: true });
    const rows = await build().values(...(names as never[]));
    assert.equal(rows, expected as unknown[], label);
    assert.equal(rows.map((row) => Object.keys(row)), (expected as unknown as Array<Record<string, unknown>>).map((row) => Object.keys(row)), `${label}: key order`);
  });
}

const PLAIN_PATHS: string[][] = [['id'], ['big'], ['dec'], ['flag'], ['stamp'], ['fine'], ['day'], ['doc'], ['raw'], ['label'], ['owner', 'name'], ['owner', 'active'], ['owner', 'joined'], ['owner', 'score'], ['owner', 'group', 'meta']];

test('readOnlyRows(): the values the instances hold, joined objects nested (null when the join finds nothing)', async () => {
  const instances = await DProbe.objects.selectRelated('owner__group').orderBy('id').fetch();
  const rows = (await DProbe.objects.orderBy('id').readOnlyRows(PLAIN_PATHS).fetch()) as unknown as Array<Record<string, unknown>>;
  assert.is(rows.length, instances.length);
  rows.forEach((row, index) => {
    const instance = instances[index];
    for (const path of PLAIN_PATHS) {
      let expected: unknown = instance;
      let actual: unknown = row;
      for (const part of path) {
        expected = expected === null || expected === undefined ? expected : (expected as Model).get(part);
        actual = actual === null || actual === undefined ? actual : (actual as Record<string, unknown>)[part];
      }
      assert.equal(actual, expected, `row ${index} ${path.join('.')}`);
    }
  });
  assert.is(rows[2].owner, null, 'a LEFT JOIN that found nothing');
  assert.is((rows[1].owner as Record<string, unknown>).group, null, 'two levels');
});

test('every compiled read is captured as one statement', async () => {
  const sql = await captureDataQueries(async () => {
    await DProbe.objects.selectRelated('owner').filter({ id: 1 }).fetch();
    await DProbe.objects.values('id');
  });
  assert.is(sql.length, 2, sql.join('\n'));
  assert.ok(sql[0].includes('dectest_owner'), sql[0]);
});

test.run();
