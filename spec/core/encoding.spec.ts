import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { iriToUri, repercentBrokenUnicode, uriToPathText } from '../../lib/core/encoding';
import { HttpRequest } from '../../lib/core/http';

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

// Request paths as the host framework reads them (its WSGI server percent-decodes the path to
// bytes, then get_path_info() re-percent-encodes the broken UTF-8 and decodes the rest);
// expected values checked against the original's functions.
const PATHS: Array<[string, string]> = [
  ['/€/%ff/', '/€/%FF/'],
  ['/%E2%82%AC/%ff/', '/€/%FF/'],
  ['/%c3%a9%ff%c3%a9/', '/é%FFé/'],
  ['/%E2%82/x/', '/%E2%82/x/'],
  ['/%E2%82', '/%E2%82'],
  ['/%e0%80%af/', '/%E0%80%AF/'],
  ['/%C0%AF/', '/%C0%AF/'],
  ['/%F0%90%80/', '/%F0%90%80/'],
  ['/%ed%a0%80/', '/%ED%A0%80/'],
  ['/%F4%90%80%80/', '/%F4%90%80%80/'],
  ['/%F0%9F%98%80/😀/', '/😀/😀/'],
  ['/a%zz/%41/', '/a%zz/A/'],
  ['/%25ff/', '/%ff/'],
  ['/%2F%3F/', '//?/'],
  ['/plain/', '/plain/'],
];

test('uriToPathText :: valid escapes decode, only the broken bytes are percent-encoded again', () => {
  for (const [raw, path] of PATHS) assert.is(uriToPathText(raw), path, raw);
});

test('uriToPathText :: HttpRequest.path and pathInfo use it, rawPath stays as sent', () => {
  const request = HttpRequest.create({ url: '/€/%ff/?q=%ff' });
  assert.is(request.path, '/€/%FF/');
  assert.is(request.pathInfo, '/€/%FF/');
  assert.is(request.rawPath, '/€/%ff/');
});

test('repercentBrokenUnicode :: bytes', () => {
  const fixed = repercentBrokenUnicode(Buffer.from([0x2f, 0xff, 0xe2, 0x82, 0xac, 0xe2, 0x82]));
  assert.equal([...fixed], [...Buffer.concat([Buffer.from('/%FF'), Buffer.from([0xe2, 0x82, 0xac]), Buffer.from('%E2%82')])]);
  assert.is(repercentBrokenUnicode(Buffer.from('ok')).toString(), 'ok');
  assert.is(repercentBrokenUnicode(Buffer.alloc(0)).length, 0);
});

test.run();
