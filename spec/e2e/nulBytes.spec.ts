/**
 * Over HTTP against the demo: a NUL byte wherever a value reaches a query is just a value that
 * matches nothing (it used to cut the SQL text on SQLite and answer 500): HTTP Basic of
 * `alice\0:pw`, the login form's `username=alice%00`, the admin
 * changelist's `?q=a%00b`, the snippets search and a 309-digit snippet id.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cookiesOf, PASSWORD, skipE2E, startDemoServer, type DemoServer } from './demoServer';

let server: DemoServer;
const test = suite('e2e NUL bytes and overflowing ids');
const skipped = skipE2E('e2e NUL bytes and overflowing ids');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

test.before(async () => {
  server = await startDemoServer();
  const created = await server.call('POST', '/snippets/', { body: { code: 'print(1)', title: 'a b' }, basic: ['alice', PASSWORD] });
  assert.is(created.status, 201);
});

test.after(async () => {
  await server?.stop();
});

test('auth header :: Basic alice\\0:pw is refused as wrong credentials', async () => {
  const basic = await server.call('POST', '/snippets/', { body: { code: 'x' }, basic: ['alice\0', PASSWORD] });
  // The demo authenticates with SessionAuthentication first, so the failure is a 403 (as the original's).
  assert.is(basic.status, 403);
  assert.is(basic.text, '{"detail":"Invalid username/password."}');
});

test('login form :: username=alice%00 is a failed login, not a 500', async () => {
  const jar: Record<string, string> = {};
  const page = await server.call('GET', '/api-auth/login/');
  cookiesOf(page, jar);
  const formToken = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page.text)?.[1];
  const answer = await server.call('POST', '/api-auth/login/', {
    body: `username=alice%00&password=${PASSWORD}&csrfmiddlewaretoken=${formToken}`, headers: FORM, cookies: jar,
  });
  assert.is(answer.status, 200);
  assert.match(answer.text, 'Please enter a correct username and password');
  assert.not.ok(cookiesOf(answer).sessionid, 'no session');
});

test('admin :: the changelist search ?q=a%00b finds nothing', async () => {
  const jar: Record<string, string> = {};
  const page = await server.call('GET', '/admin/login/');
  cookiesOf(page, jar);
  const formToken = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page.text)?.[1];
  const login = await server.call('POST', '/admin/login/', {
    body: `username=alice&password=${PASSWORD}&csrfmiddlewaretoken=${formToken}&next=/admin/`, headers: FORM, cookies: jar,
  });
  assert.is(login.status, 302);
  cookiesOf(login, jar);
  const found = await server.call('GET', '/admin/auth/user/?q=ali', { cookies: jar });
  assert.is(found.status, 200);
  assert.match(found.text, 'href="/admin/auth/user/1/change/"');
  const nul = await server.call('GET', '/admin/auth/user/?q=a%00b', { cookies: jar });
  assert.is(nul.status, 200);
  assert.not.match(nul.text, 'href="/admin/auth/user/1/change/"');
});

test('snippets :: search and filters with a NUL, and a 309-digit id', async () => {
  const search = await server.call('GET', '/features/snippets/search/?search=a%00b');
  assert.is(search.status, 200);
  assert.not.match(search.text, 'print(1)');
  const huge = '9'.repeat(309);
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const answer = await server.call(method, `/snippets/${huge}/`, { body: method === 'PUT' ? { code: 'y' } : undefined, basic: ['alice', PASSWORD] });
    assert.is(answer.status, 404, `${method} /snippets/<309 digits>/`);
    assert.is(answer.text, '{"detail":"Not found."}');
  }
  assert.is((await server.call('GET', '/users/%00/')).status, 404);
});

if (!skipped) test.run();
