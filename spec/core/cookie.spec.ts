/**
 * Cookie parsing and quoting (lib/core/cookie.ts) against the host framework's
 * `parse_cookie()` and its cookie module's quoting: repeated names, quoted values with
 * escapes, `%XX` kept, empty values, `=` in values, characters outside the cookie grammar,
 * chunks without `=`, and a value written by `setCookie()` read back unchanged.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cookieHeaderText, parseCookie, quoteCookieValue, unquoteCookieValue } from '../../lib/core/cookie';
import { HttpRequest, HttpResponse } from '../../lib/core/http';

const test = suite('core cookie');

const parsed = (header: string): Record<string, string> => ({ ...parseCookie(header) });

test('parseCookie :: the host framework\'s own cases', () => {
  // The cases of the host framework's cookie parsing tests.
  assert.equal(parsed('chips=ahoy; vienna=finger'), { chips: 'ahoy', vienna: 'finger' });
  assert.equal(parsed('keebler="E=mc2; L=\\"Loves\\"; fudge=\\012;"'), { keebler: '"E=mc2', L: '\\"Loves\\"', fudge: '\\012', '': '"' });
  assert.equal(parsed('keebler=E=mc2'), { keebler: 'E=mc2' });
  assert.equal(parsed('key:term=value:term'), { 'key:term': 'value:term' });
  assert.equal(parsed('a=b; c=[; d=r; f=h'), { a: 'b', c: '[', d: 'r', f: 'h' });
  assert.equal(parsed('a=b; Domain=example.com'), { a: 'b', Domain: 'example.com' });
  assert.equal(parsed('a b c=d e = f; gh=i'), { 'a b c': 'd e = f', gh: 'i' });
  assert.equal(parsed('a   b,c<>@:/[]?{}=d  "  =e,f g'), { 'a   b,c<>@:/[]?{}': 'd  "  =e,f g' });
  assert.equal(parsed('saint=André Bessette'), { saint: 'André Bessette' });
  assert.equal(parsed('  =  b  ;  ;  =  ;   c  =  ;  '), { '': 'b', c: '' });
});

test('parseCookie :: repeated names keep the last value', () => {
  assert.equal(parsed('a=1; b=2; a=3'), { a: '3', b: '2' });
  assert.equal(parsed('csrftoken=old; csrftoken=new'), { csrftoken: 'new' });
});

test('parseCookie :: quoted values are unquoted with their escapes', () => {
  assert.equal(parsed('a="a\\"b"'), { a: 'a"b' });
  assert.equal(parsed('a="x\\\\y"'), { a: 'x\\y' });
  assert.equal(parsed('a="\\101\\054\\073"'), { a: 'A,;' }, 'octal escapes');
  assert.equal(parsed('a="\\351t\\351"'), { a: 'été' });
  assert.equal(parsed('a="\\400"'), { a: '400' }, 'not an octal escape: the backslash only escapes the 4');
  assert.equal(parsed('a=""'), { a: '' });
  assert.equal(parsed('a="'), { a: '"' }, 'a lone quote is kept');
  assert.equal(parsed('a="open'), { a: '"open' });
  assert.equal(parsed('a=close"'), { a: 'close"' });
  assert.equal(parsed('a=" spaced "'), { a: ' spaced ' }, 'spaces inside quotes stay');
  assert.equal(parsed('a="end\\"'), { a: 'end\\' }, 'a trailing backslash is kept');
});

test('parseCookie :: %XX is not percent-decoded', () => {
  assert.equal(parsed('a=two%20words; b=%zz; c=%E2%82%AC'), { a: 'two%20words', b: '%zz', c: '%E2%82%AC' });
});

test('parseCookie :: empty values, = in values, chunks without =, odd names', () => {
  assert.equal(parsed('a=; b=c=d=; =e; f'), { a: '', b: 'c=d=', '': 'f' });
  assert.equal(parsed(''), {});
  assert.equal(parsed(';;;  ; '), {});
  const protoSafe = parseCookie('__proto__=x; constructor=y');
  assert.is(protoSafe.__proto__, 'x');
  assert.is(protoSafe.constructor, 'y');
  assert.not.ok('toString' in parseCookie('a=1'), 'no inherited names');
  // The host's str.strip(): U+001F and U+0085 are spaces, U+FEFF is not.
  assert.equal(parsed('\x1fa\x85=\tb\x1c'), { a: 'b' });
  assert.equal(parsed('\ufeffa=b'), { '\ufeffa': 'b' });
  assert.equal(parsed('a=\x00\x7f'), { a: '\x00\x7f' }, 'control characters are kept as they are');
});

test('cookieHeaderText :: latin-1 header bytes are read as UTF-8; in-process strings are kept', () => {
  assert.is(cookieHeaderText(undefined), '');
  assert.is(cookieHeaderText('a=b'), 'a=b');
  assert.is(cookieHeaderText(Buffer.from('a=é€', 'utf8').toString('latin1')), 'a=é€');
  assert.is(cookieHeaderText('a=\xff'), 'a=\ufffd', 'an undecodable byte becomes U+FFFD');
  assert.is(cookieHeaderText('a=€'), 'a=€');
  assert.is(cookieHeaderText(['a=1', 'b=2']), 'a=1; b=2');
});

test('quoteCookieValue :: token values as they are, others quoted with escapes', () => {
  assert.is(quoteCookieValue('abc123'), 'abc123');
  assert.is(quoteCookieValue("ok:!#$%&'*+-.^_`|~"), "ok:!#$%&'*+-.^_`|~");
  assert.is(quoteCookieValue(''), '""');
  assert.is(quoteCookieValue('b c'), '"b c"');
  assert.is(quoteCookieValue('a;b,c'), '"a\\073b\\054c"');
  assert.is(quoteCookieValue('"q\\'), '"\\"q\\\\"');
  assert.is(quoteCookieValue('é'), '"\\351"');
  assert.is(quoteCookieValue('\x00\x7f'), '"\\000\\177"');
  assert.is(quoteCookieValue('€'), '"€"', 'characters above U+00FF are not escaped');
  for (const value of ['', 'b c', 'a;b,c', '"q\\', 'é', 'x=y', '\\101', '{"json": [1, 2]}']) {
    assert.is(unquoteCookieValue(quoteCookieValue(value)), value, `round trip of ${JSON.stringify(value)}`);
  }
});

test('request/response :: a value written by setCookie() reads back unchanged', () => {
  const response = new HttpResponse('');
  response.setCookie('prefs', 'a b; c="d"');
  response.setCookie('sessionid', 'abc123');
  const pairs = response.cookieHeaders().map((header) => header.slice(0, header.indexOf('; Path=')));
  assert.equal(pairs, ['prefs="a b\\073 c=\\"d\\""', 'sessionid=abc123']);
  const request = HttpRequest.create({ headers: { cookie: pairs.join('; ') } });
  assert.is(request.cookies.prefs, 'a b; c="d"');
  assert.is(request.cookies.sessionid, 'abc123');
});

test.run();
