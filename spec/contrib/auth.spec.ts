/**
 * contrib.auth: the user model and its password handling, authenticate() through the
 * backends, login/logout/getUser with sessions, the permission matrix, default permissions
 * created after migrate, the middleware and the createsuperuser / changepassword commands.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { migrate } from '../../lib/core/db';
import { HttpRequest, HttpResponse } from '../../lib/core/http';
import { callCommand } from '../../lib/core/management';
import {
  authenticate,
  getUser,
  getUserModel,
  login,
  logout,
  userLoginFailed,
  SESSION_KEY,
  BACKEND_SESSION_KEY,
  HASH_SESSION_KEY,
} from '../../contrib/auth';
import { AnonymousUser } from '../../contrib/auth/anonymous';
import { RemoteUserBackend } from '../../contrib/auth/backends';
import { ContentType, Group, Permission, User } from '../../contrib/auth/models';
import { AuthenticationMiddleware, RemoteUserMiddleware } from '../../contrib/auth/middleware';
import { SessionStore } from '../../contrib/sessions/backends/db';
import { getToken, compareMaskedTokens } from '../../lib/core/middleware/csrf';
import { Session } from '../../contrib/sessions/models';
import { dumps, getRandomString, saltedHmac } from '../../lib/core/signing';

const test = suite('auth');
useTestDatabase(test);

const FAST_HASHERS = ['contrib.auth.hashers.MD5PasswordHasher', 'contrib.auth.hashers.PBKDF2PasswordHasher'];
let restore: () => void = () => undefined;
test.before(() => {
  restore = overrideSettings.enter({ PASSWORD_HASHERS: FAST_HASHERS });
});
test.after(() => restore());

async function requestWithSession(key: string | null = null): Promise<HttpRequest> {
  const request = HttpRequest.create({ headers: { host: 'testserver' } });
  const session = new SessionStore(key);
  await session.ensureLoaded();
  request.session = session;
  return request;
}

let counter = 0;
function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}`;
}

test('user model :: Django columns and defaults', async () => {
  const user = await User.objects.createUser('john', 'John@EXAMPLE.com', 'pw');
  const fresh = await User.objects.get({ username: 'john' });
  assert.is(fresh.email, 'John@example.com', 'domain lower-cased');
  assert.is(fresh.is_staff, false);
  assert.is(fresh.is_superuser, false);
  assert.is(fresh.is_active, true);
  assert.is(fresh.first_name, '');
  assert.is(fresh.last_login, null);
  assert.instance(fresh.date_joined, Date);
  assert.is(fresh.pk, user.id);
  assert.ok(fresh.isAuthenticated);
  assert.not.ok(fresh.isAnonymous);
  assert.is(String(fresh), 'john');
  fresh.first_name = 'John';
  fresh.last_name = 'Smith';
  assert.is(fresh.getFullName(), 'John Smith');
  assert.is(fresh.getShortName(), 'John');
});

test('user model :: username is unique', async () => {
  await User.objects.createUser('dupe', '', 'pw');
  try {
    await User.objects.createUser('dupe', '', 'pw');
    assert.unreachable('duplicate username accepted');
  } catch (error) {
    assert.is((error as Error).name, 'SequelizeUniqueConstraintError');
  }
});

test('user model :: createSuperuser sets the flags and refuses contradictions', async () => {
  const admin = await User.objects.createSuperuser('root1', 'root@example.com', 'pw');
  assert.ok(admin.is_staff && admin.is_superuser);
  try {
    await User.objects.createSuperuser('root2', '', 'pw', { is_staff: false });
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, 'Superuser must have is_staff: true.');
  }
  try {
    await User.objects.createUser('', '', 'pw');
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, 'The given username must be set');
  }
});

test('passwords :: set, check, unusable', async () => {
  const user = await User.objects.createUser(uniqueName('pw'), '', 'first');
  assert.ok(await user.checkPassword('first'));
  assert.not.ok(await user.checkPassword('second'));
  await user.setPassword('second');
  await user.save();
  const reloaded = await User.objects.get({ id: user.id });
  assert.ok(await reloaded.checkPassword('second'));
  await reloaded.setUnusablePassword();
  assert.not.ok(reloaded.hasUsablePassword());
  assert.not.ok(await reloaded.checkPassword(''));
  const noPassword = await User.objects.createUser(uniqueName('nopw'));
  assert.not.ok(noPassword.hasUsablePassword());
});

test('passwords :: an outdated hash is upgraded in the database on a successful check', async () => {
  const user = await User.objects.createUser(uniqueName('upg'), '', 'pw');
  assert.ok(user.password.startsWith('md5$'));
  await overrideSettings({ PASSWORD_HASHERS: ['contrib.auth.hashers.PBKDF2PasswordHasher', 'contrib.auth.hashers.MD5PasswordHasher'] }, async () => {
    const reloaded = await User.objects.get({ id: user.id });
    assert.not.ok(await reloaded.checkPassword('wrong'));
    assert.ok((await User.objects.get({ id: user.id })).password.startsWith('md5$'), 'no upgrade on failure');
    assert.ok(await reloaded.checkPassword('pw'));
    const stored = (await User.objects.get({ id: user.id })).password;
    assert.match(stored, /^pbkdf2_sha256\$260000\$/);
    assert.ok(await reloaded.checkPassword('pw'));
  });
});

test('validator :: usernames', () => {
  const v = User.usernameValidator;
  for (const ok of ['alice', 'a.b+c-d_e@f', 'Zoë', '用户']) v.validate(ok);
  for (const bad of ['has space', 'semi;colon', 'new\n', 'quote"']) {
    assert.throws(
      () => v.validate(bad),
      (e: Error) => e.message === 'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.',
      bad,
    );
  }
});

test('anonymous :: the user of nobody', async () => {
  const anon = new AnonymousUser();
  assert.is(anon.pk, null);
  assert.is(anon.id, null);
  assert.is(anon.username, '');
  assert.not.ok(anon.isAuthenticated);
  assert.ok(anon.isAnonymous);
  assert.not.ok(anon.is_active || anon.is_staff || anon.is_superuser);
  assert.equal([...anon.groups], []);
  assert.equal([...anon.user_permissions], []);
  assert.not.ok(await anon.hasPerm('auth.add_user'));
  assert.not.ok(await anon.hasModulePerms('auth'));
  assert.is(String(anon), 'AnonymousUser');
  assert.ok(anon.equals(new AnonymousUser()));
  try {
    await anon.save();
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, "Django doesn't provide a DB representation for AnonymousUser.");
  }
});

test('getUserModel :: AUTH_USER_MODEL', async () => {
  assert.is(getUserModel(), User);
  await overrideSettings({ AUTH_USER_MODEL: 'auth.Nope' }, () => {
    assert.throws(() => getUserModel(), /AUTH_USER_MODEL refers to model 'auth.Nope' that has not been installed/);
  });
  await overrideSettings({ AUTH_USER_MODEL: 'nodot' }, () => {
    assert.throws(() => getUserModel(), /must be of the form 'app_label.model_name'/);
  });
});

test('authenticate :: ModelBackend accepts the right password only', async () => {
  await User.objects.createUser('carol', '', 'carol-pw');
  const user = await authenticate(null, { username: 'carol', password: 'carol-pw' });
  assert.ok(user);
  assert.is(user.username, 'carol');
  assert.is(await authenticate(null, { username: 'carol', password: 'nope' }), null);
  assert.is(await authenticate(null, { username: 'nobody', password: 'carol-pw' }), null);
  assert.is(await authenticate(null, { username: 'carol' }), null);
  assert.is(await authenticate(null, { token: 'x' }), null);
});

test('authenticate :: inactive users are refused', async () => {
  await User.objects.createUser('sleepy', '', 'pw', { is_active: false });
  assert.is(await authenticate(null, { username: 'sleepy', password: 'pw' }), null);
});

test('authenticate :: failure sends userLoginFailed with the password masked', async () => {
  const seen: Array<Record<string, unknown>> = [];
  const receiver = ({ credentials }: { credentials: Record<string, unknown> }): void => void seen.push(credentials);
  userLoginFailed.connect(null, receiver);
  try {
    await authenticate(null, { username: 'ghost', password: 'secret' });
  } finally {
    userLoginFailed.disconnect(null, receiver);
  }
  assert.equal(seen, [{ username: 'ghost', password: '********************' }]);
});

test('authenticate :: RemoteUserBackend creates unknown users', async () => {
  await overrideSettings({ AUTHENTICATION_BACKENDS: ['contrib.auth.backends.RemoteUserBackend'] }, async () => {
    assert.not.ok(await User.objects.filter({ username: 'remote1' }).exists());
    const user = await authenticate(null, { remoteUser: 'remote1' });
    assert.ok(user);
    assert.ok(await User.objects.filter({ username: 'remote1' }).exists());
    const again = await authenticate(null, { remoteUser: 'remote1' });
    assert.is(again?.pk, user.pk);
    assert.is(await User.objects.filter({ username: 'remote1' }).count(), 1);
    assert.is(await authenticate(null, { remoteUser: '' }), null);
    assert.is(await authenticate(null, { username: 'remote1', password: 'x' }), null);
  });
});

test('authenticate :: RemoteUserBackend hooks (no creation, cleanUsername)', async () => {
  const backend = new (class extends RemoteUserBackend {
    override createUnknownUser = false;
    override cleanUsername(username: string): string {
      return username.split('@')[0];
    }
  })();
  assert.is(await backend.authenticate(null, { remoteUser: 'stranger@REALM' }), null);
  assert.not.ok(await User.objects.filter({ username: 'stranger' }).exists());
  await User.objects.createUser('known', '', null);
  const user = await backend.authenticate(null, { remoteUser: 'known@REALM' });
  assert.is(user?.username, 'known');
});

test('login :: stores the user, rotates the session key and the CSRF token', async () => {
  const user = await User.objects.createUser(uniqueName('login'), '', 'pw');
  const request = await requestWithSession();
  request.session!.set('cart', [1, 2]);
  await request.session!.save();
  const before = request.session!.sessionKey;
  assert.ok(before);
  const tokenBefore = getToken(request);
  const authed = await authenticate(request, { username: user.username, password: 'pw' });
  assert.ok(authed);
  await login(request, authed);
  const session = request.session!;
  assert.ok(session.sessionKey);
  assert.is.not(session.sessionKey, before, 'new session key');
  assert.is(session.get(SESSION_KEY), String(user.id));
  assert.is(session.get(BACKEND_SESSION_KEY), 'contrib.auth.backends.ModelBackend');
  assert.is(session.get(HASH_SESSION_KEY), user.getSessionAuthHash());
  assert.equal(session.get('cart'), [1, 2], 'values survive the key change');
  assert.is(request.user, authed);
  assert.not.ok(compareMaskedTokens(getToken(request), tokenBefore), 'CSRF secret rotated');
  assert.not.ok(await new SessionStore().exists(before), 'old session row deleted');
  assert.ok((await User.objects.get({ id: user.id })).last_login instanceof Date, 'last_login updated');
});

test('login :: another user in the session flushes it first', async () => {
  const a = await User.objects.createUser(uniqueName('a'), '', 'pw');
  const b = await User.objects.createUser(uniqueName('b'), '', 'pw');
  const request = await requestWithSession();
  await login(request, a, 'contrib.auth.backends.ModelBackend');
  request.session!.set('private', 'of a');
  await login(request, b, 'contrib.auth.backends.ModelBackend');
  assert.is(request.session!.get('private'), undefined);
  assert.is(request.session!.get(SESSION_KEY), String(b.id));
});

test('getUser :: restores the user from a saved session; a password change logs out', async () => {
  const user = await User.objects.createUser(uniqueName('gu'), '', 'pw');
  const request = await requestWithSession();
  await login(request, user, 'contrib.auth.backends.ModelBackend');
  await request.session!.save();
  const key = request.session!.sessionKey;

  const next = await requestWithSession(key);
  const restored = await getUser(next);
  assert.ok(restored.isAuthenticated);
  assert.is(restored.pk, user.id);

  await user.setPassword('changed');
  await user.save();
  const after = await requestWithSession(key);
  const anon = await getUser(after);
  assert.ok(anon.isAnonymous, 'hash mismatch -> anonymous');
  assert.is(after.session!.sessionKey, null, 'session flushed');
});

test('getUser :: unknown backend, inactive user and empty session are anonymous', async () => {
  assert.ok((await getUser(await requestWithSession())).isAnonymous);
  const user = await User.objects.createUser(uniqueName('gi'), '', 'pw');
  const request = await requestWithSession();
  await login(request, user, 'contrib.auth.backends.ModelBackend');
  await request.session!.save();
  const key = request.session!.sessionKey;
  await overrideSettings({ AUTHENTICATION_BACKENDS: ['contrib.auth.backends.RemoteUserBackend'] }, async () => {
    assert.ok((await getUser(await requestWithSession(key))).isAnonymous);
  });
  user.is_active = false;
  await user.save();
  assert.ok((await getUser(await requestWithSession(key))).isAnonymous);
});

/** A `django_session` row exactly as Django 3.2's `db` engine writes one after `login()`. */
async function djangoSessionFor(user: User, backend: string): Promise<string> {
  const data = {
    _auth_user_id: String(user.id),
    _auth_user_backend: backend,
    _auth_user_hash: saltedHmac('django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash', user.password, undefined, 'sha256').digest('hex'),
  };
  const key = getRandomString(32, 'abcdefghijklmnopqrstuvwxyz0123456789');
  await Session.objects.create({
    session_key: key,
    session_data: dumps(data, { salt: 'django.contrib.sessions.SessionStore', compress: true }),
    expire_date: new Date(Date.now() + 3600_000),
  });
  return key;
}

test("getUser :: a session written by Django (django.contrib.auth.backends.ModelBackend) keeps its user", async () => {
  const user = await User.objects.createUser(uniqueName('dj'), '', 'pw');
  const key = await djangoSessionFor(user, 'django.contrib.auth.backends.ModelBackend');
  const restored = await getUser(await requestWithSession(key));
  assert.ok(restored.isAuthenticated);
  assert.is(restored.pk, user.id);
  // Through the middleware, as a request carrying the original's cookie would be.
  let seen = '';
  const mw = new AuthenticationMiddleware(async (r) => {
    seen = r.user.username;
    return new HttpResponse('');
  });
  await mw.handle(await requestWithSession(key));
  assert.is(seen, user.username);
  // A ported settings module may name Django's paths too.
  await overrideSettings({ AUTHENTICATION_BACKENDS: ['django.contrib.auth.backends.ModelBackend'] }, async () => {
    assert.is((await getUser(await requestWithSession(key))).pk, user.id);
    const ours = await djangoSessionFor(user, 'contrib.auth.backends.ModelBackend');
    assert.is((await getUser(await requestWithSession(ours))).pk, user.id);
    assert.is((await authenticate(null, { username: user.username, password: 'pw' }))?.pk, user.id);
  });
  // Another backend's path, or an unknown one, still gives nobody.
  assert.ok((await getUser(await requestWithSession(await djangoSessionFor(user, 'django.contrib.auth.backends.RemoteUserBackend')))).isAnonymous);
  assert.ok((await getUser(await requestWithSession(await djangoSessionFor(user, 'django.contrib.auth.backends.Nope')))).isAnonymous);
  // A wrong hash (the password changed on the other side) logs out, as in the original.
  const stale = await djangoSessionFor(user, 'django.contrib.auth.backends.ModelBackend');
  await user.setPassword('changed');
  await user.save();
  assert.ok((await getUser(await requestWithSession(stale))).isAnonymous);
});

test('logout :: flushes the session and makes the user anonymous', async () => {
  const user = await User.objects.createUser(uniqueName('lo'), '', 'pw');
  const request = await requestWithSession();
  await login(request, user, 'contrib.auth.backends.ModelBackend');
  await request.session!.save();
  const key = request.session!.sessionKey as string;
  await logout(request);
  assert.ok(request.user.isAnonymous);
  assert.is(request.session!.sessionKey, null);
  assert.equal(request.session!.keys(), []);
  assert.not.ok(await new SessionStore().exists(key));
});

test('middleware :: AuthenticationMiddleware sets request.user before the view', async () => {
  const user = await User.objects.createUser(uniqueName('mw'), '', 'pw');
  const request = await requestWithSession();
  await login(request, user, 'contrib.auth.backends.ModelBackend');
  await request.session!.save();
  const next = await requestWithSession(request.session!.sessionKey);
  let seen = '';
  const mw = new AuthenticationMiddleware(async (r) => {
    seen = r.user.username;
    return new HttpResponse('');
  });
  await mw.handle(next);
  assert.is(seen, user.username);
  const bare = HttpRequest.create({});
  try {
    await mw.handle(bare);
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, 'requires session middleware');
  }
});

test('middleware :: RemoteUserMiddleware logs in REMOTE_USER', async () => {
  await overrideSettings({ AUTHENTICATION_BACKENDS: ['contrib.auth.backends.RemoteUserBackend'] }, async () => {
    const request = await requestWithSession();
    request.META.REMOTE_USER = 'webuser';
    let seen = '';
    const mw = new RemoteUserMiddleware(async (r) => {
      seen = r.user.username;
      return new HttpResponse('');
    });
    await mw.handle(request);
    assert.is(seen, 'webuser');
    assert.is(request.session!.get(BACKEND_SESSION_KEY), 'contrib.auth.backends.RemoteUserBackend');
    // The header disappears: the remote user is logged out.
    const next = await requestWithSession(request.session!.sessionKey);
    await mw.handle(next);
    assert.ok(next.user.isAnonymous);
  });
});

test('permissions :: default permissions exist after migrate, idempotently', async () => {
  const perm = await Permission.objects.selectRelated('content_type').get({ codename: 'add_user' });
  assert.is(perm.name, 'Can add user');
  assert.is(perm.content_type?.app_label, 'auth');
  assert.is(perm.content_type?.model, 'user');
  for (const codename of ['change_group', 'delete_permission', 'view_contenttype', 'add_session']) {
    assert.ok(await Permission.objects.filter({ codename }).exists(), codename);
  }
  assert.ok(await ContentType.objects.filter({ app_label: 'contenttypes', model: 'contenttype' }).exists());
  assert.ok(await ContentType.objects.filter({ app_label: 'sessions', model: 'session' }).exists());
  assert.not.ok(await ContentType.objects.filter({ model: 'usergroup' }).exists(), 'no content type for join tables');
  const count = await Permission.objects.count();
  await migrate();
  assert.is(await Permission.objects.count(), count);
});

async function perm(codename: string): Promise<Permission> {
  return Permission.objects.get({ codename });
}

test('hasPerm :: direct user permissions', async () => {
  const user = await User.objects.createUser(uniqueName('p'), '', 'pw');
  await user.$add('user_permissions', await perm('change_group'));
  const fresh = await User.objects.get({ id: user.id });
  assert.ok(await fresh.hasPerm('auth.change_group'));
  assert.not.ok(await fresh.hasPerm('auth.delete_group'));
  assert.ok(await fresh.hasModulePerms('auth'));
  assert.not.ok(await fresh.hasModulePerms('sessions'));
  assert.equal([...(await fresh.getUserPermissions())], ['auth.change_group']);
  assert.equal([...(await fresh.getGroupPermissions())], []);
  assert.not.ok(await fresh.hasPerm('auth.change_group', { some: 'object' }), 'no object permissions');
});

test('hasPerm :: permissions through groups', async () => {
  const group = await Group.objects.create({ name: uniqueName('grp') });
  await group.$add('permissions', [await perm('add_group'), await perm('view_user')]);
  const user = await User.objects.createUser(uniqueName('g'), '', 'pw');
  await user.$add('groups', group);
  const fresh = await User.objects.get({ id: user.id });
  assert.ok(await fresh.hasPerms(['auth.add_group', 'auth.view_user']));
  assert.not.ok(await fresh.hasPerms(['auth.add_group', 'auth.delete_user']));
  assert.equal([...(await fresh.getGroupPermissions())].sort(), ['auth.add_group', 'auth.view_user']);
  assert.equal([...(await fresh.getAllPermissions())].sort(), ['auth.add_group', 'auth.view_user']);
});

test('hasPerm :: permissions are cached per user instance', async () => {
  const user = await User.objects.createUser(uniqueName('c'), '', 'pw');
  const fresh = await User.objects.get({ id: user.id });
  assert.not.ok(await fresh.hasPerm('auth.add_user'));
  await user.$add('user_permissions', await perm('add_user'));
  assert.not.ok(await fresh.hasPerm('auth.add_user'), 'cached on the instance');
  assert.ok(await (await User.objects.get({ id: user.id })).hasPerm('auth.add_user'), 'a new instance sees it');
  await fresh.refreshFromDb();
  assert.ok(await fresh.hasPerm('auth.add_user'), 'refreshFromDb clears the cache');
});

test('hasPerm :: active superusers have all permissions, inactive users none', async () => {
  const admin = await User.objects.createSuperuser(uniqueName('su'), '', 'pw');
  assert.ok(await admin.hasPerm('anything.at_all'));
  assert.ok(await admin.hasModulePerms('whatever'));
  assert.ok((await admin.getAllPermissions()).has('auth.add_user'));
  admin.is_active = false;
  assert.not.ok(await admin.hasPerm('auth.add_user'));
  assert.equal([...(await admin.getAllPermissions())], []);
  const user = await User.objects.createUser(uniqueName('in'), '', 'pw', { is_active: false });
  await user.$add('user_permissions', await perm('add_user'));
  const fresh = await User.objects.get({ id: user.id });
  assert.not.ok(await fresh.hasPerm('auth.add_user'));
});

test('createsuperuser :: --noinput with the password from the environment', async () => {
  process.env.SUPERUSER_PASSWORD = 'super-secret';
  try {
    const result = await callCommand('createsuperuser', ['--noinput', '--username', 'boss', '--email', 'boss@example.com']);
    assert.is(result.stderr, '');
    assert.is(result.exitCode, 0);
    assert.is(result.stdout, 'Superuser created successfully.\n');
  } finally {
    delete process.env.SUPERUSER_PASSWORD;
  }
  const boss = await User.objects.get({ username: 'boss' });
  assert.ok(boss.is_superuser && boss.is_staff);
  assert.is(boss.email, 'boss@example.com');
  assert.ok(await boss.checkPassword('super-secret'));
});

test('createsuperuser :: DJANGO_SUPERUSER_PASSWORD; no password -> unusable', async () => {
  process.env.DJANGO_SUPERUSER_PASSWORD = 'dj-pw';
  try {
    assert.is((await callCommand('createsuperuser', ['--noinput', '--username', 'boss2', '--email', ''])).exitCode, 0);
  } finally {
    delete process.env.DJANGO_SUPERUSER_PASSWORD;
  }
  assert.ok(await (await User.objects.get({ username: 'boss2' })).checkPassword('dj-pw'));
  assert.is((await callCommand('createsuperuser', ['--noinput', '--username', 'boss3', '--email', 'b3@example.com'])).exitCode, 0);
  assert.not.ok((await User.objects.get({ username: 'boss3' })).hasUsablePassword());
});

test('createsuperuser :: errors', async () => {
  const missing = await callCommand('createsuperuser', ['--noinput', '--email', 'x@example.com']);
  assert.is(missing.exitCode, 1);
  assert.match(missing.stderr, 'CommandError: You must use --username with --noinput.');
  const taken = await callCommand('createsuperuser', ['--noinput', '--username', 'boss', '--email', 'x@example.com']);
  assert.is(taken.exitCode, 1);
  assert.match(taken.stderr, 'CommandError: Error: That username is already taken.');
  const invalid = await callCommand('createsuperuser', ['--noinput', '--username', 'bad name', '--email', 'x@example.com']);
  assert.is(invalid.exitCode, 1);
  assert.match(
    invalid.stderr,
    'CommandError: Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.',
  );
  const email = await callCommand('createsuperuser', ['--noinput', '--username', 'okname', '--email', 'not-an-email']);
  assert.is(email.exitCode, 1);
  assert.match(email.stderr, 'CommandError: Enter a valid email address.');
  const noEmail = await callCommand('createsuperuser', ['--noinput', '--username', 'okname']);
  assert.match(noEmail.stderr, 'CommandError: You must use --email with --noinput.');
  assert.not.ok(await User.objects.filter({ username: 'okname' }).exists());
});

test('createsuperuser :: interactive answers from a pipe, with retries', async () => {
  const input = ['boss', 'bad name', 'piped', 'nope', 'piped@example.com', 'pw1', 'pw2', '', '', 'good-pw', 'good-pw', ''].join('\n');
  const result = await callCommand('createsuperuser', [], { stdin: input });
  assert.is(result.exitCode, 0, result.stderr);
  assert.match(result.stderr, 'Error: That username is already taken.');
  assert.match(result.stderr, 'Error: Enter a valid username.');
  assert.match(result.stderr, 'Error: Enter a valid email address.');
  assert.match(result.stderr, "Error: Your passwords didn't match.");
  assert.match(result.stderr, "Error: Blank passwords aren't allowed.");
  assert.match(result.stdout, 'Email address: ');
  assert.match(result.stdout, 'Password (again): ');
  assert.match(result.stdout, 'Superuser created successfully.');
  const user = await User.objects.get({ username: 'piped' });
  assert.ok(user.is_superuser);
  assert.ok(await user.checkPassword('good-pw'));
});

test('createsuperuser :: input ending early cancels', async () => {
  const result = await callCommand('createsuperuser', ['--username', 'halfway'], { stdin: 'h@example.com\n' });
  assert.is(result.exitCode, 1);
  assert.match(result.stderr, 'Operation cancelled.');
  assert.not.ok(await User.objects.filter({ username: 'halfway' }).exists());
});

test('changepassword :: unknown user', async () => {
  const result = await callCommand('changepassword', ['ghost']);
  assert.is(result.exitCode, 1);
  assert.match(result.stderr, "CommandError: user 'ghost' does not exist");
});

test('changepassword :: prompts twice, retries on mismatch', async () => {
  await User.objects.createUser('changer', '', 'old');
  const result = await callCommand('changepassword', ['changer'], { stdin: 'a\nb\nnew-pw\nnew-pw\n' });
  assert.is(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, "Changing password for user 'changer'");
  assert.match(result.stdout, 'Passwords do not match. Please try again.');
  assert.match(result.stdout, "Password changed successfully for user 'changer'");
  const user = await User.objects.get({ username: 'changer' });
  assert.ok(await user.checkPassword('new-pw'));
  assert.not.ok(await user.checkPassword('old'));
});

test('changepassword :: gives up after three mismatches', async () => {
  await User.objects.createUser('stubborn', '', 'old');
  const result = await callCommand('changepassword', ['stubborn'], { stdin: 'a\nb\nc\nd\ne\nf\n' });
  assert.is(result.exitCode, 1);
  assert.match(result.stderr, "CommandError: Aborting password change for user 'stubborn' after 3 attempts");
  assert.ok(await (await User.objects.get({ username: 'stubborn' })).checkPassword('old'));
});

test.run();
