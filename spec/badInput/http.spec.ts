/**
 * The host request (lib/core/http.ts) fed bad input: query strings with broken percent
 * escapes, repeated and malformed cookies, absurd Content-Length values, bodies over the limit
 * (declared or chunked), and Host headers with bad characters or ports. Nothing throws where
 * the host framework answers, and errors are the 400/413 kinds, never a crash.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { DisallowedHost, HttpRequest, QueryDict, RequestDataTooBig, TooManyFieldsSent, splitDomainPort } from '../../lib/core/http';

const test = suite('badInput http');

test('query :: broken percent escapes are kept, invalid UTF-8 becomes U+FFFD, repeated keys kept', () => {
  const request = HttpRequest.create({ url: '/p/?a=%zz&b=%&c=%ff&d=%E2%82&e=1&e=2&=empty&f' });
  const query = request.query;
  assert.is(query.get('a'), '%zz');
  assert.is(query.get('b'), '%');
  assert.is(query.get('c'), '\ufffd');
  assert.is(query.get('d'), '\ufffd');
  assert.equal(query.getList('e'), ['1', '2']);
  assert.is(query.get(''), 'empty');
  assert.is(query.get('f'), '');
});

test('path :: broken escapes in the path do not throw; valid ones decode', () => {
  assert.is(HttpRequest.create({ url: '/a%zz/%41/' }).path, '/a%zz/A/');
  assert.is(HttpRequest.create({ url: '/%E2%82%AC/' }).path, '/€/');
  assert.is(HttpRequest.create({ url: '/ok/%ff/' }).path, '/ok/%FF/', 'an undecodable byte is percent-encoded again');
  assert.is(HttpRequest.create({ url: '/%E2%82%AC/%ff/' }).path, '/€/%FF/', 'the valid escapes around it still decode');
  assert.is(HttpRequest.create({ url: 'http://evil.example/x/?q=1' }).path, '/x/');
});

test('query :: more fields than DATA_UPLOAD_MAX_NUMBER_FIELDS is TooManyFieldsSent', async () => {
  await overrideSettings({ DATA_UPLOAD_MAX_NUMBER_FIELDS: 3 }, () => {
    assert.throws(() => QueryDict.parse('a=1&b=2&c=3&d=4'), (error: unknown) => error instanceof TooManyFieldsSent);
    assert.is(QueryDict.parse('a=1&b=2&c=3').get('c'), '3');
  });
  await overrideSettings({ DATA_UPLOAD_MAX_NUMBER_FIELDS: null }, () => {
    assert.is(QueryDict.parse(Array.from({ length: 2000 }, (_, i) => `k${i}=1`).join('&')).getList('k1999').length, 1);
  });
});

test('cookies :: malformed pairs never throw; the well-formed ones around them are kept', () => {
  const cookies = HttpRequest.create({ headers: { cookie: 'a=1; a=2; junk; =novalue; c=x=y; d=%zz; sessionid=abc123' } }).cookies;
  assert.is(cookies.a, '2', 'the last of repeated names wins, as in the host framework');
  assert.is(cookies.c, 'x=y');
  assert.is(cookies.d, '%zz', 'a broken escape is kept');
  assert.is(cookies.sessionid, 'abc123');
  assert.not.ok('junk' in cookies);
  assert.is(cookies[''], 'novalue', "chunks without a name go under '' (the last one wins)");
  assert.equal(Object.keys(HttpRequest.create({ headers: { cookie: ';;; ;' } }).cookies), []);
  assert.equal(Object.keys(HttpRequest.create({}).cookies), []);
});

test('body :: a declared Content-Length over the limit is refused before reading', async () => {
  await overrideSettings({ DATA_UPLOAD_MAX_MEMORY_SIZE: 10 }, async () => {
    const request = HttpRequest.create({ method: 'POST', body: 'x'.repeat(11), headers: { 'content-type': 'text/plain' } });
    try {
      await request.body();
      assert.unreachable();
    } catch (error) {
      assert.instance(error, RequestDataTooBig);
      assert.is((error as Error).message, 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.');
    }
    const fits = HttpRequest.create({ method: 'POST', body: 'x'.repeat(10) });
    assert.is((await fits.body()).length, 10);
  });
});

test('body :: absurd Content-Length values in META do not break reading a socket-less body', async () => {
  for (const length of ['-1', 'abc', '1e3', '']) {
    const request = HttpRequest.create({ method: 'POST', body: 'hello', headers: { 'content-length': length } });
    assert.is((await request.body()).toString(), 'hello', length);
  }
});

test('host :: bad characters, bad ports and foreign names are DisallowedHost', async () => {
  await overrideSettings({ ALLOWED_HOSTS: ['testserver', '.example.com'], DEBUG: false }, () => {
    for (const host of ['bad_host!', 'testserver:abc', 'testserver:', 'test server', '[::1', 'testserver@evil.com', 'evil.com', 'example.com.evil.net', 'testserver/x']) {
      try {
        HttpRequest.create({ headers: { host } }).getHost();
        assert.unreachable(host);
      } catch (error) {
        assert.instance(error, DisallowedHost, host);
      }
    }
    assert.is(HttpRequest.create({ headers: { host: 'testserver:8000' } }).getHost(), 'testserver:8000');
    assert.is(HttpRequest.create({ headers: { host: 'API.Example.com' } }).getHost(), 'API.Example.com');
  });
  assert.equal(splitDomainPort('bad_host!'), ['', '']);
  assert.equal(splitDomainPort('[::1]:80'), ['[::1]', '80']);
  assert.equal(splitDomainPort('example.com.:443'), ['example.com', '443']);
});

test.run();
