import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings, ImproperlyConfigured } from '../../lib/core/conf';
import { HttpRequest, HttpResponse } from '../../lib/core/http';
import {
  path,
  rePath,
  include,
  reverse,
  resolve,
  getResolver,
  registerConverter,
  Resolver404,
  NoReverseMatch,
  type UrlConfModule,
} from '../../lib/core/urls';

const view = (name: string) => {
  const fn = () => new HttpResponse(name);
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
};

const userList = view('userList');
const userDetail = view('userDetail');
const snippetDetail = view('snippetDetail');
const articles = view('articles');
const byYear = view('byYear');
const files = view('files');
const tokenView = view('tokenView');
const deep = view('deep');

class HexConverter {
  regex = '[0-9a-f]+';
  toPython(value: string): unknown {
    return parseInt(value, 16);
  }
  toUrl(value: unknown): string {
    if (typeof value !== 'number') throw new Error('not a number');
    return value.toString(16);
  }
}
registerConverter(HexConverter, 'hex');

const quickstart: UrlConfModule = {
  appName: 'quickstart',
  urlpatterns: [path('users/', userList, { name: 'user-list' }), path('users/<int:pk>/', userDetail, { name: 'user-detail' })],
};

const conf: UrlConfModule = {
  urlpatterns: [
    path('snippets/<int:pk>/', snippetDetail, { name: 'snippet-detail' }),
    path('articles/<slug:slug>/', articles, { name: 'article' }),
    rePath('^archive/(?P<year>[0-9]{4})/$', byYear, { name: 'archive' }),
    rePath('^positional/([0-9]+)/([a-z]+)/$', byYear, { name: 'positional' }),
    path('files/<path:rest>', files, { name: 'files' }),
    path('tokens/<uuid:key>/', tokenView, { name: 'token' }),
    path('colors/<hex:value>/', view('color'), { name: 'color' }),
    path('defaults/', view('defaults'), { name: 'defaults', kwargs: { flag: true } }),
    path('quickstart/', include(quickstart)),
    path('qs2/', include(quickstart, { namespace: 'other' })),
    path('plain/', include([path('inner/', deep, { name: 'inner' })])),
    path('v<int:version>/', include([path('nested/', include([path('deep/', deep, { name: 'deep' })], { namespace: 'inner' }))], { namespace: 'outer' })),
    path('mixed/<str:a>/', include([path('<str:b>/', view('mixed'), { name: 'mixed' })])),
  ],
};

const urls = suite('urls');

urls('path :: int converter converts and rejects', () => {
  const match = resolve('/snippets/12/', conf);
  assert.is(match.func, snippetDetail);
  assert.equal(match.kwargs, { pk: 12 });
  assert.equal(match.args, []);
  assert.is(match.urlName, 'snippet-detail');
  assert.is(match.route, 'snippets/<int:pk>/');
  assert.throws(() => resolve('/snippets/abc/', conf), (e: unknown) => e instanceof Resolver404);
  assert.throws(() => resolve('/snippets/12', conf), (e: unknown) => e instanceof Resolver404);
});

urls('path :: slug, path, uuid and custom converters', () => {
  assert.equal(resolve('/articles/hello-world_2/', conf).kwargs, { slug: 'hello-world_2' });
  assert.throws(() => resolve('/articles/hello world/', conf));
  assert.equal(resolve('/files/a/b/c.txt', conf).kwargs, { rest: 'a/b/c.txt' });
  const key = '5f2b1c3e-8d4a-4b6f-9e1a-2c3d4e5f6a7b';
  assert.equal(resolve(`/tokens/${key}/`, conf).kwargs, { key });
  assert.throws(() => resolve('/tokens/not-a-uuid/', conf));
  assert.equal(resolve('/colors/ff/', conf).kwargs, { value: 255 });
  assert.is(reverse('color', { kwargs: { value: 255 }, urlconf: conf }), '/colors/ff/');
  assert.throws(() => reverse('color', { kwargs: { value: 'red' }, urlconf: conf }), (e: unknown) => e instanceof NoReverseMatch);
});

urls('path :: extra kwargs reach the view and reverse accepts them', () => {
  assert.equal(resolve('/defaults/', conf).kwargs, { flag: true });
  assert.is(reverse('defaults', { urlconf: conf }), '/defaults/');
  assert.is(reverse('defaults', { kwargs: { flag: true }, urlconf: conf }), '/defaults/');
  assert.throws(() => reverse('defaults', { kwargs: { flag: false }, urlconf: conf }));
});

urls('path :: invalid routes fail when declared', () => {
  assert.throws(
    () => path('x/<bogus:pk>/', userList),
    (e: unknown) => e instanceof ImproperlyConfigured && e.message === "URL route 'x/<bogus:pk>/' uses invalid converter 'bogus'.",
  );
  assert.throws(() => path('x/<int:1pk>/', userList), /isn't a valid Python identifier/);
});

urls('rePath :: named groups -> kwargs, unnamed groups -> args', () => {
  const named = resolve('/archive/2024/', conf);
  assert.equal(named.kwargs, { year: '2024' });
  assert.equal(named.args, []);
  const positional = resolve('/positional/7/abc/', conf);
  assert.equal(positional.kwargs, {});
  assert.equal(positional.args, ['7', 'abc']);
  assert.is(reverse('archive', { kwargs: { year: 1999 }, urlconf: conf }), '/archive/1999/');
  assert.is(reverse('positional', { args: [3, 'xy'], urlconf: conf }), '/positional/3/xy/');
  assert.throws(() => reverse('archive', { kwargs: { year: 99 }, urlconf: conf }), (e: unknown) => e instanceof NoReverseMatch);
});

urls('reverse :: by name, args or kwargs, and by view function', () => {
  assert.is(reverse('snippet-detail', { kwargs: { pk: 5 }, urlconf: conf }), '/snippets/5/');
  assert.is(reverse('snippet-detail', { args: [5], urlconf: conf }), '/snippets/5/');
  assert.is(reverse(snippetDetail, { args: [6], urlconf: conf }), '/snippets/6/');
  assert.is(reverse('files', { kwargs: { rest: 'a b/c' }, urlconf: conf }), '/files/a%20b/c');
  assert.is(reverse('mixed', { kwargs: { a: 'x', b: 'y' }, urlconf: conf }), '/mixed/x/y/');
});

urls('reverse :: error messages match the original', () => {
  assert.throws(
    () => reverse('nope', { urlconf: conf }),
    (e: unknown) => e instanceof NoReverseMatch && e.message === "Reverse for 'nope' not found. 'nope' is not a valid view function or pattern name.",
  );
  assert.throws(
    () => reverse('snippet-detail', { kwargs: { pk: 'x' }, urlconf: conf }),
    (e: unknown) =>
      e instanceof NoReverseMatch &&
      e.message === "Reverse for 'snippet-detail' with keyword arguments '{'pk': 'x'}' not found. 1 pattern(s) tried: ['snippets/(?P<pk>[0-9]+)/$']",
  );
  assert.throws(
    () => reverse('snippet-detail', { urlconf: conf }),
    (e: unknown) => e instanceof NoReverseMatch && /with no arguments not found/.test(e.message),
  );
  assert.throws(
    () => reverse('missing:thing', { urlconf: conf }),
    (e: unknown) => e instanceof NoReverseMatch && e.message === "'missing' is not a registered namespace",
  );
  assert.throws(
    () => reverse('outer:missing:thing', { urlconf: conf }),
    (e: unknown) => e instanceof NoReverseMatch && e.message === "'missing' is not a registered namespace inside 'outer'",
  );
  assert.throws(() => reverse('snippet-detail', { args: [1], kwargs: { pk: 1 }, urlconf: conf }), /Don't mix `args` and `kwargs` in call to reverse\(\)!/);
});

urls('include :: app namespace defaults the instance namespace', () => {
  const match = resolve('/quickstart/users/3/', conf);
  assert.is(match.func, userDetail);
  assert.equal(match.kwargs, { pk: 3 });
  assert.equal(match.appNames, ['quickstart']);
  assert.equal(match.namespaces, ['quickstart']);
  assert.is(match.namespace, 'quickstart');
  assert.is(match.viewName, 'quickstart:user-detail');
  assert.is(match.route, 'quickstart/users/<int:pk>/');
  assert.is(reverse('quickstart:user-list', { urlconf: conf }), '/quickstart/users/');
});

urls('include :: several instances of one app; currentApp and the request pick the instance', () => {
  const other = resolve('/qs2/users/', conf);
  assert.equal(other.appNames, ['quickstart']);
  assert.equal(other.namespaces, ['other']);
  assert.is(reverse('other:user-list', { urlconf: conf }), '/qs2/users/');
  // The app namespace resolves to its default instance (the one named like the app) ...
  assert.is(reverse('quickstart:user-list', { urlconf: conf }), '/quickstart/users/');
  // ... unless the current app says otherwise.
  assert.is(reverse('quickstart:user-list', { urlconf: conf, currentApp: 'other' }), '/qs2/users/');
  const request = HttpRequest.create({ url: '/qs2/users/', headers: { host: 'testserver' } });
  request.resolverMatch = other;
  assert.is(reverse('quickstart:user-detail', { kwargs: { pk: 1 }, urlconf: conf, request }), 'http://testserver/qs2/users/1/');
});

urls('include :: nested namespaces and converters in the prefix', () => {
  const match = resolve('/v2/nested/deep/', conf);
  assert.is(match.func, deep);
  assert.equal(match.kwargs, { version: 2 });
  assert.is(match.namespace, 'outer:inner');
  assert.is(match.viewName, 'outer:inner:deep');
  assert.is(reverse('outer:inner:deep', { kwargs: { version: 3 }, urlconf: conf }), '/v3/nested/deep/');
  assert.throws(() => reverse('outer:inner:deep', { urlconf: conf }), (e: unknown) => e instanceof NoReverseMatch);
});

urls('include :: without a namespace the names stay global', () => {
  assert.is(resolve('/plain/inner/', conf).func, deep);
  assert.is(resolve('/plain/inner/', conf).namespace, '');
  assert.is(reverse('inner', { urlconf: conf }), '/plain/inner/');
});

urls('resolve :: Resolver404 lists what was tried', () => {
  try {
    resolve('/nothing/here/', conf);
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, Resolver404);
    assert.ok((error as Resolver404).tried.length >= conf.urlpatterns.length);
    assert.is((error as Resolver404).path, '/nothing/here/');
  }
});

urls('getResolver :: cached per urlconf, reset when ROOT_URLCONF changes', () => {
  const first = getResolver('spec.urls');
  assert.is(getResolver('spec.urls'), first);
  overrideSettings({ ROOT_URLCONF: 'spec.core.fixtures.urls' }, () => {
    assert.is(resolve('/hello/').urlName, 'hello');
    assert.is(reverse('nested:deep'), '/nested/deep/');
  });
  assert.is.not(getResolver('spec.urls'), first);
  assert.is(resolve('/ping/').urlName, 'ping');
  assert.throws(() => resolve('/hello/'), (e: unknown) => e instanceof Resolver404);
});

urls('include :: a dotted module path', () => {
  const root: UrlConfModule = { urlpatterns: [path('fx/', include('spec.core.fixtures.urls', { namespace: 'fx' }))] };
  assert.is(resolve('/fx/items/9/', root).namespace, 'fx');
  assert.is(reverse('fx:item', { kwargs: { pk: 9 }, urlconf: root }), '/fx/items/9/');
});

urls.run();

const memo = suite('reverse memo');

memo('a reverse answered again is the same; the memo is forgotten on a setting change and clearUrlCaches()', async () => {
  const mod: UrlConfModule = { urlpatterns: [path('users/<int:pk>/', userDetail, { name: 'user-detail' })] };
  assert.is(reverse('user-detail', { kwargs: { pk: 3 }, urlconf: mod }), '/users/3/');
  assert.is(reverse('user-detail', { kwargs: { pk: 3 }, urlconf: mod }), '/users/3/');
  assert.is(reverse('user-detail', { args: [4], urlconf: mod }), '/users/4/');
  // '3' and 3 are different keys, both valid.
  assert.is(reverse('user-detail', { kwargs: { pk: '3' }, urlconf: mod }), '/users/3/');
  const { memoisedPath, reverseMemoKey } = await import('../../lib/core/urls/reverseMemo');
  const { clearUrlCaches } = await import('../../lib/core/urls/resolvers');
  const key = reverseMemoKey('user-detail', null, [], { pk: 3 }) as string;
  assert.is(memoisedPath(getResolver(mod), key), '/users/3/');
  await overrideSettings({ APPEND_SLASH: false }, () => undefined);
  assert.is(memoisedPath(getResolver(mod), key), undefined);
  assert.is(reverse('user-detail', { kwargs: { pk: 3 }, urlconf: mod }), '/users/3/');
  assert.is(memoisedPath(getResolver(mod), key), '/users/3/');
  clearUrlCaches();
  assert.is(memoisedPath(getResolver(mod), key), undefined);
});

memo('arguments whose text may change are not memoised; failures are not kept', () => {
  const mod: UrlConfModule = { urlpatterns: [path('files/<str:name>/', files, { name: 'file' })] };
  let text = 'one';
  const changing = { toString: () => text };
  assert.is(reverse('file', { kwargs: { name: changing }, urlconf: mod }), '/files/one/');
  text = 'two';
  assert.is(reverse('file', { kwargs: { name: changing }, urlconf: mod }), '/files/two/');
  assert.throws(() => reverse('file', { kwargs: { name: '' }, urlconf: mod }), (error: unknown) => error instanceof NoReverseMatch);
  assert.throws(() => reverse('file', { kwargs: { name: '' }, urlconf: mod }), (error: unknown) => error instanceof NoReverseMatch);
});

memo('the memo key tells apart names, apps and arguments that would join to the same text', async () => {
  const { reverseMemoKey } = await import('../../lib/core/urls/reverseMemo');
  const keys = [
    reverseMemoKey('a', null, ['b,c'], {}),
    reverseMemoKey('a', null, ['b', 'c'], {}),
    reverseMemoKey('a', null, [1], {}),
    reverseMemoKey('a', null, ['1'], {}),
    reverseMemoKey('a', 'ns', [1], {}),
    reverseMemoKey('a', null, [], { pk: 1 }),
    reverseMemoKey('a', null, [], { p: 'k=1' }),
    reverseMemoKey('a|', null, [], {}),
    reverseMemoKey('a', '|', [], {}),
    reverseMemoKey('a', null, [true], {}),
  ];
  assert.is(new Set(keys).size, keys.length);
  assert.is(reverseMemoKey('a', null, [{}], {}), null);
  assert.is(reverseMemoKey('a', null, [], { pk: null }), null);
});

memo.run();
