/**
 * Field behaviours checked against the original (DRF 3.14 on Django 3.2, run on the same
 * inputs; every expected value below is what it answered): DurationField numbers and limit
 * messages, DateTimeField offsets, range and daylight-saving gaps, JSONField and the strict
 * JSON module, UUIDField `format: 'int'`.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ValidationError } from '../../lib/exceptions';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { overrideSettings } from '../../lib/core/conf';
import { runWithLanguage } from '../../lib/core/i18n';
import {
  DateTimeField, DecimalField, DurationField, FilePathField, FloatField, IntegerField, JSONField, UUIDField, type Field,
} from '../../lib/fields';
import { Serializer } from '../../lib/serializers';
import { removeQueryParam, replaceQueryParam } from '../../lib/utils/urls';
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

const filePath = suite('conformance :: FilePathField');
let root = '';

filePath.before(() => {
  root = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'filepath-'));
  for (const dir of ['sub/deep', '__pycache__']) fs.mkdirSync(nodePath.join(root, dir), { recursive: true });
  for (const file of ['a.txt', 'b.py', 'sub/c.txt', 'sub/deep/d.txt']) fs.writeFileSync(nodePath.join(root, file), 'x');
});
filePath.after(() => fs.rmSync(root, { recursive: true, force: true }));

function choicesOf(field: FilePathField): Array<[unknown, unknown]> {
  return [...field.choices.entries()].map(([value, label]) => [String(value).replace(root, '<root>'), label]);
}

filePath('choices :: as the original lists them for each option set', () => {
  const blank: [string, string] = ['', '---------'];
  assert.equal(choicesOf(new FilePathField({ path: root })), [blank, ['<root>/a.txt', 'a.txt'], ['<root>/b.py', 'b.py']]);
  assert.equal(choicesOf(new FilePathField({ path: root, match: '\\.txt$' })), [blank, ['<root>/a.txt', 'a.txt']]);
  assert.equal(choicesOf(new FilePathField({ path: root, recursive: true })), [blank, ['<root>/a.txt', '/a.txt'],
    ['<root>/b.py', '/b.py'], ['<root>/sub/c.txt', '/sub/c.txt'], ['<root>/sub/deep/d.txt', '/sub/deep/d.txt']]);
  assert.equal(choicesOf(new FilePathField({ path: root, allowFolders: true, allowFiles: false })), [blank, ['<root>/sub', 'sub']]);
  assert.equal(choicesOf(new FilePathField({ path: root, recursive: true, allowFolders: true })), [blank,
    ['<root>/a.txt', '/a.txt'], ['<root>/b.py', '/b.py'], ['<root>/sub', '/sub'], ['<root>/sub/c.txt', '/sub/c.txt'],
    ['<root>/sub/deep', '/sub/deep'], ['<root>/sub/deep/d.txt', '/sub/deep/d.txt']]);
});

filePath('validation :: full paths valid, anything else is not a valid path choice', async () => {
  await assertTable(() => new FilePathField({ path: root }), [
    [`${root}/a.txt`, { ok: `${root}/a.txt` }],
    ['a.txt', { err: ['"a.txt" is not a valid path choice.'] }],
    ['/etc/passwd', { err: ['"/etc/passwd" is not a valid path choice.'] }],
    ['', { ok: '' }],
  ]);
});

filePath.run();

const localized = suite('conformance :: localized numbers');

function inLanguage<T>(language: string, values: Record<string, unknown>, fn: () => Promise<T> | T): Promise<T> {
  return Promise.resolve(overrideSettings(values, () => runWithLanguage(language, fn)));
}

localized('DecimalField pl :: decimal comma read and written (USE_L10N)', async () => {
  await inLanguage('pl', { USE_L10N: true }, async () => {
    const make = () => new DecimalField({ maxDigits: 10, decimalPlaces: 2, localize: true });
    await assertTable(make, [['1,1', { ok: '1.10' }], ['1.1', { ok: '1.10' }], [1.5, { ok: '1.50' }],
      ['1 000,5', { err: ['A valid number is required.'] }]]);
    assert.is(make().toRepresentation('1234.10'), '1234,10');
  });
});

localized('DecimalField pl :: thousands grouped with USE_THOUSAND_SEPARATOR', async () => {
  await inLanguage('pl', { USE_L10N: true, USE_THOUSAND_SEPARATOR: true }, async () => {
    const make = () => new DecimalField({ maxDigits: 10, decimalPlaces: 2, localize: true });
    await assertTable(make, [['1\u00a0000,5', { ok: '1000.50' }], ['1 000,5', { ok: '1000.50' }]]);
    assert.is(make().toRepresentation('1234567.10'), '1\u00a0234\u00a0567,10');
  });
});

localized('DecimalField de :: USE_L10N off keeps the settings separator', async () => {
  await inLanguage('de', { USE_L10N: false }, async () => {
    const make = () => new DecimalField({ maxDigits: 10, decimalPlaces: 2, localize: true });
    await assertTable(make, [['1,5', { err: ['Eine gültige Zahl ist erforderlich.'] }]]);
    assert.is(make().toRepresentation('1234.10'), '1234.10');
  });
  await inLanguage('de', { USE_L10N: true }, async () => {
    await assertTable(() => new DecimalField({ maxDigits: 10, decimalPlaces: 2, localize: true }), [
      ['1.000,5', { err: ['Eine gültige Zahl ist erforderlich.'] }], ['1,5', { ok: '1.50' }]]);
  });
});

localized('FloatField and IntegerField pl :: read and write the decimal comma', async () => {
  await inLanguage('pl', { USE_L10N: true, USE_THOUSAND_SEPARATOR: true }, async () => {
    await assertTable(() => new FloatField({ localize: true }), [['1,1', { ok: 1.1 }], ['2', { ok: 2 }]]);
    await assertTable(() => new IntegerField({ localize: true }), [['1\u00a0000', { ok: 1000 }], ['7', { ok: 7 }]]);
    assert.is(new FloatField({ localize: true }).toRepresentation(1234.5), '1\u00a0234,5');
    assert.is(new IntegerField({ localize: true }).toRepresentation(1234), '1\u00a0234');
    assert.is(new FloatField().toRepresentation(1.5), 1.5);
    // Through a serializer, the compiled representation honours localize too.
    class Price extends Serializer {
      static fields = { amount: new IntegerField({ localize: true }), plain: new IntegerField() };
    }
    assert.equal(new Price({ amount: 12345, plain: 12345 }).data, { amount: '12\u00a0345', plain: 12345 });
  });
});

localized.run();

const query = suite('conformance :: query helpers');

query('invalid UTF-8 escapes :: replacement characters, re-encoded once', () => {
  const rows: Array<[string, string, string]> = [
    ['http://x/?a=%FF&page=2', 'http://x/?a=%EF%BF%BD&page=3', 'http://x/?a=%EF%BF%BD'],
    ['http://x/?a=%C3%A9%FF%FEb&page=2', 'http://x/?a=%C3%A9%EF%BF%BD%EF%BF%BDb&page=3', 'http://x/?a=%C3%A9%EF%BF%BD%EF%BF%BDb'],
    ['http://x/?q=%E2%82&b=%', 'http://x/?b=%25&page=3&q=%EF%BF%BD', 'http://x/?b=%25&q=%EF%BF%BD'],
    ['http://x/?%FF=1', 'http://x/?page=3&%EF%BF%BD=1', 'http://x/?%EF%BF%BD=1'],
    ['http://x/?a=%e2%82%ac%zz', 'http://x/?a=%E2%82%AC%25zz&page=3', 'http://x/?a=%E2%82%AC%25zz'],
    ['http://x/?a=1;b=2', 'http://x/?a=1%3Bb%3D2&page=3', 'http://x/?a=1%3Bb%3D2'],
  ];
  for (const [url, replaced, removed] of rows) {
    assert.is(replaceQueryParam(url, 'page', 3), replaced, url);
    assert.is(removeQueryParam(url, 'page'), removed, url);
  }
});

query.run();
