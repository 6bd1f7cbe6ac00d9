import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeHtml } from '../../lib/core/html';
import { isPlainObject } from '../../lib/core/typeGuards';

const test = suite('core/html');

test('escapeHtml :: the five characters Django escapes, anything through String()', () => {
  assert.is(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;');
  assert.is(escapeHtml('plain é'), 'plain é');
  assert.is(escapeHtml(3), '3');
  assert.is(escapeHtml(null), 'null');
});

test('isPlainObject :: literals and null-prototype objects, nothing else', () => {
  const rows: Array<[string, unknown, boolean]> = [
    ['literal', {}, true],
    ['null prototype', Object.create(null), true],
    ['parsed JSON', JSON.parse('{"a":1}'), true],
    ['array', [], false],
    ['null', null, false],
    ['string', 'x', false],
    ['date', new Date(), false],
    ['class instance', new (class Thing {})(), false],
    ['map', new Map(), false],
  ];
  for (const [name, value, expected] of rows) assert.is(isPlainObject(value), expected, name);
});

test.run();
