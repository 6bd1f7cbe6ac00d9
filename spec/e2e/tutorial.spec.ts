/**
 * End to end, over HTTP: the tutorial at the root, the token and session endpoints, format
 * selection, the status codes the demo produces, and the quickstart under /quickstart/.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cookiesOf, PASSWORD, skipE2E, startDemoServer, type DemoServer, type E2EResponse } from './demoServer';

const ALICE: [string, string] = ['alice', PASSWORD];
const CAROL: [string, string] = ['carol', PASSWORD];
const NOT_PROVIDED = '{"detail":"Authentication credentials were not provided."}';
const NO_PERMISSION = '{"detail":"You do not have permission to perform this action."}';

let server: DemoServer;
const skipped = skipE2E('e2e tutorial', 'e2e quickstart');

/** Status, exact body text and Content-Type (`null`: no Content-Type, as for 204). */
function expectBody(response: E2EResponse, status: number, body: string, contentType: string | null = 'application/json'): void {
  assert.is(response.text, body);
  assert.is(response.status, status);
  assert.is(response.headers['content-type'], contentType ?? undefined);
}

async function snippetRows(): Promise<unknown[]> {
  const response = await server.call('GET', '/snippets/');
  assert.is(response.status, 200);
  return response.json() as unknown[];
}

// ---- tutorial --------------------------------------------------------------------------------

const tutorial = suite('e2e tutorial');

tutorial.before(async () => {
  server = await startDemoServer();
});

tutorial('root :: absolute links, Allow and Vary, compact JSON', async () => {
  const response = await server.call('GET', '/');
  expectBody(response, 200, `{"snippets":"${server.origin}/snippets/","users":"${server.origin}/users/"}`);
  assert.is(response.headers.allow, 'GET, HEAD, OPTIONS');
  assert.match(response.headers.vary, /^Accept\b/);
  const head = await server.call('HEAD', '/');
  assert.is(head.status, 200);
  assert.is(head.body.length, 0);
});

tutorial('formats :: Accept, ?format= and suffixes choose JSON or the browsable API', async () => {
  const json = `{"snippets":"${server.origin}/snippets/","users":"${server.origin}/users/"}`;
  expectBody(await server.call('GET', '/', { headers: { accept: 'application/json' } }), 200, json);
  // Links keep the format override, as the original's reverse() does.
  expectBody(await server.call('GET', '/?format=json'), 200,
    `{"snippets":"${server.origin}/snippets/?format=json","users":"${server.origin}/users/?format=json"}`);
  // A format suffix carries over to the root's links, as in the original.
  expectBody(await server.call('GET', '/.json'), 200, `{"snippets":"${server.origin}/snippets.json","users":"${server.origin}/users.json"}`);
  expectBody(await server.call('GET', '/snippets.json'), 200, '[]');
  for (const [url, accept] of [['/', 'text/html'], ['/?format=api', '*/*'], ['/.api', '*/*'], ['/snippets.api', '*/*']]) {
    const html = await server.call('GET', url, { headers: { accept } });
    assert.is(html.status, 200, url);
    assert.is(html.headers['content-type'], 'text/html; charset=utf-8', url);
    assert.match(html.text, /<html/i, url);
  }
  // 406: no renderer satisfies the Accept header; 404: an unknown ?format=.
  expectBody(await server.call('GET', '/', { headers: { accept: 'application/xml' } }), 406,
    '{"detail":"Could not satisfy the request Accept header."}');
  assert.is((await server.call('GET', '/?format=xml')).status, 404);
  expectBody(await server.call('GET', '/snippets.xml'), 404, '{"detail":"Not found."}');
});

tutorial('snippets :: anonymous reads, anonymous writes refused (403), bad credentials', async () => {
  expectBody(await server.call('GET', '/snippets/'), 200, '[]');
  expectBody(await server.call('POST', '/snippets/', { body: { code: 'x' } }), 403, NOT_PROVIDED);
  expectBody(await server.call('POST', '/snippets/', { body: { code: 'x' }, basic: ['alice', 'wrong'] }), 403,
    '{"detail":"Invalid username/password."}');
  expectBody(await server.call('POST', '/snippets/', { body: { code: 'x' }, token: 'abc' }), 403, '{"detail":"Invalid token."}');
  assert.equal(await snippetRows(), []);
});

tutorial('snippets :: create with a token, code alone suffices; owner from the request, never from the payload', async () => {
  const created = await server.call('POST', '/snippets/', { body: { code: 'print("hi")', owner: 'carol', id: 99 }, token: server.aliceToken });
  assert.is(created.status, 201);
  const { id } = created.json();
  expectBody(created, 201,
    `{"id":${id},"title":"","code":"print(\\"hi\\")","linenos":false,"language":"python","style":"friendly","owner":"alice"}`);
  assert.is(created.headers.location, undefined);
  expectBody(await server.call('GET', `/snippets/${id}/`), 200, created.text);
  expectBody(await server.call('GET', `/snippets/${id}.json`), 200, created.text);
  const users = await server.call('GET', '/users/');
  const alice = (users.json() as Array<{ id: number; username: string; snippets: number[] }>).find((u) => u.username === 'alice')!;
  expectBody(await server.call('GET', `/users/${alice.id}/`), 200, `{"id":${alice.id},"username":"alice","snippets":[${id}]}`);
});

tutorial('snippets :: compact raw-unicode JSON bytes', async () => {
  const created = await server.call('POST', '/snippets/', {
    body: { code: 'x = "漢字"', title: 'é ✓ 漢字', language: 'python2', style: 'monokai', linenos: true },
    basic: ALICE,
  });
  assert.is(created.status, 201);
  const { id } = created.json();
  const expected = `{"id":${id},"title":"é ✓ 漢字","code":"x = \\"漢字\\"","linenos":true,"language":"python2","style":"monokai","owner":"alice"}`;
  assert.ok(created.body.equals(Buffer.from(expected, 'utf8')), created.text);
});

tutorial('snippets :: 400 for invalid choices, a missing code and malformed JSON; 415; nothing is written', async () => {
  const before = await snippetRows();
  expectBody(await server.call('POST', '/snippets/', { body: { code: 'x', language: 'nope', style: 'nah' }, basic: ALICE }), 400,
    '{"language":["\\"nope\\" is not a valid choice."],"style":["\\"nah\\" is not a valid choice."]}');
  expectBody(await server.call('POST', '/snippets/', { body: { title: 'no code' }, basic: ALICE }), 400, '{"code":["This field is required."]}');
  expectBody(await server.call('POST', '/snippets/', { body: '{bad', headers: { 'content-type': 'application/json' }, basic: ALICE }), 400,
    '{"detail":"JSON parse error - Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"}');
  expectBody(await server.call('POST', '/snippets/', { body: 'code=x', headers: { 'content-type': 'text/plain' }, basic: ALICE }), 415,
    '{"detail":"Unsupported media type \\"text/plain\\" in request."}');
  assert.equal(await snippetRows(), before);
});

tutorial('snippets :: form bodies, 404 and 405 with Allow', async () => {
  const form = await server.call('POST', '/snippets/', {
    body: 'code=a%3Db&title=form&linenos=true&language=javascript',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    basic: ALICE,
  });
  assert.is(form.status, 201);
  assert.equal({ ...form.json(), id: 0 },
    { id: 0, title: 'form', code: 'a=b', linenos: true, language: 'javascript', style: 'friendly', owner: 'alice' });
  expectBody(await server.call('GET', '/snippets/99999/'), 404, '{"detail":"Not found."}');
  expectBody(await server.call('GET', '/snippets/abc/'), 404, '{"detail":"Not found."}');
  const notAllowed = await server.call('DELETE', '/snippets/', { basic: ALICE });
  expectBody(notAllowed, 405, '{"detail":"Method \\"DELETE\\" not allowed."}');
  assert.is(notAllowed.headers.allow, 'GET, POST, HEAD, OPTIONS');
  expectBody(await server.call('POST', '/users/', { body: {}, basic: ALICE }), 405, '{"detail":"Method \\"POST\\" not allowed."}');
});

tutorial('snippets :: only the owner writes; a refused write changes no row', async () => {
  const created = await server.call('POST', '/snippets/', { body: { code: 'mine', title: 'owned' }, basic: ALICE });
  const { id } = created.json();
  expectBody(await server.call('PUT', `/snippets/${id}/`, { body: { code: 'theirs' }, basic: CAROL }), 403, NO_PERMISSION);
  expectBody(await server.call('PATCH', `/snippets/${id}/`, { body: { title: 'x' }, basic: CAROL }), 403, NO_PERMISSION);
  expectBody(await server.call('DELETE', `/snippets/${id}/`, { basic: CAROL }), 403, NO_PERMISSION);
  expectBody(await server.call('PATCH', `/snippets/${id}/`, { body: { title: 'x' } }), 403, NOT_PROVIDED);
  expectBody(await server.call('PATCH', `/snippets/${id}/`, { body: { style: 'nope' }, basic: ALICE }), 400,
    '{"style":["\\"nope\\" is not a valid choice."]}');
  expectBody(await server.call('GET', `/snippets/${id}/`), 200, created.text);

  const put = await server.call('PUT', `/snippets/${id}/`, { body: { code: 'new code', title: 'renamed' }, basic: ALICE });
  expectBody(put, 200,
    `{"id":${id},"title":"renamed","code":"new code","linenos":false,"language":"python","style":"friendly","owner":"alice"}`);
  const patch = await server.call('PATCH', `/snippets/${id}/`, { body: { linenos: true }, token: server.aliceToken });
  assert.is(patch.json().linenos, true);
  assert.is(patch.json().title, 'renamed');
  expectBody(await server.call('DELETE', `/snippets/${id}/`, { basic: ALICE }), 204, '', null);
  expectBody(await server.call('GET', `/snippets/${id}/`), 404, '{"detail":"Not found."}');
});

tutorial('highlight :: the stored HTML document, regenerated on save, everything escaped', async () => {
  const created = await server.call('POST', '/snippets/', {
    body: { code: 'def f():\n    return "</pre><script>alert(1)</script>"\n', title: '<b>T & T</b>', linenos: true },
    basic: ALICE,
  });
  const { id } = created.json();
  const page = await server.call('GET', `/snippets/${id}/highlight/`);
  assert.is(page.status, 200);
  assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(page.text, /^<!DOCTYPE html>/);
  assert.ok(page.text.includes('<title>&lt;b&gt;T &amp; T&lt;/b&gt;</title>'), 'escaped title');
  assert.not.ok(page.text.includes('<script>'), 'code is escaped');
  assert.not.ok(page.text.includes('<b>T'), 'title is escaped');
  assert.ok(page.text.includes('<td class="linenos"><div class="linenodiv"><pre>1\n2</pre></div></td>'), 'two line numbers');
  assert.match(page.text, /<style>[\s\S]*\.hljs\{background:#f0f0f0/);
  assert.match(page.text, /<code class="hljs language-python"><span class="hljs-keyword">def<\/span>/);

  await server.call('PATCH', `/snippets/${id}/`, { body: { linenos: false, title: '', style: 'monokai', language: 'javascript' }, basic: ALICE });
  const again = await server.call('GET', `/snippets/${id}/highlight/`);
  assert.not.ok(again.text.includes('class="linenos"'), 'no line numbers');
  assert.ok(again.text.includes('<title></title>'));
  assert.match(again.text, /\.hljs \{\s*background: #272822/, 'the monokai theme');
  assert.ok(again.text.includes('<code class="hljs language-javascript">'), 'the javascript grammar');
  // The static HTML renderer answers errors in HTML too, like the original.
  expectBody(await server.call('GET', '/snippets/99999/highlight/'), 404, '404 Not Found', 'text/html; charset=utf-8');
});

tutorial('options :: view name, description, renderers, parsers; POST actions only when permitted', async () => {
  const anonymous = await server.call('OPTIONS', '/snippets/');
  expectBody(anonymous, 200,
    '{"name":"Snippet List","description":"This viewset automatically provides `list`, `create`, `retrieve`,\\n`update` and `destroy` actions.\\n\\nAdditionally we also provide an extra `highlight` action.","renders":["application/json","text/html"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}');
  const authenticated = (await server.call('OPTIONS', '/snippets/', { basic: ALICE })).json();
  assert.equal(Object.keys(authenticated.actions.POST), ['id', 'title', 'code', 'linenos', 'language', 'style', 'owner']);
  assert.is(authenticated.actions.POST.language.choices[0].value, 'abap');
  assert.is(authenticated.actions.POST.owner.read_only, true);
});

tutorial('token endpoint :: JSON and form credentials, the original error texts', async () => {
  expectBody(await server.call('POST', '/api-token-auth/', { body: { username: 'alice', password: PASSWORD } }), 200,
    `{"token":"${server.aliceToken}"}`);
  expectBody(await server.call('POST', '/api-token-auth/', {
    body: `username=alice&password=${PASSWORD}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }), 200, `{"token":"${server.aliceToken}"}`);
  expectBody(await server.call('POST', '/api-token-auth/', { body: { username: 'alice', password: 'nope' } }), 400,
    '{"non_field_errors":["Unable to log in with provided credentials."]}');
  expectBody(await server.call('POST', '/api-token-auth/', { body: {} }), 400,
    '{"username":["This field is required."],"password":["This field is required."]}');
  const carolToken = (await server.call('POST', '/api-token-auth/', { body: { username: 'carol', password: PASSWORD } })).json().token;
  assert.match(carolToken, /^[0-9a-f]{40}$/);
  assert.is.not(carolToken, server.aliceToken);
  expectBody(await server.call('GET', '/api-token-auth/'), 405, '{"detail":"Method \\"GET\\" not allowed."}');
});

tutorial('drf_create_token :: prints the key, -r regenerates it (the old key stops working), unknown users fail', async () => {
  const again = await server.manage(['drf_create_token', 'alice']);
  assert.is(again.code, 0);
  assert.is(again.stdout, `Generated token ${server.aliceToken} for user alice\n`);
  const reset = await server.manage(['drf_create_token', '-r', 'alice']);
  const key = /^Generated token ([0-9a-f]{40}) for user alice$/m.exec(reset.stdout)?.[1];
  assert.ok(key && key !== server.aliceToken, reset.stdout);
  expectBody(await server.call('POST', '/snippets/', { body: { code: 'x' }, token: server.aliceToken }), 403, '{"detail":"Invalid token."}');
  assert.is((await server.call('POST', '/snippets/', { body: { code: 'x' }, token: key! })).status, 201);
  server.aliceToken = key!;
  const unknown = await server.manage(['drf_create_token', 'nobody']);
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, /^CommandError: .*nobody/m);
});

tutorial('session :: login form with CSRF, writes need the CSRF token, logout', async () => {
  const jar: Record<string, string> = {};
  const loginPage = await server.call('GET', '/api-auth/login/');
  assert.is(loginPage.status, 200);
  cookiesOf(loginPage, jar);
  const formToken = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(loginPage.text)?.[1];
  assert.ok(formToken && jar.csrftoken, 'a CSRF form token and cookie');

  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const noCsrf = await server.call('POST', '/api-auth/login/', { body: `username=alice&password=${PASSWORD}`, headers: form, cookies: jar });
  assert.is(noCsrf.status, 403);
  const wrong = await server.call('POST', '/api-auth/login/', {
    body: `username=alice&password=nope&csrfmiddlewaretoken=${formToken}`, headers: form, cookies: jar,
  });
  assert.is(wrong.status, 200);
  assert.not.ok(jar.sessionid);
  const login = await server.call('POST', '/api-auth/login/?next=/snippets/', {
    body: `username=alice&password=${PASSWORD}&csrfmiddlewaretoken=${formToken}&next=/snippets/`, headers: form, cookies: jar,
  });
  assert.is(login.status, 302);
  assert.is(login.headers.location, '/snippets/');
  cookiesOf(login, jar);
  assert.ok(jar.sessionid, 'logged in');

  const before = await snippetRows();
  expectBody(await server.call('POST', '/snippets/', { body: { code: 'session' }, cookies: jar }), 403,
    '{"detail":"CSRF Failed: CSRF token missing or incorrect."}');
  expectBody(await server.call('POST', '/snippets/', { body: { code: 'session' }, cookies: jar, headers: { 'x-csrftoken': 'x'.repeat(64) } }), 403,
    '{"detail":"CSRF Failed: CSRF token missing or incorrect."}');
  assert.equal(await snippetRows(), before);
  const created = await server.call('POST', '/snippets/', { body: { code: 'session' }, cookies: jar, headers: { 'x-csrftoken': jar.csrftoken } });
  assert.is(created.status, 201);
  assert.is(created.json().owner, 'alice');
  // Safe methods need no token; the session also authenticates the quickstart.
  assert.is((await server.call('GET', '/quickstart/users/', { cookies: jar })).status, 200);

  const evil = await server.call('POST', '/api-auth/login/?next=http://evil.example.org/', {
    body: `username=alice&password=${PASSWORD}&csrfmiddlewaretoken=${jar.csrftoken}`, headers: form, cookies: jar,
  });
  assert.is(evil.headers.location, '/');
  cookiesOf(evil, jar);
  const logout = await server.call('POST', '/api-auth/logout/', { body: `csrfmiddlewaretoken=${jar.csrftoken}`, headers: form, cookies: jar });
  assert.is(logout.status, 302);
  assert.is(logout.headers.location, '/');
  cookiesOf(logout, jar);
  expectBody(await server.call('POST', '/snippets/', { body: { code: 'x' }, cookies: jar, headers: { 'x-csrftoken': jar.csrftoken } }), 403,
    NOT_PROVIDED);
});

tutorial('hosts :: a Host outside ALLOWED_HOSTS gets the JSON 400 view', async () => {
  expectBody(await server.call('GET', '/', { headers: { host: 'evil.example.org' } }), 400, '{"error": "Bad Request (400)"}');
});

if (!skipped) tutorial.run();

// ---- quickstart ------------------------------------------------------------------------------

const quickstart = suite('e2e quickstart');

quickstart('auth :: anonymous and token requests get 401 with the Basic challenge', async () => {
  for (const options of [{}, { token: server.aliceToken }]) {
    const response = await server.call('GET', '/quickstart/users/', options);
    expectBody(response, 401, NOT_PROVIDED);
    assert.is(response.headers['www-authenticate'], 'Basic realm="api"');
  }
  const wrong = await server.call('GET', '/quickstart/users/', { basic: ['alice', 'nope'] });
  expectBody(wrong, 401, '{"detail":"Invalid username/password."}');
  expectBody(await server.call('GET', '/quickstart/'), 200,
    `{"users":"${server.origin}/quickstart/users/","groups":"${server.origin}/quickstart/groups/"}`);
});

quickstart('users :: newest first, hyperlinked, paginated by 10 with next/previous links', async () => {
  for (let i = 0; i < 11; i += 1) {
    const created = await server.call('POST', '/quickstart/users/', { body: { username: `user${i}`, email: `u${i}@example.com` }, basic: ALICE });
    assert.is(created.status, 201);
    assert.is(created.headers.location, created.json().url);
  }
  const first = await server.call('GET', '/quickstart/users/', { basic: ALICE });
  assert.is(first.status, 200);
  const page1 = first.json();
  assert.equal(Object.keys(page1), ['count', 'next', 'previous', 'results']);
  assert.is(page1.count, 13);
  assert.is(page1.next, `${server.origin}/quickstart/users/?page=2`);
  assert.is(page1.previous, null);
  assert.is(page1.results.length, 10);
  assert.equal(page1.results[0], { url: page1.results[0].url, username: 'user10', email: 'u10@example.com', groups: [] });
  assert.match(page1.results[0].url, new RegExp(`^${server.origin}/quickstart/users/\\d+/$`));
  const page2 = (await server.call('GET', '/quickstart/users/?page=2', { basic: ALICE })).json();
  assert.is(page2.next, null);
  assert.is(page2.previous, `${server.origin}/quickstart/users/`);
  assert.equal(page2.results.map((u: { username: string }) => u.username), ['user0', 'carol', 'alice']);
  expectBody(await server.call('GET', '/quickstart/users/?page=9', { basic: ALICE }), 404, '{"detail":"Invalid page."}');
  const last = (await server.call('GET', '/quickstart/users/?page=last', { basic: ALICE })).json();
  assert.is(last.results.length, 3);
});

quickstart('groups :: ordered by name, linked from users; invalid writes leave no row', async () => {
  const staff = (await server.call('POST', '/quickstart/groups/', { body: { name: 'staff' }, basic: ALICE })).json();
  await server.call('POST', '/quickstart/groups/', { body: { name: 'admins' }, basic: ALICE });
  expectBody(await server.call('POST', '/quickstart/groups/', { body: { name: 'staff' }, basic: ALICE }), 400,
    '{"name":["group with this name already exists."]}');
  const groups = (await server.call('GET', '/quickstart/groups/', { basic: ALICE })).json();
  assert.equal(groups.results.map((g: { name: string }) => g.name), ['admins', 'staff']);
  assert.is(groups.count, 2);

  const carolUrl = (await server.call('GET', '/quickstart/users/?page=2', { basic: ALICE })).json().results[1].url as string;
  const carolPath = new URL(carolUrl).pathname;
  const patched = await server.call('PATCH', carolPath, { body: { groups: [staff.url] }, basic: ALICE });
  assert.is(patched.status, 200);
  assert.equal(patched.json().groups, [staff.url]);
  expectBody(await server.call('PATCH', carolPath, { body: { groups: [`${server.origin}/quickstart/groups/999/`] }, basic: ALICE }), 400,
    '{"groups":["Invalid hyperlink - Object does not exist."]}');
  assert.equal((await server.call('GET', carolPath, { basic: ALICE })).json().groups, [staff.url]);
  expectBody(await server.call('DELETE', carolPath, { basic: CAROL }), 204, '', null);
});

quickstart.after(async () => {
  await server?.stop();
});

if (!skipped) quickstart.run();
