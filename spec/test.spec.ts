import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { User } from '../contrib/auth/models';
import { overrideSettings, settings } from '../lib/core/conf';
import { useTestDatabase } from '../lib/core/db/testing';
import type { AuthUser, HttpResponse } from '../lib/core/http';
import type { RunningServer } from '../lib/core/server';
import type { Request } from '../lib/request';
import { Response } from '../lib/response';
import { APIClient, APIRequestFactory, forceAuthenticate, RequestsClient, startLiveServer, transactionalSuite } from '../lib/test';
import { APIView } from '../lib/views';

/** Plain JSON values (error details are String objects). */
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const base = suite('test tools');
useTestDatabase(base);
const test = transactionalSuite(base);

let restoreUrls: () => void = () => undefined;
let server: RunningServer | null = null;
base.before(async () => {
  restoreUrls = overrideSettings.enter({
    ROOT_URLCONF: 'spec.fixtures.authUrls',
    // JSON only: these suites are about authentication, not the browsable API.
    API_FRAMEWORK: { ...settings.API_FRAMEWORK, DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'] },
  });
  await User.objects.createUser('alice', 'alice@example.com', 'alice-pw');
});
base.after(async () => {
  if (server) await server.close();
  restoreUrls();
});

/** A view echoing what it received. */
class Echo extends APIView {
  override authenticationClasses = [];

  handle(request: Request) {
    const user = request.user;
    return new Response({
      method: request.method,
      contentType: request.contentType,
      data: request.data instanceof Map ? Object.fromEntries(request.data) : request.data,
      query: Object.fromEntries(request.queryParams.lists()),
      user: user && user.isAuthenticated ? user.username : null,
      auth: request.auth,
      secure: request.isSecure(),
      header: request.header('x-custom') ?? null,
    });
  }

  get(request: Request) {
    return this.handle(request);
  }
  post(request: Request) {
    return this.handle(request);
  }
  put(request: Request) {
    return this.handle(request);
  }
  patch(request: Request) {
    return this.handle(request);
  }
  delete(request: Request) {
    return this.handle(request);
  }
}

const echo = Echo.asView();
const factory = new APIRequestFactory();

async function run(pending: Promise<any>): Promise<any> {
  const response = (await echo(await pending, {})) as HttpResponse & { data: any };
  return response.data;
}

function plain(data: unknown): unknown {
  if (data && typeof data === 'object' && 'lists' in data && typeof (data as any).lists === 'function') {
    return Object.fromEntries((data as any).lists().map(([k, v]: [string, string[]]) => [k, v.length === 1 ? v[0] : v]));
  }
  return data;
}

// -- APIRequestFactory ---------------------------------------------------------------------------

test('factory :: GET data becomes the query string; repeated keys for lists', async () => {
  const data = await run(factory.get('/echo/', { data: { a: 1, b: ['x', 'y'] } }));
  assert.equal(data.query, { a: ['1'], b: ['x', 'y'] });
  assert.is(data.method, 'GET');
});

test('factory :: a query in the path is kept without data and replaced with data', async () => {
  assert.equal((await run(factory.get('/echo/?q=1'))).query, { q: ['1'] });
  assert.equal((await run(factory.get('/echo/?q=1', { data: { r: 2 } }))).query, { r: ['2'] });
});

test('factory :: json format renders the body with the JSON renderer', async () => {
  const request = await factory.post('/echo/', { data: { title: 'é', n: [1, 2] }, format: 'json' });
  assert.is(request.header('content-type'), 'application/json');
  assert.is((await request.body()).toString(), '{"title":"é","n":[1,2]}');
  const data = await run(Promise.resolve(request));
  assert.equal(json(data.data), { title: 'é', n: [1, 2] });
});

test('factory :: multipart is the default format', async () => {
  const request = await factory.post('/echo/', { data: { title: 'hello', count: 3 } });
  assert.match(request.header('content-type') ?? '', /^multipart\/form-data; boundary=/);
  const data = await run(Promise.resolve(request));
  assert.equal(plain(data.data), { title: 'hello', count: '3' });
});

test('factory :: TEST_REQUEST_DEFAULT_FORMAT changes the default', async () => {
  await overrideSettings({ API_FRAMEWORK: { ...settings.API_FRAMEWORK, TEST_REQUEST_DEFAULT_FORMAT: 'json' } }, async () => {
    const request = await factory.put('/echo/', { data: { a: true } });
    assert.is(request.header('content-type'), 'application/json');
  });
});

test('factory :: contentType sends the data raw', async () => {
  const request = await factory.patch('/echo/', { data: 'a=1&a=2', contentType: 'application/x-www-form-urlencoded' });
  assert.is((await request.body()).toString(), 'a=1&a=2');
  assert.equal(plain((await run(Promise.resolve(request))).data), { a: ['1', '2'] });
});

test('factory :: format and contentType together, or an unknown format, are errors', async () => {
  try {
    await factory.post('/echo/', { data: {}, format: 'json', contentType: 'text/plain' });
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, 'You may not set both `format` and `contentType`.');
  }
  try {
    await factory.post('/echo/', { data: {}, format: 'xml' });
    assert.unreachable();
  } catch (error) {
    assert.is(
      (error as Error).message,
      "Invalid format 'xml'. Available formats are 'multipart', 'json'. Set TEST_REQUEST_RENDERER_CLASSES to enable extra request formats.",
    );
  }
});

test('factory :: DELETE without data has no body and no content type', async () => {
  const request = await factory.delete('/echo/');
  assert.is(request.header('content-type'), undefined);
  assert.is((await run(Promise.resolve(request))).method, 'DELETE');
});

test('factory :: headers, secure and default headers', async () => {
  const withDefaults = new APIRequestFactory({ headers: { 'X-Custom': 'default' } });
  assert.is((await run(withDefaults.get('/echo/'))).header, 'default');
  assert.is((await run(withDefaults.get('/echo/', { headers: { 'X-Custom': 'mine' } }))).header, 'mine');
  const secure = await run(factory.get('/echo/', { secure: true }));
  assert.is(secure.secure, true);
  const request = await factory.get('/echo/');
  assert.is(request.getHost(), 'testserver');
});

test('factory :: forceAuthenticate sets request.user and request.auth', async () => {
  const alice = await User.objects.get({ username: 'alice' });
  const request = await factory.get('/echo/');
  forceAuthenticate(request, alice as unknown as AuthUser, 'tok');
  const data = await run(Promise.resolve(request));
  assert.is(data.user, 'alice');
  assert.is(data.auth, 'tok');
});

// -- APIClient -----------------------------------------------------------------------------------

test('client :: requests go through URL resolution and middleware', async () => {
  const client = new APIClient();
  const response = await client.get('/whoami/');
  assert.is(response.status, 200);
  assert.equal(json(response.data), { method: 'GET', user: null, auth: null, data: {} });
  assert.match(response.header('Content-Type') ?? '', /^application\/json/);
  assert.equal(response.json(), { method: 'GET', user: null, auth: null, data: {} });
  const missing = await client.get('/nope/');
  assert.is(missing.status, 404);
});

test('client :: cookies persist between requests and are deleted when expired', async () => {
  const client = new APIClient();
  await client.get('/cookies/?set=mint');
  assert.is(client.cookies.get('flavour'), 'mint');
  assert.is((await client.get('/cookies/')).header('X-Seen-Cookie'), 'mint');
  await client.get('/cookies/?delete=1');
  assert.not.ok(client.cookies.has('flavour'));
  assert.is((await client.get('/cookies/')).header('X-Seen-Cookie'), '');
});

test('client :: cookie values with separators, spaces, quotes and non-ASCII text round-trip', async () => {
  const client = new APIClient();
  for (const value of ['a b;c', 'say "hi", \\ bye', 'caf\u00e9 \u20ac=1', '']) {
    await client.get(`/cookies/?set=${encodeURIComponent(value)}`);
    assert.is(client.cookies.get('flavour'), value);
    const seen = await client.get('/cookies/');
    assert.is(seen.request.cookies.flavour, value);
    assert.is(Object.keys(seen.request.cookies).length, 1, 'no extra cookie parsed from the value');
  }
  // Sent as the host's test client sends its jar: quoted values, sorted by name.
  client.cookies.set('b', 'x y');
  client.cookies.set('a', 'plain');
  const sent = await client.get('/cookies/');
  assert.is(sent.request.headers.cookie, 'a=plain; b="x y"; flavour=""');
});

test('client :: credentials() adds headers to every request', async () => {
  const client = new APIClient();
  client.credentials({ Authorization: `Basic ${Buffer.from('alice:alice-pw').toString('base64')}` });
  assert.is(((await client.get('/basic/')).data as any).user, 'alice');
  assert.is(((await client.get('/basic/')).data as any).user, 'alice');
  client.credentials();
  const anonymous = await client.get('/basic/');
  assert.is(anonymous.status, 401);
  assert.is(anonymous.header('WWW-Authenticate'), 'Basic realm="api"');
});

test('client :: login() creates a session; wrong credentials return false; logout() ends it', async () => {
  const client = new APIClient();
  assert.not.ok(await client.login({ username: 'alice', password: 'wrong' }));
  assert.ok(await client.login({ username: 'alice', password: 'alice-pw' }));
  assert.is(((await client.get('/session/')).data as any).user, 'alice');
  await client.logout();
  assert.is((await client.get('/session/')).status, 403);
});

test('client :: forceLogin() logs in without a password', async () => {
  const client = new APIClient();
  await client.forceLogin((await User.objects.get({ username: 'alice' })) as unknown as AuthUser);
  const response = await client.post('/session/', { data: { x: 1 }, format: 'json' });
  assert.is(response.status, 200);
  assert.equal(json(response.data), { method: 'POST', user: 'alice', auth: null, data: { x: 1 } });
});

test('client :: forceAuthenticate() skips authentication until cleared', async () => {
  const client = new APIClient();
  const alice = (await User.objects.get({ username: 'alice' })) as unknown as AuthUser;
  await client.forceAuthenticate(alice, 'forced');
  const response = await client.get('/token/');
  assert.is(response.status, 200);
  assert.equal(json(response.data), { method: 'GET', user: 'alice', auth: 'forced', data: {} });
  await client.forceAuthenticate();
  assert.is((await client.get('/token/')).status, 401);
});

test('client :: HEAD answers without a body', async () => {
  const client = new APIClient();
  const response = await client.head('/whoami/');
  assert.is(response.status, 200);
  assert.is(response.content.length, 0);
});

// -- RequestsClient over a live server -----------------------------------------------------------

// Not in a rolled-back transaction: the live server answers from its own async contexts.
base('live :: RequestsClient talks HTTP to a live server, keeping cookies', async () => {
  server = await startLiveServer();
  const client = new RequestsClient(server.url);
  const response = await client.post('/whoami/', { json: { a: 1 } });
  assert.is(response.status, 200);
  assert.equal(response.json(), { method: 'POST', user: null, auth: null, data: { a: 1 } });
  await client.get('/cookies/?set=lime');
  assert.is((await client.get('/cookies/')).headers.get('x-seen-cookie'), 'lime');
  const form = await client.put('/whoami/', { data: { b: '2' } });
  assert.equal((form.json() as any).data, { b: '2' });
});

// -- transactionalSuite --------------------------------------------------------------------------

test('transactional :: writes inside a test are visible in it', async () => {
  await User.objects.createUser('ghost', null, 'pw');
  assert.ok(await User.objects.filter({ username: 'ghost' }).exists());
});

test('transactional :: and rolled back after it', async () => {
  assert.not.ok(await User.objects.filter({ username: 'ghost' }).exists());
  assert.ok(await User.objects.filter({ username: 'alice' }).exists());
});

base.run();
