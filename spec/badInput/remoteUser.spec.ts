/**
 * `RemoteUserMiddleware` / `PersistentRemoteUserMiddleware` (contrib/auth/middleware.ts) behind
 * the authentication middleware, request after request on one session, as Django 3.2: a new
 * name logs in, the same name keeps the session, another name switches user, a missing header
 * logs the remote user out (not a user who logged in with a password), unknown or inactive
 * names stay anonymous.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { HttpRequest, HttpResponse, type AuthUser } from '../../lib/core/http';
import { BACKEND_SESSION_KEY, login } from '../../contrib/auth';
import { User } from '../../contrib/auth/models';
import { AuthenticationMiddleware, PersistentRemoteUserMiddleware, RemoteUserMiddleware } from '../../contrib/auth/middleware';
import { SessionStore } from '../../contrib/sessions/backends/db';

const test = suite('badInput remoteUser');
useTestDatabase(test);

const REMOTE = 'contrib.auth.backends.RemoteUserBackend';
const MODEL = 'contrib.auth.backends.ModelBackend';
let restore: () => void = () => undefined;
test.before(() => {
  restore = overrideSettings.enter({
    AUTHENTICATION_BACKENDS: [REMOTE, MODEL],
    PASSWORD_HASHERS: ['contrib.auth.hashers.MD5PasswordHasher'],
  });
});
test.after(() => restore());

type RemoteClass = typeof RemoteUserMiddleware;

interface Visit {
  user: AuthUser;
  key: string | null;
  request: HttpRequest;
}

/**
 * One request on the session `key`: the authentication middleware, then `Middleware`, then a
 * view noting `request.user`; the session is saved as the session middleware would.
 */
async function visit(key: string | null, meta: Record<string, string> = {}, Middleware: RemoteClass = RemoteUserMiddleware, headers: Record<string, string> = {}): Promise<Visit> {
  const request = HttpRequest.create({ headers: { host: 'testserver', ...headers } });
  Object.assign(request.META, meta);
  const session = new SessionStore(key);
  await session.ensureLoaded();
  request.session = session;
  let seen: AuthUser | null = null;
  const chain = new AuthenticationMiddleware((r) =>
    new Middleware(async (inner) => {
      seen = inner.user;
      return new HttpResponse('');
    }).handle(r),
  );
  await chain.handle(request);
  if (session.modified) await session.save();
  return { user: seen!, key: session.sessionKey, request };
}

test('no header :: an anonymous request stays anonymous and starts no session', async () => {
  const { user, key } = await visit(null);
  assert.ok(user.isAnonymous);
  assert.is(key, null);
});

test('empty header :: no login, no user created', async () => {
  const before = await User.objects.count();
  const { user } = await visit(null, { REMOTE_USER: '' });
  assert.ok(user.isAnonymous);
  assert.is(await User.objects.count(), before);
});

test('header :: logs in (creating the user), the same name keeps the session', async () => {
  const first = await visit(null, { REMOTE_USER: 'knownuser' });
  assert.is(first.user.username, 'knownuser');
  assert.ok(first.key);
  assert.is(first.request.session!.get(BACKEND_SESSION_KEY), REMOTE);
  assert.ok(await User.objects.filter({ username: 'knownuser' }).exists());
  const second = await visit(first.key, { REMOTE_USER: 'knownuser' });
  assert.is(second.user.username, 'knownuser');
  assert.is(second.key, first.key, 'not logged in again (login would cycle the key)');
});

test('header :: another name switches user', async () => {
  const first = await visit(null, { REMOTE_USER: 'switchA' });
  const second = await visit(first.key, { REMOTE_USER: 'switchB' });
  assert.is(second.user.username, 'switchB');
  assert.is.not(second.key, first.key);
  const third = await visit(second.key);
  assert.ok(third.user.isAnonymous, 'and its session is the new user');
});

test('header disappears :: RemoteUserMiddleware logs the remote user out', async () => {
  const first = await visit(null, { REMOTE_USER: 'leaver' });
  const second = await visit(first.key);
  assert.ok(second.user.isAnonymous);
  assert.is(second.request.session!.get(BACKEND_SESSION_KEY), undefined);
  assert.not.ok(await new SessionStore().exists(first.key!), 'the old session is gone');
});

test('header disappears :: PersistentRemoteUserMiddleware keeps the user', async () => {
  const first = await visit(null, { REMOTE_USER: 'stayer' }, PersistentRemoteUserMiddleware);
  const second = await visit(first.key, {}, PersistentRemoteUserMiddleware);
  assert.is(second.user.username, 'stayer');
  assert.is(second.key, first.key);
});

test('password login :: a missing header leaves a ModelBackend user alone; a header switches', async () => {
  const user = await User.objects.createUser('pwuser', '', 'pw');
  const request = HttpRequest.create({ headers: { host: 'testserver' } });
  request.session = new SessionStore(null);
  await request.session.ensureLoaded();
  await login(request, user, MODEL);
  await request.session.save();
  const key = request.session.sessionKey;
  const kept = await visit(key);
  assert.is(kept.user.username, 'pwuser');
  assert.is(kept.key, key);
  const switched = await visit(key, { REMOTE_USER: 'remoteover' });
  assert.is(switched.user.username, 'remoteover');
  assert.is(switched.request.session!.get(BACKEND_SESSION_KEY), REMOTE);
});

test('unknown name :: with createUnknownUser false the request stays anonymous', async () => {
  await overrideSettings({ AUTHENTICATION_BACKENDS: ['spec.badInput.fixtures.KnownRemoteUserBackend'] }, async () => {
    const { user, key } = await visit(null, { REMOTE_USER: 'nobody-here' });
    assert.ok(user.isAnonymous);
    assert.is(key, null);
    assert.not.ok(await User.objects.filter({ username: 'nobody-here' }).exists());
  });
});

test('inactive user :: not logged in', async () => {
  await User.objects.create({ username: 'sleeper', password: '!', is_active: false });
  const { user } = await visit(null, { REMOTE_USER: 'sleeper' });
  assert.ok(user.isAnonymous);
});

test('cleanUsername :: the backend normalises the name, so ALICE is alice and keeps the session', async () => {
  await overrideSettings({ AUTHENTICATION_BACKENDS: ['spec.badInput.fixtures.LowercaseRemoteUserBackend'] }, async () => {
    const first = await visit(null, { REMOTE_USER: 'CasedUser' });
    assert.is(first.user.username, 'caseduser');
    const second = await visit(first.key, { REMOTE_USER: 'CASEDUSER' });
    assert.is(second.user.username, 'caseduser');
    assert.is(second.key, first.key);
  });
});

test('custom header :: a subclass reading HTTP_X_REMOTE_USER', async () => {
  class HeaderMiddleware extends RemoteUserMiddleware {
    override header = 'HTTP_X_REMOTE_USER';
  }
  const viaHeader = await visit(null, {}, HeaderMiddleware, { 'x-remote-user': 'headeruser' });
  assert.is(viaHeader.user.username, 'headeruser');
  // REMOTE_USER is not read by this subclass.
  const other = await visit(null, { REMOTE_USER: 'ignored' }, HeaderMiddleware);
  assert.ok(other.user.isAnonymous);
});

test('stale backend path :: cleanUsername keeps the name, removeInvalidUser logs out', async () => {
  const user = await User.objects.createUser('stale', '', 'pw');
  const request = HttpRequest.create({ headers: { host: 'testserver' } });
  request.session = new SessionStore(null);
  await request.session.ensureLoaded();
  await login(request, user, MODEL);
  request.session.set(BACKEND_SESSION_KEY, 'contrib.auth.backends.NoSuchBackend');
  const middleware = new RemoteUserMiddleware(async () => new HttpResponse(''));
  assert.is(middleware.cleanUsername('Stale', request), 'Stale');
  request.user = user;
  await middleware.processRequest(request);
  assert.ok(request.user.isAnonymous, 'a user whose backend cannot be loaded is logged out');
  request.session.set(BACKEND_SESSION_KEY, '');
  assert.is(middleware.cleanUsername('Stale', request), 'Stale');
});

test('misconfigured :: without the session (authentication) middleware', async () => {
  const middleware = new RemoteUserMiddleware(async () => new HttpResponse(''));
  try {
    await middleware.handle(HttpRequest.create({}));
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, 'requires the authentication middleware to be installed');
  }
});

test.run();
