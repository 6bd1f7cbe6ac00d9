/**
 * The test client as the original's: `credentials()` and per-request extras in the META
 * spelling (`HTTP_AUTHORIZATION`), as DRF's APIClient takes them, authenticate the request;
 * other META-style keys (`REMOTE_USER`) reach `request.META`.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { User } from '../../contrib/auth/models';
import { overrideSettings, settings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { APIClient, APIRequestFactory, splitMetaStyle } from '../../lib/test';

const test = suite('conformance :: test client META-style credentials');
useTestDatabase(test);

let restore: () => void = () => undefined;
test.before(async () => {
  restore = overrideSettings.enter({
    ROOT_URLCONF: 'spec.fixtures.authUrls',
    API_FRAMEWORK: { ...settings.API_FRAMEWORK, DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'] },
  });
  await User.objects.createUser('alice', 'alice@example.com', 'alice-pw');
});
test.after(() => restore());

const BASIC = `Basic ${Buffer.from('alice:alice-pw').toString('base64')}`;

function userOf(data: unknown): unknown {
  return (data as { user?: unknown }).user;
}

test('credentials({ HTTP_AUTHORIZATION }) :: every request authenticated', async () => {
  const client = new APIClient();
  client.credentials({ HTTP_AUTHORIZATION: BASIC });
  const first = await client.get('/basic/');
  assert.is(first.status, 200);
  assert.is(userOf(first.data), 'alice');
  assert.is(userOf((await client.get('/basic/?again=1')).data), 'alice');
  client.credentials();
  assert.is((await client.get('/basic/')).status, 401);
});

test('extra on a request :: HTTP_AUTHORIZATION authenticates that request only', async () => {
  const client = new APIClient();
  assert.is(userOf((await client.get('/basic/', { extra: { HTTP_AUTHORIZATION: BASIC } })).data), 'alice');
  assert.is(userOf((await client.get('/basic/', { headers: { HTTP_AUTHORIZATION: BASIC } })).data), 'alice');
  assert.is((await client.get('/basic/')).status, 401);
});

test('factory :: META-style keys become headers or META entries', async () => {
  const request = await new APIRequestFactory().get('/x/', {
    extra: { HTTP_X_API_KEY: 'k', REMOTE_USER: 'bob', CONTENT_TYPE: 'text/plain' },
  });
  assert.is(request.META.HTTP_X_API_KEY, 'k');
  assert.is(request.headers['x-api-key'], 'k');
  assert.is(request.META.REMOTE_USER, 'bob');
  assert.is(request.META.CONTENT_TYPE, 'text/plain');
});

test('splitMetaStyle :: table', () => {
  const rows: Array<[Record<string, string>, ReturnType<typeof splitMetaStyle>]> = [
    [{ HTTP_AUTHORIZATION: 'a' }, { headers: { authorization: 'a' }, meta: {} }],
    [{ Authorization: 'a' }, { headers: { authorization: 'a' }, meta: {} }],
    [{ 'X-Custom': 'c' }, { headers: { 'x-custom': 'c' }, meta: {} }],
    [{ HTTP_X_FORWARDED_FOR: 'f' }, { headers: { 'x-forwarded-for': 'f' }, meta: {} }],
    [{ CONTENT_LENGTH: '3' }, { headers: { 'content-length': '3' }, meta: {} }],
    [{ REMOTE_ADDR: '10.0.0.1' }, { headers: {}, meta: { REMOTE_ADDR: '10.0.0.1' } }],
  ];
  for (const [input, expected] of rows) assert.equal(splitMetaStyle(input), expected, JSON.stringify(input));
});

test.run();
