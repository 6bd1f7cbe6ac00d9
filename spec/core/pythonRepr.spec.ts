import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pythonRepr, pythonStr, pythonStringRepr, pythonTupleRepr } from '../../lib/core/pythonRepr';

const test = suite('core/pythonRepr');

// Expected values printed by CPython 3 (`print(repr(value))`).
const STRINGS: Array<[string, string]> = [
  ['abc', "'abc'"],
  ["it's", `"it's"`],
  ['say "hi"', `'say "hi"'`],
  [`both ' "`, `'both \\' "'`],
  ['back\\slash', "'back\\\\slash'"],
  ['tab\tnl\nret\r', "'tab\\tnl\\nret\\r'"],
  ['\u0000\u007f\u00a0\u2028é漢😀', "'\\x00\\x7f\\xa0\\u2028é漢😀'"],
  ['', "''"],
];

test('pythonStringRepr :: quotes and escapes as CPython', () => {
  for (const [text, repr] of STRINGS) assert.is(pythonStringRepr(text), repr, JSON.stringify(text));
});

const VALUES: Array<[unknown, string]> = [
  [null, 'None'],
  [undefined, 'None'],
  [true, 'True'],
  [false, 'False'],
  [3, '3'],
  [1.5, '1.5'],
  [Number.NaN, 'nan'],
  [-Infinity, '-inf'],
  [['a', 1, null, true], "['a', 1, None, True]"],
  [{ k: [1.5, 'v'] }, "{'k': [1.5, 'v']}"],
];

test('pythonRepr :: JSON-ish values as CPython prints them', () => {
  for (const [value, repr] of VALUES) assert.is(pythonRepr(value), repr, String(value));
});

test('pythonTupleRepr / pythonStr :: one-element tuples keep the comma; str() leaves strings bare', () => {
  assert.is(pythonTupleRepr(['a']), "('a',)");
  assert.is(pythonTupleRepr([1, 2]), '(1, 2)');
  assert.is(pythonTupleRepr([]), '()');
  assert.is(pythonStr("it's"), "it's");
  assert.is(pythonStr(true), 'True');
  assert.is(pythonStr(['x']), "['x']");
});

test.run();
