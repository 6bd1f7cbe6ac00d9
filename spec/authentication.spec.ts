import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fakeUser } from './helpers';
import { User } from '../contrib/auth/models';
import { overrideSettings, settings } from '../lib/core/conf';
import { useTestDatabase } from '../lib/core/db/testing';
import { ObjectDoesNotExist } from '../lib/core/exceptions';
import { anonymousUser, type AuthUser, type HttpResponse } from '../lib/core/http';
import {
  BaseAuthentication,
  BasicAuthentication,
  getAuthorizationHeader,
  RemoteUserAuthentication,
  SessionAuthentication,
  TokenAuthentication,
  type AuthResult,
  type TokenModel,
  type TokenRecord,
} from '../lib/authentication';
import { AuthenticationFailed } from '../lib/exceptions';
import { AllowAny, BasePermission, IsAuthenticated } from '../lib/permissions';
import type { Request } from '../lib/request';
import { Response } from '../lib/response';
import { APIClient, APIRequestFactory } from '../lib/test';
import { BaseThrottle } from '../lib/throttling';
import { APIView } from '../lib/views';

/** Plain JSON values (error details are String objects). */
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const test = suite('authentication');
useTestDatabase(test);

let restoreUrls: () => void = () => undefined;
test.before(() => {
  restoreUrls = overrideSettings.enter({
    ROOT_URLCONF: 'spec.fixtures.authUrls',
    // JSON only: these suites are about authentication, not the browsable API.
    API_FRAMEWORK: { ...settings.API_FRAMEWORK, DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'] },
  });
});
test.after(() => restoreUrls());

const factory = new APIRequestFactory();

function basic(username: string, password: string, encoding: BufferEncoding = 'utf8'): string {
  return `Basic ${Buffer.from(`${username}:${password}`, encoding).toString('base64')}`;
}

type Calls = string[];

/** An authenticator recording its call and answering as configured. */
function scheme(calls: Calls, label: string, answer: 'none' | 'fail' | AuthResult, header: string | null = null) {
  return class extends BaseAuthentication {
    override authenticate(): AuthResult | null {
      calls.push(label);
      if (answer === 'fail') throw new AuthenticationFailed(`${label} failed`);
      return answer === 'none' ? null : answer;
    }
    override authenticateHeader(): string | null {
      return header;
    }
  };
}

function recordingPermission(calls: Calls, grant = true) {
  return class extends BasePermission {
    override hasPermission(): boolean {
      calls.push('permission');
      return grant;
    }
  };
}

function recordingThrottle(calls: Calls) {
  return class extends BaseThrottle {
    override allowRequest(): boolean {
      calls.push('throttle');
      return true;
    }
  };
}


type Seen = { user: unknown; auth: unknown };

function viewWith(options: { authentication: Array<new () => BaseAuthentication>; permissions?: Array<new () => BasePermission>; throttles?: Array<new () => BaseThrottle>; seen?: Seen[]; calls?: Calls }) {
  class Probe extends APIView {
    override authenticationClasses = options.authentication;
    override permissionClasses = (options.permissions ?? [AllowAny]) as any;
    override throttleClasses = (options.throttles ?? []) as any;

    get(request: Request) {
      options.calls?.push('view');
      options.seen?.push({ user: request.user, auth: request.auth });
      return new Response({ ok: true });
    }

    post(request: Request) {
      return this.get(request);
    }
  }
  return Probe.asView();
}

async function call(view: ReturnType<typeof viewWith>, headers: Record<string, string> = {}, method: 'get' | 'post' = 'get'): Promise<HttpResponse & { data?: any }> {
  const request = await factory[method]('/probe/', { headers });
  return (await view(request, {})) as HttpResponse & { data?: any };
}

// -- Selection rules -----------------------------------------------------------------------------

test('selection :: schemes are tried in order and the first success wins', async () => {
  const calls: Calls = [];
  const seen: Seen[] = [];
  const user = fakeUser(9, 'bob');
  const view = viewWith({
    authentication: [scheme(calls, 'A', 'none'), scheme(calls, 'B', [user, 'token-b']), scheme(calls, 'C', [fakeUser(9, 'carol'), 'c'])],
    seen,
  });
  const response = await call(view);
  assert.is(response.status, 200);
  assert.equal(calls, ['A', 'B']);
  assert.is(seen[0].user, user);
  assert.is(seen[0].auth, 'token-b');
});

test('selection :: a failing scheme answers at once: no later scheme, no permission check', async () => {
  const calls: Calls = [];
  const view = viewWith({
    authentication: [scheme(calls, 'A', 'fail', 'A-realm'), scheme(calls, 'B', [fakeUser(9, 'bob'), null])],
    permissions: [recordingPermission(calls)],
    calls,
  });
  const response = await call(view);
  assert.is(response.status, 401);
  assert.equal(json(response.data), { detail: 'A failed' });
  assert.is(response.getHeader('WWW-Authenticate'), 'A-realm');
  assert.equal(calls, ['A']);
});

test('selection :: unauthenticated requests get the anonymous user and null auth', async () => {
  const calls: Calls = [];
  const seen: Seen[] = [];
  const view = viewWith({ authentication: [scheme(calls, 'A', 'none')], seen });
  await call(view);
  const user = seen[0].user as AuthUser;
  assert.ok(user.isAnonymous);
  assert.not.ok(user.isAuthenticated);
  assert.is(seen[0].auth, null);
});

test('selection :: UNAUTHENTICATED_USER null and UNAUTHENTICATED_TOKEN class', async () => {
  class AnonToken {
    readonly kind = 'anon-token';
  }
  const seen: Seen[] = [];
  const view = viewWith({ authentication: [scheme([], 'A', 'none')], seen });
  await overrideSettings({ API_FRAMEWORK: { ...settings.API_FRAMEWORK, UNAUTHENTICATED_USER: null, UNAUTHENTICATED_TOKEN: AnonToken } }, () => call(view));
  assert.is(seen[0].user, null);
  assert.instance(seen[0].auth, AnonToken);
});

test('selection :: authentication runs before permissions and throttles', async () => {
  const calls: Calls = [];
  const view = viewWith({
    authentication: [scheme(calls, 'auth', [fakeUser(9, 'bob'), null])],
    permissions: [recordingPermission(calls)],
    throttles: [recordingThrottle(calls)],
    calls,
  });
  await call(view);
  assert.equal(calls, ['auth', 'permission', 'throttle', 'view']);
});

// -- 401 versus 403 ------------------------------------------------------------------------------

test('401 vs 403 :: the first class has a header: 401 with WWW-Authenticate', async () => {
  const view = viewWith({ authentication: [BasicAuthentication, SessionAuthentication], permissions: [IsAuthenticated] });
  const response = await call(view);
  assert.is(response.status, 401);
  assert.is(response.getHeader('WWW-Authenticate'), 'Basic realm="api"');
  assert.equal(json(response.data), { detail: 'Authentication credentials were not provided.' });
});

test('401 vs 403 :: the first class has no header: 403 without WWW-Authenticate', async () => {
  const view = viewWith({ authentication: [SessionAuthentication, BasicAuthentication], permissions: [IsAuthenticated] });
  const response = await call(view);
  assert.is(response.status, 403);
  assert.is(response.getHeader('WWW-Authenticate'), undefined);
  assert.equal(json(response.data), { detail: 'Authentication credentials were not provided.' });
});

test('401 vs 403 :: failed credentials follow the first class too', async () => {
  const view = viewWith({ authentication: [SessionAuthentication, BasicAuthentication], permissions: [IsAuthenticated] });
  const response = await call(view, { Authorization: basic('nobody', 'wrong') });
  assert.is(response.status, 403);
  assert.equal(json(response.data), { detail: 'Invalid username/password.' });
});

test('401 vs 403 :: an authenticated but refused request is 403', async () => {
  const calls: Calls = [];
  const view = viewWith({
    authentication: [BasicAuthentication, scheme(calls, 'B', [fakeUser(9, 'bob'), null])],
    permissions: [recordingPermission(calls, false)],
  });
  const response = await call(view);
  assert.is(response.status, 403);
  assert.is(response.getHeader('WWW-Authenticate'), undefined);
  assert.equal(json(response.data), { detail: 'You do not have permission to perform this action.' });
});

// -- Basic ---------------------------------------------------------------------------------------

test('basic :: correct credentials authenticate the user with null auth', async () => {
  await User.objects.createUser('basicuser', 'b@example.com', 'secret pass');
  const seen: Seen[] = [];
  const view = viewWith({ authentication: [BasicAuthentication], permissions: [IsAuthenticated], seen });
  const response = await call(view, { Authorization: basic('basicuser', 'secret pass') });
  assert.is(response.status, 200);
  assert.is((seen[0].user as AuthUser).username, 'basicuser');
  assert.is(seen[0].auth, null);
});

test('basic :: wrong password is 401 Invalid username/password.', async () => {
  const view = viewWith({ authentication: [BasicAuthentication], permissions: [AllowAny] });
  const response = await call(view, { Authorization: basic('basicuser', 'nope') });
  assert.is(response.status, 401);
  assert.equal(json(response.data), { detail: 'Invalid username/password.' });
  assert.is(response.getHeader('WWW-Authenticate'), 'Basic realm="api"');
});

const basicHeaderErrors: Array<[string, string]> = [
  ['Basic', 'Invalid basic header. No credentials provided.'],
  ['basic   ', 'Invalid basic header. No credentials provided.'],
  ['Basic abc def', 'Invalid basic header. Credentials string should not contain spaces.'],
  ['Basic abc', 'Invalid basic header. Credentials not correctly base64 encoded.'],
  ['Basic a', 'Invalid basic header. Credentials not correctly base64 encoded.'],
  ['Basic YWJjZA=', 'Invalid basic header. Credentials not correctly base64 encoded.'],
];

for (const [header, detail] of basicHeaderErrors) {
  test(`basic :: header ${JSON.stringify(header)} -> ${detail}`, async () => {
    const view = viewWith({ authentication: [BasicAuthentication], permissions: [AllowAny] });
    const response = await call(view, { Authorization: header });
    assert.is(response.status, 401);
    assert.equal(json(response.data), { detail });
  });
}

test('basic :: other schemes are not attempted', async () => {
  const seen: Seen[] = [];
  const view = viewWith({ authentication: [BasicAuthentication], seen });
  const response = await call(view, { Authorization: 'Token abc' });
  assert.is(response.status, 200);
  assert.ok((seen[0].user as AuthUser).isAnonymous);
});

test('basic :: latin-1 credentials are decoded when not utf-8', async () => {
  await User.objects.createUser('latin', null, 'caf\u00e9');
  const view = viewWith({ authentication: [BasicAuthentication], permissions: [IsAuthenticated] });
  assert.is((await call(view, { Authorization: basic('latin', 'caf\u00e9', 'latin1') })).status, 200);
  assert.is((await call(view, { Authorization: basic('latin', 'caf\u00e9', 'utf8') })).status, 200);
});

test('basic :: inactive users are refused', async () => {
  await User.objects.createUser('sleepy', null, 'pw', { is_active: false });
  const view = viewWith({ authentication: [BasicAuthentication], permissions: [AllowAny] });
  // The model backend refuses inactive users itself.
  const response = await call(view, { Authorization: basic('sleepy', 'pw') });
  assert.is(response.status, 401);
  assert.equal(json(response.data), { detail: 'Invalid username/password.' });
  // A backend that lets inactive users through: the scheme refuses them.
  await overrideSettings({ AUTHENTICATION_BACKENDS: ['spec.fixtures.authBackends.AllowAllUsersBackend'] }, async () => {
    const again = await call(view, { Authorization: basic('sleepy', 'pw') });
    assert.is(again.status, 401);
    assert.equal(json(again.data), { detail: 'User inactive or deleted.' });
  });
});

test('getAuthorizationHeader :: missing header is the empty string', async () => {
  assert.is(getAuthorizationHeader(await factory.get('/')), '');
  assert.is(getAuthorizationHeader(await factory.get('/', { headers: { Authorization: 'Token x' } })), 'Token x');
});

// -- Session -------------------------------------------------------------------------------------

test('session :: a logged-in user is authenticated; safe methods need no CSRF token', async () => {
  await User.objects.createUser('sess', null, 'pw');
  const client = new APIClient({ enforceCsrfChecks: true });
  assert.ok(await client.login({ username: 'sess', password: 'pw' }));
  const response = await client.get('/session/');
  assert.is(response.status, 200);
  assert.is((response.data as any).user, 'sess');
});

test('session :: authenticated unsafe request without CSRF token is 403 with the reason', async () => {
  const client = new APIClient({ enforceCsrfChecks: true });
  assert.ok(await client.login({ username: 'sess', password: 'pw' }));
  const response = await client.post('/session/', { data: { a: 1 }, format: 'json' });
  assert.is(response.status, 403);
  assert.equal(json(response.data), { detail: 'CSRF Failed: CSRF cookie not set.' });
  // With the cookie but a wrong token.
  await client.get('/csrf/');
  const wrong = await client.post('/session/', { data: { a: 1 }, format: 'json', headers: { 'X-CSRFToken': 'x'.repeat(64) } });
  assert.is(wrong.status, 403);
  assert.equal(json(wrong.data), { detail: 'CSRF Failed: CSRF token missing or incorrect.' });
});

test('session :: authenticated unsafe request with a valid CSRF token passes', async () => {
  const client = new APIClient({ enforceCsrfChecks: true });
  assert.ok(await client.login({ username: 'sess', password: 'pw' }));
  const token = ((await client.get('/csrf/')).json() as { token: string }).token;
  const response = await client.post('/session/', { data: { a: 1 }, format: 'json', headers: { 'X-CSRFToken': token } });
  assert.is(response.status, 200);
  assert.equal(json(response.data), { method: 'POST', user: 'sess', auth: null, data: { a: 1 } });
});

test('session :: anonymous unsafe requests are not CSRF-checked', async () => {
  const client = new APIClient({ enforceCsrfChecks: true });
  const open = await client.post('/whoami/', { data: { a: 1 }, format: 'json' });
  assert.is(open.status, 200);
  const guarded = await client.post('/session/', { data: { a: 1 }, format: 'json' });
  assert.is(guarded.status, 403);
  assert.equal(json(guarded.data), { detail: 'Authentication credentials were not provided.' });
});

test('session :: the test client skips CSRF checks by default', async () => {
  const client = new APIClient();
  assert.ok(await client.login({ username: 'sess', password: 'pw' }));
  const response = await client.post('/session/', { data: { a: 2 }, format: 'json' });
  assert.is(response.status, 200);
});

test('session :: an inactive session user is not authenticated', async () => {
  const sleepy = await User.objects.get({ username: 'sleepy' });
  const request = await factory.get('/');
  request.user = sleepy as unknown as AuthUser;
  const result = await new SessionAuthentication().authenticate({ httpRequest: request } as unknown as Request);
  assert.is(result, null);
  request.user = anonymousUser;
  assert.is(await new SessionAuthentication().authenticate({ httpRequest: request } as unknown as Request), null);
});

// -- Remote user ---------------------------------------------------------------------------------

test('remote user :: REMOTE_USER authenticates and creates unknown users', async () => {
  const seen: Seen[] = [];
  const view = viewWith({ authentication: [RemoteUserAuthentication], permissions: [IsAuthenticated], seen });
  await overrideSettings({ AUTHENTICATION_BACKENDS: ['contrib.auth.backends.RemoteUserBackend'] }, async () => {
    const request = await factory.get('/', { meta: { REMOTE_USER: 'remote-newbie' } });
    const response = (await view(request, {})) as HttpResponse;
    assert.is(response.status, 200);
    assert.is((seen[0].user as AuthUser).username, 'remote-newbie');
    assert.ok(await User.objects.filter({ username: 'remote-newbie' }).exists());
    // Without the header the scheme is not attempted.
    const anonymous = (await view(await factory.get('/'), {})) as HttpResponse;
    assert.is(anonymous.status, 403);
  });
});

test('remote user :: the META key is configurable', async () => {
  class ProxyUser extends RemoteUserAuthentication {
    override header = 'HTTP_X_PROXY_USER';
  }
  const seen: Seen[] = [];
  const view = viewWith({ authentication: [ProxyUser], permissions: [IsAuthenticated], seen });
  await overrideSettings({ AUTHENTICATION_BACKENDS: ['contrib.auth.backends.RemoteUserBackend'] }, async () => {
    const response = (await view(await factory.get('/', { headers: { 'X-Proxy-User': 'sess' } }), {})) as HttpResponse;
    assert.is(response.status, 200);
    assert.is((seen[0].user as AuthUser).username, 'sess');
  });
});

// -- Token ---------------------------------------------------------------------------------------

function tokenModel(records: TokenRecord[]): TokenModel {
  return {
    objects: {
      selectRelated: () => ({
        get: async (lookups: Record<string, unknown>) => {
          const found = records.find((record) => record.key === lookups.key);
          if (!found) throw new ObjectDoesNotExist('Token matching query does not exist.');
          return found;
        },
      }),
    },
  };
}

const activeToken: TokenRecord = { key: 'abc123', user: fakeUser(9, 'tokenuser') };
const inactiveToken: TokenRecord = { key: 'sleepy1', user: { ...fakeUser(9, 'sleepy'), is_active: false } };

class FakeTokenAuthentication extends TokenAuthentication {
  override model = tokenModel([activeToken, inactiveToken]);
}

class BearerAuthentication extends FakeTokenAuthentication {
  override keyword = 'Bearer';
}

test('token :: a valid key authenticates; auth is the token record', async () => {
  const seen: Seen[] = [];
  const view = viewWith({ authentication: [FakeTokenAuthentication], permissions: [IsAuthenticated], seen });
  const response = await call(view, { Authorization: 'Token abc123' });
  assert.is(response.status, 200);
  assert.is(seen[0].user, activeToken.user);
  assert.is(seen[0].auth, activeToken);
  // The keyword is case-insensitive.
  assert.is((await call(view, { Authorization: 'token abc123' })).status, 200);
});

const tokenErrors: Array<[string, string]> = [
  ['Token', 'Invalid token header. No credentials provided.'],
  ['Token abc 123', 'Invalid token header. Token string should not contain spaces.'],
  ['Token \u00ff\u00fe', 'Invalid token header. Token string should not contain invalid characters.'],
  ['Token unknown', 'Invalid token.'],
  ['Token sleepy1', 'User inactive or deleted.'],
];

for (const [header, detail] of tokenErrors) {
  test(`token :: ${JSON.stringify(header)} -> 401 ${detail}`, async () => {
    const view = viewWith({ authentication: [FakeTokenAuthentication], permissions: [AllowAny] });
    const response = await call(view, { Authorization: header });
    assert.is(response.status, 401);
    assert.equal(json(response.data), { detail });
    assert.is(response.getHeader('WWW-Authenticate'), 'Token');
  });
}

test('token :: unauthenticated request is 401 with the keyword as challenge', async () => {
  const view = viewWith({ authentication: [FakeTokenAuthentication], permissions: [IsAuthenticated] });
  const response = await call(view);
  assert.is(response.status, 401);
  assert.is(response.getHeader('WWW-Authenticate'), 'Token');
});

test('token :: Bearer by subclassing the keyword', async () => {
  const view = viewWith({ authentication: [BearerAuthentication], permissions: [IsAuthenticated] });
  assert.is((await call(view, { Authorization: 'Bearer abc123' })).status, 200);
  const other = await call(view, { Authorization: 'Token abc123' });
  assert.is(other.status, 401);
  assert.is(other.getHeader('WWW-Authenticate'), 'Bearer');
});

test('token :: the default model is the authtoken app Token, loaded lazily', () => {
  const model = new TokenAuthentication().getModel();
  assert.type(model.objects.selectRelated, 'function');
});

test.run();
