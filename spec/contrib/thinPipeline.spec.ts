/**
 * The thin request pipeline of the session and authentication middleware: no session store
 * work without a session cookie, and `request.user` an accessor of the class (the request
 * keeps its shape) that still marks the session as read.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpRequest, HttpResponse } from '../../lib/core/http';
import { SessionStore as CookieStore } from '../../contrib/sessions/backends/signedCookies';
import { SessionMiddleware } from '../../contrib/sessions/middleware';
import { AuthenticationMiddleware } from '../../contrib/auth/middleware';
import { AnonymousUser } from '../../contrib/auth';
import type { SessionStoreClass } from '../../contrib/sessions/backends/base';

const test = suite('thin pipeline :: sessions and request.user');

let loads = 0;

/** A store counting the loads it is asked for. */
class CountingStore extends CookieStore {
  override async load(): Promise<Record<string, unknown>> {
    loads += 1;
    return super.load();
  }
}

class CountingSessionMiddleware extends SessionMiddleware {
  override storeClass(): SessionStoreClass {
    return CountingStore as unknown as SessionStoreClass;
  }
}

function chain(view: (request: HttpRequest) => HttpResponse): (request: HttpRequest) => Promise<HttpResponse> {
  const auth = new AuthenticationMiddleware(async (request) => view(request));
  const sessions = new CountingSessionMiddleware((request) => auth.handle(request));
  return (request) => sessions.handle(request);
}

test('no session cookie: the store is never loaded and the user is anonymous', async () => {
  loads = 0;
  let seen: unknown = null;
  const handle = chain((request) => {
    seen = request.user;
    return new HttpResponse('ok');
  });
  const response = await handle(HttpRequest.create({ url: '/', headers: { host: 'testserver' } }));
  assert.is(response.status, 200);
  assert.is(loads, 0);
  assert.instance(seen, AnonymousUser);
  // Reading the user counts as reading the session, as before.
  assert.is(response.getHeader('Vary'), 'Cookie');
});

test('with a session cookie the store is loaded once', async () => {
  loads = 0;
  const handle = chain(() => new HttpResponse('ok'));
  await handle(HttpRequest.create({ url: '/', headers: { host: 'testserver', cookie: 'sessionid=abcdefghijklmnopqrstuvwxyz012345' } }));
  assert.is(loads, 1);
});

test('request.user is the class accessor, never an own property; it can be set and read back', async () => {
  let request: HttpRequest | null = null;
  const handle = chain((r) => {
    request = r;
    assert.is(Object.getOwnPropertyDescriptor(r, 'user'), undefined);
    const other = new AnonymousUser();
    r.user = other;
    assert.is(r.user, other);
    return new HttpResponse('ok');
  });
  const response = await handle(HttpRequest.create({ url: '/', headers: { host: 'testserver' } }));
  assert.ok(request);
  assert.is(Object.getOwnPropertyDescriptor(request, 'user'), undefined);
  assert.is(response.getHeader('Vary'), 'Cookie');
});

test('a view that never reads the user leaves the session unread (no Vary: Cookie)', async () => {
  const handle = chain(() => new HttpResponse('ok'));
  const response = await handle(HttpRequest.create({ url: '/', headers: { host: 'testserver' } }));
  assert.is(response.getHeader('Vary'), undefined);
});

test.run();
