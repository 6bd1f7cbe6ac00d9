/**
 * SPEC.md gaps not proven elsewhere (see spec/CONFORMANCE.md), through real requests:
 * Authentication note 5 (an attribute error inside a custom authenticator is wrapped),
 * Versioning 1 (off by default) and the custom scheme row (determineVersion + reverse override),
 * Limits (pagination automatic only for generic views; page-number, limit/offset and cursor
 * attributes: page_query_param, page_size_query_param off by default, last_page_strings,
 * django_paginator_class, template None, default_limit from PAGE_SIZE, cursor ordering -created).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { path } from '../../lib/core/urls';
import { APIClient, APIRequestFactory, type TestResponse } from '../../lib/test';
import { APIView } from '../../lib/views';
import { Response } from '../../lib/response';
import { Request, WrappedAttributeError } from '../../lib/request';
import { ListAPIView } from '../../lib/generics';
import { CursorPagination, LimitOffsetPagination, PageNumberPagination, Paginator } from '../../lib/pagination';
import { BaseVersioning } from '../../lib/versioning';
import { BaseAuthentication } from '../../lib/authentication';
import { reverse } from '../../lib/reverse';
import { ModelSerializer } from '../../lib/serializers';
import { GNote, GOwner } from '../models/generics/models';

const test = suite('conformance: pipeline');
useTestDatabase(test, { models: [GOwner, GNote] });

class NoteModelSerializer extends ModelSerializer {
  static Meta = { model: GNote, fields: ['id', 'title'] };
}

/** A custom authenticator with a bug: it reads a property of undefined. */
class BuggyAuthentication extends BaseAuthentication {
  override authenticate(request: Request): null {
    const missing = (request as unknown as { notThere?: { token: string } }).notThere;
    return (missing as { token: string }).token ? null : null;
  }
}

class BuggyAuthView extends APIView {
  override authenticationClasses = [BuggyAuthentication];
  get(request: Request) {
    return new Response({ user: String(request.user) });
  }
}

class VersionView extends APIView {
  get(request: Request) {
    return new Response({ version: request.version, link: reverse('version-view', { request }) });
  }
}

/** The spec's custom example: the version comes from an X-API-Version header. */
class XAPIVersionScheme extends BaseVersioning {
  override determineVersion(request: Request): string | null {
    return request.header('x-api-version') ?? this.getDefaultVersion();
  }
  override reverse(viewname: string, options: Parameters<BaseVersioning['reverse']>[1] = {}): string {
    const url = super.reverse(viewname, options);
    const request = options.request as { version?: string | null } | undefined;
    return `${url}#v=${String(request?.version ?? '')}`;
  }
}

class CustomVersionView extends VersionView {
  override versioningClass = XAPIVersionScheme;
}

/** A plain API view: the pagination settings never apply to it. */
class PlainList extends APIView {
  async get() {
    return new Response((await GNote.objects.orderBy('id').fetch()).map((note) => note.title));
  }
}

class Pages extends PageNumberPagination {
  override pageSize = 2;
}
class RenamedPages extends Pages {
  override pageQueryParam = 'p';
  override lastPageStrings = ['end'];
}
class SizedPages extends Pages {
  override pageSizeQueryParam = 'size';
}
let paginatorsBuilt = 0;
class CountingPaginator<T> extends Paginator<T> {
  constructor(...args: ConstructorParameters<typeof Paginator<T>>) {
    super(...args);
    paginatorsBuilt += 1;
  }
}
class CustomPaginatorPages extends Pages {
  override paginatorClass = CountingPaginator;
}
class NoControls extends Pages {
  override template = null;
}
class Cursor extends CursorPagination {
  override pageSize = 2;
}

const notes = (paginationClass: ListAPIView['paginationClass']) => ListAPIView.asView({ queryset: GNote.objects.orderBy('id'), serializerClass: NoteModelSerializer, paginationClass });

/** The URL conf of this suite (ROOT_URLCONF = 'spec/conformance/pipeline.spec'). */
export const urlpatterns = [
  path('buggy/', BuggyAuthView.asView()),
  path('version/', VersionView.asView(), { name: 'version-view' }),
  path('custom-version/', CustomVersionView.asView()),
  path('plain/', PlainList.asView()),
  path('notes/default/', ListAPIView.asView({ queryset: GNote.objects.orderBy('id'), serializerClass: NoteModelSerializer })),
  path('notes/pages/', notes(Pages)),
  path('notes/renamed/', notes(RenamedPages)),
  path('notes/sized/', notes(SizedPages)),
  path('notes/custom-paginator/', notes(CustomPaginatorPages)),
  path('notes/no-controls/', notes(NoControls)),
  path('notes/limit/', notes(LimitOffsetPagination)),
  path('notes/cursor/', notes(Cursor)),
];

let restore: () => void = () => undefined;
test.before(async () => {
  restore = overrideSettings.enter({
    ROOT_URLCONF: 'spec/conformance/pipeline.spec',
    API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [] },
  });
  const base = Date.now() - 3600_000;
  for (let i = 1; i <= 5; i += 1) {
    const note = await GNote.objects.create({ title: `n${i}`, rank: i });
    await GNote.objects.filter({ id: note.id }).update({ created: new Date(base + i * 1000) });
  }
});
test.after(() => restore());

const client = new APIClient();
const body = (response: TestResponse): any => response.json();
const api = (values: Record<string, unknown>) => ({
  API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [], ...values },
});

// -- Authentication note 5 --------------------------------------------------------------------------

test('custom authenticator :: an attribute error inside it is re-raised wrapped (500 over HTTP)', async () => {
  const request = await new APIRequestFactory().get('/buggy/');
  try {
    await BuggyAuthView.asView()(request, {});
    assert.unreachable('should raise');
  } catch (error) {
    assert.instance(error, WrappedAttributeError);
    assert.not.instance(error, TypeError);
    assert.match((error as Error).message, /token/);
  }
  const response = await client.get('/buggy/');
  assert.is(response.status, 500);
  assert.match(response.text, 'Server Error (500)');
});

// -- Versioning ------------------------------------------------------------------------------------

test('versioning 1 :: off by default: request.version is None whatever the request carries', async () => {
  const response = await client.get('/version/?version=2', { headers: { Accept: 'application/json; version=3', 'X-API-Version': '4' } });
  assert.is(response.status, 200);
  assert.equal(body(response), { version: null, link: 'http://testserver/version/' });
  await overrideSettings(api({ DEFAULT_VERSION: '1.0' }), async () => {
    assert.is(body(await client.get('/version/?version=2')).version, null, 'DEFAULT_VERSION alone does not switch versioning on');
  });
});

test('versioning :: DEFAULT_VERSIONING_CLASS turns it on for every view; ALLOWED_VERSIONS rejects others', async () => {
  await overrideSettings(api({ DEFAULT_VERSIONING_CLASS: 'api_framework.versioning.QueryParameterVersioning', ALLOWED_VERSIONS: ['1', '2'], DEFAULT_VERSION: '1' }), async () => {
    assert.equal(body(await client.get('/version/?version=2')), { version: '2', link: 'http://testserver/version/?version=2' });
    assert.is(body(await client.get('/version/')).version, '1');
    const refused = await client.get('/version/?version=3');
    assert.is(refused.status, 404);
    assert.equal(body(refused), { detail: 'Invalid version in query parameter.' });
  });
});

test('versioning custom :: determineVersion reads a header; a reverse() override alters generated URLs', async () => {
  const response = await client.get('/custom-version/', { headers: { 'X-API-Version': '2.1' } });
  assert.equal(body(response), { version: '2.1', link: 'http://testserver/version/#v=2.1' });
  await overrideSettings(api({ DEFAULT_VERSION: '1.0' }), async () => {
    assert.equal(body(await client.get('/custom-version/')), { version: '1.0', link: 'http://testserver/version/#v=1.0' });
  });
});

// -- Limits: automatic pagination --------------------------------------------------------------------

test('limits :: pagination is automatic for generic views only; a plain API view is never paginated', async () => {
  await overrideSettings(api({ DEFAULT_PAGINATION_CLASS: 'api_framework.pagination.PageNumberPagination', PAGE_SIZE: 2 }), async () => {
    assert.equal(body(await client.get('/plain/')), ['n1', 'n2', 'n3', 'n4', 'n5']);
    const page = body(await client.get('/notes/default/'));
    assert.is(page.count, 5);
    assert.is(page.results.length, 2);
  });
  // A pagination class of None on the view turns pagination off.
  await overrideSettings(api({ DEFAULT_PAGINATION_CLASS: 'api_framework.pagination.PageNumberPagination', PAGE_SIZE: 2 }), async () => {
    const view = ListAPIView.asView({ queryset: GNote.objects.orderBy('id'), serializerClass: NoteModelSerializer, paginationClass: null });
    const response = await view(await new APIRequestFactory().get('/'), {});
    assert.ok(Array.isArray((response as Response).data));
  });
});

// -- Page-number style -------------------------------------------------------------------------------

test('page number :: page_query_param and last_page_strings are configurable', async () => {
  const last = body(await client.get('/notes/renamed/?p=end'));
  assert.equal(last.results.map((n: { title: string }) => n.title), ['n5']);
  assert.is(last.previous, 'http://testserver/notes/renamed/?p=2');
  assert.is(body(await client.get('/notes/renamed/?p=2')).next, 'http://testserver/notes/renamed/?p=3');
  // The default parameter name no longer counts.
  assert.equal(body(await client.get('/notes/renamed/?page=3')).results.map((n: { title: string }) => n.title), ['n1', 'n2']);
  assert.is((await client.get('/notes/renamed/?p=last')).status, 404, '"last" is not a last-page string here');
  assert.equal(body(await client.get('/notes/pages/?page=last')).results.map((n: { title: string }) => n.title), ['n5']);
});

test('page number :: page_size_query_param is None by default (the client cannot set the size)', async () => {
  assert.is(body(await client.get('/notes/pages/?page_size=4&size=4')).results.length, 2);
  assert.is(body(await client.get('/notes/sized/?size=4')).results.length, 4);
});

test('page number :: PAGE_SIZE is the default page size; page_size overrides it', async () => {
  await overrideSettings(api({ PAGE_SIZE: 3 }), async () => {
    const view = notes(PageNumberPagination);
    const response = (await view(await new APIRequestFactory().get('/x/'), {})) as Response;
    assert.is((response.data as { results: unknown[] }).results.length, 3);
    assert.is(body(await client.get('/notes/pages/')).results.length, 2);
  });
});

test('page number :: django_paginator_class is the paginator used', async () => {
  paginatorsBuilt = 0;
  assert.is((await client.get('/notes/custom-paginator/?page=2')).status, 200);
  assert.is(paginatorsBuilt, 1);
  assert.is(new PageNumberPagination().paginatorClass, Paginator);
});

test('page number / limit offset / cursor :: template None disables the HTML controls', async () => {
  const factory = new APIRequestFactory();
  const request = new Request(await factory.get('/notes/'));
  const shown = new Pages();
  await shown.paginateQueryset(GNote.objects.orderBy('id'), request);
  assert.ok(shown.displayPageControls);
  assert.match(shown.toHtml(), 'pagination');
  const hidden = new NoControls();
  await hidden.paginateQueryset(GNote.objects.orderBy('id'), request);
  assert.not.ok(hidden.displayPageControls);
  const limit = new (class extends LimitOffsetPagination { override defaultLimit = 2; override template = null; })();
  await limit.paginateQueryset(GNote.objects.orderBy('id'), request);
  assert.not.ok(limit.displayPageControls);
  const cursor = new (class extends Cursor { override template = null; })();
  await cursor.paginateQueryset(GNote.objects.all(), request);
  assert.not.ok(cursor.displayPageControls);
  const cursorShown = new Cursor();
  await cursorShown.paginateQueryset(GNote.objects.all(), request);
  assert.ok(cursorShown.displayPageControls);
});

// -- Limit/offset style ------------------------------------------------------------------------------

test('limit offset :: default_limit defaults to PAGE_SIZE, so the limit parameter is optional', async () => {
  assert.ok(Array.isArray(body(await client.get('/notes/limit/'))), 'no PAGE_SIZE, no limit: not paginated');
  await overrideSettings(api({ PAGE_SIZE: 2 }), async () => {
    const page = body(await client.get('/notes/limit/'));
    assert.is(page.count, 5);
    assert.equal(page.results.map((n: { title: string }) => n.title), ['n1', 'n2']);
    assert.is(page.next, 'http://testserver/notes/limit/?limit=2&offset=2');
    assert.equal(body(await client.get('/notes/limit/?limit=1&offset=3')).results.map((n: { title: string }) => n.title), ['n4']);
  });
  assert.is(new LimitOffsetPagination().maxLimit, null);
  assert.is(new LimitOffsetPagination().limitQueryParam, 'limit');
  assert.is(new LimitOffsetPagination().offsetQueryParam, 'offset');
});

// -- Cursor style ------------------------------------------------------------------------------------

test('cursor :: default ordering -created (newest first), page_size from PAGE_SIZE, opaque cursor parameter', async () => {
  assert.is(new CursorPagination().ordering, '-created');
  assert.is(new CursorPagination().cursorQueryParam, 'cursor');
  const first = body(await client.get('/notes/cursor/'));
  assert.equal(first.results.map((n: { title: string }) => n.title), ['n5', 'n4']);
  assert.is(first.previous, null);
  assert.match(first.next, /^http:\/\/testserver\/notes\/cursor\/\?cursor=[A-Za-z0-9%]+$/);
  assert.not.ok('count' in first, 'no count in the cursor envelope');
  await overrideSettings(api({ PAGE_SIZE: 3 }), async () => {
    const view = notes(CursorPagination);
    const response = (await view(await new APIRequestFactory().get('/x/'), {})) as Response;
    assert.is((response.data as { results: unknown[] }).results.length, 3);
  });
});

test.run();
