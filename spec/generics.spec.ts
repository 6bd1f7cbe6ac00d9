import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonOnlyApiSettings, useSettings } from './helpers';
import { useTestDatabase } from '../lib/core/db/testing';
import { overrideSettings } from '../lib/core/conf';
import { include, path, resolve } from '../lib/core/urls';
import { APIRequestFactory } from '../lib/test';
import type { Response } from '../lib/response';
import { Response as APIResponse } from '../lib/response';
import {
  CreateAPIView, DestroyAPIView, GenericAPIView, ListAPIView, ListCreateAPIView, RetrieveAPIView,
  RetrieveDestroyAPIView, RetrieveUpdateAPIView, RetrieveUpdateDestroyAPIView, UpdateAPIView,
} from '../lib/generics';
import { ModelViewSet, ReadOnlyModelViewSet, ViewSet, action, actionMapping, defineAction } from '../lib/viewsets';
import { DefaultRouter, SimpleRouter } from '../lib/routers';
import { OrderingFilter, SearchFilter } from '../lib/filters';
import { PageNumberPagination } from '../lib/pagination';
import { GNote, GOwner, NoteSerializer } from './models/generics/models';

const factory = new APIRequestFactory();
const test = suite('generics');
useTestDatabase(test, { models: [GOwner, GNote] });
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings() }));
test.before.each(async () => {
  await GNote.objects.all().delete();
  for (let i = 1; i <= 3; i += 1) await GNote.objects.create({ title: `n${i}`, rank: i });
});

const base = { queryset: GNote.objects.all(), serializerClass: NoteSerializer };
async function call(view: (...a: any[]) => any, method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, kwargs: Record<string, unknown> = {}, data?: unknown): Promise<Response> {
  const request = await (factory as any)[method](url, data === undefined ? {} : { data, format: 'json' });
  return view(request, kwargs);
}
const first = async () => (await GNote.objects.orderBy('id').first())!.id;

test('concrete :: list, create (201 + Location), retrieve, update, patch, destroy', async () => {
  class L extends ListCreateAPIView {}
  const list = await call(L.asView(base), 'get', '/notes/');
  assert.is(list.status, 200);
  assert.equal((list.data as any[]).map((n) => n.title), ['n1', 'n2', 'n3']);
  NoteSerializer.withUrl = true;
  const created = await call(CreateAPIView.asView(base), 'post', '/notes/', {}, { title: 'new' });
  NoteSerializer.withUrl = false;
  assert.is(created.status, 201);
  assert.match(String(created.getHeader('Location')), /^http:\/\/testserver\/notes\/\d+\/$/);
  const invalid = await call(CreateAPIView.asView(base), 'post', '/notes/', {}, { rank: 2 });
  assert.is(invalid.status, 400);
  const pk = await first();
  assert.is((await call(RetrieveAPIView.asView(base), 'get', `/notes/${pk}/`, { pk: String(pk) })).data && true, true);
  const put = await call(UpdateAPIView.asView(base), 'put', `/notes/${pk}/`, { pk: String(pk) }, { title: 'put', rank: 9 });
  assert.equal(put.data, { id: pk, title: 'put', rank: 9 });
  const patch = await call(RetrieveUpdateAPIView.asView(base), 'patch', `/notes/${pk}/`, { pk: String(pk) }, { rank: 5 });
  assert.equal(patch.data, { id: pk, title: 'put', rank: 5 });
  const badPut = await call(RetrieveUpdateDestroyAPIView.asView(base), 'put', `/notes/${pk}/`, { pk: String(pk) }, { rank: 5 });
  assert.is(badPut.status, 400);
  assert.is((await call(DestroyAPIView.asView(base), 'delete', `/notes/${pk}/`, { pk: String(pk) })).status, 204);
  assert.is(await GNote.objects.filter({ id: pk }).count(), 0);
  const gone = await call(RetrieveDestroyAPIView.asView(base), 'get', `/notes/${pk}/`, { pk: String(pk) });
  assert.is(gone.status, 404);
  assert.equal(JSON.parse(JSON.stringify(gone.data)), { detail: 'Not found.' });
  assert.is((await call(UpdateAPIView.asView(base), 'put', '/notes/999/', { pk: '999' }, { title: 'x' })).status, 404);
  assert.is((await call(RetrieveAPIView.asView(base), 'get', '/notes/abc/', { pk: 'abc' })).status, 404);
  assert.is((await call(ListAPIView.asView(base), 'post', '/notes/')).status, 405);
});

test('generic :: queryset assertion, pagination, per-request queryset', async () => {
  class NoQs extends ListAPIView {}
  try {
    await call(NoQs.asView({ serializerClass: NoteSerializer }), 'get', '/');
    assert.unreachable('no queryset accepted');
  } catch (error) {
    assert.is((error as Error).message, "'NoQs' should either include a `queryset` attribute, or override the `getQueryset()` method.");
  }
  class Paged extends PageNumberPagination { override pageSize = 2; }
  const res = await call(ListAPIView.asView({ ...base, paginationClass: Paged }), 'get', '/notes/?page=2');
  assert.equal(res.data, { count: 3, next: null, previous: 'http://testserver/notes/', results: [{ id: (await first()) + 2, title: 'n3', rank: 3 }] });
  const view = new GenericAPIView();
  view.paginationClass = Paged;
  assert.is(view.paginator, view.paginator);
  const list = ListAPIView.asView(base);
  await GNote.objects.create({ title: 'later' });
  assert.is(((await call(list, 'get', '/')).data as unknown[]).length, 4);
});

class NoteViewSet extends ModelViewSet<GNote> {
  override queryset = GNote.objects.all();
  override serializerClass = NoteSerializer;

  @action({ detail: true, methods: ['post'], urlPath: 'bump-rank' })
  async bump(_request: unknown) {
    const note = await this.getObject();
    note.rank += 1;
    await note.save();
    return new APIResponse({ rank: note.rank, action: this.action });
  }

  @actionMapping('bump', 'delete')
  async unbump() {
    return new APIResponse({ action: this.action }, { status: 202 });
  }

  async recent() {
    return new APIResponse({ detail: this.detail, url: this.reverseAction('recent') });
  }
}
defineAction(NoteViewSet, 'recent', { detail: false });

test('viewsets :: asView checks and action binding', async () => {
  assert.throws(() => NoteViewSet.asView(), /The `actions` argument must be provided/);
  // @ts-expect-error a handler method name is no initkwarg (and fails at run time too)
  assert.throws(() => NoteViewSet.asView({ get: 'list' }, { get: 1 }), /You tried to pass in the get method name/);
  // @ts-expect-error an unknown attribute is no initkwarg (and fails at run time too)
  assert.throws(() => NoteViewSet.asView({ get: 'list' }, { nope: 1 }), /NoteViewSet\.asView\(\) received an invalid option 'nope'/);
  const res = await call(ReadOnlyModelViewSet.asView({ get: 'list' }, base), 'get', '/');
  assert.is((res.data as unknown[]).length, 3);
  // Names every object has are no attributes of the view set (as for plain views).
  // @ts-expect-error `toString` is no view attribute
  assert.throws(() => NoteViewSet.asView({ get: 'list' }, { toString: () => 'x' }), /NoteViewSet\.asView\(\) received an invalid option 'toString'/);
  // The attributes views declare without a value are initkwargs too.
  assert.type(NoteViewSet.asView({ get: 'list' }, { lookupValueRegex: '[0-9]+', searchFields: ['title'], throttleScope: 'notes' }), 'function');
});

test('generic :: the filter attributes declared on GenericAPIView are initkwargs, read by the backends', async () => {
  const ordered = ListAPIView.asView({ ...base, filterBackends: [OrderingFilter], orderingFields: ['rank'], ordering: '-rank' });
  assert.equal(((await call(ordered, 'get', '/notes/')).data as Array<{ rank: number }>).map((note) => note.rank), [3, 2, 1]);
  assert.equal(((await call(ordered, 'get', '/notes/?ordering=rank')).data as Array<{ rank: number }>).map((note) => note.rank), [1, 2, 3]);
  const searched = ListAPIView.asView({ ...base, filterBackends: [SearchFilter], searchFields: ['title'] });
  assert.equal(((await call(searched, 'get', '/notes/?search=n2')).data as Array<{ title: string }>).map((note) => note.title), ['n2']);
  const view = new ListAPIView();
  assert.is(view.searchFields, undefined);
  assert.is(Object.keys(view).includes('searchFields'), false, 'a declared attribute is no own property of the instance');
});

test('routers :: routes, names, extra actions, trailing slash off, basename errors', async () => {
  const router = new SimpleRouter({ trailingSlash: false });
  router.register('notes', NoteViewSet);
  const names = router.urls.map((u: any) => [u.route, u.name]);
  assert.equal(names, [
    ['^notes$', 'gnote-list'],
    ['^notes/recent$', 'gnote-recent'],
    ['^notes/(?P<pk>[^/.]+)$', 'gnote-detail'],
    ['^notes/(?P<pk>[^/.]+)/bump-rank$', 'gnote-bump'],
  ]);
  assert.throws(() => router.register('again', NoteViewSet), /Router with basename "gnote" is already registered/);
  class Bare extends ViewSet { async list() { return new APIResponse([]); } }
  assert.throws(() => router.register('bare', Bare), /`basename` argument not specified/);
});

test('routers :: DefaultRouter root view, namespaces, format suffixes, action mapping', async () => {
  const router = new DefaultRouter();
  router.register('notes', NoteViewSet);
  const urlconf = { urlpatterns: [path('api/', include(router.urls, { namespace: 'v' }))] };
  const dispatch = async (method: 'get' | 'post' | 'delete', url: string) => {
    const match = resolve(url, urlconf);
    const request = await (factory as any)[method](url);
    request.resolverMatch = match;
    return overrideSettings({ ROOT_URLCONF: urlconf as any }, () => match.func(request, match.kwargs, ...match.args)) as Promise<Response>;
  };
  const restore = overrideSettings.enter({});
  try {
    const { clearUrlCaches } = await import('../lib/core/urls');
    clearUrlCaches();
    const root = resolve('/api/', urlconf);
    assert.is(root.urlName, 'api-root');
    assert.is(resolve('/api/notes.json', urlconf).kwargs.format, 'json');
    assert.is(resolve('/api/notes/1/bump-rank/', urlconf).urlName, 'gnote-bump');
    const rootRes = await dispatch('get', '/api/');
    assert.equal(rootRes.data, { notes: 'http://testserver/api/notes/' });
    const pk = await first();
    const bumped = await dispatch('post', `/api/notes/${pk}/bump-rank/`);
    assert.equal(bumped.data, { rank: 2, action: 'bump' });
    const unbumped = await dispatch('delete', `/api/notes/${pk}/bump-rank/`);
    assert.is(unbumped.status, 202);
    assert.equal(unbumped.data, { action: 'unbump' });
  } finally {
    restore();
  }
  void dispatch;
});

test.run();
