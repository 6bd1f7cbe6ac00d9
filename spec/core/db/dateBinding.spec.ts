/**
 * DATE values bound without moment (lib/core/db/dateBinding.ts) are bound exactly as
 * Sequelize's `format()` binds them, and the cases the module does not reproduce are left to it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DataTypes } from 'sequelize';
import { dateBinderFor } from '../../../lib/core/db/dateBinding';
// The framework's SQLite DATE text (set when the connection module loads) is part of what is checked.
import '../../../lib/core/db/connection';

const test = suite('core/db/dateBinding');

type DateTypeConstructor = new (length?: number) => { bindParam(value: unknown, options: object): unknown };
const dialects = DataTypes as unknown as { mysql: { DATE: DateTypeConstructor }; sqlite: { DATE: DateTypeConstructor } };

/** What Sequelize binds for `date` in a column of `type` on a connection in `timezone`. */
function sequelizeBinds(type: { bindParam(value: unknown, options: object): unknown }, date: Date, timezone: string): unknown {
  let bound: unknown;
  type.bindParam(date, { escape: (value: unknown) => value, timezone, bindParam: (value: unknown) => { bound = value; return '$1'; } });
  return bound;
}

const types: Array<{ name: string; make: () => { bindParam(value: unknown, options: object): unknown } }> = [
  { name: 'MySQL DATETIME', make: () => new dialects.mysql.DATE() },
  { name: 'MySQL DATETIME(3)', make: () => new dialects.mysql.DATE(3) },
  { name: 'MySQL DATETIME(6)', make: () => new dialects.mysql.DATE(6) },
];

const zones = ['+00:00', '-05:30', '+14:00', '-00:30'];

const dates = [
  new Date('2026-11-28T18:49:03.123Z'),
  new Date('2026-11-28T23:59:59.999Z'),
  new Date('2026-01-01T00:00:00.000Z'),
  new Date('2024-02-29T12:00:00.007Z'),
  new Date('1000-01-01T05:00:00.000Z'),
  new Date('9999-12-31T18:00:00.050Z'),
  new Date(0),
  new Date(-1),
];

for (const type of types) {
  for (const zone of zones) {
    test(`${type.name} at ${zone}: the text Sequelize binds, for every date`, () => {
      const instance = type.make();
      const bind = dateBinderFor(instance, zone);
      assert.ok(bind, 'a binder');
      for (const date of dates) {
        const ours = bind(date);
        const theirs = sequelizeBinds(instance, date, zone);
        if (ours === null) {
          // Left to Sequelize only where the year at that offset is not four digits.
          const year = new Date(date.getTime() + (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4))) * 60_000).getUTCFullYear();
          assert.ok(year < 1000 || year > 9999, `${date.toISOString()} at ${zone} was left to Sequelize`);
        } else {
          assert.is(ours, theirs, `${date.toISOString()} at ${zone}`);
        }
      }
    });
  }
}

test('random dates over four centuries bind as Sequelize binds them', () => {
  const instance = new dialects.mysql.DATE(6);
  const plain = new dialects.mysql.DATE();
  let seed = 12345;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 2000; i++) {
    const date = new Date(Date.UTC(1800, 0, 1) + Math.floor(next() * 400 * 365.25 * 86_400_000));
    for (const [type, zone] of [[instance, '+00:00'], [plain, '-05:30']] as const) {
      assert.is(dateBinderFor(type, zone)!(date), sequelizeBinds(type, date, zone), date.toISOString());
    }
  }
});

test('left to Sequelize: named zones, other types, invalid dates, years beyond four digits', () => {
  assert.is(dateBinderFor(new dialects.mysql.DATE(), 'Europe/Paris'), null);
  assert.is(dateBinderFor(new dialects.mysql.DATE(), undefined), null);
  assert.is(dateBinderFor(new DataTypes.DATEONLY(), '+00:00'), null);
  assert.is(dateBinderFor(new DataTypes.STRING(), '+00:00'), null);
  // SQLite's DATE writes the framework's own text (connection.ts), without moment already.
  assert.is(dateBinderFor(new dialects.sqlite.DATE(), '+00:00'), null);
  assert.is(dateBinderFor(new DataTypes.DATE(), '+00:00'), null);
  const bind = dateBinderFor(new dialects.mysql.DATE(), '+00:00')!;
  assert.is(bind(new Date(Number.NaN)), null);
  assert.is(bind(new Date('0999-12-31T00:00:00Z')), null);
  assert.is(bind(new Date(Date.UTC(10000, 0, 1))), null);
});

test.run();
