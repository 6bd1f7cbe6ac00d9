/**
 * Field types, table-driven like the original's `FieldValues`: valid inputs -> internal
 * values, invalid inputs -> error messages (and codes), native values -> representations.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../lib/core/conf';
import { ValidationError } from '../lib/exceptions';
import { apiSettings } from '../lib/settings';
import {
  BooleanField, CharField, ChoiceField, CreateOnlyDefault, CurrentUserDefault, DateField, DateTimeField, DecimalField,
  DictField, DurationField, EmailField, empty, Field, FileField, FloatField, HiddenField, HStoreField, ImageField,
  IntegerField, IPAddressField, JSONField, ListField, MultipleChoiceField, ReadOnlyField, RegexField, SkipField,
  SlugField, TimeField, URLField, UUIDField, type UploadedFile,
} from '../lib/fields';

type Table = Array<[unknown, unknown]>;

async function rejects(fn: () => Promise<unknown>, check: (e: unknown) => boolean): Promise<void> {
  try {
    await fn();
  } catch (error) {
    assert.ok(check(error), `unexpected error ${String(error)}`);
    return;
  }
  assert.unreachable('expected a rejection');
}

async function errorOf(field: Field, input: unknown): Promise<ValidationError> {
  try {
    await field.runValidation(input);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error(`expected ${String(input)} to be invalid`);
}

function plain(detail: unknown): unknown {
  return JSON.parse(JSON.stringify(detail));
}

/** Register the three tables for one field. */
function fieldValues(name: string, make: () => Field, tables: { valid?: Table; invalid?: Table; outputs?: Table }): void {
  const test = suite(`fields :: ${name}`);
  test('valid inputs', async () => {
    for (const [input, expected] of tables.valid ?? []) {
      const value = await make().runValidation(input);
      assert.equal(value instanceof Set ? [...value] : value, expected, `input ${String(input)}`);
    }
  });
  test('invalid inputs', async () => {
    for (const [input, expected] of tables.invalid ?? []) {
      const error = await errorOf(make(), input);
      assert.equal(plain(error.detail), expected, `input ${JSON.stringify(input)}`);
    }
  });
  test('outputs', () => {
    for (const [value, expected] of tables.outputs ?? []) {
      assert.equal(make().toRepresentation(value), expected, `output of ${String(value)}`);
    }
  });
  test.run();
}

fieldValues('BooleanField', () => new BooleanField(), {
  valid: [['true', true], ['True', true], ['TRUE', true], ['on', true], ['yes', true], ['y', true], ['1', true], [1, true],
    [true, true], ['t', true], ['false', false], ['off', false], ['no', false], ['0', false], [0, false], [false, false], ['F', false]],
  invalid: [['foo', ['Must be a valid boolean.']], [null, ['This field may not be null.']], [empty, ['This field is required.']],
    [2, ['Must be a valid boolean.']], [[], ['Must be a valid boolean.']]],
  outputs: [['true', true], ['false', false], [1, true], [0, false], ['other', true], ['', false]],
});

fieldValues('BooleanField allowNull', () => new BooleanField({ allowNull: true }), {
  valid: [['null', null], ['', null], [null, null], ['true', true]],
  outputs: [[null, null], ['NULL', null], [true, true]],
});

fieldValues('CharField', () => new CharField(), {
  valid: [[1, '1'], ['abc', 'abc'], ['  abc  ', 'abc'], [1.5, '1.5'], ['a\ud83d\ude00b', 'a\ud83d\ude00b'], ['é\ud83d\ude00', 'é\ud83d\ude00']],
  invalid: [['', ['This field may not be blank.']], ['   ', ['This field may not be blank.']], [true, ['Not a valid string.']],
    [{}, ['Not a valid string.']], [null, ['This field may not be null.']], ['a\x00b', ['Null characters are not allowed.']],
    ['a\ud800b', ['Surrogate characters are not allowed: U+D800.']], ['\ud83d\ude00\udc00', ['Surrogate characters are not allowed: U+DC00.']],
    ['a\ud83d', ['Surrogate characters are not allowed: U+D83D.']]],
  outputs: [[1, '1'], ['abc', 'abc']],
});

fieldValues('CharField options', () => new CharField({ maxLength: 3, minLength: 2, trimWhitespace: false }), {
  valid: [[' ab', ' ab'], ['ab', 'ab']],
  invalid: [['abcd', ['Ensure this field has no more than 3 characters.']], ['a', ['Ensure this field has at least 2 characters.']]],
});

fieldValues('CharField allowBlank', () => new CharField({ allowBlank: true, allowNull: true }), {
  valid: [['', ''], ['  ', ''], [null, null]],
});

fieldValues('EmailField', () => new EmailField(), {
  valid: [['example@example.com', 'example@example.com'], [' example@example.com ', 'example@example.com'],
    ['a.b+c@sub.example.co.uk', 'a.b+c@sub.example.co.uk']],
  invalid: [['examplecom', ['Enter a valid email address.']], ['a@b', ['Enter a valid email address.']],
    ['a b@example.com', ['Enter a valid email address.']]],
});

fieldValues('RegexField', () => new RegexField({ regex: /^[a-z]+$/ }), {
  valid: [['abc', 'abc']],
  invalid: [['A9', ['This value does not match the required pattern.']]],
});

fieldValues('SlugField', () => new SlugField(), {
  valid: [['slug-99', 'slug-99'], ['a_b', 'a_b']],
  invalid: [['slug 99', ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.']]],
});

fieldValues('SlugField allowUnicode', () => new SlugField({ allowUnicode: true }), {
  valid: [['slug-99-ü', 'slug-99-ü']],
  invalid: [['slug 99', ['Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.']]],
});

fieldValues('URLField', () => new URLField(), {
  valid: [['http://example.com', 'http://example.com'], ['https://example.com:8000/a?b=c#d', 'https://example.com:8000/a?b=c#d'],
    ['http://localhost/', 'http://localhost/'], ['http://127.0.0.1/x', 'http://127.0.0.1/x']],
  invalid: [['example.com', ['Enter a valid URL.']], ['mailto:a@b.com', ['Enter a valid URL.']], ['http://', ['Enter a valid URL.']]],
});

fieldValues('UUIDField', () => new UUIDField(), {
  valid: [['825d7aeb-05a9-45b5-a5b7-05df87923cda', '825d7aeb-05a9-45b5-a5b7-05df87923cda'],
    ['825d7aeb05a945b5a5b705df87923cda', '825d7aeb-05a9-45b5-a5b7-05df87923cda'],
    ['urn:uuid:213b7d9b-244f-410d-828c-dabce7a2615d', '213b7d9b-244f-410d-828c-dabce7a2615d'],
    [284758210125106368185219588917561929842n, 'd63a6fb6-88d5-40c7-a91c-9edf73283072']],
  invalid: [['825d7aeb-05a9-45b5-a5b7', ['Must be a valid UUID.']], [[1], ['Must be a valid UUID.']]],
  outputs: [['825d7aeb-05a9-45b5-a5b7-05df87923cda', '825d7aeb-05a9-45b5-a5b7-05df87923cda']],
});

fieldValues('UUIDField hex', () => new UUIDField({ format: 'hex' }), {
  outputs: [['825d7aeb-05a9-45b5-a5b7-05df87923cda', '825d7aeb05a945b5a5b705df87923cda']],
});

fieldValues('IPAddressField', () => new IPAddressField(), {
  valid: [['127.0.0.1', '127.0.0.1'], ['::1', '::1'], ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1']],
  invalid: [['127.0.0.256', ['Enter a valid IPv4 or IPv6 address.']], ['1::2::3', ['Enter a valid IPv4 or IPv6 address.']]],
});

fieldValues('IntegerField', () => new IntegerField(), {
  valid: [['1', 1], ['0', 0], [1, 1], [0, 0], [1.0, 1], ['1.0', 1], [' 7 ', 7], ['-3', -3]],
  invalid: [['abc', ['A valid integer is required.']], ['1.5', ['A valid integer is required.']], [1.5, ['A valid integer is required.']],
    ['1'.repeat(1001), ['String value too large.']], [null, ['This field may not be null.']]],
  outputs: [['1', 1], [1.0, 1], [7, 7]],
});

fieldValues('IntegerField range', () => new IntegerField({ maxValue: 3, minValue: 1 }), {
  valid: [['1', 1], [3, 3]],
  invalid: [[0, ['Ensure this value is greater than or equal to 1.']], [4, ['Ensure this value is less than or equal to 3.']]],
});

fieldValues('FloatField', () => new FloatField({ maxValue: 3, minValue: 1 }), {
  valid: [['1', 1], ['1.5', 1.5], [2.5, 2.5], ['1e0', 1]],
  invalid: [['abc', ['A valid number is required.']], [0.5, ['Ensure this value is greater than or equal to 1.']],
    [3.5, ['Ensure this value is less than or equal to 3.']]],
  outputs: [['1', 1], [1.5, 1.5]],
});

fieldValues('DecimalField', () => new DecimalField({ maxDigits: 3, decimalPlaces: 1 }), {
  valid: [['12.3', '12.3'], [12.3, '12.3'], ['0.1', '0.1'], ['-1', '-1.0'], ['1e1', '10.0'], ['  2.0 ', '2.0'], ['00.1', '0.1']],
  invalid: [['abc', ['A valid number is required.']], ['NaN', ['A valid number is required.']], ['Inf', ['A valid number is required.']],
    ['12.34', ['Ensure that there are no more than 3 digits in total.']], ['123.4', ['Ensure that there are no more than 3 digits in total.']],
    ['0.01', ['Ensure that there are no more than 1 decimal places.']],
    ['123', ['Ensure that there are no more than 2 digits before the decimal point.']]],
  outputs: [['1', '1.0'], ['0', '0.0'], ['1.09', '1.1'], ['0.05', '0.0'], ['0.15', '0.2'], [1.005, '1.0'], ['-2.25', '-2.2']],
});

fieldValues('DecimalField no float rounding', () => new DecimalField({ maxDigits: 20, decimalPlaces: 2 }), {
  valid: [['0.1', '0.10'], ['123456789012345678.99', '123456789012345678.99']],
  outputs: [['0.30000000000000004', '0.30'], [0.1 + 0.2, '0.30']],
});

fieldValues('DecimalField coerceToString false', () => new DecimalField({ maxDigits: 5, decimalPlaces: 2, coerceToString: false }), {
  outputs: [['1.5', 1.5], [null, null]],
});

fieldValues('DecimalField rounding and range', () => new DecimalField({ maxDigits: 5, decimalPlaces: 1, rounding: 'ROUND_UP', maxValue: 100, minValue: '-1.5' }), {
  valid: [['100', '100.0'], ['-1.5', '-1.5']],
  invalid: [['100.1', ['Ensure this value is less than or equal to 100.']], ['-1.6', ['Ensure this value is greater than or equal to -1.5.']]],
  outputs: [['1.01', '1.1']],
});

fieldValues('DecimalField allowNull', () => new DecimalField({ maxDigits: 5, decimalPlaces: 1, allowNull: true }), {
  valid: [['', null], ['  ', null], [null, null]],
});

fieldValues('DateTimeField', () => new DateTimeField(), {
  valid: [['2001-01-01 13:00', new Date(Date.UTC(2001, 0, 1, 13))], ['2001-01-01T13:00Z', new Date(Date.UTC(2001, 0, 1, 13))],
    ['2001-01-01T13:00+01:00', new Date(Date.UTC(2001, 0, 1, 12))], ['2001-01-01T13:00:05.123456', new Date(Date.UTC(2001, 0, 1, 13, 0, 5, 123))],
    [new Date(Date.UTC(2001, 0, 1, 13)), new Date(Date.UTC(2001, 0, 1, 13))]],
  invalid: [['abc', ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].']],
    ['2001-99-99T99:00', ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].']],
    ['2001-01-01', ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].']]],
  outputs: [[new Date(Date.UTC(2001, 0, 1, 13)), '2001-01-01T13:00:00Z'], [new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 123)), '2024-01-02T03:04:05.123000Z'],
    ['2001-01-01T13:00:00Z', '2001-01-01T13:00:00Z'], [null, null], ['', null]],
});

fieldValues('DateTimeField custom formats', () => new DateTimeField({ format: '%Y %m %d %H:%M', inputFormats: ['%Y -- %H:%M'] }), {
  valid: [['2001 -- 13:05', new Date(Date.UTC(2001, 0, 1, 13, 5))]],
  invalid: [['2001-01-01T13:00', ['Datetime has wrong format. Use one of these formats instead: YYYY -- hh:mm.']]],
  outputs: [[new Date(Date.UTC(2001, 0, 1, 13)), '2001 01 01 13:00']],
});

fieldValues('DateTimeField time zone', () => new DateTimeField({ defaultTimezone: 'Europe/Paris' }), {
  valid: [['2001-01-01T13:00', new Date(Date.UTC(2001, 0, 1, 12))], ['2001-07-01T13:00', new Date(Date.UTC(2001, 6, 1, 11))]],
  outputs: [[new Date(Date.UTC(2001, 0, 1, 12)), '2001-01-01T13:00:00+01:00']],
});

fieldValues('DateTimeField format null', () => new DateTimeField({ format: null }), {
  outputs: [[new Date(Date.UTC(2001, 0, 1, 12)), new Date(Date.UTC(2001, 0, 1, 12))]],
});

fieldValues('DateField', () => new DateField(), {
  valid: [['2001-01-01', '2001-01-01'], ['2001-1-2', '2001-01-02']],
  invalid: [['abc', ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.']],
    ['2001-02-30', ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.']],
    ['2001-01-01T13:00', ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.']],
    [new Date(), ['Expected a date but got a datetime.']]],
  outputs: [['2001-01-01', '2001-01-01'], [null, null], ['', null]],
});

fieldValues('DateField custom', () => new DateField({ format: '%d/%m/%Y', inputFormats: ['%d/%m/%Y', 'iso-8601'] }), {
  valid: [['02/01/2001', '2001-01-02'], ['2001-01-03', '2001-01-03']],
  invalid: [['x', ['Date has wrong format. Use one of these formats instead: DD/MM/YYYY, YYYY-MM-DD.']]],
  outputs: [['2001-01-02', '02/01/2001']],
});

fieldValues('TimeField', () => new TimeField(), {
  valid: [['13:00', '13:00:00'], ['13:00:01.5', '13:00:01.500000']],
  invalid: [['abc', ['Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].']],
    ['99:99', ['Time has wrong format. Use one of these formats instead: hh:mm[:ss[.uuuuuu]].']]],
  outputs: [['13:00:00', '13:00:00'], ['00:00:00.000100', '00:00:00.000100'], [null, null]],
});

fieldValues('TimeField format', () => new TimeField({ format: '%I:%M %p' }), {
  outputs: [['13:05:00', '01:05 PM']],
});

fieldValues('DurationField', () => new DurationField(), {
  valid: [['13', 13e6], ['3 08:32:01.000123', (3 * 86400 + 8 * 3600 + 32 * 60 + 1) * 1e6 + 123], ['08:01', 481e6],
    ['P3DT1H', (3 * 86400 + 3600) * 1e6], ['-1 00:00:00', -86400e6]],
  invalid: [['abc', ['Duration has wrong format. Use one of these formats instead: [DD] [HH:[MM:]]ss[.uuuuuu].']]],
  outputs: [[(3 * 86400 + 8 * 3600 + 32 * 60 + 1) * 1e6 + 123, '3 08:32:01.000123'], [60e6, '00:01:00'], [-1e6, '-1 23:59:59']],
});

fieldValues('ChoiceField', () => new ChoiceField({ choices: [['poor', 'Poor quality'], ['medium', 'Medium quality'], 'good'] }), {
  valid: [['poor', 'poor'], ['good', 'good']],
  invalid: [['amazing', ['"amazing" is not a valid choice.']], ['', ['"" is not a valid choice.']], [1, ['"1" is not a valid choice.']]],
  outputs: [['good', 'good'], ['', ''], ['amazing', 'amazing']],
});

fieldValues('ChoiceField integers', () => new ChoiceField({ choices: [[1, 'One'], [2, 'Two']] }), {
  valid: [['1', 1], [2, 2]],
  invalid: [[3, ['"3" is not a valid choice.']], [true, ['"True" is not a valid choice.']]],
  outputs: [['1', 1], [1, 1]],
});

fieldValues('ChoiceField grouped', () => new ChoiceField({ choices: [['Category', [[1, 'First'], [2, 'Second']]], [4, 'Fourth'], 5], allowBlank: true }), {
  valid: [[1, 1], ['2', 2], [4, 4], [5, 5], ['', '']],
  invalid: [[3, ['"3" is not a valid choice.']]],
});

fieldValues('MultipleChoiceField', () => new MultipleChoiceField({ choices: [['consistency', 'Consistency'], ['availability', 'Availability']], allowEmpty: false }), {
  valid: [[['availability'], ['availability']], [['availability', 'availability'], ['availability']]],
  invalid: [['abc', ['Expected a list of items but got type "str".']], [{}, ['Expected a list of items but got type "dict".']],
    [['x'], ['"x" is not a valid choice.']], [[], ['This selection may not be empty.']]],
  outputs: [[['availability', 'availability'], ['availability']]],
});

const file: UploadedFile = { name: 'example.txt', size: 10, content: Buffer.from('0123456789') };
fieldValues('FileField', () => new FileField({ maxLength: 12 }), {
  valid: [[file, file]],
  invalid: [['abc', ['The submitted data was not a file. Check the encoding type on the form.']],
    [{ name: '', size: 1 }, ['No filename could be determined.']], [{ name: 'a.txt', size: 0 }, ['The submitted file is empty.']],
    [{ name: 'abcdefghijklm.txt', size: 1 }, ['Ensure this filename has at most 12 characters (it has 17).']],
    [empty, ['No file was submitted.']]],
  outputs: [[{ name: 'a.txt', url: '/media/a.txt' }, '/media/a.txt'], [null, null]],
});

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(20)]);
fieldValues('ImageField', () => new ImageField(), {
  valid: [[{ name: 'a.png', size: png.length, content: png }, { name: 'a.png', size: png.length, content: png, contentType: 'image/png' }],
    [{ name: 'a.gif', size: 6, content: Buffer.from('GIF89a') }, { name: 'a.gif', size: 6, content: Buffer.from('GIF89a'), contentType: 'image/gif' }]],
  invalid: [[{ name: 'a.png', size: 3, content: Buffer.from('abc') },
    ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.']]],
});

fieldValues('ListField', () => new ListField({ child: new IntegerField() }), {
  valid: [[[1, '2', 3], [1, 2, 3]], [[], []]],
  invalid: [['not a list', ['Expected a list of items but got type "str".']], [{}, ['Expected a list of items but got type "dict".']],
    [[1, 'a', 3, 'b'], { 1: ['A valid integer is required.'], 3: ['A valid integer is required.'] }],
    [5, ['Expected a list of items but got type "int".']]],
  outputs: [[[1, '2', 3], [1, 2, 3]], [[1, null], [1, null]]],
});

fieldValues('ListField lengths', () => new ListField({ child: new CharField(), allowEmpty: false, minLength: 2, maxLength: 3 }), {
  valid: [[['a', 'b'], ['a', 'b']]],
  invalid: [[[], ['This list may not be empty.']], [['a'], ['Ensure this field has at least 2 elements.']],
    [['a', 'b', 'c', 'd'], ['Ensure this field has no more than 3 elements.']]],
});

fieldValues('ListField of lists', () => new ListField({ child: new ListField({ child: new IntegerField() }) }), {
  valid: [[[[1, 2], ['3']], [[1, 2], [3]]]],
  invalid: [[[[1], ['x']], { 1: { 0: ['A valid integer is required.'] } }]],
});

fieldValues('DictField', () => new DictField({ child: new CharField() }), {
  valid: [[{ a: 1, b: '2', 3: 3 }, { 3: '3', a: '1', b: '2' }]],
  invalid: [[{ a: 1, b: null }, { b: ['This field may not be null.'] }], ['abc', ['Expected a dictionary of items but got type "str".']],
    [[], ['Expected a dictionary of items but got type "list".']]],
  outputs: [[{ a: 1, b: '2', c: null }, { a: '1', b: '2', c: null }]],
});

fieldValues('DictField allowEmpty', () => new DictField({ allowEmpty: false }), {
  invalid: [[{}, ['This dictionary may not be empty.']]],
});

fieldValues('HStoreField', () => new HStoreField(), {
  valid: [[{ a: 1, b: null, c: '' }, { a: '1', b: null, c: '' }]],
  invalid: [[{ a: [] }, { a: ['Not a valid string.'] }]],
});

fieldValues('JSONField', () => new JSONField(), {
  valid: [[{ a: 1, b: ['some', 'list', true, 1.23], c: null }, { a: 1, b: ['some', 'list', true, 1.23], c: null }], [[1], [1]], ['s', 's']],
  invalid: [[{ a: () => 1 }, []], [undefined, ['This field is required.']]].slice(1) as Table,
  outputs: [[{ a: 1 }, { a: 1 }]],
});

fieldValues('JSONField binary', () => new JSONField({ binary: true }), {
  valid: [['{"a": 1, "b": [1, 2]}', { a: 1, b: [1, 2] }], [Buffer.from('[1]'), [1]]],
  invalid: [['{"a": "unterminated string}', ['Value must be valid JSON.']], [{ a: 1 }, ['Value must be valid JSON.']]],
  outputs: [[{ a: 1 }, Buffer.from('{"a": 1}')]],
});

const misc = suite('fields :: base behaviour');

misc('required, default, allowNull and readOnly', async () => {
  assert.is(await new CharField({ required: false, default: 'x' }).runValidation(empty), 'x');
  assert.is(await new CharField({ default: () => 'called' }).runValidation(empty), 'called');
  assert.is(await new IntegerField({ allowNull: true }).runValidation(null), null);
  await rejects(async () => new CharField({ required: false }).runValidation(empty), (e: unknown) => e instanceof SkipField);
  assert.throws(() => new CharField({ readOnly: true, required: true }), /May not set both `readOnly` and `required`/);
  assert.throws(() => new CharField({ required: true, default: 'a' }), /May not set both `required` and `default`/);
  assert.throws(() => new CharField({ readOnly: true, writeOnly: true }), /May not set both `readOnly` and `writeOnly`/);
  assert.throws(() => new Field({ readOnly: true }), /^Field\(\{ readOnly: true \}\) should be ReadOnlyField$/);
});

misc('error codes and custom messages', async () => {
  const required = await errorOf(new CharField(), empty);
  assert.equal(required.getCodes(), ['required']);
  const blank = await errorOf(new CharField({ errorMessages: { blank: 'Say something.' } }), '');
  assert.equal(plain(blank.detail), ['Say something.']);
  assert.equal(blank.getCodes(), ['blank']);
  const listError = await errorOf(new ListField({ child: new IntegerField({ maxValue: 1 }) }), [1, 5]);
  assert.equal(listError.getCodes(), { 1: ['max_value'] });
  const full = listError.getFullDetails() as unknown as Record<string, Array<{ message: unknown; code: string }>>;
  assert.is(String(full[1][0].message), 'Ensure this value is less than or equal to 1.');
  assert.is(full[1][0].code, 'max_value');
  assert.throws(() => new CharField().fail('nope'), /error key `nope` does not exist/);
});

misc('validators: functions and objects, errors collected', async () => {
  const field = new IntegerField({
    validators: [
      (value: number) => { if (value % 2) throw new ValidationError('Must be even.', 'odd'); },
      { validate: async (value: unknown) => { if (Number(value) > 10) throw new ValidationError('Too big.'); } },
    ],
  });
  assert.is(await field.runValidation('4'), 4);
  const error = await errorOf(field, 13);
  assert.equal(plain(error.detail), ['Must be even.', 'Too big.']);
  assert.equal(error.getCodes(), ['odd', 'invalid']);
});

misc('validators: sync and async ones, every way of failing, in order; async toInternalValue awaited', async () => {
  const seen: unknown[] = [];
  const thenable = (fail: boolean) => ({
    then(resolve: (v: unknown) => void, reject: (e: unknown) => void) {
      if (fail) reject(new ValidationError('Thenable.', 'thenable'));
      else resolve(undefined);
    },
  });
  const contextual = Object.assign((value: unknown, field: unknown) => {
    seen.push(['context', value, field instanceof IntegerField]);
  }, { requiresContext: true });
  const rows: Array<[string, unknown, string[] | null]> = [
    ['all pass', 2, null],
    ['sync throw', 3, ['Odd.']],
    ['async reject', 20, ['Too big (async).']],
    ['returned rejected promise', 30, ['Too big (async).', 'Thirty.']],
    ['thenable rejects', 40, ['Too big (async).', 'Thenable.']],
  ];
  for (const [label, input, messages] of rows) {
    seen.length = 0;
    const field = new IntegerField({
      validators: [
        (value: number) => { seen.push(['sync', value]); if (value % 2) throw new ValidationError('Odd.', 'odd'); },
        { validate: async (value: unknown) => { seen.push(['async', value]); if (Number(value) > 10) throw new ValidationError('Too big (async).'); } },
        (value: number) => (value === 30 ? Promise.reject(new ValidationError('Thirty.')) : undefined),
        (value: number) => thenable(value === 40),
        contextual,
      ],
    });
    if (messages === null) {
      assert.is(await field.runValidation(String(input)), input, label);
    } else {
      const error = await errorOf(field, input);
      assert.equal(plain(error.detail), messages, label);
    }
    // Every validator runs, in order, whatever the earlier ones did.
    assert.equal(seen, [['sync', input], ['async', input], ['context', input, true]], label);
  }
  for (const thrower of [() => { throw new TypeError('boom'); }, async () => { throw new TypeError('boom'); }]) {
    await rejects(async () => new IntegerField({ validators: [thrower] }).runValidation(1), (e: unknown) => e instanceof TypeError);
  }
  class SlowField extends Field<number> {
    override async toInternalValue(data: unknown): Promise<number> {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return Number(data);
    }
  }
  const slow = new SlowField({ validators: [(value: number) => { if (value > 5) throw new ValidationError('Big.'); }] });
  assert.is(await slow.runValidation('5'), 5);
  assert.equal(plain((await errorOf(slow, 6)).detail), ['Big.']);
});

misc('ReadOnlyField, HiddenField, CurrentUserDefault, CreateOnlyDefault', async () => {
  const ro = new ReadOnlyField();
  assert.is(ro.readOnly, true);
  assert.is(ro.toRepresentation(5), 5);
  assert.throws(() => new HiddenField({} as never), /default is a required argument/);
  const hidden = new HiddenField({ default: new CurrentUserDefault() });
  const parent = { parent: null, rootContext: { request: { user: 'alice' } }, instance: null };
  hidden.bind('owner', parent);
  assert.is(hidden.getValue({ owner: 'mallory' }), empty);
  assert.is(await hidden.runValidation(hidden.getValue({ owner: 'mallory' })), 'alice');
  const createOnly = new HiddenField({ default: new CreateOnlyDefault(() => 'created') });
  createOnly.bind('stamp', { parent: null, instance: null });
  assert.is(await createOnly.runValidation(empty), 'created');
  const updating = new HiddenField({ default: new CreateOnlyDefault('x') });
  updating.bind('stamp', { parent: null, instance: { id: 1 } });
  await rejects(async () => updating.runValidation(empty), (e: unknown) => e instanceof SkipField);
});

misc('getAttribute: dotted sources, callables, missing attributes', () => {
  const field = new ReadOnlyField({ source: 'owner.username' });
  field.bind('owner', { parent: null });
  assert.is(field.getAttribute({ owner: { username: 'bob' } }), 'bob');
  assert.throws(() => field.getAttribute({ owner: null }), (e: unknown) => e instanceof SkipField);
  const method = new ReadOnlyField({ source: 'full' });
  method.bind('name', { parent: null });
  const obj = { first: 'a', full(this: { first: string }): string { return `${this.first}!`; } };
  assert.is(method.getAttribute(obj), 'a!');
  const required = new CharField();
  required.bind('missing', { parent: null });
  assert.throws(() => required.getAttribute({}), /Got AttributeError when attempting to get a value for field `missing`/);
  assert.throws(() => { const f = new CharField({ source: 'x' }); f.bind('x', { parent: null }); }, /It is redundant to specify `source: 'x'`.* Remove the `source` option\./);
});

misc('COERCE_DECIMAL_TO_STRING is read at call time', async () => {
  const field = new DecimalField({ maxDigits: 5, decimalPlaces: 2 });
  assert.is(field.toRepresentation('1.5'), '1.50');
  await overrideSettings({ API_FRAMEWORK: { COERCE_DECIMAL_TO_STRING: false } }, () => {
    assert.is(apiSettings.COERCE_DECIMAL_TO_STRING, false);
    assert.is(field.toRepresentation('1.5'), 1.5);
  });
  assert.is(field.toRepresentation('1.5'), '1.50');
});

misc('DATETIME_FORMAT setting and TIME_ZONE', async () => {
  const field = new DateTimeField();
  await overrideSettings({ API_FRAMEWORK: { DATETIME_FORMAT: '%Y/%m/%d' } }, () => {
    assert.is(field.toRepresentation(new Date(Date.UTC(2020, 4, 6, 23))), '2020/05/06');
  });
  await overrideSettings({ TIME_ZONE: 'America/New_York' }, async () => {
    assert.is(field.toRepresentation(new Date(Date.UTC(2020, 0, 6, 23))), '2020-01-06T18:00:00-05:00');
    assert.equal(await field.runValidation('2020-01-06T18:00'), new Date(Date.UTC(2020, 0, 6, 23)));
  });
});

misc('ChoiceField iterOptions with cutoff', () => {
  const field = new ChoiceField({ choices: [['G', [[1, 'One'], [2, 'Two']]], [3, 'Three']], htmlCutoff: 2 });
  const options = field.iterOptions();
  assert.equal(options.map((o) => o.kind), ['startGroup', 'option', 'option', 'endGroup', 'option']);
  assert.equal(options[4], { kind: 'option', value: 'n/a', displayText: 'More than 2 items...', disabled: true });
});

misc('copy gives an independent unbound field', () => {
  const list = new ListField({ child: new IntegerField() });
  const copy = list.copy();
  copy.bind('numbers', { parent: null });
  assert.is(list.fieldName, '');
  assert.is(copy.child.parent, copy);
  assert.is.not(copy.child, list.child);
});

misc.run();
