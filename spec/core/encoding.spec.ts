import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeUriPath, iriToUri, repercentBrokenUnicode, uriToPathText } from '../../lib/core/encoding';
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

test('escapeUriPath :: only letters, digits and /:@&+$,-_.!~*\'() are kept', () => {
  const cases: Array<[string, string]> = [
    ['/;some/=awful/?path/:with/@lots/&of/+awful/chars', '/%3Bsome/%3Dawful/%3Fpath/:with/@lots/&of/+awful/chars'],
    ['/foo#bar', '/foo%23bar'],
    ['/foo?bar', '/foo%3Fbar'],
    ["/-_.!~*'()$,/", "/-_.!~*'()$,/"],
    ['/a b/\u0000x/\t\r\n\u007f/', '/a%20b/%00x/%09%0D%0A%7F/'],
    ['/100%/%41/', '/100%25/%2541/'],
    ['/café/€/😀/', '/caf%C3%A9/%E2%82%AC/%F0%9F%98%80/'],
    ['/"<>[]{}|\\^`/', '/%22%3C%3E%5B%5D%7B%7D%7C%5C%5E%60/'],
    ['', ''],
  ];
  for (const [path, escaped] of cases) assert.is(escapeUriPath(path), escaped, path);
});

test('escapeUriPath :: HttpRequest.getFullPath() escapes the decoded path and encodes the query as a URI', () => {
  const full = (url: string, slash = false): string => HttpRequest.create({ url }).getFullPath(slash);
  assert.is(full('/notes/%00x/'), '/notes/%00x/');
  assert.is(full('/a%20b/caf%c3%a9/?q=1'), '/a%20b/caf%C3%A9/?q=1');
  assert.is(full('/a%2fb/'), '/a/b/', 'an encoded slash is a slash of the decoded path');
  assert.is(full('/%ff/'), '/%25FF/', 'broken UTF-8 is escaped again, as the host does');
  assert.is(full('/x;y=1/?next=%2Fa%2F&q=s\u00f8 <b>'), '/x%3By%3D1/?next=%2Fa%2F&q=s%C3%B8%20%3Cb%3E');
  assert.is(full('/a%20b?x=1', true), '/a%20b/?x=1');
  assert.is(full('/a/?', true), '/a/');
});

test('repercentBrokenUnicode :: bytes', () => {
  const fixed = repercentBrokenUnicode(Buffer.from([0x2f, 0xff, 0xe2, 0x82, 0xac, 0xe2, 0x82]));
  assert.equal([...fixed], [...Buffer.concat([Buffer.from('/%FF'), Buffer.from([0xe2, 0x82, 0xac]), Buffer.from('%E2%82')])]);
  assert.is(repercentBrokenUnicode(Buffer.from('ok')).toString(), 'ok');
  assert.is(repercentBrokenUnicode(Buffer.alloc(0)).length, 0);
});

test.run();
