/**
 * DATETIME text read without the engine's date-string parser (lib/core/db/dateParsing.ts)
 * gives the instant Sequelize's MySQL DATE parser gives (`new Date(`${text} ${timezone}`)`), and
 * text it does not take is left to that parser.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dateTimeReaderFor } from '../../../lib/core/db/dateParsing';

const test = suite('core/db/dateParsing');

const zones = ['+00:00', '-05:30', '+14:00'];
const texts = [
  '2026-11-28 18:49:03',
  '2026-11-28 18:49:03.1',
  '2026-11-28 18:49:03.12',
  '2026-11-28 18:49:03.123',
  '2026-11-28 18:49:03.123456',
  '2026-11-28 18:49:03.999999',
  '2024-02-29 23:59:59.000001',
  '1000-01-01 00:00:00',
  '9999-12-31 23:59:59.999',
  '1970-01-01 00:00:00',
];

for (const zone of zones) {
  test(`at ${zone}: the instant Sequelize's parser reads, for every text`, () => {
    const read = dateTimeReaderFor(zone);
    assert.ok(read);
    for (const text of texts) {
      const ours = read(text);
      assert.ok(ours instanceof Date, text);
      assert.is(ours.getTime(), new Date(`${text} ${zone}`).getTime(), `${text} ${zone}`);
    }
  });
}

test('random DATETIME(6) texts over four centuries read as Sequelize reads them', () => {
  const read = dateTimeReaderFor('+00:00')!;
  let seed = 99;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 2000; i++) {
    const date = new Date(Date.UTC(1800, 0, 1) + Math.floor(next() * 400 * 365.25 * 86_400_000));
    const micros = String(Math.floor(next() * 1e6)).padStart(6, '0');
    const text = `${date.toISOString().slice(0, 19).replace('T', ' ')}.${micros}`;
    assert.is(read(text)?.getTime(), new Date(`${text} +00:00`).getTime(), text);
  }
});

const leftAlone = ['0000-00-00 00:00:00', '2026-02-30 10:00:00', '2026-13-01 00:00:00', '0999-12-31 00:00:00', '2026-11-28T18:49:03', '2026-11-28 24:00:00', '2026-11-28 18:49:03.1234567', 'not a date'];

test('text it does not take is left to Sequelize (undefined), as are named zones', () => {
  const read = dateTimeReaderFor('+00:00')!;
  for (const text of leftAlone) assert.is(read(text), undefined, text);
  assert.is(dateTimeReaderFor('Europe/Paris'), null);
  assert.is(dateTimeReaderFor(undefined), null);
});

test.run();
