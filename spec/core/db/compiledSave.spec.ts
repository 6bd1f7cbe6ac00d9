/**
 * `save()` through compiled statements (lib/core/db/compiledSave.ts): each case saves one
 * instance through `BaseModel#save()` (the compiled INSERT/UPDATE) and a twin through
 * Sequelize's own `Model#save()`, then compares everything a caller can see — the instance's
 * values, previous values, changed flags, `isNewRecord`, the stored row, the error — and
 * checks which path wrote (a spy on Sequelize's queryInterface insert/update). Runs on SQLite
 * and, with DATABASE_URL=mysql://..., on MariaDB.
 */
import 'reflect-metadata';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QueryTypes } from 'sequelize';
import { Model, Table, Column, DataType, BeforeCreate, BeforeUpdate } from 'sequelize-typescript';
import { BaseModel, Manager, atomic, field, postSave, preSave } from '../../../lib/core/db';
import { getSequelize } from '../../../lib/core/db/connection';
import { useTestDatabase } from '../../../lib/core/db/testing';
import { SArticle, SArticleTag, serializerModels } from '../../models/serializers/models';

@Table({ tableName: 'wtest_item', timestamps: false })
class WItem extends BaseModel {
  declare static objects: Manager<WItem>;
  static override meta = { appLabel: 'wtest' };

  @Column(field({ type: DataType.UUID, primaryKey: true, defaultValue: DataType.UUIDV4 }))
  declare id: string;

  @Column(field({ type: DataType.STRING(60) }))
  declare name: string;

  @Column(field({ type: DataType.TEXT, default: '' }))
  declare note: string;

  @Column(field({ type: DataType.BIGINT, allowNull: true }))
  declare big: string | number | null;

  @Column(field({ type: DataType.BOOLEAN, default: true }))
  declare flag: boolean;

  @Column(field({ type: DataType.DATE(6), allowNull: true }))
  declare at: Date | null;

  @Column(field({ type: DataType.JSON, allowNull: true }))
  declare data: unknown;

  @Column(field({ type: DataType.BLOB, allowNull: true }))
  declare raw: Buffer | null;

  @Column(field({ type: DataType.DECIMAL(10, 3), allowNull: true }))
  declare dec: string | null;

  @Column(field({ type: DataType.DATEONLY, allowNull: true }))
  declare day: string | null;

  @Column(field({ type: DataType.DOUBLE, allowNull: true }))
  declare dbl: number | null;

  @Column(field({ type: DataType.SMALLINT, allowNull: true }))
  declare small: number | null;

  @Column({ type: DataType.STRING(20), allowNull: true, field: 'label_column' })
  declare label: string | null;
}

@Table({ tableName: 'wtest_checked', timestamps: false })
class WChecked extends BaseModel {
  declare static objects: Manager<WChecked>;
  static override meta = { appLabel: 'wtest' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column({ ...field({ type: DataType.STRING(10) }), validate: { len: [2, 5] } })
  declare code: string;
}

@Table({ tableName: 'wtest_hooked', timestamps: false })
class WHooked extends BaseModel {
  declare static objects: Manager<WHooked>;
  static override meta = { appLabel: 'wtest' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(20) }))
  declare name: string;

  @BeforeCreate
  @BeforeUpdate
  static shout(instance: WHooked): void {
    instance.name = instance.name.toUpperCase();
  }
}

@Table({ tableName: 'wtest_stamped', timestamps: true })
class WStamped extends BaseModel {
  declare static objects: Manager<WStamped>;
  static override meta = { appLabel: 'wtest' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(20) }))
  declare name: string;
}

const test = suite('core/db/compiled save');
useTestDatabase(test, { models: [...serializerModels, WItem, WChecked, WHooked, WStamped] });

/** Counts Sequelize's own INSERT/UPDATE writes of instances while `fn` runs. */
async function sequelizeWrites(fn: () => Promise<unknown>): Promise<{ insert: number; update: number }> {
  const qi = getSequelize().getQueryInterface() as unknown as Record<'insert' | 'update', (...args: unknown[]) => Promise<unknown>>;
  const counts = { insert: 0, update: 0 };
  const originals = { insert: qi.insert, update: qi.update };
  for (const method of ['insert', 'update'] as const) {
    qi[method] = function (this: unknown, ...args: unknown[]) {
      counts[method] += 1;
      return originals[method].apply(this, args);
    };
  }
  try {
    await fn();
  } finally {
    qi.insert = originals.insert;
    qi.update = originals.update;
  }
  return counts;
}

/** Sequelize's `Model#save()`, bypassing BaseModel's (the reference behaviour). */
function sequelizeSave(instance: Model, options?: object): Promise<unknown> {
  return Model.prototype.save.call(instance, options as never);
}

type Internals = { dataValues: Record<string, unknown>; _previousDataValues: Record<string, unknown>; isNewRecord: boolean };

/** What a caller can see of an instance, its primary key left out (the twins' differ). */
function visible(instance: Model): Record<string, unknown> {
  const inner = instance as unknown as Internals;
  const pk = (instance.constructor as typeof Model).primaryKeyAttribute;
  const strip = (values: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(values).filter(([key]) => key !== pk).map(([key, value]) => [key, value === undefined ? '<undefined>' : value]));
  return {
    data: strip(inner.dataValues),
    previous: strip(inner._previousDataValues),
    previousKeys: Object.keys(inner._previousDataValues).sort(),
    dataKeys: Object.keys(inner.dataValues).sort(),
    changed: instance.changed(),
    isNewRecord: inner.isNewRecord,
    ownKeys: Object.keys(instance).filter((key) => !['dataValues', '_previousDataValues', '_changed', '_options', 'uniqno'].includes(key)).sort(),
    pkType: typeof instance.get(pk),
  };
}

/** The stored row of `instance` as the driver reads it, primary key left out. */
async function storedRow(instance: Model): Promise<Record<string, unknown>> {
  const model = instance.constructor as typeof Model;
  const qi = getSequelize().getQueryInterface().queryGenerator as unknown as { quoteTable(t: unknown): string; quoteIdentifier(n: string): string };
  const pk = model.primaryKeyAttribute;
  const rows = await getSequelize().query(`SELECT * FROM ${qi.quoteTable(model.getTableName())} WHERE ${qi.quoteIdentifier(pk)} = $1`, { bind: [instance.get(pk)], type: QueryTypes.SELECT });
  assert.is(rows.length, 1, 'the row is stored');
  const { [pk]: _pk, ...rest } = rows[0] as Record<string, unknown>;
  void _pk;
  return rest;
}

/** The error `fn` throws (fails when it throws none). */
async function thrown(fn: () => Promise<unknown>): Promise<Error & { errors?: Array<{ message: string; type: string; path: string }> }> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

const NUL_AND_UNICODE = 'a\u0000b ✓ 😀 ü';

const INSERT_ROWS: Array<[string, Record<string, unknown>]> = [
  ['defaults only', { name: 'plain' }],
  ['nulls', { name: 'nulls', big: null, at: null, data: null, raw: null }],
  ['false boolean', { name: 'bool', flag: false }],
  ['date', { name: 'date', at: new Date('2024-02-29T23:59:58.123Z') }],
  ['date as text', { name: 'date text', at: '2024-01-02T03:04:05.678Z' }],
  ['JSON object', { name: 'json', data: { a: [1, 'two', null], nested: { ü: true } } }],
  ['JSON text', { name: 'json text', data: 'just text' }],
  ['unicode and NUL', { name: NUL_AND_UNICODE, note: `${NUL_AND_UNICODE}\n'"\\;--` }],
  ['huge integer', { name: 'big', big: '9007199254740993' }],
  ['negative integer', { name: 'neg', big: -42 }],
  ['bytes', { name: 'bytes', raw: Buffer.from([0, 1, 2, 255]) }],
  ['own uuid', { id: '0b7e9f0c-4a1e-4c55-8a7e-3f0cbd1f0e11', name: 'own id' }],
  ['decimal, date only, double, small integer', { name: 'numbers', dec: '-1234567.125', day: '2024-02-29', dbl: 1.5e300, small: -32768 }],
  ['a date for a date-only column', { name: 'day from date', day: new Date('2024-03-01T00:00:00.000Z') }],
  ['a renamed column', { name: 'renamed', label: "it's" }],
];

for (const [label, values] of INSERT_ROWS) {
  test(`insert, ${label}: compiled and Sequelize's save() leave the same instance and row`, async () => {
    const compiled = WItem.build(values as never);
    const writes = await sequelizeWrites(() => compiled.save());
    assert.equal(writes, { insert: 0, update: 0 }, 'the compiled INSERT wrote');
    const reference = WItem.build({ ...values, ...(values.id ? { id: '1a7e9f0c-4a1e-4c55-8a7e-3f0cbd1f0e11' } : {}) } as never);
    await sequelizeSave(reference);
    assert.equal(visible(compiled), visible(reference));
    assert.equal(await storedRow(compiled), await storedRow(reference));
    if (typeof values.name === 'string') assert.is((await WItem.objects.get({ pk: compiled.id })).name, values.name, 'read back as written');
  });
}

test('insert with an auto-increment key: the key is set from the database, the instance is saved', async () => {
  const compiled = SArticle.build({ title: 'compiled', body: 'b', extra: { k: [1] }, uid: null } as never);
  const writes = await sequelizeWrites(() => compiled.save());
  assert.equal(writes.insert, 0);
  const reference = SArticle.build({ title: 'reference', body: 'b', extra: { k: [1] }, uid: null, created: new Date() } as never);
  await sequelizeSave(reference);
  assert.is(typeof compiled.id, 'number');
  assert.is(reference.id, compiled.id + 1);
  const strip = (row: Record<string, unknown>): Record<string, unknown> => ({ ...row, title: '', created: '' });
  const seen = (instance: SArticle): Record<string, unknown> => {
    const all = visible(instance);
    return { ...all, data: strip(all.data as Record<string, unknown>), previous: strip(all.previous as Record<string, unknown>) };
  };
  assert.equal(seen(compiled), seen(reference));
  assert.equal(strip(await storedRow(compiled)), strip(await storedRow(reference)));
});

test('insert: a key flagged by hand stays flagged, and an auto-increment key given by hand is kept, as Sequelize leaves them', async () => {
  // save() clears the flags of the model's attributes only: a key of the caller's own stays flagged.
  const compiled = WChecked.build({ code: 'ab' } as never);
  compiled.changed('mine' as never, true);
  assert.equal(await sequelizeWrites(() => compiled.save()), { insert: 0, update: 0 });
  const reference = WChecked.build({ code: 'ab' } as never);
  reference.changed('mine' as never, true);
  await sequelizeSave(reference);
  assert.equal(visible(compiled), visible(reference));
  assert.equal(compiled.changed(), ['mine']);
  // A primary key set before the INSERT is not replaced (Sequelize keeps a set primary key).
  const own = WChecked.build({ id: 9000, code: 'cd' } as never);
  assert.equal(await sequelizeWrites(() => own.save()), { insert: 0, update: 0 });
  const ownReference = WChecked.build({ id: 9001, code: 'cd' } as never);
  await sequelizeSave(ownReference);
  assert.is(own.id, 9000);
  assert.is(ownReference.id, 9001);
  assert.equal(visible(own), visible(ownReference));
  assert.is((await WChecked.objects.get({ pk: 9000 })).code, 'cd');
  await WChecked.objects.all().delete();
});

test('objects.create() and serializers go through the compiled INSERT; signals fire once each', async () => {
  const seen: string[] = [];
  const pre = ({ created }: { created: boolean }): void => void seen.push(`pre ${created}`);
  const post = ({ created }: { created: boolean }): void => void seen.push(`post ${created}`);
  preSave.connect(WItem, pre);
  postSave.connect(WItem, post);
  try {
    const writes = await sequelizeWrites(async () => {
      const item = await WItem.objects.create({ name: 'signals' });
      item.note = 'changed';
      await item.save();
    });
    assert.equal(writes, { insert: 0, update: 0 });
    assert.equal(seen, ['pre true', 'post true', 'pre false', 'post false']);
  } finally {
    preSave.disconnect(WItem, pre);
    postSave.disconnect(WItem, post);
  }
});

const UPDATES: Array<[string, Record<string, unknown>]> = [
  ['one column', { note: 'new note' }],
  ['to null', { big: null, at: null, data: null }],
  ['boolean off', { flag: false }],
  ['JSON', { data: [1, { b: 'ü' }] }],
  ['unicode and NUL', { name: NUL_AND_UNICODE }],
  ['huge integer', { big: '-9007199254740993' }],
  ['date', { at: new Date('2030-12-31T00:00:00.001Z') }],
  ['same value again', { name: 'start' }],
  ['decimal, date only, double, small integer, a renamed column', { dec: '0.001', day: '1999-12-31', dbl: -0.5, small: 7, label: 'renamed' }],
];

for (const [label, changes] of UPDATES) {
  test(`update, ${label}: compiled and Sequelize's save() leave the same instance and row`, async () => {
    const compiled = await WItem.objects.create({ name: 'start', big: 7, data: { x: 1 } });
    const reference = await WItem.objects.create({ name: 'start', big: 7, data: { x: 1 } });
    compiled.set(changes as never);
    reference.set(changes as never);
    const writes = await sequelizeWrites(() => compiled.save());
    assert.equal(writes, { insert: 0, update: 0 }, 'the compiled UPDATE wrote');
    await sequelizeSave(reference);
    assert.equal(visible(compiled), visible(reference));
    assert.equal(await storedRow(compiled), await storedRow(reference));
  });
}

test('update with fields: only those columns are written, as Sequelize does', async () => {
  const compiled = await WItem.objects.create({ name: 'f', note: 'n' });
  const reference = await WItem.objects.create({ name: 'f', note: 'n' });
  for (const instance of [compiled, reference]) {
    instance.name = 'f2';
    instance.note = 'not written';
  }
  const writes = await sequelizeWrites(() => compiled.save({ fields: ['name'] }));
  assert.equal(writes.update, 0);
  await sequelizeSave(reference, { fields: ['name'] });
  assert.equal(visible(compiled), visible(reference));
  assert.equal(await storedRow(compiled), await storedRow(reference));
  assert.is((await storedRow(compiled)).note, 'n');
});

test('nothing changed: no statement, as Sequelize', async () => {
  const item = await WItem.objects.create({ name: 'same' });
  const writes = await sequelizeWrites(() => item.save());
  assert.equal(writes, { insert: 0, update: 0 });
  assert.is(item.isNewRecord, false);
});

test('a null required value: the same ValidationError as Sequelize, nothing written', async () => {
  const compiled = await thrown(() => WItem.build({ name: null } as never).save());
  const reference = await thrown(() => sequelizeSave(WItem.build({ name: null } as never)));
  assert.is(compiled.name, 'SequelizeValidationError');
  assert.is(compiled.message, reference.message);
  assert.equal(compiled.errors?.map((e) => [e.message, e.type, e.path]), reference.errors?.map((e) => [e.message, e.type, e.path]));
  const item = await WItem.objects.create({ name: 'ok' });
  item.set('name', null as never);
  const onUpdate = await thrown(() => item.save());
  assert.is(onUpdate.message, 'notNull Violation: WItem.name cannot be null');
});

test('an object for a string column and attribute validators: Sequelize\'s validator reports them', async () => {
  const objectName = await thrown(() => WItem.build({ name: { no: 1 } } as never).save());
  assert.is(objectName.message, 'string violation: name cannot be an array or an object');
  const tooLong = await thrown(() => WChecked.build({ code: 'toolong' } as never).save());
  assert.is(tooLong.message, 'Validation error: Validation len on code failed');
  const writes = await sequelizeWrites(() => WChecked.objects.create({ code: 'ok' }));
  assert.equal(writes.insert, 0, 'validators run, then the compiled INSERT');
  assert.is(await WChecked.objects.count(), 1);
});

test('unique violation: the same UniqueConstraintError as Sequelize', async () => {
  await SArticle.objects.create({ title: 'taken' });
  const compiled = await thrown(() => SArticle.objects.create({ title: 'taken' }));
  const reference = await thrown(() => sequelizeSave(SArticle.build({ title: 'taken', created: new Date() } as never)));
  assert.is(compiled.name, 'SequelizeUniqueConstraintError');
  assert.is(compiled.name, reference.name);
  assert.is(compiled.message, reference.message);
  assert.equal(compiled.errors?.map((e) => [e.message, e.path]), reference.errors?.map((e) => [e.message, e.path]));
  const other = await SArticle.objects.create({ title: 'free' });
  other.title = 'taken';
  const onUpdate = await thrown(() => other.save());
  assert.is(onUpdate.name, 'SequelizeUniqueConstraintError');
});

test('foreign key violation: the same ForeignKeyConstraintError as Sequelize, on INSERT and UPDATE', async () => {
  const article = await SArticle.objects.create({ title: 'fk target' });
  const writes = await sequelizeWrites(async () => {
    const compiled = await thrown(() => SArticleTag.build({ article_id: 987654, tag_id: 876543 } as never).save());
    const reference = await thrown(() => sequelizeSave(SArticleTag.build({ article_id: 987654, tag_id: 876543 } as never)));
    assert.is(compiled.name, 'SequelizeForeignKeyConstraintError');
    assert.is(compiled.constructor, reference.constructor);
    assert.is(compiled.message, reference.message);
  });
  assert.is(writes.insert, 1, 'only the reference went through Sequelize');
  const owned = await SArticle.objects.create({ title: 'fk owned' });
  owned.owner_id = 987654;
  const onUpdate = await thrown(() => owned.save());
  assert.is(onUpdate.name, 'SequelizeForeignKeyConstraintError');
  assert.is((await SArticle.objects.get({ pk: article.id })).title, 'fk target');
});

test('atomic(): compiled writes join the transaction and roll back with it', async () => {
  const before = await WItem.objects.count();
  const error = await thrown(() => atomic(async () => {
    const item = await WItem.objects.create({ name: 'rolled back' });
    item.note = 'also rolled back';
    await item.save();
    assert.is(await WItem.objects.filter({ name: 'rolled back' }).count(), 1, 'visible inside');
    throw new Error('boom');
  }));
  assert.is(error.message, 'boom');
  assert.is(await WItem.objects.count(), before);
  const kept = await WItem.objects.create({ name: 'kept' });
  await thrown(() => atomic(async () => {
    kept.note = 'undone';
    await kept.save();
    throw new Error('boom');
  }));
  assert.is((await storedRow(kept)).note, '');
});

test('hooks and timestamps: Sequelize saves, hooks run, timestamps are set', async () => {
  let writes = await sequelizeWrites(async () => {
    const hooked = await WHooked.objects.create({ name: 'quiet' });
    assert.is(hooked.name, 'QUIET');
    hooked.name = 'again';
    await hooked.save();
    assert.is((await WHooked.objects.get({ pk: hooked.id })).name, 'AGAIN');
  });
  assert.equal(writes, { insert: 1, update: 1 });
  writes = await sequelizeWrites(async () => {
    const stamped = await WStamped.objects.create({ name: 'stamp' });
    assert.instance(stamped.get('createdAt'), Date);
  });
  assert.equal(writes.insert, 1);
});

test.run();
