/**
 * Field behaviours checked against the original (DRF 3.14 on Django 3.2, run on the same
 * inputs; every expected value below is what it answered): DurationField numbers and limit
 * messages, DateTimeField offsets, range and daylight-saving gaps, JSONField and the strict
 * JSON module, UUIDField `format: 'int'`.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ValidationError } from '../../lib/exceptions';
import { DateTimeField, DurationField, JSONField, UUIDField, type Field } from '../../lib/fields';
import { JSONRenderer } from '../../lib/renderers';
import { dumps, loads } from '../../lib/utils/json';
import { useSettings } from '../helpers';

type Row = [unknown, unknown];

async function outcome(field: Field, input: unknown): Promise<unknown> {
  try {
    return { ok: await field.runValidation(input) };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { err: JSON.parse(JSON.stringify(error.detail)) as unknown };
  }
}

async function assertTable(make: () => Field, rows: Row[]): Promise<void> {
  for (const [input, expected] of rows) {
    assert.equal(await outcome(make(), input), expected, `input ${String(input)}`);
  }
}

const DURATION_INVALID = { err: ['Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu].'] };
const DAY = 86400e6;

const duration = suite('conformance :: DurationField');

duration('numbers are seconds :: as the original parses str(value)', async () => {
  await assertTable(() => new DurationField(), [
    [3600, { ok: 3600e6 }],
    [86400.5, { ok: DAY + 500000 }],
    [-3600, { ok: -3600e6 }],
    [0.5, { ok: 500000 }],
    [1e16, DURATION_INVALID], // Python spells it 1e+16
    [true, DURATION_INVALID],
    [NaN, DURATION_INVALID],
    ['3600', { ok: 3600e6 }],
    ['1 00:00:01', { ok: DAY + 1e6 }],
  ]);
});

duration('limits :: values compared in microseconds, messages as str(timedelta)', async () => {
  const make = () => new DurationField({ minValue: DAY, maxValue: 4 * DAY });
  await assertTable(make, [
    [3600, { err: ['Ensure this value is greater than or equal to 1 day, 0:00:00.'] }],
    [86401, { ok: DAY + 1e6 }],
    [5 * 86400, { err: ['Ensure this value is less than or equal to 4 days, 0:00:00.'] }],
  ]);
  await assertTable(() => new DurationField({ minValue: 1e6 }), [
    [0.5, { err: ['Ensure this value is greater than or equal to 0:00:01.'] }],
  ]);
  await assertTable(() => new DurationField({ maxValue: -1e6 }), [
    [0, { err: ['Ensure this value is less than or equal to -1 day, 23:59:59.'] }],
  ]);
});

duration('representation :: [DD] [HH:[MM:]]ss[.uuuuuu]', () => {
  const field = new DurationField();
  assert.is(field.toRepresentation(DAY + 3e6 + 5), '1 00:00:03.000005');
  assert.is(field.toRepresentation(3600e6), '01:00:00');
});

duration.run();

const FORMAT_ERROR = { err: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].'] };
const NY_INVALID = { err: ['Invalid datetime for the timezone "America/New_York".'] };
const OUT_OF_RANGE = { err: ['Datetime value out of range.'] };

function instant(iso: string): { ok: Date } {
  return { ok: new Date(iso) };
}

const datetime = suite('conformance :: DateTimeField (USE_TZ, America/New_York)');
useSettings(datetime, () => ({ USE_TZ: true, TIME_ZONE: 'America/New_York' }));

datetime('offsets :: within ±23:59 used as given, ±24:00 is the format error', async () => {
  await assertTable(() => new DateTimeField(), [
    ['2000-01-01T22:00-24:00', FORMAT_ERROR],
    ['2000-01-01T22:00+2400', FORMAT_ERROR],
    ['2000-01-01T22:00+23:59', instant('1999-12-31T22:01:00Z')],
    ['2000-01-01T22:00+05', instant('2000-01-01T17:00:00Z')],
    ['2000-01-01T22:00+0530', instant('2000-01-01T16:30:00Z')],
    ['2000-01-01T22:00-00:30', instant('2000-01-01T22:30:00Z')],
  ]);
});

datetime('range :: values leaving years 1..9999 after conversion are out of range', async () => {
  await assertTable(() => new DateTimeField(), [
    ['9999-12-31T21:59:59.99990-03:00', OUT_OF_RANGE],
    ['0001-01-01T00:00:00+01:00', OUT_OF_RANGE],
    ['0001-01-01T05:00:00Z', instant('0001-01-01T05:00:00Z')],
  ]);
});

datetime('daylight saving :: skipped and repeated wall times refused, others read in the zone', async () => {
  await assertTable(() => new DateTimeField(), [
    ['2017-03-12T02:30:00', NY_INVALID],
    ['2017-11-05T01:30:00', NY_INVALID],
    ['2017-03-12T03:30:00', instant('2017-03-12T07:30:00Z')],
    ['2017-11-05T02:30:00', instant('2017-11-05T07:30:00Z')],
    ['2017-11-05T00:30:00', instant('2017-11-05T04:30:00Z')],
    ['2017-03-12T02:30:00-05:00', instant('2017-03-12T07:30:00Z')],
  ]);
  await assertTable(() => new DateTimeField({ defaultTimezone: 'UTC' }), [
    ['2017-03-12T02:30:00', instant('2017-03-12T02:30:00Z')],
  ]);
  await assertTable(() => new DateTimeField({ inputFormats: ['%Y-%m-%d %H:%M'] }), [
    ['2017-03-12 02:30', NY_INVALID],
  ]);
});

datetime('date :: a date-only value (Temporal.PlainDate) is the date message', async () => {
  const plainDate = { [Symbol.toStringTag]: 'Temporal.PlainDate', year: 2000, month: 1, day: 1 };
  await assertTable(() => new DateTimeField(), [
    [plainDate, { err: ['Expected a datetime but got a date.'] }],
    ['2000-01-01', FORMAT_ERROR],
  ]);
});

datetime('representation :: in the zone with its offset', () => {
  assert.is(new DateTimeField().toRepresentation(new Date('2017-03-12T07:30:00Z')), '2017-03-12T03:30:00-04:00');
});

datetime.run();

const JSON_INVALID = { err: ['Value must be valid JSON.'] };

const json = suite('conformance :: JSONField and utils/json');

json('JSONField :: values that are not JSON are invalid', async () => {
  await assertTable(() => new JSONField(), [
    [Infinity, JSON_INVALID],
    [NaN, JSON_INVALID],
    [{ a: NaN }, JSON_INVALID],
    [[1, -Infinity], JSON_INVALID],
    [new Set([1]), JSON_INVALID],
    [Buffer.from('{"a":1}'), JSON_INVALID],
    [{ a: 1 }, { ok: { a: 1 } }],
    ['x', { ok: 'x' }],
    [[1, 'b', null, true], { ok: [1, 'b', null, true] }],
  ]);
});

json('JSONField binary :: strings and bytes parsed strictly; objects refused', async () => {
  await assertTable(() => new JSONField({ binary: true }), [
    ['{"a": 1}', { ok: { a: 1 } }],
    [Buffer.from('{"a": 1}'), { ok: { a: 1 } }],
    ['[1, 2]', { ok: [1, 2] }],
    ['NaN', JSON_INVALID],
    ['Infinity', JSON_INVALID],
    ['{"a": NaN}', JSON_INVALID],
    ['nope', JSON_INVALID],
    [{ a: 1 }, JSON_INVALID],
  ]);
});

json('JSONField binary :: renders as the original json.dumps bytes', () => {
  const field = new JSONField({ binary: true });
  assert.equal(field.toRepresentation({ a: 1, b: [1, 2] }), Buffer.from('{"a": 1, "b": [1, 2]}'));
  assert.equal(field.toRepresentation('x'), Buffer.from('"x"'));
  assert.equal(new JSONField().toRepresentation({ a: 1 }), { a: 1 });
});

json('utils/json :: strict by default, lenient only when told', () => {
  assert.throws(() => dumps(NaN), /^Out of range float values are not JSON compliant$/);
  assert.throws(() => dumps({ a: Infinity }), /Out of range float values are not JSON compliant/);
  assert.throws(() => loads('NaN'), /Out of range float values are not JSON compliant: 'NaN'/);
  assert.throws(() => loads('Infinity'), /Out of range float values are not JSON compliant: 'Infinity'/);
  assert.throws(() => loads('[-Infinity]'), /Out of range float values are not JSON compliant: '-Infinity'/);
  assert.is(dumps(NaN, { strict: false }), 'NaN');
  assert.ok(Number.isNaN(loads('NaN', { strict: false })));
});

json.run();

const uuid = suite('conformance :: UUIDField format int');

uuid('int :: represented as an integer, printed bare by the JSON renderer', () => {
  const field = new UUIDField({ format: 'int' });
  const value = field.toRepresentation('12345678-1234-5678-1234-567812345678');
  assert.is(value, 24197857161011715162171839636988778104n);
  const body = new JSONRenderer().render({ id: value }).toString();
  assert.is(body, '{"id":24197857161011715162171839636988778104}');
});

uuid('int :: integer input valid, a digit string is not', async () => {
  await assertTable(() => new UUIDField({ format: 'int' }), [
    [1, { ok: '00000000-0000-0000-0000-000000000001' }],
    ['24197857161011715162171839636988778104', { err: ['Must be a valid UUID.'] }],
  ]);
});

uuid.run();
