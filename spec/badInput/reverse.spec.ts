/**
 * `reverseLazy()` and the edges of `reverse()` (lib/reverse.ts): a lazy URL built before its
 * pattern exists is reversed on first use and then kept; an unknown name fails where the URL
 * is used, with the host framework's NoReverseMatch, every time; requests without a host
 * request give relative URLs; a versioning scheme's own errors are not swallowed.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { HttpRequest } from '../../lib/core/http';
import { NoReverseMatch, path, type UrlConfModule } from '../../lib/core/urls';
import { LazyURL, preserveBuiltinQueryParams, reverse, reverseLazy } from '../../lib/reverse';

const test = suite('badInput reverse');

const view = () => {
  throw new Error('not called');
};

// Built at import time, like a class attribute `successUrl = reverseLazy('ping')`.
const moduleLevel = reverseLazy('ping');

test('reverseLazy :: a module-level URL resolves against ROOT_URLCONF on use', () => {
  assert.instance(moduleLevel, LazyURL);
  assert.is(String(moduleLevel), '/ping/');
  assert.is(`${moduleLevel}`, '/ping/');
  assert.is(JSON.stringify({ next: moduleLevel }), '{"next":"/ping/"}');
});

test('reverseLazy :: created before its pattern exists; resolved once, then kept', () => {
  const conf: UrlConfModule = { urlpatterns: [] };
  const lazy = reverseLazy('late', { urlconf: conf, kwargs: { pk: 7 } });
  (conf.urlpatterns as unknown[]).push(path('late/<int:pk>/', view, { name: 'late' }));
  assert.is(lazy.toString(), '/late/7/');
  (conf.urlpatterns as unknown[]).length = 0;
  assert.is(lazy.toString(), '/late/7/', 'cached after the first use');
});

test('reverseLazy :: an unknown name fails on use, not on creation, and every time', () => {
  const lazy = reverseLazy('no-such-view');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      void String(lazy);
      assert.unreachable('reversed an unknown name');
    } catch (error) {
      assert.instance(error, NoReverseMatch);
      assert.match((error as Error).message, "Reverse for 'no-such-view' not found.");
    }
  }
  assert.throws(() => JSON.stringify([lazy]), (error: unknown) => error instanceof NoReverseMatch);
});

test('reverseLazy :: wrong arguments are NoReverseMatch on use', () => {
  const conf: UrlConfModule = { urlpatterns: [path('item/<int:pk>/', view, { name: 'item' })] };
  const lazy = reverseLazy('item', { urlconf: conf, kwargs: { pk: 'abc' } });
  assert.throws(() => lazy.toString(), (error: unknown) => error instanceof NoReverseMatch);
  assert.is(reverseLazy('item', { urlconf: conf, args: [3] }).toString(), '/item/3/');
});

test('reverseLazy :: with a request and a format', () => {
  const request = HttpRequest.create({ url: '/x/?format=json', headers: { host: 'testserver' } });
  const conf: UrlConfModule = { urlpatterns: [path('item/<int:pk>.<str:format>', view, { name: 'item' })] };
  assert.is(String(reverseLazy('item', { urlconf: conf, kwargs: { pk: 1 }, format: 'api', request })), 'http://testserver/item/1.api?format=json');
});

test('reverse :: a request-like object without a host request gives a relative URL', () => {
  assert.is(reverse('ping', { request: { version: 'v1' } }), '/ping/');
  assert.is(preserveBuiltinQueryParams('/ping/', { version: null }), '/ping/');
  assert.is(preserveBuiltinQueryParams('/ping/', null), '/ping/');
});

test('reverse :: URL_FORMAT_OVERRIDE set to null keeps no format parameter', async () => {
  const request = HttpRequest.create({ url: '/?format=json', headers: { host: 'testserver' } });
  await overrideSettings({ API_FRAMEWORK: { URL_FORMAT_OVERRIDE: null } }, () => {
    assert.is(reverse('ping', { request }), 'http://testserver/ping/');
  });
  assert.is(reverse('ping', { request }), 'http://testserver/ping/?format=json');
});

test("reverse :: a versioning scheme's own errors are not taken for a missing URL", () => {
  const broken = new TypeError('scheme bug');
  const request = { versioningScheme: { reverse: (): string => { throw broken; } } };
  try {
    reverse('ping', { request });
    assert.unreachable();
  } catch (error) {
    assert.is(error, broken);
  }
  const missing = { versioningScheme: { reverse: (): string => { throw new NoReverseMatch('no versioned route'); } } };
  assert.is(reverse('ping', { request: missing }), '/ping/', 'NoReverseMatch falls back to the plain reverse');
});

test.run();
