/**
 * contrib/authtoken against a real database (SQLite, or MySQL with DATABASE_URL): the Token
 * model, TokenAuthentication with it, the drf_create_token command, the postSave recipe, and a
 * database migrated by Django (the shared fixture) after `migrate --fake-initial`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { User } from '../../contrib/auth/models';
import { Token } from '../../contrib/authtoken/models';
import { AuthTokenSerializer } from '../../contrib/authtoken/serializers';
import { ObtainAuthToken, obtainAuthToken } from '../../contrib/authtoken/views';
import { connectCreateAuthToken, disconnectCreateAuthToken } from '../../contrib/authtoken/signals';
import { TokenAuthentication } from '../../lib/authentication';
import { overrideSettings, settings } from '../../lib/core/conf';
import { closeConnection, migrate } from '../../lib/core/db';
import { useTestDatabase } from '../../lib/core/db/testing';
import type { HttpRequest } from '../../lib/core/http';
import { runWithLanguage } from '../../lib/core/i18n';
import { callCommand } from '../../lib/core/management';
import { ValidationError } from '../../lib/exceptions';
import { IsAuthenticated } from '../../lib/permissions';
import { BaseThrottle } from '../../lib/throttling';
import type { Request } from '../../lib/request';
import { JSONRenderer } from '../../lib/renderers';
import { Response } from '../../lib/response';
import { APIRequestFactory } from '../../lib/test';
import { APIView } from '../../lib/views';

const factory = new APIRequestFactory();

class BearerAuthentication extends TokenAuthentication {
  override keyword = 'Bearer';
}

/** A view answering who is authenticated, behind the given token scheme. */
function whoami(scheme: typeof TokenAuthentication = TokenAuthentication) {
  class WhoAmI extends APIView {
    override authenticationClasses = [scheme];
    override permissionClasses = [IsAuthenticated];
    override rendererClasses = [JSONRenderer];
    async get(request: Request): Promise<Response> {
      const auth = request.auth as Token;
      return new Response({ username: (request.user as User).username, key: auth.key });
    }
  }
  return WhoAmI.asView();
}

async function call(view: ReturnType<typeof whoami>, authorization?: string): Promise<{ status: number; body: any; response: any }> {
  const request: HttpRequest = await factory.get('/whoami/', { headers: authorization === undefined ? {} : { Authorization: authorization } });
  const response = await view(request, {});
  if (response instanceof Response) await response.render();
  const text = String(response.content);
  return { status: response.status, body: text ? JSON.parse(text) : null, response };
}

// -- model -------------------------------------------------------------------------------------

const model = suite('authtoken model');
useTestDatabase(model);

model('Token.generateKey :: 40 lower-case hex characters, random', () => {
  const a = Token.generateKey();
  assert.match(a, /^[0-9a-f]{40}$/);
  assert.is.not(a, Token.generateKey());
});

model('Token :: key generated on save, created set, one token per user', async () => {
  const user = await User.objects.createUser('tokenowner', 'o@example.com', 'pw');
  const before = Date.now();
  const token = await Token.objects.create({ user_id: user.pk });
  assert.match(token.key, /^[0-9a-f]{40}$/);
  assert.instance(token.created, Date);
  assert.ok(token.created.getTime() >= before - 1000);
  assert.is(String(token), token.key);
  const again = await Token.objects.get({ key: token.key });
  assert.is(again.user_id, user.pk);
  try {
    await Token.objects.create({ user_id: user.pk });
    assert.unreachable('a second token for the same user must be refused');
  } catch (error) {
    assert.match((error as Error).name, /UniqueConstraint/);
  }
});

model('Token.getOrCreateForUser :: creates once, then returns the same token', async () => {
  const user = await User.objects.createUser('getorcreate', '', 'pw');
  const [first, created] = await Token.getOrCreateForUser(user);
  const [second, createdAgain] = await Token.getOrCreateForUser(user);
  assert.ok(created);
  assert.not.ok(createdAgain);
  assert.is(second.key, first.key);
});

model('Token :: an explicit key is kept; the user relation loads', async () => {
  const user = await User.objects.createUser('explicit', '', 'pw');
  await Token.objects.create({ user_id: user.pk, key: 'a'.repeat(40) });
  const token = await Token.objects.selectRelated('user').get({ key: 'a'.repeat(40) });
  assert.is(token.user?.username, 'explicit');
  assert.is(await Token.objects.filter({ user__username: 'explicit' }).count(), 1);
});

model('Token :: deleted with its user (CASCADE)', async () => {
  const user = await User.objects.createUser('cascade', '', 'pw');
  const [token] = await Token.getOrCreateForUser(user);
  await user.destroy();
  assert.not.ok(await Token.objects.filter({ key: token.key }).exists());
});

model.run();

// -- TokenAuthentication with the model --------------------------------------------------------

const auth = suite<{ alice: User; key: string }>('authtoken authentication');
useTestDatabase(auth);

auth.before(async (ctx) => {
  ctx.alice = await User.objects.createUser('alice', 'alice@example.com', 'alice-password-1');
  ctx.key = (await Token.getOrCreateForUser(ctx.alice))[0].key;
});

auth('token :: a valid key authenticates its user; request.auth is the token', async ({ key }) => {
  const { status, body } = await call(whoami(), `Token ${key}`);
  assert.is(status, 200);
  assert.equal(body, { username: 'alice', key });
});

auth('token :: keyword is case-insensitive, like DRF', async ({ key }) => {
  assert.is((await call(whoami(), `token ${key}`)).status, 200);
});

auth('token :: no header is unauthenticated (401 with WWW-Authenticate: Token)', async () => {
  const { status, body, response } = await call(whoami());
  assert.is(status, 401);
  assert.equal(body, { detail: 'Authentication credentials were not provided.' });
  assert.is(response.getHeader('WWW-Authenticate'), 'Token');
});

const failures: Array<[string, (key: string) => string, string]> = [
  ['missing key', () => 'Token', 'Invalid token header. No credentials provided.'],
  ['spaces', (key) => `Token ${key} extra`, 'Invalid token header. Token string should not contain spaces.'],
  ['invalid characters', () => 'Token \u00ff\u00fe', 'Invalid token header. Token string should not contain invalid characters.'],
  ['unknown key', () => `Token ${'0'.repeat(40)}`, 'Invalid token.'],
  ['key prefix', (key) => `Token ${key.slice(0, 20)}`, 'Invalid token.'],
  ['key in other case', (key) => `Token ${key.toUpperCase()}`, 'Invalid token.'],
];
for (const [name, header, message] of failures) {
  auth(`token :: ${name} -> 401 "${message}"`, async ({ key }) => {
    const { status, body, response } = await call(whoami(), header(key));
    assert.is(status, 401);
    assert.equal(body, { detail: message });
    assert.is(response.getHeader('WWW-Authenticate'), 'Token');
  });
}

auth('token :: an inactive user is refused', async () => {
  const bob = await User.objects.createUser('bob', '', 'pw', { is_active: false });
  const [token] = await Token.getOrCreateForUser(bob);
  const { status, body } = await call(whoami(), `Token ${token.key}`);
  assert.is(status, 401);
  assert.equal(body, { detail: 'User inactive or deleted.' });
});

auth('token :: other schemes are not attempted', async ({ key }) => {
  const { status, body } = await call(whoami(), `Bearer ${key}`);
  assert.is(status, 401);
  assert.equal(body, { detail: 'Authentication credentials were not provided.' });
});

auth('bearer :: subclass with keyword Bearer', async ({ key }) => {
  const view = whoami(BearerAuthentication);
  assert.is((await call(view, `Bearer ${key}`)).status, 200);
  const refused = await call(view, `Token ${key}`);
  assert.is(refused.status, 401);
  assert.is(refused.response.getHeader('WWW-Authenticate'), 'Bearer');
  assert.equal((await call(view, 'Bearer')).body, { detail: 'Invalid token header. No credentials provided.' });
});

auth('token :: messages are translated when a language is active', async () => {
  const { body } = await runWithLanguage('de', () => call(whoami(), `Token ${'0'.repeat(40)}`));
  assert.equal(body, { detail: 'Ungültiger Token.' });
});

auth.run();

// -- drf_create_token --------------------------------------------------------------------------

const command = suite('authtoken drf_create_token');
useTestDatabase(command);

command.before(async () => {
  await User.objects.createUser('carol', '', 'pw');
});

command('drf_create_token :: creates and prints a token, then prints the same one', async () => {
  const first = await callCommand('drf_create_token', ['carol']);
  assert.is(first.exitCode, 0, first.stderr);
  const match = /^Generated token ([0-9a-f]{40}) for user carol\n$/.exec(first.stdout);
  assert.ok(match, first.stdout);
  const token = await Token.objects.get({ user__username: 'carol' });
  assert.is(token.key, match![1]);
  const second = await callCommand('drf_create_token', ['carol']);
  assert.is(second.stdout, first.stdout);
});

command('drf_create_token :: -r and --reset replace the key', async () => {
  const old = (await Token.objects.get({ user__username: 'carol' })).key;
  const reset = await callCommand('drf_create_token', ['carol', '-r']);
  assert.is(reset.exitCode, 0, reset.stderr);
  const fresh = (await Token.objects.get({ user__username: 'carol' })).key;
  assert.is.not(fresh, old);
  assert.is(reset.stdout, `Generated token ${fresh} for user carol\n`);
  const again = await callCommand('drf_create_token', ['--reset', 'carol']);
  assert.is.not((await Token.objects.get({ user__username: 'carol' })).key, fresh);
  assert.is(await Token.objects.filter({ user__username: 'carol' }).count(), 1);
  assert.is(again.exitCode, 0);
});

command('drf_create_token :: unknown user is a CommandError, exit 1', async () => {
  const result = await callCommand('drf_create_token', ['nobody']);
  assert.is(result.exitCode, 1);
  assert.is(result.stdout, '');
  assert.match(result.stderr, 'CommandError: Cannot create the Token: user nobody does not exist');
  assert.not.ok(await Token.objects.filter({ user__username: 'nobody' }).exists());
});

command('drf_create_token :: username is required', async () => {
  const result = await callCommand('drf_create_token', []);
  assert.is(result.exitCode, 1);
});

command.run();

// -- postSave recipe ---------------------------------------------------------------------------

const recipe = suite('authtoken postSave recipe');
useTestDatabase(recipe);
recipe.after(() => {
  disconnectCreateAuthToken();
});

recipe('createAuthToken :: new users get a token, updates do not add one', async () => {
  connectCreateAuthToken();
  connectCreateAuthToken(); // idempotent
  const dave = await User.objects.createUser('dave', '', 'pw');
  const tokens = await Token.objects.filter({ user_id: dave.pk }).fetch();
  assert.is(tokens.length, 1);
  dave.email = 'dave@example.com';
  await dave.save();
  assert.is(await Token.objects.filter({ user_id: dave.pk }).count(), 1);
  assert.is((await Token.objects.get({ user_id: dave.pk })).key, tokens[0].key);
});

recipe('createAuthToken :: disconnected, new users get none', async () => {
  assert.ok(disconnectCreateAuthToken());
  const erin = await User.objects.createUser('erin', '', 'pw');
  assert.is(await Token.objects.filter({ user_id: erin.pk }).count(), 0);
});

recipe.run();

// -- ObtainAuthToken -----------------------------------------------------------------------------

const obtain = suite<{ frank: User }>('authtoken ObtainAuthToken');
useTestDatabase(obtain);

obtain.before(async (ctx) => {
  ctx.frank = await User.objects.createUser('frank', 'frank@example.com', 'frank password ');
});

async function post(view: ReturnType<typeof ObtainAuthToken.asView>, data: unknown, format?: string, contentType?: string) {
  const request = await factory.post('/api-token-auth/', { data, format, contentType });
  const response = await view(request, {});
  if (response instanceof Response) await response.render();
  return { status: response.status, body: JSON.parse(String(response.content)), type: response.getHeader('Content-Type') };
}

for (const format of ['json', 'multipart'] as const) {
  obtain(`obtain :: ${format} credentials give the token`, async ({ frank }) => {
    const { status, body, type } = await post(obtainAuthToken, { username: 'frank', password: 'frank password ' }, format);
    assert.is(status, 200);
    assert.is(type, 'application/json');
    const token = await Token.objects.get({ user_id: frank.pk });
    assert.equal(body, { token: token.key });
  });
}

obtain('obtain :: form-urlencoded credentials; the same token on every call', async () => {
  const form = 'username=frank&password=frank+password+';
  const first = await post(obtainAuthToken, form, undefined, 'application/x-www-form-urlencoded');
  const second = await post(obtainAuthToken, form, undefined, 'application/x-www-form-urlencoded');
  assert.is(first.status, 200);
  assert.is(second.body.token, first.body.token);
  assert.is(await Token.objects.filter({ user__username: 'frank' }).count(), 1);
});

obtain('obtain :: bad credentials -> 400 non_field_errors', async () => {
  for (const password of ['wrong', 'frank password']) {
    const { status, body } = await post(obtainAuthToken, { username: 'frank', password }, 'json');
    assert.is(status, 400);
    assert.equal(body, { non_field_errors: ['Unable to log in with provided credentials.'] });
  }
});

obtain('obtain :: missing fields -> 400 field errors', async () => {
  const { status, body } = await post(obtainAuthToken, { username: 'frank' }, 'json');
  assert.is(status, 400);
  assert.equal(body, { password: ['This field is required.'] });
  const blank = await post(obtainAuthToken, { username: '', password: '' }, 'json');
  assert.equal(blank.body, { username: ['This field may not be blank.'], password: ['This field may not be blank.'] });
});

obtain('AuthTokenSerializer :: "Must include" error with code authorization', async () => {
  const serializer = new AuthTokenSerializer({ data: { username: 'frank', password: 'x' } });
  const attrs = serializer.validate({ username: 'frank' });
  try {
    await attrs;
    assert.unreachable('must fail');
  } catch (error) {
    assert.instance(error, ValidationError);
    assert.equal((error as ValidationError).getCodes(), ['authorization']);
    assert.match(JSON.stringify((error as ValidationError).detail), 'Must include \\"username\\" and \\"password\\".');
  }
  const password = (AuthTokenSerializer.fields.password as any);
  assert.equal(password.style, { input_type: 'password' });
  assert.is(password.trimWhitespace, false);
});

obtain('obtain :: inactive users get no token', async () => {
  await User.objects.createUser('gina', '', 'gina-pw', { is_active: false });
  const { status, body } = await post(obtainAuthToken, { username: 'gina', password: 'gina-pw' }, 'json');
  assert.is(status, 400);
  assert.equal(body, { non_field_errors: ['Unable to log in with provided credentials.'] });
});

obtain('obtain :: GET is not allowed', async () => {
  const response = await obtainAuthToken(await factory.get('/api-token-auth/'), {});
  assert.is(response.status, 405);
});

obtain('obtain :: a subclass adds response fields', async ({ frank }) => {
  class CustomAuthToken extends ObtainAuthToken {
    override async post(request: Request): Promise<Response> {
      const serializer = this.getSerializer({ data: request.data });
      await serializer.isValid({ raiseException: true });
      const user = serializer.validatedData.user as User;
      const [token] = await Token.getOrCreateForUser(user);
      return new Response({ token: token.key, user_id: user.pk, email: user.email });
    }
  }
  const { status, body } = await post(CustomAuthToken.asView(), { username: 'frank', password: 'frank password ' }, 'json');
  assert.is(status, 200);
  assert.equal(body, { token: (await Token.objects.get({ user_id: frank.pk })).key, user_id: frank.pk, email: 'frank@example.com' });
});

obtain('obtain :: a subclass adds a throttle', async () => {
  let allowed = 2;
  class OncePerTest extends BaseThrottle {
    override allowRequest(): boolean {
      return allowed-- > 0;
    }
    override wait(): number {
      return 60;
    }
  }
  class ThrottledAuthToken extends ObtainAuthToken {
    override throttleClasses = [OncePerTest];
  }
  const view = ThrottledAuthToken.asView();
  const credentials = { username: 'frank', password: 'frank password ' };
  assert.is((await post(view, credentials, 'json')).status, 200);
  assert.is((await post(view, credentials, 'json')).status, 200);
  const throttled = await post(view, credentials, 'json');
  assert.is(throttled.status, 429);
  assert.equal(throttled.body, { detail: 'Request was throttled. Expected available in 60 seconds.' });
});

obtain.run();

// -- a database migrated by Django -------------------------------------------------------------

const FIXTURE = path.resolve(__dirname, '../../../shared/fixtures/django-auth.sqlite3');
const fixture = suite<{ dir: string; url: string; restore: () => void }>('authtoken Django fixture');

if (!fs.existsSync(FIXTURE) || !settings.DATABASE_URL.startsWith('sqlite')) {
  console.log('  (authtoken: Django fixture test skipped: it needs the SQLite fixture and a sqlite DATABASE_URL)');
} else {
  fixture.before(async (ctx) => {
    ctx.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'authtoken-fixture-'));
    const file = path.join(ctx.dir, 'django.sqlite3');
    fs.copyFileSync(FIXTURE, file);
    ctx.url = `sqlite://${file}`;
    ctx.restore = overrideSettings.enter({ DATABASE_URL: ctx.url });
    await migrate({ fakeInitial: true, stdout: { write: () => undefined } });
  });
  fixture.after(async (ctx) => {
    await closeConnection(ctx.url);
    ctx.restore();
    fs.rmSync(ctx.dir, { recursive: true, force: true });
  });

  fixture('fixture :: alice authenticates with the token Django created', async () => {
    const obtained = await post(obtainAuthToken, { username: 'alice', password: 'alice-password-1' }, 'json');
    assert.equal(obtained.body, { token: 'e40e18a1ab6f265d7e0441d70238586e1f309def' });
    const { status, body } = await call(whoami(), 'Token e40e18a1ab6f265d7e0441d70238586e1f309def');
    assert.is(status, 200);
    assert.equal(body, { username: 'alice', key: 'e40e18a1ab6f265d7e0441d70238586e1f309def' });
    const token = await Token.objects.selectRelated('user').get({ key: 'e40e18a1ab6f265d7e0441d70238586e1f309def' });
    assert.instance(token.created, Date);
    assert.is(token.user?.email, 'alice@example.com');
  });

  fixture('fixture :: new tokens can be added next to Django\'s', async () => {
    const result = await callCommand('drf_create_token', ['admin']);
    assert.is(result.exitCode, 0, result.stderr);
    const key = /Generated token ([0-9a-f]{40})/.exec(result.stdout)![1];
    assert.is((await call(whoami(), `Token ${key}`)).body.username, 'admin');
  });

  fixture.run();
}
