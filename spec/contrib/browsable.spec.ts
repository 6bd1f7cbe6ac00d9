/**
 * The browsable API without a browser: the page the renderer builds (escaped body, headers,
 * breadcrumbs, description, format switcher, pagination), forms present or absent by
 * permission, the login/logout views (CSRF, `next` restricted to this site) and the static
 * assets (content types, ETag, traversal refused).
 */
import 'reflect-metadata';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BelongsTo, Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import { User } from '../../contrib/auth/models';
import { getBreadcrumbs } from '../../contrib/browsable/breadcrumbs';
import { isSafeRedirect } from '../../contrib/browsable/redirects';
import { BrowsableAPIRenderer } from '../../contrib/browsable/renderers';
import { staticfilesUrlpatterns } from '../../contrib/browsable/staticfiles';
import * as browsableUrls from '../../contrib/browsable/urls';
import { overrideSettings } from '../../lib/core/conf';
import { BaseModel, field, relation, type Manager, type ModelMeta } from '../../lib/core/db';
import { useTestDatabase } from '../../lib/core/db/testing';
import { HttpRequest } from '../../lib/core/http';
import { clearUrlCaches, include, path } from '../../lib/core/urls';
import { ListCreateAPIView, RetrieveUpdateDestroyAPIView } from '../../lib/generics';
import { PageNumberPagination } from '../../lib/pagination';
import { BasePermission, IsAuthenticatedOrReadOnly, SAFE_METHODS } from '../../lib/permissions';
import { JSONRenderer } from '../../lib/renderers';
import type { Request } from '../../lib/request';
import { Response } from '../../lib/response';
import { ValidationError } from '../../lib/exceptions';
import { ModelSerializer } from '../../lib/serializers';
import { ReadOnlyField } from '../../lib/fields';
import { apiSettings } from '../../lib/settings';
import { APIClient, type TestResponse } from '../../lib/test';
import { APIView } from '../../lib/views';
import { ModelViewSet, action } from '../../lib/viewsets';
import { SimpleRouter } from '../../lib/routers';
import { QueryParameterVersioning } from '../../lib/versioning';

// -- fixtures ----------------------------------------------------------------------------------

@Table({ tableName: 'browsable_note' })
export class BrowsableNote extends BaseModel {
  declare static objects: Manager<BrowsableNote>;
  static override meta: ModelMeta = { appLabel: 'browsable', ordering: ['id'] };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @Column(field({ type: DataType.STRING(100), helpText: 'A short title.' }))
  declare title: string;

  @Column(field({ type: DataType.TEXT, blank: true, default: '' }))
  declare code: string;

  @Column(field({ type: DataType.STRING(20), default: 'python', choices: [['python', 'Python'], ['js', 'JavaScript']] }))
  declare language: string;

  @Column(field({ type: DataType.BOOLEAN, default: false }))
  declare linenos: boolean;

  @ForeignKey(() => User)
  @Column(field({ type: DataType.INTEGER, allowNull: true }))
  declare owner_id: number | null;

  @BelongsTo(() => User, relation({ foreignKey: 'owner_id', relatedName: '+', onDelete: 'CASCADE' }))
  declare owner?: User | null;
}

class NoteSerializer extends ModelSerializer {
  static Meta = { model: BrowsableNote, fields: ['id', 'title', 'code', 'language', 'linenos', 'owner'] };
  static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) };
}

class IsOwnerOrReadOnly extends BasePermission {
  override hasObjectPermission(request: Request, _view: unknown, obj: unknown): boolean {
    if (SAFE_METHODS.includes(request.method)) return true;
    return (obj as BrowsableNote).owner_id === (request.user as User).id;
  }
}

class NoteList extends ListCreateAPIView {
  static override description = 'All the **notes**.\n\n<script>alert("description")</script>';
  override queryset = BrowsableNote.objects.all();
  override serializerClass = NoteSerializer;
  override permissionClasses = [IsAuthenticatedOrReadOnly];
  override paginationClass = null;

  override async performCreate(serializer: NoteSerializer): Promise<void> {
    await serializer.save({ owner_id: (this.request.user as User).id });
  }
}

// Counts how often a title is validated: a failed POST must be validated once, the page
// reusing the view's serializer rather than validating the submitted data again.
let titleValidations = 0;

class CountedNoteSerializer extends NoteSerializer {
  validateTitle(value: string): string {
    titleValidations += 1;
    if (value === 'taken') throw new ValidationError('This title is taken.');
    return value;
  }
}

class CountedNotes extends NoteList {
  override serializerClass = CountedNoteSerializer;
}

class NoteDetail extends RetrieveUpdateDestroyAPIView {
  override queryset = BrowsableNote.objects.all();
  override serializerClass = NoteSerializer;
  override permissionClasses = [IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly];
}

class OnePerPage extends PageNumberPagination {
  override pageSize = 1;
}

class PagedNotes extends ListCreateAPIView {
  override queryset = BrowsableNote.objects.all();
  override serializerClass = NoteSerializer;
  override paginationClass = OnePerPage;
}

class Root extends APIView {
  override name = 'Api Root';
  async get(): Promise<Response> {
    return new Response({ notes: 'http://testserver/notes/' });
  }
}

class StrictVersioning extends QueryParameterVersioning {
  override allowedVersions = ['1'];
}

class Versioned extends APIView {
  override versioningClass = StrictVersioning;
  async get(request: Request): Promise<Response> {
    return new Response({ version: request.version });
  }
}

class NoteViewSet extends ModelViewSet {
  override queryset = BrowsableNote.objects.all();
  override serializerClass = NoteSerializer;

  @action({ detail: true })
  async preview(): Promise<Response> {
    return new Response({ preview: true });
  }
}

const noteRouter = new SimpleRouter();
noteRouter.register('vs-notes', NoteViewSet, { basename: 'vs-note' });

export const urlpatterns = [
  ...noteRouter.urls,
  path('versioned/', Versioned.asView()),
  path('', Root.asView()),
  path('notes/', NoteList.asView(), { name: 'note-list' }),
  path('notes/<int:pk>/', NoteDetail.asView(), { name: 'note-detail' }),
  path('counted-notes/', CountedNotes.asView()),
  path('paged/', PagedNotes.asView()),
  path('api-auth/', include(browsableUrls)),
  ...staticfilesUrlpatterns(),
];

const test = suite('contrib.browsable');
useTestDatabase(test, { models: [BrowsableNote] });

let restore: (() => void) | null = null;
let alice: User;
let bob: User;
let alicesNote: BrowsableNote;
let bobsNote: BrowsableNote;
const HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>';

test.before(async () => {
  restore = overrideSettings.enter({
    ROOT_URLCONF: 'spec/contrib/browsable.spec',
    API_FRAMEWORK: { DEFAULT_AUTHENTICATION_CLASSES: ['api_framework.authentication.SessionAuthentication'] },
  });
  apiSettings.reload();
  clearUrlCaches();
  alice = await User.objects.createUser('alice', 'alice@example.com', 'alice-password');
  bob = await User.objects.createUser('bob', 'bob@example.com', 'bob-password');
  alicesNote = await BrowsableNote.objects.create({ title: 'first', code: HOSTILE, owner_id: alice.id });
  bobsNote = await BrowsableNote.objects.create({ title: 'second', code: 'print(1)', owner_id: bob.id });
});

test.after(() => {
  restore?.();
  apiSettings.reload();
  clearUrlCaches();
});

const HTML = { headers: { Accept: 'text/html' } };

function csrfFrom(page: TestResponse): string {
  const match = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page.text);
  assert.ok(match, 'the page has a CSRF token field');
  return match[1];
}

async function loggedIn(user: User, enforceCsrfChecks = false): Promise<APIClient> {
  const client = new APIClient({ enforceCsrfChecks });
  await client.forceLogin(user);
  return client;
}

// -- the page ----------------------------------------------------------------------------------

test('page :: text/html answers a complete page with name, request line, status and headers', async () => {
  const response = await new APIClient().get('/notes/', HTML);
  assert.is(response.status, 200);
  assert.match(response.header('Content-Type') ?? '', /^text\/html; charset=utf-8/);
  const html = response.text;
  assert.match(html, /^<!DOCTYPE html>/);
  assert.match(html, /<h1>Note List<\/h1>/);
  assert.match(html, /<b>GET<\/b> \/notes\//);
  assert.match(html, /HTTP 200 OK/);
  assert.match(html, /<b>Allow:<\/b> <span class="lit">GET, POST, HEAD, OPTIONS<\/span>/);
  assert.match(html, /<b>Content-Type:<\/b> <span class="lit">application\/json<\/span>/);
  assert.match(html, /<b>Vary:<\/b> <span class="lit">Accept<\/span>/);
  assert.match(html, /api_framework\/css\/browsable\.css/);
  assert.match(html, /api_framework\/js\/browsable\.js/);
});

test('page :: the body is pretty-printed JSON with every value escaped', async () => {
  const html = (await new APIClient().get('/notes/', HTML)).text;
  assert.not.match(html, /<script>alert\(1\)/);
  assert.not.match(html, /<img src=x/);
  assert.ok(html.includes('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;'));
  assert.ok(html.includes('&quot;title&quot;: &quot;first&quot;'), 'indented JSON keys are escaped');
  assert.match(html, /\n {8}&quot;id&quot;: 1,/, 'indent 4 inside a list of objects');
  // The only scripts are the framework's own.
  assert.equal(html.match(/<script/g)?.length, 1);
});

test('page :: URLs in the body become links; the description is Markdown without raw HTML', async () => {
  const root = (await new APIClient().get('/', HTML)).text;
  assert.match(root, /<a href="http:\/\/testserver\/notes\/" rel="nofollow">http:\/\/testserver\/notes\/<\/a>/);
  const list = (await new APIClient().get('/notes/', HTML)).text;
  assert.match(list, /<p>All the <strong>notes<\/strong>\.<\/p>/);
  assert.ok(list.includes('&lt;script&gt;alert(&quot;description&quot;)&lt;/script&gt;'));
});

test('page :: breadcrumbs name each resolvable prefix by its view', async () => {
  const html = (await new APIClient().get(`/notes/${alicesNote.id}/`, HTML)).text;
  assert.match(html, /<li><a href="\/">Api Root<\/a><\/li>\s*<li><a href="\/notes\/">Note List<\/a><\/li>\s*<li class="active"><a href="\/notes\/1\/">Note Detail<\/a><\/li>/);
  const crumbs = getBreadcrumbs('/notes/1/', HttpRequest.create({ url: '/notes/1/?format=api' }));
  assert.equal(crumbs.map((crumb) => crumb.url), ['/?format=api', '/notes/?format=api', '/notes/1/?format=api']);
});

test('page :: ?format=api and the format switcher; ?format=json still answers JSON', async () => {
  const client = new APIClient();
  const api = await client.get('/notes/?format=api');
  assert.match(api.header('Content-Type') ?? '', /^text\/html/);
  assert.match(api.text, /href="\/notes\/\?format=json"/);
  assert.match(api.text, /href="\/notes\/\?format=api"/);
  const browser = { headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } };
  const json = await client.get('/notes/?format=json', browser);
  assert.is(json.header('Content-Type'), 'application/json');
  assert.is((json.json() as unknown[]).length, 2);
});

test('page :: errors still render the page with the error body', async () => {
  const response = await new APIClient().get('/notes/999/', HTML);
  assert.is(response.status, 404);
  assert.match(response.text, /HTTP 404 Not Found/);
  assert.match(response.text, /&quot;detail&quot;: &quot;Not found.&quot;/);
});

test('page :: the page links and forms use the percent-encoded full path, never the decoded one', async () => {
  // A NUL byte, a space and non-ASCII text in the path reach the view (a 404) decoded; every
  // place the page names its own URL holds the encoded path instead.
  for (const [sent, encoded] of [
    ['/vs-notes/%00x/', '/vs-notes/%00x/'],
    ['/vs-notes/a%20b%0d%0a/', '/vs-notes/a%20b%0D%0A/'],
    ['/vs-notes/caf%C3%A9/?q=%00&r=s\u00f8', '/vs-notes/caf%C3%A9/?q=%00&r=s%C3%B8'],
  ]) {
    const response = await new APIClient().get(sent, HTML);
    assert.is(response.status, 404, sent);
    const html = response.text;
    assert.match(html, /HTTP 404 Not Found/);
    // eslint-disable-next-line no-control-regex
    assert.not.match(html, /[\u0000\r]|a b|café/, 'no decoded path text in the page');
    const escaped = encoded.replace(/&/g, '&amp;');
    assert.ok(html.includes(`<b>GET</b> ${escaped}</pre>`), `request line of ${sent}`);
    assert.ok(html.includes(`href="${escaped}" rel="nofollow"`), `GET button of ${sent}`);
    assert.ok(html.includes(`data-url="${escaped}"`), `OPTIONS button of ${sent}`);
    assert.ok(html.includes(`<li class="active"><a href="${encoded.split('?')[0]}">Note Instance</a></li>`), `breadcrumb of ${sent}`);
    assert.ok(html.includes(`next=${encodeURIComponent(encoded)}"`), `login link of ${sent}`);
    assert.ok(html.includes(`href="${encoded.split('?')[0]}?`), `format links of ${sent}`);
  }
  // The forms post to the same full path, query string included.
  const detail = (await (await loggedIn(alice)).get(`/notes/${alicesNote.id}/?q=a b`, HTML)).text;
  assert.ok(detail.includes(`<form action="/notes/${alicesNote.id}/?q=a%20b" data-method="PUT"`), 'PUT form');
  assert.ok(detail.includes(`data-url="/notes/${alicesNote.id}/?q=a%20b" data-confirm="delete-dialog"`), 'DELETE button');
  const list = (await (await loggedIn(alice)).get('/notes/?q=%3Cb%3E', HTML)).text;
  assert.ok(list.includes('<form action="/notes/?q=%3Cb%3E" method="POST"'), 'POST form');
  assert.ok(list.includes('<form action="/notes/?q=%3Cb%3E" data-raw data-method="POST"'), 'raw-data form');
});

test('page :: pagination controls come from the paginator', async () => {
  const html = (await new APIClient().get('/paged/', HTML)).text;
  assert.match(html, /<ul class="pagination"/);
  assert.match(html, /href="http:\/\/testserver\/paged\/\?page=2"/);
});

test('page :: the Extra Actions menu lists the view set\'s actions of the page\'s kind, and is absent without any', async () => {
  const list = await new APIClient().get('/vs-notes/', HTML);
  assert.is(list.status, 200);
  assert.not.match(list.text, 'Extra Actions');
  const detail = await new APIClient().get(`/vs-notes/${alicesNote.id}/`, HTML);
  assert.is(detail.status, 200);
  assert.match(detail.text, 'Extra Actions');
  assert.match(detail.text, `<li><a href="http://testserver/vs-notes/${alicesNote.id}/preview/">Preview</a></li>`);
});

test('page :: BrowsableAPIRenderer is the api format of text/html', () => {
  const renderer = new BrowsableAPIRenderer();
  assert.is(renderer.mediaType, 'text/html');
  assert.is(renderer.format, 'api');
  assert.is(renderer.getDefaultRenderer(new NoteList()) instanceof JSONRenderer, true);
});

// -- forms by permission -----------------------------------------------------------------------

test('forms :: anonymous users get no forms and no DELETE button, but a login link with next', async () => {
  const list = (await new APIClient().get('/notes/', HTML)).text;
  assert.not.match(list, /id="post-object-form"/);
  assert.not.match(list, /data-request-method="DELETE"/);
  assert.match(list, /href="\/api-auth\/login\/\?next=%2Fnotes%2F"/);
  const detail = (await new APIClient().get(`/notes/${alicesNote.id}/`, HTML)).text;
  assert.not.match(detail, /id="put-object-form"/);
  assert.match(detail, /data-request-method="OPTIONS"/);
});

test('forms :: a logged-in user gets the POST form built from the serializer and a raw-data form', async () => {
  const html = (await (await loggedIn(alice)).get('/notes/', HTML)).text;
  assert.match(html, /id="post-object-form"/);
  assert.match(html, /<form action="\/notes\/" method="POST" enctype="multipart\/form-data"/);
  assert.match(html, /<input type="text" class="form-control" id="post-id_title" name="title" value="">/);
  assert.match(html, /<textarea class="form-control" rows="6" id="post-id_code" name="code"><\/textarea>/);
  assert.match(html, /<select class="form-control" id="post-id_language" name="language"><option value="python">Python<\/option><option value="js">JavaScript<\/option><\/select>/);
  assert.match(html, /<input type="checkbox" id="post-id_linenos" name="linenos" value="true">/);
  assert.match(html, /A short title\./);
  assert.not.match(html, /name="owner"/, 'read-only fields are left out');
  assert.not.match(html, /name="id"/);
  assert.match(html, /<option value="application\/json" selected>application\/json<\/option><option value="application\/x-www-form-urlencoded">/);
  assert.match(html, /<option value="multipart\/form-data">/);
  assert.ok(html.includes('&quot;title&quot;: &quot;&quot;'), 'the raw form holds a JSON skeleton');
  assert.match(html, /data-user|data-testid="username">alice</);
});

test('early failure :: a bad version answers JSON without reading the session; the page still shows the user', async () => {
  const client = await loggedIn(alice);
  const json = await client.get('/versioned/?version=9');
  assert.is(json.status, 404);
  assert.is(json.text, '{"detail":"Invalid version in query parameter."}');
  assert.is(json.header('Vary'), 'Accept', 'no Vary: Cookie: nothing read the session');
  const page = await client.get('/versioned/?version=9', HTML);
  assert.is(page.status, 404);
  assert.match(page.text, /Invalid version in query parameter\./);
  assert.match(page.text, /data-testid="username">alice</);
  assert.is(page.header('Vary'), 'Accept, Cookie', 'the page read the session to show the user');
  const anonymous = await new APIClient().get('/versioned/?version=9', HTML);
  assert.not.match(anonymous.text, /data-testid="username"/);
});

test('forms :: the owner gets a prefilled PUT form and DELETE; another user only sees the page', async () => {
  const owner = (await (await loggedIn(alice)).get(`/notes/${alicesNote.id}/`, HTML)).text;
  assert.match(owner, /id="put-object-form"/);
  assert.match(owner, /data-method="PUT"/);
  assert.match(owner, /name="title" value="first"/);
  assert.ok(owner.includes(`name="code">${HOSTILE.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}</textarea>`));
  assert.match(owner, /data-request-method="DELETE"/);
  assert.match(owner, /<button type="submit" class="btn btn-primary" data-method="PATCH"/);
  const other = (await (await loggedIn(bob)).get(`/notes/${alicesNote.id}/`, HTML)).text;
  assert.not.match(other, /id="put-object-form"/);
  assert.not.match(other, /data-request-method="DELETE"/);
  assert.match(other, /name="title"|HTTP 200 OK/);
});

test('forms :: HTML_SELECT_CUTOFF limits the options with its text', async () => {
  const { PrimaryKeyRelatedField } = await import('../../lib/relations');
  class OwnerPicker extends ModelSerializer {
    static Meta = { model: BrowsableNote, fields: ['title', 'owner_pick'] };
    static fields = { owner_pick: new PrimaryKeyRelatedField({ queryset: User.objects.all(), source: 'owner_id', htmlCutoff: 1 }) };
  }
  const { renderSerializerForm } = await import('../../contrib/browsable/forms');
  const html = await renderSerializerForm(new OwnerPicker());
  assert.match(html, /<option value="1">alice<\/option><option value="n\/a" disabled>More than 1 items\.\.\.<\/option>/);
});

test('forms :: a POST from the HTML form is answered with the page of the result; errors refill the form', async () => {
  const client = await loggedIn(alice, true);
  const page = await client.get('/notes/', HTML);
  const token = csrfFrom(page);
  const created = await client.post('/notes/', {
    data: { csrfmiddlewaretoken: token, title: 'from the form', code: 'x = 1', language: 'js' }, format: 'multipart', headers: HTML.headers,
  });
  assert.is(created.status, 201);
  assert.match(created.text, /HTTP 201 Created/);
  assert.ok(created.text.includes('&quot;title&quot;: &quot;from the form&quot;'));
  const invalid = await client.post('/notes/', {
    data: { csrfmiddlewaretoken: csrfFrom(created), title: '', code: 'kept <b>', language: 'js' }, format: 'multipart', headers: HTML.headers,
  });
  assert.is(invalid.status, 400);
  assert.match(invalid.text, /<div class="form-group has-error"><label class="control-label" for="post-id_title">Title<\/label>/);
  assert.match(invalid.text, /<ul class="errorlist"><li>This field may not be blank\.<\/li><\/ul>/);
  assert.match(invalid.text, /name="code">kept &lt;b&gt;<\/textarea>/);
  assert.match(invalid.text, /<option value="js" selected>JavaScript/);
  const refused = await client.post('/notes/', { data: { title: 'no token' }, format: 'multipart', headers: HTML.headers });
  assert.is(refused.status, 403);
  assert.match(refused.text, /CSRF Failed: CSRF token missing or incorrect\./);
});

test('forms :: a failed POST refills the form from the serializer that failed (validated once)', async () => {
  const client = await loggedIn(alice, true);
  const token = csrfFrom(await client.get('/counted-notes/', HTML));
  titleValidations = 0;
  const invalid = await client.post('/counted-notes/', {
    data: { csrfmiddlewaretoken: token, title: 'taken', code: 'y = 2', language: 'js' }, format: 'multipart', headers: HTML.headers,
  });
  assert.is(invalid.status, 400);
  assert.is(titleValidations, 1);
  assert.match(invalid.text, /<ul class="errorlist"><li>This title is taken\.<\/li><\/ul>/);
  assert.match(invalid.text, /name="title" [^>]*value="taken"/);
  assert.match(invalid.text, /name="code">y = 2<\/textarea>/);
  const json = await client.post('/counted-notes/', {
    data: { csrfmiddlewaretoken: token, title: 'taken', code: 'y' }, format: 'multipart',
  });
  assert.is(json.status, 400);
  assert.is(json.text, '{"title":["This title is taken."]}');
});

test('forms :: DELETE renders the 204 as a page with status 200', async () => {
  const note = await BrowsableNote.objects.create({ title: 'doomed', owner_id: alice.id });
  const response = await (await loggedIn(alice)).delete(`/notes/${note.id}/`, HTML);
  assert.is(response.status, 200);
  assert.match(response.text, /HTTP 204 No Content/);
  assert.is(await BrowsableNote.objects.filter({ id: note.id }).exists(), false);
  const json = await (await loggedIn(bob)).delete(`/notes/${bobsNote.id}/`, { headers: { Accept: 'application/json' } });
  assert.is(json.status, 204);
  await BrowsableNote.objects.create({ id: bobsNote.id, title: 'second', owner_id: bob.id });
});

// -- login and logout --------------------------------------------------------------------------

test('login :: GET shows a form with the CSRF token and next', async () => {
  const response = await new APIClient().get('/api-auth/login/?next=/notes/');
  assert.is(response.status, 200);
  assert.match(response.text, /<input type="hidden" name="next" value="\/notes\/">/);
  assert.match(response.text, /name="username"/);
  assert.match(response.text, /type="password"/);
  assert.ok(csrfFrom(response).length === 64);
  assert.ok(response.response.cookies.has('csrftoken'), 'the CSRF cookie is set');
});

test('login :: POST without the CSRF token is refused', async () => {
  const client = new APIClient({ enforceCsrfChecks: true });
  await client.get('/api-auth/login/');
  const response = await client.post('/api-auth/login/', {
    data: 'username=alice&password=alice-password', contentType: 'application/x-www-form-urlencoded',
  });
  assert.is(response.status, 403);
  assert.match(response.text, /CSRF/);
  const whoami = await client.get('/notes/', HTML);
  assert.not.match(whoami.text, /data-testid="username"/);
});

async function loginWith(next: string, password = 'alice-password'): Promise<[TestResponse, APIClient]> {
  const client = new APIClient({ enforceCsrfChecks: true });
  const token = csrfFrom(await client.get('/api-auth/login/'));
  const body = new URLSearchParams({ csrfmiddlewaretoken: token, username: 'alice', password, next }).toString();
  const response = await client.post('/api-auth/login/', { data: body, contentType: 'application/x-www-form-urlencoded' });
  return [response, client];
}

test('login :: good credentials log in and redirect to a same-site next', async () => {
  const [response, client] = await loginWith('/notes/?page=1');
  assert.is(response.status, 302);
  assert.is(response.header('Location'), '/notes/?page=1');
  const page = await client.get('/notes/', HTML);
  assert.match(page.text, /data-testid="username">alice</);
});

test('login :: a next holding escapes and non-ASCII text is sent on as a URI (escapes kept)', async () => {
  const [response] = await loginWith('/notes/?search=a%2Fb%26c&title=café');
  assert.is(response.status, 302);
  assert.is(response.header('Location'), '/notes/?search=a%2Fb%26c&title=caf%C3%A9');
});

test('login :: next pointing elsewhere goes to / instead', async () => {
  for (const next of ['http://evil.example/', '//evil.example/', '/\\evil.example/', 'javascript:alert(1)', 'https://testserver.evil/']) {
    const [response] = await loginWith(next);
    assert.is(response.status, 302, next);
    assert.is(response.header('Location'), '/', next);
  }
  const [absolute] = await loginWith('http://testserver/notes/');
  assert.is(absolute.header('Location'), 'http://testserver/notes/');
});

test('login :: wrong password re-renders the form with the original message', async () => {
  const [response] = await loginWith('/notes/', 'wrong');
  assert.is(response.status, 200);
  assert.match(response.text, /Please enter a correct username and password\. Note that both fields may be case-sensitive\./);
  assert.match(response.text, /name="username" [^>]*value="alice"/);
});

test('logout :: GET asks for confirmation; POST with the token logs out and follows next', async () => {
  const [, client] = await loginWith('/');
  const confirm = await client.get('/api-auth/logout/?next=/notes/');
  assert.is(confirm.status, 200);
  assert.match(confirm.text, /Log out now\?/);
  assert.match((await client.get('/notes/', HTML)).text, /data-testid="username">alice</, 'still logged in after GET');
  const refused = await client.post('/api-auth/logout/', { data: 'next=/notes/', contentType: 'application/x-www-form-urlencoded' });
  assert.is(refused.status, 403);
  const token = csrfFrom(confirm);
  const response = await client.post('/api-auth/logout/', {
    data: `csrfmiddlewaretoken=${token}&next=/notes/`, contentType: 'application/x-www-form-urlencoded',
  });
  assert.is(response.status, 302);
  assert.is(response.header('Location'), '/notes/');
  assert.not.match((await client.get('/notes/', HTML)).text, /data-testid="username"/);
});

test('redirects :: isSafeRedirect accepts only this site', () => {
  const request = HttpRequest.create({ url: '/api-auth/login/', headers: { Host: 'testserver' } });
  const good = ['/', '/notes/', '/notes/?a=//x', 'http://testserver/notes/'];
  const bad = ['', '//evil.example', '/\\evil.example', '\\\\evil.example', 'http://evil.example/', 'ftp://testserver/',
    'javascript:alert(1)', '/\u0000x', 'http://user:pw@testserver/', 'notes/'];
  for (const url of good) assert.ok(isSafeRedirect(url, request), url);
  for (const url of bad) assert.not.ok(isSafeRedirect(url, request), url);
  const secure = HttpRequest.create({ url: '/', secure: true, headers: { Host: 'testserver' } });
  assert.not.ok(isSafeRedirect('http://testserver/', secure));
  assert.ok(isSafeRedirect('https://testserver/', secure));
});

// -- static files ------------------------------------------------------------------------------

test('static :: CSS and JS are served with their content types, ETag and Cache-Control', async () => {
  const client = new APIClient();
  const css = await client.get('/static/api_framework/css/browsable.css');
  assert.is(css.status, 200);
  assert.is(css.header('Content-Type'), 'text/css; charset=utf-8');
  assert.match(css.text, /--accent/);
  assert.match(css.header('Cache-Control') ?? '', /max-age=\d+/);
  const etag = css.header('ETag');
  assert.ok(etag);
  const again = await client.get('/static/api_framework/css/browsable.css', { headers: { 'If-None-Match': etag! } });
  assert.is(again.status, 304);
  assert.is(again.text, '');
  const js = await client.get('/static/api_framework/js/browsable.js');
  assert.is(js.header('Content-Type'), 'text/javascript; charset=utf-8');
  assert.is(js.header('X-Content-Type-Options'), 'nosniff');
});

test('static :: missing files and path traversal are 404', async () => {
  const client = new APIClient();
  for (const url of [
    '/static/api_framework/css/missing.css',
    '/static/api_framework/../../../package.json',
    '/static/api_framework/%2e%2e/%2e%2e/%2e%2e/package.json',
    '/static/..%2f..%2f..%2fpackage.json',
    '/static/api_framework/css/..%5c..%5c..%5cpackage.json',
    '/static/%2fetc%2fpasswd',
    '/static/api_framework/css/',
  ]) {
    const response = await client.get(url);
    assert.is(response.status, 404, url);
    assert.not.match(response.text, /"name": "api_framework"/, url);
  }
  const post = await client.post('/static/api_framework/css/browsable.css');
  assert.is(post.status, 405);
});

test.run();
