import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { iriToUri } from '../../lib/core/encoding';

const test = suite('core/encoding');

// The original's own table (django/tests/utils_tests/test_encoding.py) plus the cases the
// browsable API's login and logout redirects rely on.
const CASES: Array<[string, string]> = [
  ['red%09rosé#red', 'red%09ros%C3%A9#red'],
  ['/blog/for/Jürgen Münster/', '/blog/for/J%C3%BCrgen%20M%C3%BCnster/'],
  ['locations/?q=Paris&amp;view=brief', 'locations/?q=Paris&amp;view=brief'],
  ['locations/?q=sø', 'locations/?q=s%C3%B8'],
  ['/api-auth/login/?next=%2Fsnippets%2F%3Fpage%3D2', '/api-auth/login/?next=%2Fsnippets%2F%3Fpage%3D2'],
  ["!*'();:@&=+$,/?#[]~-_.%", "!*'();:@&=+$,/?#[]~-_.%"],
  ['a b"c<d>e\\f^g`h{i|j}k', 'a%20b%22c%3Cd%3Ee%5Cf%5Eg%60h%7Bi%7Cj%7Dk'],
  ['line\r\nbreak\u0000\u007f', 'line%0D%0Abreak%00%7F'],
  ['/漢字/😀', '/%E6%BC%A2%E5%AD%97/%F0%9F%98%80'],
  ['100%', '100%'],
  ['', ''],
];

test('iriToUri :: encodes what a URI may not hold, keeps reserved characters and escapes', () => {
  for (const [iri, uri] of CASES) assert.is(iriToUri(iri), uri, JSON.stringify(iri));
});

test('iriToUri :: idempotent on its own output', () => {
  for (const [, uri] of CASES) assert.is(iriToUri(uri), uri, JSON.stringify(uri));
});

test('iriToUri :: null and undefined pass through; a lone surrogate becomes U+FFFD', () => {
  assert.is(iriToUri(null), null);
  assert.is(iriToUri(undefined), undefined);
  assert.is(iriToUri('/x\ud800y'), '/x%EF%BF%BDy');
});

test.run();
