import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpResponse } from '../lib/core/http';
import { include, path, rePath, resolve, reverse, Resolver404, type UrlPattern } from '../lib/core/urls';
import { formatSuffixPatterns } from '../lib/urlpatterns';

const test = suite('formatSuffixPatterns');

const view = () => new HttpResponse('ok');
const other = () => new HttpResponse('other');

function conf(urlpatterns: UrlPattern[]) {
  return { urlpatterns };
}

test('path routes :: plain and suffixed routes both resolve', () => {
  const urls = conf(formatSuffixPatterns([path('snippets/', view, { name: 'snippet-list' }), path('snippets/<int:pk>/', other, { name: 'snippet-detail' })]));
  assert.equal(resolve('/snippets/', urls).kwargs, {});
  assert.equal(resolve('/snippets.json', urls).kwargs, { format: 'json' });
  assert.equal(resolve('/snippets.api/', urls).kwargs, { format: 'api' });
  const detail = resolve('/snippets/4.json', urls);
  assert.is(detail.func, other);
  assert.equal(detail.kwargs, { pk: 4, format: 'json' });
  assert.is(detail.urlName, 'snippet-detail');
});

test('path routes :: uppercase or empty suffix is not a format', () => {
  const urls = conf(formatSuffixPatterns([path('snippets/', view)]));
  assert.throws(() => resolve('/snippets.JSON', urls), (e: unknown) => e instanceof Resolver404);
  assert.throws(() => resolve('/snippets.', urls), (e: unknown) => e instanceof Resolver404);
});

test('path routes :: reverse with a format gives the suffix', () => {
  const urls = conf(formatSuffixPatterns([path('snippets/<int:pk>/', view, { name: 'snippet-detail' })]));
  assert.is(reverse('snippet-detail', { kwargs: { pk: 3 }, urlconf: urls }), '/snippets/3/');
  assert.is(reverse('snippet-detail', { kwargs: { pk: 3, format: 'json' }, urlconf: urls }), '/snippets/3.json/');
});

test('regex routes :: suffix variant added after stripping $ and /', () => {
  const urls = conf(formatSuffixPatterns([rePath('^users/(?P<pk>[0-9]+)/$', view, { name: 'user-detail' })]));
  assert.equal(resolve('/users/7/', urls).kwargs, { pk: '7' });
  assert.equal(resolve('/users/7.json', urls).kwargs, { pk: '7', format: 'json' });
  assert.equal(resolve('/users/7.json/', urls).kwargs, { pk: '7', format: 'json' });
  assert.is(reverse('user-detail', { kwargs: { pk: 7, format: 'api' }, urlconf: urls }), '/users/7.api');
});

test('allowed :: only the listed formats match', () => {
  const urls = conf(formatSuffixPatterns([path('a/', view), rePath('^b/$', other)], { allowed: ['json', 'html'] }));
  assert.equal(resolve('/a.json', urls).kwargs, { format: 'json' });
  assert.equal(resolve('/a.html/', urls).kwargs, { format: 'html' });
  assert.throws(() => resolve('/a.xml', urls), (e: unknown) => e instanceof Resolver404);
  assert.equal(resolve('/b.html', urls).kwargs, { format: 'html' });
  assert.throws(() => resolve('/b.api', urls), (e: unknown) => e instanceof Resolver404);
});

test('allowed :: a single allowed format', () => {
  const urls = conf(formatSuffixPatterns([path('a/', view)], { allowed: ['json'] }));
  assert.equal(resolve('/a.json', urls).kwargs, { format: 'json' });
  assert.throws(() => resolve('/a.api', urls), (e: unknown) => e instanceof Resolver404);
});

test('suffixRequired :: the plain route is dropped', () => {
  const urls = conf(formatSuffixPatterns([path('a/', view)], { suffixRequired: true }));
  assert.equal(resolve('/a.json', urls).kwargs, { format: 'json' });
  assert.throws(() => resolve('/a/', urls), (e: unknown) => e instanceof Resolver404);
});

test('include :: suffixes are added inside includes, namespaces kept', () => {
  const inner = [path('items/', view, { name: 'item-list' })];
  const urls = conf(
    formatSuffixPatterns([path('api/', include(inner, { namespace: 'v1' })), rePath('^old/', include([rePath('^x/$', other, { name: 'x' })]))]),
  );
  const match = resolve('/api/items.json', urls);
  assert.is(match.func, view);
  assert.equal(match.kwargs, { format: 'json' });
  assert.is(match.namespace, 'v1');
  assert.is(resolve('/api/items/', urls).namespace, 'v1');
  assert.is(reverse('v1:item-list', { kwargs: { format: 'json' }, urlconf: urls }), '/api/items.json/');
  assert.equal(resolve('/old/x.json', urls).kwargs, { format: 'json' });
});

test('extra kwargs :: default kwargs of a route are kept on its twin', () => {
  const urls = conf(formatSuffixPatterns([path('a/', view, { kwargs: { flag: true } })]));
  assert.equal(resolve('/a.json', urls).kwargs, { format: 'json', flag: true });
});

test.run();
