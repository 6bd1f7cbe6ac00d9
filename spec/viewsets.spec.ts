/**
 * View sets: `reverseAction()` (the URLs of the view set's own routes, namespaced like the
 * request) and `getExtraActionUrlMap()` (the extra actions of the same kind as the current
 * route, by view name, as the browsable API's "Extra Actions" menu shows them).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonOnlyApiSettings } from './helpers';
import { overrideSettings } from '../lib/core/conf';
import { include, path } from '../lib/core/urls';
import { APIClient, APIRequestFactory } from '../lib/test';
import { Response } from '../lib/response';
import type { Request } from '../lib/request';
import { ViewSet, defineAction } from '../lib/viewsets';
import { DefaultRouter, SimpleRouter } from '../lib/routers';

const test = suite('viewsets');

/** Every handler answers what the two helpers say for the current route. */
class ThingViewSet extends ViewSet {
  private report(extra: Record<string, unknown> = {}): Response {
    return new Response({ action: this.action, urls: Object.fromEntries(this.getExtraActionUrlMap()), ...extra });
  }

  list() {
    return this.report({ detailUrl: this.reverseAction('detail', { kwargs: { pk: 7 } }), recent: this.reverseAction('recent') });
  }

  retrieve() {
    return this.report({ self: this.reverseAction('detail', { args: [String(this.kwargs.pk)] }) });
  }

  recent() {
    return this.report();
  }

  rebuildIndex() {
    return this.report();
  }

  bump() {
    return this.report({ list: this.reverseAction('list') });
  }

  history() {
    return this.report();
  }

  missing(_request: Request) {
    return new Response({ url: this.reverseAction('no-such-route') });
  }
}
defineAction(ThingViewSet, 'recent', { detail: false });
defineAction(ThingViewSet, 'rebuildIndex', { detail: false, methods: ['post'], urlPath: 'rebuild', name: 'Rebuild the index' });
defineAction(ThingViewSet, 'bump', { detail: true, urlPath: 'bump-rank', urlName: 'bump', suffix: 'Bumper' });
// Needs a `year` the detail route does not have: left out of the map, never an error.
defineAction(ThingViewSet, 'history', { detail: true, urlPath: 'history/(?P<year>[0-9]{4})' });
defineAction(ThingViewSet, 'missing', { detail: false });

const plain = new SimpleRouter();
plain.register('things', ThingViewSet, { basename: 'thing' });
const namespaced = new DefaultRouter();
namespaced.register('things', ThingViewSet, { basename: 'thing' });

/** The URL conf of this suite (ROOT_URLCONF = 'spec/viewsets.spec'). */
export const urlpatterns = [path('', include(plain.urls)), path('v2/', include(namespaced.urls, { namespace: 'v2' }))];

let restore: () => void = () => undefined;
test.before(() => {
  restore = overrideSettings.enter({
    ROOT_URLCONF: 'spec/viewsets.spec',
    MIDDLEWARE: [],
    LOG_SERVER_ERRORS: false,
    API_FRAMEWORK: jsonOnlyApiSettings(),
  });
});
test.after(() => restore());

const client = new APIClient();

test('reverseAction :: absolute URLs of the view set routes, with args or kwargs', async () => {
  const list = await client.get('/things/');
  assert.is(list.status, 200);
  assert.is((list.data as Record<string, unknown>).detailUrl, 'http://testserver/things/7/');
  assert.is((list.data as Record<string, unknown>).recent, 'http://testserver/things/recent/');
  const detail = await client.get('/things/12/');
  assert.is((detail.data as Record<string, unknown>).self, 'http://testserver/things/12/');
  const bump = await client.get('/things/12/bump-rank/');
  assert.is((bump.data as Record<string, unknown>).list, 'http://testserver/things/');
});

test('reverseAction :: keeps the namespace of the current request', async () => {
  const list = await client.get('/v2/things/');
  assert.is((list.data as Record<string, unknown>).detailUrl, 'http://testserver/v2/things/7/');
  const bump = await client.get('/v2/things/3/bump-rank/');
  assert.is((bump.data as Record<string, unknown>).list, 'http://testserver/v2/things/');
});

test('reverseAction :: an unknown url name is an error (500), not a guessed URL', async () => {
  const response = await client.get('/things/missing/');
  assert.is(response.status, 500);
});

test('getExtraActionUrlMap :: list routes map the list-level actions by view name', async () => {
  const list = await client.get('/things/');
  assert.equal((list.data as Record<string, unknown>).urls, {
    'Recent': 'http://testserver/things/recent/',
    'Rebuild the index': 'http://testserver/things/rebuild/',
    'Missing': 'http://testserver/things/missing/',
  });
  // An extra action route is of the same kind: it lists its siblings, itself included.
  const recent = await client.get('/things/recent/');
  assert.equal(Object.keys((recent.data as { urls: object }).urls), ['Recent', 'Rebuild the index', 'Missing']);
});

test('getExtraActionUrlMap :: detail routes map the detail actions for this object; unreversible ones are left out', async () => {
  const detail = await client.get('/things/5/');
  assert.equal((detail.data as Record<string, unknown>).urls, { 'Thing Bumper': 'http://testserver/things/5/bump-rank/' });
  const namespacedDetail = await client.get('/v2/things/5/');
  assert.equal((namespacedDetail.data as Record<string, unknown>).urls, { 'Thing Bumper': 'http://testserver/v2/things/5/bump-rank/' });
  const history = await client.get('/things/5/history/2024/');
  assert.is(history.status, 200);
  // There the kwargs are {pk, year}: only the history route takes exactly those (as Django reverses).
  assert.equal((history.data as Record<string, unknown>).urls, { History: 'http://testserver/things/5/history/2024/' });
});

test('getExtraActionUrlMap :: empty outside a router (detail not given)', async () => {
  const view = ThingViewSet.asView({ get: 'list' }, { basename: 'thing' });
  const request = await new APIRequestFactory().get('/things/');
  const response = (await view(request, {})) as Response;
  assert.equal((response.data as Record<string, unknown>).urls, {});
});

test.run();
