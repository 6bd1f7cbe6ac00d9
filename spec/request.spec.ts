import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../lib/core/conf';
import { HttpRequest, QueryDict, type AuthUser } from '../lib/core/http';
import { AuthenticationFailed } from '../lib/exceptions';
import { DefaultContentNegotiation } from '../lib/negotiation';
import { JSONParser } from '../lib/parsers';
import { forceAuthenticate, Request, WrappedAttributeError } from '../lib/request';

const test = suite('request');

const alice = { pk: 1, id: 1, username: 'alice', isAuthenticated: true, isAnonymous: false } as AuthUser;
const bob = { pk: 2, id: 2, username: 'bob', isAuthenticated: true, isAnonymous: false } as AuthUser;

const make = (init: Parameters<typeof HttpRequest.create>[0] = {}, authenticators: Request['authenticators'] = []) =>
  new Request(HttpRequest.create({ url: '/?a=1&a=2', ...init }), {
    parsers: [new JSONParser()],
    negotiator: new DefaultContentNegotiation(),
    authenticators,
  });

test('proxy :: method, queryParams, contentType, headers', () => {
  const request = make({ method: 'post', headers: { 'content-type': 'application/json; charset=utf-8', 'x-thing': 'y' } });
  assert.is(request.method, 'POST');
  assert.equal(request.queryParams.getList('a'), ['1', '2']);
  assert.is(request.contentType, 'application/json; charset=utf-8');
  assert.is(request.header('X-Thing'), 'y');
  assert.is(request.META.HTTP_X_THING, 'y');
  assert.throws(() => new Request({} as HttpRequest), /must be an instance of `HttpRequest`/);
});

test('data :: explicit parse step, actionable error before it', async () => {
  const request = make({ method: 'POST', body: '{"x": 1}', headers: { 'content-type': 'application/json' } });
  assert.throws(() => request.data, /await request\.parseBody\(\)/);
  await request.parseBody();
  assert.equal(request.data, { x: 1 });
  assert.is(request.POST.size, 0);
  assert.is(request.files.size, 0);
});

test('data :: a parse error is thrown by parseBody and by the first read', async () => {
  const request = make({ method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
  try {
    await request.parseBody();
    assert.unreachable('should throw');
  } catch (error) {
    assert.match((error as Error).message, 'JSON parse error');
  }
  assert.throws(() => request.data, /JSON parse error/);
  assert.equal(request.data instanceof Object, true);
});

test('deprecated :: DATA, FILES, QUERY_PARAMS name their replacement', () => {
  const request = make();
  assert.throws(() => request.DATA, (error: Error) => error.message === '`request.DATA` has been deprecated in favor of `request.data` since version 3.0, and has been removed as of version 3.2.');
  assert.throws(() => request.FILES, /`request.FILES` has been deprecated in favor of `request.data`/);
  assert.throws(() => request.QUERY_PARAMS, /`request.QUERY_PARAMS` has been deprecated in favor of `request.query_params`/);
});

test('auth :: first successful authenticator wins; setter updates the host request', async () => {
  const calls: string[] = [];
  const scheme = (label: string, result: [AuthUser, unknown] | null) => ({
    authenticate() {
      calls.push(label);
      return result;
    },
  });
  const second = scheme('second', [alice, 'token-a']);
  const request = make({}, [scheme('first', null), second, scheme('third', [bob, null])]);
  assert.throws(() => request.user, /await request\.authenticate\(\)/);
  await request.authenticate();
  assert.equal(calls, ['first', 'second']);
  assert.is(request.user, alice);
  assert.is(request.auth, 'token-a');
  assert.is(request.successfulAuthenticator, second);
  assert.is(request.httpRequest.user, alice);
  request.user = bob;
  assert.is(request.httpRequest.user, bob);
});

test('auth :: none succeeds -> UNAUTHENTICATED_USER / TOKEN (null settings give null)', async () => {
  const request = make({}, [{ authenticate: () => null }]);
  await request.authenticate();
  assert.is(request.user?.isAnonymous, true);
  assert.is(request.auth, null);
  assert.is(request.successfulAuthenticator, null);
  await overrideSettings({ API_FRAMEWORK: { UNAUTHENTICATED_USER: null } }, async () => {
    const bare = make();
    await bare.authenticate();
    assert.is(bare.user, null);
  });
});

test('auth :: an APIException stops the chain, other errors are wrapped', async () => {
  let reached = false;
  const request = make({}, [{ authenticate: () => { throw new AuthenticationFailed(); } }, { authenticate: () => { reached = true; return null; } }]);
  try {
    await request.authenticate();
    assert.unreachable('should throw');
  } catch (error) {
    assert.instance(error, AuthenticationFailed);
  }
  assert.not.ok(reached);
  assert.is(request.user?.isAnonymous, true);
  const broken = make({}, [{ authenticate: () => (undefined as unknown as { x: { y: number } }).x.y as never }]);
  try {
    await broken.authenticate();
    assert.unreachable('should throw');
  } catch (error) {
    assert.instance(error, WrappedAttributeError);
  }
});

test('auth :: synchronous and asynchronous authenticators mix; a rejection is handled like a throw', async () => {
  const calls: string[] = [];
  const request = make({}, [
    { authenticate: async () => { calls.push('async-none'); return null; } },
    { authenticate: () => { calls.push('sync-none'); return null; } },
    { authenticate: async () => { calls.push('async-alice'); return [alice, 'a'] as [AuthUser, unknown]; } },
    { authenticate: () => { calls.push('sync-bob'); return [bob, 'b'] as [AuthUser, unknown]; } },
  ]);
  await request.authenticate();
  assert.equal(calls, ['async-none', 'sync-none', 'async-alice']);
  assert.is(request.user, alice);
  assert.is(request.auth, 'a');
  const rejected = make({}, [{ authenticate: () => Promise.reject(new AuthenticationFailed()) }]);
  try {
    await rejected.authenticate();
    assert.unreachable('should throw');
  } catch (error) {
    assert.instance(error, AuthenticationFailed);
  }
  assert.is(rejected.user?.isAnonymous, true);
  const broken = make({}, [{ authenticate: () => Promise.reject(new TypeError('x is undefined')) }]);
  try {
    await broken.authenticate();
    assert.unreachable('should throw');
  } catch (error) {
    assert.instance(error, WrappedAttributeError);
  }
});

test('auth :: authenticateNow() finishes at once while the authenticators answer at once; else answers a promise', async () => {
  const sync = make({}, [{ authenticate: () => null }, { authenticate: () => [bob, 'b'] as [AuthUser, unknown] }]);
  assert.is(sync.authenticateNow(), undefined);
  assert.ok(sync.isAuthenticationDone, 'done without waiting');
  assert.is(sync.user, bob);
  const later = make({}, [{ authenticate: () => null }, { authenticate: async () => [alice, 'a'] as [AuthUser, unknown] }]);
  const pending = later.authenticateNow();
  assert.instance(pending, Promise);
  assert.not.ok(later.isAuthenticationDone);
  await pending;
  assert.is(later.user, alice);
  // A synchronous failure is thrown by authenticateNow() and rejects authenticate().
  const failing = () => make({}, [{ authenticate: () => { throw new AuthenticationFailed(); } }]);
  assert.throws(() => failing().authenticateNow(), (error: unknown) => error instanceof AuthenticationFailed);
  let rejected: unknown = null;
  await failing().authenticate().catch((error: unknown) => (rejected = error));
  assert.instance(rejected, AuthenticationFailed);
});

test('data :: request.files of a request without a body is one empty dict, made when read', () => {
  const request = make({ method: 'GET' });
  void request.parseBody();
  assert.is(request.files.size, 0);
  assert.is(request.files, request.files);
});

test('data :: a request without a body is parsed at once; one with a body once awaited', async () => {
  const empty = make({ method: 'GET' });
  const pending = empty.parseBody();
  assert.ok(empty.isBodyParsed, 'no body: parsed without waiting');
  assert.equal(empty.data, {});
  await pending;
  const form = make({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  void form.parseBody();
  assert.ok(form.isBodyParsed);
  assert.is(form.data instanceof QueryDict, true, 'an empty form is an empty QueryDict');
  assert.is(form.httpRequest.POST, form.data, 'and it is the host request\'s POST');
  const json = make({ method: 'POST', body: '{"x": 1}', headers: { 'content-type': 'application/json' } });
  const parsing = json.parseBody();
  assert.not.ok(json.isBodyParsed, 'a body is read asynchronously');
  await parsing;
  assert.ok(json.isBodyParsed);
  assert.equal(json.data, { x: 1 });
});

test('forceAuthenticate :: replaces the authenticators', async () => {
  const httpRequest = HttpRequest.create({ url: '/' });
  forceAuthenticate(httpRequest, alice, 'tok');
  const request = new Request(httpRequest, { authenticators: [{ authenticate: () => [bob, null] }] });
  await request.authenticate();
  assert.is(request.user, alice);
  assert.is(request.auth, 'tok');
});

test('clone :: another method, same state', async () => {
  const request = make({}, [{ authenticate: () => [alice, 1] }]);
  await request.authenticate();
  await request.parseBody();
  const copy = request.clone('put');
  assert.is(copy.method, 'PUT');
  assert.is(copy.user, alice);
  assert.equal(copy.data, {});
  assert.is(request.method, 'GET');
});

test.run();
