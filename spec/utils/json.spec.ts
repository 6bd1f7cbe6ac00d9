import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dumps, floatRepr, isoDatetime, JSONDecodeError, JsonFloat, loads } from '../../lib/utils/json';
import { ErrorDetail } from '../../lib/exceptions';

const test = suite('utils/json');

// Expected strings below were produced by CPython 3.11's json.dumps / json.loads.
const data = {
  a: 'é\u2028 \x01\x7f"\\/\n\t',
  b: [1, 2.5, 1e-05, 1.5e16, 123456789.125, 0.1, 1e22],
  c: null,
  d: true,
  emoji: '😀',
  nested: { x: [], y: {} },
};

test('dumps :: compact, unicode (UNICODE_JSON=True, COMPACT_JSON=True)', () => {
  assert.is(
    dumps(data, { ensureAscii: false, compact: true }),
    '{"a":"é\u2028 \\u0001\x7f\\"\\\\/\\n\\t","b":[1,2.5,1e-05,1.5e+16,123456789.125,0.1,1e+22],"c":null,"d":true,"emoji":"😀","nested":{"x":[],"y":{}}}',
  );
});

test('dumps :: spaced, ASCII-escaped (Python defaults)', () => {
  assert.is(
    dumps(data),
    '{"a": "\\u00e9\\u2028 \\u0001\\u007f\\"\\\\/\\n\\t", "b": [1, 2.5, 1e-05, 1.5e+16, 123456789.125, 0.1, 1e+22], "c": null, "d": true, "emoji": "\\ud83d\\ude00", "nested": {"x": [], "y": {}}}',
  );
});

test('dumps :: indent like Python', () => {
  assert.is(
    dumps({ a: [1, { b: 2 }], e: [], f: {} }, { indent: 4 }),
    '{\n    "a": [\n        1,\n        {\n            "b": 2\n        }\n    ],\n    "e": [],\n    "f": {}\n}',
  );
});

// ensureAscii on the platform path (compact and indented layouts): a text found to be plain
// ASCII is kept as it is, any other gets every character from DEL up escaped (CPython 3.11).
const ASCII_CASES: Array<[string, string]> = [
  ['plain text', '"plain text"'],
  ['quote " backslash \\ newline \n tab \t', '"quote \\" backslash \\\\ newline \\n tab \\t"'],
  ['control \x01 and tilde ~', '"control \\u0001 and tilde ~"'],
  ['del \x7f', '"del \\u007f"'],
  ['latin é ÿ', '"latin \\u00e9 \\u00ff"'],
  ['separators \u2028\u2029', '"separators \\u2028\\u2029"'],
  ['astral 😀', '"astral \\ud83d\\ude00"'],
  ['lone \ud800 surrogate', '"lone \\ud800 surrogate"'],
  ['x'.repeat(5000) + 'é', `"${'x'.repeat(5000)}\\u00e9"`],
];

test('dumps :: ensureAscii escapes exactly what Python escapes (compact and indented)', () => {
  for (const [text, expected] of ASCII_CASES) {
    const label = JSON.stringify(text.slice(0, 40));
    assert.is(dumps([text, { k: text }], { compact: true }), `[${expected},{"k":${expected}}]`, `compact ${label}`);
    assert.is(dumps({ k: text }, { indent: 1 }), `{\n "k": ${expected}\n}`, `indent ${label}`);
    assert.is(dumps(text, { ensureAscii: false, compact: true }), JSON.stringify(text), `unescaped ${label}`);
  }
});

test('floats :: Python repr', () => {
  const cases: Array<[number, string]> = [
    [1e16, '1e+16'], [1.5e-7, '1.5e-07'], [0.0001, '0.0001'], [0.00001, '1e-05'], [123e20, '1.23e+22'],
    [2 ** 60, '1.152921504606847e+18'], [1 / 3, '0.3333333333333333'], [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'], [1, '1.0'], [-0, '-0.0'], [100, '100.0'],
  ];
  for (const [value, expected] of cases) assert.is(floatRepr(value), expected, String(value));
  assert.is(dumps([new JsonFloat(1), 1, 2 ** 53 - 1, 2 ** 53]), '[1.0, 1, 9007199254740991, 9007199254740992.0]');
});

test('strict :: NaN and infinities rejected, else Python spellings', () => {
  assert.throws(() => dumps({ a: NaN }, { strict: true }), /Out of range float values are not JSON compliant/);
  assert.throws(() => dumps([Infinity], { strict: true }), /Out of range float values are not JSON compliant/);
  assert.is(dumps([NaN, Infinity, -Infinity], { strict: false }), '[NaN, Infinity, -Infinity]');
});

test('encoder :: dates, buffers, bigints, maps, sets, toJSON, ErrorDetail, undefined', () => {
  assert.is(isoDatetime(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 123))), '2024-01-02T03:04:05.123Z');
  assert.is(isoDatetime(new Date(Date.UTC(2024, 0, 2, 3, 4, 5))), '2024-01-02T03:04:05Z');
  assert.is(
    dumps({ d: new Date(Date.UTC(2024, 0, 2)), b: Buffer.from('hi'), n: 12345678901234567890n, m: new Map([['k', 1]]), s: new Set([1]), e: new ErrorDetail('x', 'c'), u: undefined, t: { toJSON: () => 'T' } }, { compact: true }),
    '{"d":"2024-01-02T00:00:00Z","b":"hi","n":12345678901234567890,"m":{"k":1},"s":[1],"e":"x","t":"T"}',
  );
  assert.is(dumps([undefined]), '[null]');
  assert.throws(() => dumps({ f: Symbol('x') as unknown }.f), /not JSON serializable/);
  const loop: Record<string, unknown> = {};
  loop.self = loop;
  assert.throws(() => dumps(loop), /Circular reference/);
});

test('loads :: Python error messages', () => {
  const cases: Array<[string, string]> = [
    ['{"a": 1,}', 'Expecting property name enclosed in double quotes: line 1 column 9 (char 8)'],
    ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    ['{"a": "\x01"}', 'Invalid control character at: line 1 column 8 (char 7)'],
    ['["\\x"]', 'Invalid \\escape: line 1 column 3 (char 2)'],
    ['["\\u12"]', 'Invalid \\uXXXX escape: line 1 column 4 (char 3)'],
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['   ', 'Expecting value: line 1 column 4 (char 3)'],
    ['1 2', 'Extra data: line 1 column 3 (char 2)'],
    ['{1:2}', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['-', 'Expecting value: line 1 column 1 (char 0)'],
    ['nul', 'Expecting value: line 1 column 1 (char 0)'],
    ['{\n"a": x}', 'Expecting value: line 2 column 6 (char 7)'],
  ];
  for (const [text, message] of cases) {
    try {
      loads(text);
      assert.unreachable(text);
    } catch (error) {
      assert.instance(error, JSONDecodeError);
      assert.is((error as Error).message, message, JSON.stringify(text));
    }
  }
});

test('loads :: constants accepted unless strict; valid documents parse', () => {
  const parsed = loads('[NaN, Infinity, -Infinity, "\\ud83d\\ude00"]', { strict: false }) as unknown[];
  assert.ok(Number.isNaN(parsed[0]));
  assert.is(parsed[1], Infinity);
  assert.is(parsed[2], -Infinity);
  assert.is(parsed[3], '😀');
  assert.throws(() => loads('{"a": NaN}', { strict: true }), /Out of range float values are not JSON compliant: 'NaN'/);
  assert.equal(loads('{"a": [1, 2.5, true, null]}', { strict: true }), { a: [1, 2.5, true, null] });
});

test.run();
