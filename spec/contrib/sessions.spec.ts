/**
 * contrib.sessions: the database and cache stores (save/load, cycleKey, flush, expiry,
 * tampering), clearsessions, and SessionMiddleware's cookie handling.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings, settings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { createCache, type BaseCache } from '../../lib/core/cache';
import { HttpRequest, HttpResponse } from '../../lib/core/http';
import { callCommand } from '../../lib/core/management';
import { dumps } from '../../lib/core/signing';
import { SessionStore as DbStore } from '../../contrib/sessions/backends/db';
import { SessionStore as CacheStore } from '../../contrib/sessions/backends/cache';
import { SessionStore as CookieStore } from '../../contrib/sessions/backends/signedCookies';
import type { SessionBase } from '../../contrib/sessions/backends/base';
import { Session } from '../../contrib/sessions/models';
import { SessionMiddleware } from '../../contrib/sessions/middleware';

const test = suite('sessions');
useTestDatabase(test);

async function load<S extends SessionBase>(Store: new (key?: string | null) => S, key: string | null): Promise<S> {
  const store = new Store(key);
  await store.ensureLoaded();
  return store;
}

test('db :: save, load, values', async () => {
  const s = await load(DbStore, null);
  assert.ok(s.isEmpty());
  s.set('a', 1);
  s.set('nested', { list: [1, 'two'], ü: 'ö' });
  assert.ok(s.modified);
  await s.save();
  const key = s.sessionKey as string;
  assert.match(key, /^[a-z0-9]{32}$/);
  const row = await Session.objects.get({ session_key: key });
  assert.match(row.session_data, /^[.A-Za-z0-9_-]+:[0-9A-Za-z]+:[A-Za-z0-9_-]+$/, 'signed, Django 3.2 format');
  const again = await load(DbStore, key);
  assert.not.ok(again.accessed);
  assert.is(again.get('a'), 1);
  assert.equal(again.get('nested'), { list: [1, 'two'], ü: 'ö' });
  assert.ok(again.accessed);
  assert.not.ok(again.modified);
  assert.is(again.pop('a'), 1);
  assert.ok(again.modified);
  assert.is(again.get('missing', 'dflt'), 'dflt');
  assert.is(again.setDefault('x', 5), 5);
  assert.equal(again.keys().sort(), ['nested', 'x']);
});

test('db :: tampered data reads as an empty session', async () => {
  const s = await load(DbStore, null);
  s.set('is_admin', false);
  await s.save();
  const key = s.sessionKey as string;
  const row = await Session.objects.get({ session_key: key });
  const forged = dumps({ is_admin: true }, { salt: 'django.contrib.sessions.SessionStore', key: 'not-the-secret', compress: true });
  await Session.objects.filter({ session_key: key }).update({ session_data: forged });
  assert.equal((await load(DbStore, key)).items(), []);
  const [payload, ts, sig] = row.session_data.split(':');
  const flipped = `${payload.slice(0, -1)}${payload.endsWith('A') ? 'B' : 'A'}:${ts}:${sig}`;
  await Session.objects.filter({ session_key: key }).update({ session_data: flipped });
  assert.equal((await load(DbStore, key)).items(), []);
  // A correctly signed value is accepted.
  const genuine = dumps({ is_admin: true }, { salt: 'django.contrib.sessions.SessionStore', compress: true });
  await Session.objects.filter({ session_key: key }).update({ session_data: genuine });
  assert.is((await load(DbStore, key)).get('is_admin'), true);
});

test('db :: unknown or short keys start a fresh session', async () => {
  const unknown = await load(DbStore, 'x'.repeat(32));
  assert.is(unknown.sessionKey, null);
  assert.equal(unknown.items(), []);
  assert.is(new DbStore('short').sessionKey, null);
});

test('db :: cycleKey keeps the data under a new key', async () => {
  const s = await load(DbStore, null);
  s.set('k', 'v');
  await s.save();
  const old = s.sessionKey as string;
  await s.cycleKey();
  assert.is.not(s.sessionKey, old);
  await s.save();
  assert.not.ok(await s.exists(old));
  assert.is((await load(DbStore, s.sessionKey)).get('k'), 'v');
});

test('db :: flush removes the row and the key', async () => {
  const s = await load(DbStore, null);
  s.set('k', 'v');
  await s.save();
  const key = s.sessionKey as string;
  await s.flush();
  assert.is(s.sessionKey, null);
  assert.ok(s.isEmpty());
  assert.not.ok(await Session.objects.filter({ session_key: key }).exists());
});

test('db :: saving a session deleted meanwhile fails', async () => {
  const s = await load(DbStore, null);
  s.set('k', 'v');
  await s.save();
  await Session.objects.filter({ session_key: s.sessionKey }).delete();
  try {
    await s.save();
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).name, 'UpdateError');
  }
});

test('expiry :: setExpiry with seconds, dates, 0 and null', async () => {
  const s = await load(DbStore, null);
  assert.is(s.getExpiryAge(), settings.SESSION_COOKIE_AGE);
  s.setExpiry(60);
  assert.is(s.getExpiryAge(), 60);
  const now = new Date('2030-01-01T00:00:00Z');
  assert.is(s.getExpiryDate({ modification: now }).toISOString(), '2030-01-01T00:01:00.000Z');
  s.setExpiry(new Date(now.getTime() + 3600 * 1000));
  assert.is(s.getExpiryAge({ modification: now }), 3600);
  assert.not.ok(s.getExpireAtBrowserClose());
  s.setExpiry(0);
  assert.ok(s.getExpireAtBrowserClose());
  assert.is(s.getExpiryAge(), settings.SESSION_COOKIE_AGE);
  s.setExpiry(null);
  assert.not.ok(s.has('_session_expiry'));
  await overrideSettings({ SESSION_EXPIRE_AT_BROWSER_CLOSE: true }, () => assert.ok(s.getExpireAtBrowserClose()));
});

test('expiry :: expired rows are not loaded and clearsessions deletes them', async () => {
  const live = await load(DbStore, null);
  live.set('k', 'live');
  await live.save();
  const dead = await load(DbStore, null);
  dead.set('k', 'dead');
  await dead.save();
  await Session.objects.filter({ session_key: dead.sessionKey }).update({ expire_date: new Date(Date.now() - 1000) });
  assert.equal((await load(DbStore, dead.sessionKey)).items(), [], 'expired session is empty');
  const result = await callCommand('clearsessions');
  assert.is(result.exitCode, 0, result.stderr);
  assert.not.ok(await Session.objects.filter({ session_key: dead.sessionKey }).exists());
  assert.ok(await Session.objects.filter({ session_key: live.sessionKey }).exists());
});

async function cacheStoreSuite(label: string, cache: BaseCache): Promise<void> {
  class Store extends CacheStore {
    override get cache(): BaseCache {
      return cache;
    }
  }
  const s = await load(Store, null);
  s.set('k', label);
  await s.save();
  const key = s.sessionKey as string;
  assert.ok(await s.exists(key));
  assert.is((await load(Store, key)).get('k'), label);
  await s.cycleKey();
  await s.save();
  assert.not.ok(await s.exists(key), 'old key deleted');
  assert.is((await load(Store, s.sessionKey)).get('k'), label);
  const current = s.sessionKey as string;
  await s.flush();
  assert.not.ok(await s.exists(current));
  assert.is((await load(Store, current)).sessionKey, null, 'missing -> new session');
  const short = await load(Store, null);
  short.set('k', 1);
  short.setExpiry(1);
  await short.save();
  assert.ok(await short.exists(short.sessionKey as string));
}

test('cache :: local memory store', async () => {
  const cache = createCache(null);
  try {
    await cacheStoreSuite('locmem', cache);
  } finally {
    await cache.close();
  }
});

test('cache :: Redis store (CACHE_URL)', async () => {
  const url = process.env.CACHE_URL;
  if (!url || !url.startsWith('redis')) {
    console.log('  (skipped: set CACHE_URL=redis://... to run the Redis session store test)');
    return;
  }
  const cache = createCache(url, { keyPrefix: `sessions-spec-${process.pid}` });
  try {
    await cacheStoreSuite('redis', cache);
  } finally {
    await cache.clear();
    await cache.close();
  }
});

test('cache :: default engine through SESSION_ENGINE', async () => {
  await overrideSettings({ SESSION_ENGINE: 'contrib.sessions.backends.cache' }, async () => {
    const mw = new SessionMiddleware(async (r) => {
      r.session!.set('via', 'cache');
      return new HttpResponse('');
    });
    const response = await mw.handle(HttpRequest.create({ headers: { host: 'testserver' } }));
    const cookie = response.cookies.get('sessionid');
    assert.ok(cookie);
    assert.is((await load(CacheStore, cookie.value)).get('via'), 'cache');
    await new CacheStore(cookie.value).destroy();
  });
});

test('signedCookies :: the cookie carries the signed data; tampering is detected', async () => {
  const s = await load(CookieStore, null);
  s.set('user', 'alice');
  await s.save();
  const key = s.sessionKey as string;
  assert.ok(key.length > 8);
  assert.is((await load(CookieStore, key)).get('user'), 'alice');
  const tampered = `${key.slice(0, 5)}${key[5] === 'a' ? 'b' : 'a'}${key.slice(6)}`;
  assert.equal((await load(CookieStore, tampered)).items(), []);
  await s.cycleKey();
  assert.is((await load(CookieStore, s.sessionKey)).get('user'), 'alice');
  await s.flush();
  assert.ok(s.isEmpty());
});

function req(cookie?: string): HttpRequest {
  return HttpRequest.create({ headers: { host: 'testserver', ...(cookie ? { cookie: `sessionid=${cookie}` } : {}) } });
}

test('middleware :: a modified session is saved and its cookie set', async () => {
  const mw = new SessionMiddleware(async (r) => {
    r.session!.set('n', 1);
    return new HttpResponse('');
  });
  const response = await mw.handle(req());
  const cookie = response.cookies.get('sessionid');
  assert.ok(cookie);
  assert.is(cookie.options.httpOnly, true);
  assert.is(cookie.options.sameSite, 'Lax');
  assert.not.ok(cookie.options.secure);
  assert.is(cookie.options.maxAge, settings.SESSION_COOKIE_AGE);
  assert.ok(cookie.options.expires instanceof Date);
  assert.is(cookie.options.path, '/');
  assert.is(response.getHeader('Vary'), 'Cookie');
  const header = response.cookieHeaders()[0];
  assert.match(header, /^sessionid=[a-z0-9]{32}; Max-Age=1209600; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/);
  assert.is((await load(DbStore, cookie.value)).get('n'), 1);
});

test('middleware :: untouched sessions set no cookie and no Vary', async () => {
  const mw = new SessionMiddleware(async () => new HttpResponse(''));
  const response = await mw.handle(req());
  assert.is(response.cookies.size, 0);
  assert.is(response.getHeader('Vary'), undefined);
});

test('middleware :: read-only access adds Vary: Cookie only', async () => {
  const s = await load(DbStore, null);
  s.set('n', 1);
  await s.save();
  const mw = new SessionMiddleware(async (r) => {
    r.session!.get('n');
    return new HttpResponse('');
  });
  const response = await mw.handle(req(s.sessionKey as string));
  assert.is(response.cookies.size, 0);
  assert.is(response.getHeader('Vary'), 'Cookie');
});

test('middleware :: an emptied session deletes the cookie', async () => {
  const s = await load(DbStore, null);
  s.set('n', 1);
  await s.save();
  const mw = new SessionMiddleware(async (r) => {
    await r.session!.flush();
    return new HttpResponse('');
  });
  const response = await mw.handle(req(s.sessionKey as string));
  const cookie = response.cookies.get('sessionid');
  assert.ok(cookie);
  assert.is(cookie.value, '');
  assert.is(cookie.options.maxAge, 0);
});

test('middleware :: settings: secure, name, browser-close, save every request, 500', async () => {
  const s = await load(DbStore, null);
  s.set('n', 1);
  await s.save();
  await overrideSettings({ SESSION_COOKIE_SECURE: true, SESSION_SAVE_EVERY_REQUEST: true, SESSION_EXPIRE_AT_BROWSER_CLOSE: true }, async () => {
    const mw = new SessionMiddleware(async () => new HttpResponse(''));
    const response = await mw.handle(req(s.sessionKey as string));
    const cookie = response.cookies.get('sessionid');
    assert.ok(cookie, 'saved every request');
    assert.is(cookie.options.secure, true);
    assert.is(cookie.options.maxAge, null);
    assert.not.match(response.cookieHeaders()[0], 'Max-Age');
  });
  await overrideSettings({ SESSION_COOKIE_NAME: 'sid' }, async () => {
    const mw = new SessionMiddleware(async (r) => {
      r.session!.set('x', 1);
      return new HttpResponse('', { status: 500 });
    });
    const response = await mw.handle(req());
    assert.not.ok(response.cookies.has('sid'), 'not saved on a 500');
  });
});

test.run();
