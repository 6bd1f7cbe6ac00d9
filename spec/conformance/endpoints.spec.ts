/**
 * SPEC.md "Endpoints" rule 5 through real requests: the token-obtain endpoint answers JSON
 * (and reads JSON bodies) whatever renderers and parsers are configured, and has no
 * permissions and no throttling by default, even when the defaults would require them.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { caches } from '../../lib/core/cache';
import { path } from '../../lib/core/urls';
import { APIClient } from '../../lib/test';
import { obtainAuthToken } from '../../contrib/authtoken/views';
import { Token } from '../../contrib/authtoken/models';
import { User } from '../../contrib/auth/models';

const test = suite('conformance: endpoints');
useTestDatabase(test);

/** The URL conf of this suite (ROOT_URLCONF = 'spec/conformance/endpoints.spec'). */
export const urlpatterns = [path('api-token-auth/', obtainAuthToken)];

let restore: () => void = () => undefined;
test.before(async () => {
  restore = overrideSettings.enter({ ROOT_URLCONF: 'spec/conformance/endpoints.spec' });
  await User.objects.createUser('tokenuser', 'token@example.com', 'token-pw');
});
test.after(async () => {
  restore();
  await caches.default.clear();
});

const client = new APIClient();
const credentials = { username: 'tokenuser', password: 'token-pw' };

test('token endpoint :: JSON in and out whatever renderers and parsers are configured', async () => {
  await overrideSettings({
    API_FRAMEWORK: {
      DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.BrowsableAPIRenderer'],
      DEFAULT_PARSER_CLASSES: ['api_framework.parsers.FormParser'],
    },
  }, async () => {
    const response = await client.post('/api-token-auth/', { data: credentials, format: 'json' });
    assert.is(response.status, 200);
    assert.is(response.header('Content-Type'), 'application/json');
    const token = await Token.objects.get({ user__username: 'tokenuser' });
    assert.is(response.text, `{"token":"${token.key}"}`);
  });
});

test('token endpoint :: no permissions and no throttling by default', async () => {
  await caches.default.clear();
  await overrideSettings({
    API_FRAMEWORK: {
      DEFAULT_PERMISSION_CLASSES: ['api_framework.permissions.IsAuthenticated'],
      DEFAULT_THROTTLE_CLASSES: ['api_framework.throttling.AnonRateThrottle'],
      DEFAULT_THROTTLE_RATES: { anon: '1/min', user: null },
    },
  }, async () => {
    for (let i = 0; i < 3; i += 1) {
      const response = await client.post('/api-token-auth/', { data: credentials, format: 'json' });
      assert.is(response.status, 200, `request ${i + 1}`);
      assert.ok(typeof (response.json() as { token?: unknown }).token === 'string');
    }
  });
  await caches.default.clear();
});

test.run();
