/**
 * The generated row builders (lib/core/db/rowBuilder.ts) on their own: an instance built from
 * one driver row holds what Sequelize's `build(values, { raw: true, isNewRecord: false })`
 * holds (values through the sanitizers, previous values, nothing changed, the same own keys),
 * a to-one include is built by its own recipe or null when the join found nothing, and the
 * shapes it does not cover answer no builder; `readOnlyRows()` objects likewise (their prototype,
 * sanitized values, joins adopted or null). `sameBuilt()` tells built values apart. (That
 * compiled SELECTs answer what `findAll()` answers is compiledReadsDecoding.spec.ts.)
 */
import 'reflect-metadata';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Table, Column, DataType, ForeignKey, BelongsTo } from 'sequelize-typescript';
import { BaseModel, Manager, field, relation, type ModelMeta } from '../../../lib/core/db';
import { useTestDatabase } from '../../../lib/core/db/testing';
import type { Plan } from '../../../lib/core/db/instanceBuilder';
import { compilePlainRowBuilder, compileRowBuilder, sameBuilt, type PlainRowSpec } from '../../../lib/core/db/rowBuilder';

@Table({ tableName: 'rowbuild_team', timestamps: false })
class RTeam extends BaseModel {
  declare static objects: Manager<RTeam>;
  static override meta: ModelMeta = { appLabel: 'rowbuild' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(40) }))
  declare name: string;
}

@Table({ tableName: 'rowbuild_player', timestamps: false })
class RPlayer extends BaseModel {
  declare static objects: Manager<RPlayer>;
  static override meta: ModelMeta = { appLabel: 'rowbuild' };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column({ type: DataType.BOOLEAN, allowNull: true })
  declare active: boolean | null;

  @Column({ type: DataType.DATE, allowNull: true })
  declare joined: Date | null;

  @ForeignKey(() => RTeam)
  @Column({ type: DataType.INTEGER, allowNull: true })
  declare team_id: number | null;

  @BelongsTo(() => RTeam, relation({ foreignKey: 'team_id', relatedName: 'players' }))
  declare team?: RTeam | null;
}

const test = suite('core/db/rowBuilder');
useTestDatabase(test, { models: [RTeam, RPlayer] });

type Row = Record<string, unknown>;

/** A recipe as instanceBuilder.ts makes one: attributes set in `keys` order, includes after them. */
function recipe(model: typeof BaseModel, keys: string[], children: Plan['children'] = new Map()): Plan {
  return {
    model: model as unknown as Plan['model'],
    instanceOptions: { isNewRecord: true, raw: true, attributes: keys },
    keys: [...keys, ...children.keys()],
    includeNames: children.size ? new Set(children.keys()) : null,
    children,
    assignWhole: false,
  };
}

function state(instance: unknown): Row {
  const record = instance as Row & { dataValues: Row; _previousDataValues: Row; _changed: Set<string> };
  return {
    own: Object.getOwnPropertyNames(record),
    values: Object.entries(record.dataValues).map(([key, value]) => [key, value instanceof BaseModel ? state(value) : value]),
    previous: Object.keys(record._previousDataValues),
    changed: record._changed.size,
    isNewRecord: record.isNewRecord,
  };
}

const PLAYER_KEYS = ['id', 'active', 'joined', 'team_id'];

test('a flat row: the values Sequelize builds, through the sanitizers', () => {
  const plan = recipe(RPlayer, PLAYER_KEYS);
  const build = compileRowBuilder(plan, ['id', 'active', 'joined', 'team_id'], false, new Map());
  assert.ok(build, 'covered');
  const row = { id: 7, active: 1, joined: new Date('2024-01-02T03:04:05.000Z'), team_id: null };
  const built = build({ ...row }) as RPlayer;
  assert.instance(built, RPlayer);
  assert.is(built.active, true, 'BOOLEAN sanitized');
  assert.is(built.get('joined')?.toISOString(), '2024-01-02T03:04:05.000Z');
  assert.is(built.changed(), false);
  const reference = RPlayer.build({ ...row }, { raw: true, isNewRecord: false });
  assert.equal((state(built).values as unknown[]), state(reference).values);
  assert.equal(state(built).previous, Object.keys(reference.get({ plain: true }) as Row));
  assert.is(built.isNewRecord, false);
});

test('parsers run on their columns before the values are stored', () => {
  const plan = recipe(RPlayer, PLAYER_KEYS);
  const parsers = new Map<string, (value: unknown) => unknown>([['joined', (value) => (value === null ? value : new Date(`${String(value)}Z`))]]);
  const build = compileRowBuilder(plan, ['id', 'active', 'joined', 'team_id'], false, parsers);
  const built = build?.({ id: 1, active: 0, joined: '2024-05-01 12:30:00', team_id: 3 }) as RPlayer;
  assert.is(built.joined?.toISOString(), '2024-05-01T12:30:00.000Z');
  assert.is(built.active, false);
  assert.is((build?.({ id: 2, active: null, joined: null, team_id: null }) as RPlayer).joined, null);
});

test('a to-one include: built by its recipe, null when the LEFT JOIN found nothing', () => {
  const teamPlan = recipe(RTeam, ['id', 'name']);
  const entry = { model: RTeam as unknown as Plan['model'], as: 'team', association: { isSingleAssociation: true }, originalAttributes: ['id', 'name'] };
  const children: Plan['children'] = new Map([['team', { entry, options: { isNewRecord: false, raw: true }, plan: teamPlan }]]);
  const columns = ['id', 'active', 'joined', 'team_id', 'team.id', 'team.name'];
  const build = compileRowBuilder(recipe(RPlayer, PLAYER_KEYS, children), columns, true, new Map());
  assert.ok(build, 'covered');
  const found = build({ id: 1, active: 1, joined: null, team_id: 4, 'team.id': 4, 'team.name': 'reds' }) as RPlayer;
  assert.instance(found.team, RTeam);
  assert.is(found.team?.name, 'reds');
  assert.is(found.get('team'), found.team, 'the include is a value and an own property');
  assert.equal(Object.keys((found as unknown as { dataValues: Row }).dataValues), ['id', 'active', 'joined', 'team_id', 'team']);
  const missing = build({ id: 2, active: 0, joined: null, team_id: null, 'team.id': null, 'team.name': null }) as RPlayer;
  assert.is(missing.team, null);
});

test('shapes it does not cover answer no builder', () => {
  const plan = recipe(RPlayer, PLAYER_KEYS);
  assert.is(compileRowBuilder(plan, ['id', '0'], false, new Map()), null, 'a key objects order by themselves');
  assert.is(compileRowBuilder(plan, ['id', 'active.x'], true, new Map()), null, 'a nested value that is not an include');
  const entry = { model: RTeam as unknown as Plan['model'], as: 'team', association: { isSingleAssociation: false } };
  const children: Plan['children'] = new Map([['team', { entry, options: { isNewRecord: false, raw: true }, plan: null }]]);
  assert.is(compileRowBuilder(recipe(RPlayer, PLAYER_KEYS, children), ['id', 'team.id'], true, new Map()), null, 'a to-many include');
});

/** A plain-row spec as plainRows.ts makes one: a `pk` prototype, sanitizers in order, joins. */
function plainSpec(pk: string, sanitizers: PlainRowSpec['sanitizers'], children: PlainRowSpec['children'] = new Map()): PlainRowSpec {
  const prototype = Object.create(Object.prototype, { pk: { get(this: Row) { return this[pk]; } } }) as object;
  return { prototype, sanitizers, options: { raw: true }, children };
}

const toBoolean = (value: unknown): unknown => (value === 1 ? true : value === 0 ? false : value);

test('readOnlyRows() objects: the prototype, sanitized values in column order, joins adopted or null', () => {
  const team = plainSpec('id', []);
  const spec = plainSpec('id', [['active', toBoolean]], new Map([['team', { primaryKey: 'id', spec: team }]]));
  const build = compilePlainRowBuilder(spec, ['id', 'active', 'team_id', 'team.id', 'team.name'], true, new Map());
  assert.ok(build, 'covered');
  const row = build({ id: 3, active: 1, team_id: 4, 'team.id': 4, 'team.name': 'reds' }) as Row & { pk: unknown; team: Row & { pk: unknown } };
  assert.is(Object.getPrototypeOf(row), spec.prototype);
  assert.equal(Object.keys(row), ['id', 'active', 'team_id', 'team']);
  assert.is(row.pk, 3);
  assert.is(row.active, true, 'sanitized');
  assert.is(Object.getPrototypeOf(row.team), team.prototype);
  assert.equal({ ...row.team }, { id: 4, name: 'reds' });
  assert.is(row.team.pk, 4);
  const alone = build({ id: 5, active: 0, team_id: null, 'team.id': null, 'team.name': null }) as Row;
  assert.is(alone.team, null, 'a LEFT JOIN that found nothing');
  assert.is(alone.active, false);
  const flat = compilePlainRowBuilder(plainSpec('id', [['active', toBoolean]]), ['id', 'active'], false, new Map([['id', (value: unknown) => Number(value)]]));
  assert.equal({ ...(flat?.({ id: '7', active: 1 }) as Row) }, { id: 7, active: true }, 'parsed, no joins');
  assert.is(compilePlainRowBuilder(spec, ['id', 'team'], false, new Map()), null, 'a join read as a column');
});

test('sameBuilt(): values, key order, dates and nested instances', () => {
  const plan = recipe(RPlayer, PLAYER_KEYS);
  const build = compileRowBuilder(plan, ['id', 'active', 'joined', 'team_id'], false, new Map());
  const row = (): Row => ({ id: 1, active: 1, joined: new Date(5), team_id: 2 });
  assert.ok(sameBuilt(build?.(row()), build?.(row())), 'equal rows build equal instances');
  assert.not.ok(sameBuilt(build?.(row()), build?.({ ...row(), joined: new Date(6) })), 'a different date');
  assert.not.ok(sameBuilt(build?.(row()), build?.({ ...row(), team_id: 3 })), 'a different value');
  assert.not.ok(sameBuilt({ a: 1, b: 2 }, { b: 2, a: 1 }), 'key order');
  assert.not.ok(sameBuilt(build?.(row()), RTeam.build({ id: 1 })), 'another model');
  assert.ok(sameBuilt(Buffer.from([1, 2]), Buffer.from([1, 2])));
  assert.not.ok(sameBuilt(Buffer.from([1, 2]), Buffer.from([1, 3])));
});

test.run();
