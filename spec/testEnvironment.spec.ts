/**
 * The test environment allows the test clients' host `testserver` without listing it in
 * ALLOWED_HOSTS, as the host framework's test runner does; other hosts stay refused.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../lib/core/conf';
import { allowTestClientHost, DisallowedHost, HttpRequest } from '../lib/core/http';
import { APIClient } from '../lib/test';

const test = suite('test environment');

test('testserver :: allowed for the test client while ALLOWED_HOSTS lists only the production host', async () => {
  await overrideSettings({ ALLOWED_HOSTS: ['api.example.org'], DEBUG: false, ROOT_URLCONF: 'spec.fixtures.authUrls' }, async () => {
    const response = await new APIClient().get('/no-such-page/');
    assert.is(response.status, 404, 'resolved past the host check');
    const other = await new APIClient().get('/no-such-page/', { headers: { host: 'evil.test' } });
    assert.is(other.status, 400, 'other hosts are still refused');
  });
});

test('testserver :: refused again after allowTestClientHost(false)', () => {
  overrideSettings({ ALLOWED_HOSTS: ['api.example.org'], DEBUG: false }, () => {
    allowTestClientHost(false);
    try {
      assert.throws(() => HttpRequest.create({ headers: { host: 'testserver' } }).getHost(), (e: unknown) => e instanceof DisallowedHost);
    } finally {
      allowTestClientHost();
    }
    assert.is(HttpRequest.create({ headers: { host: 'testserver' } }).getHost(), 'testserver');
  });
});

test.run();
