/**
 * SecurityMiddleware: the default headers (nosniff, Referrer-Policy, Cross-Origin-Opener-Policy), the opt-in ones (HSTS on
 * HTTPS only, X-XSS-Protection), headers a view set are kept, and the HTTPS redirect with its
 * host and exempt paths.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { HttpRequest, HttpResponse } from '../../lib/core/http';
import { referrerPolicyValue, SecurityMiddleware } from '../../lib/core/security';

const test = suite('core.security');

function request(url = '/things/?a=1', secure = false, host = 'testserver'): HttpRequest {
  return HttpRequest.create({ method: 'GET', url, headers: { host }, secure });
}

let viewCalls = 0;
const middleware = new SecurityMiddleware(async () => {
  viewCalls += 1;
  return new HttpResponse('ok');
});

test('headers :: defaults are nosniff and same-origin, nothing else', async () => {
  const response = await middleware.handle(request());
  assert.is(response.getHeader('X-Content-Type-Options'), 'nosniff');
  assert.is(response.getHeader('Referrer-Policy'), 'same-origin');
  assert.is(response.getHeader('Strict-Transport-Security'), undefined);
  assert.is(response.getHeader('X-XSS-Protection'), undefined);
  assert.is(response.getHeader('Location'), undefined);
});

test('headers :: settings turn them off or change them', async () => {
  await overrideSettings({ SECURE_CONTENT_TYPE_NOSNIFF: false, SECURE_REFERRER_POLICY: null }, async () => {
    const response = await middleware.handle(request());
    assert.is(response.getHeader('X-Content-Type-Options'), undefined);
    assert.is(response.getHeader('Referrer-Policy'), undefined);
  });
  await overrideSettings({ SECURE_REFERRER_POLICY: 'no-referrer, strict-origin', SECURE_BROWSER_XSS_FILTER: true }, async () => {
    const response = await middleware.handle(request());
    assert.is(response.getHeader('Referrer-Policy'), 'no-referrer,strict-origin');
    assert.is(response.getHeader('X-XSS-Protection'), '1; mode=block');
  });
  assert.is(referrerPolicyValue(['origin', ' unsafe-url ']), 'origin,unsafe-url');
  assert.is(referrerPolicyValue(''), null);
});

test('headers :: Cross-Origin-Opener-Policy same-origin by default, set or turned off by SECURE_CROSS_ORIGIN_OPENER_POLICY', async () => {
  assert.is((await middleware.handle(request())).getHeader('Cross-Origin-Opener-Policy'), 'same-origin');
  await overrideSettings({ SECURE_CROSS_ORIGIN_OPENER_POLICY: 'same-origin-allow-popups' }, async () => {
    assert.is((await middleware.handle(request())).getHeader('Cross-Origin-Opener-Policy'), 'same-origin-allow-popups');
  });
  await overrideSettings({ SECURE_CROSS_ORIGIN_OPENER_POLICY: null }, async () => {
    assert.is((await middleware.handle(request())).getHeader('Cross-Origin-Opener-Policy'), undefined);
  });
});

test('headers :: a value the view set is kept', async () => {
  const own = new SecurityMiddleware(async () => {
    const response = new HttpResponse('ok');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('X-Content-Type-Options', 'custom');
    response.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
    return response;
  });
  const response = await own.handle(request());
  assert.is(response.getHeader('Cross-Origin-Opener-Policy'), 'unsafe-none');
  assert.is(response.getHeader('Referrer-Policy'), 'no-referrer');
  assert.is(response.getHeader('X-Content-Type-Options'), 'custom');
});

test('hsts :: only on HTTPS, with includeSubDomains and preload when asked', async () => {
  await overrideSettings({ SECURE_HSTS_SECONDS: 3600 }, async () => {
    assert.is((await middleware.handle(request())).getHeader('Strict-Transport-Security'), undefined);
    assert.is((await middleware.handle(request('/', true))).getHeader('Strict-Transport-Security'), 'max-age=3600');
    await overrideSettings({ SECURE_HSTS_INCLUDE_SUBDOMAINS: true, SECURE_HSTS_PRELOAD: true }, async () => {
      const response = await middleware.handle(request('/', true));
      assert.is(response.getHeader('Strict-Transport-Security'), 'max-age=3600; includeSubDomains; preload');
    });
  });
  await overrideSettings({ SECURE_HSTS_INCLUDE_SUBDOMAINS: true }, async () => {
    assert.is((await middleware.handle(request('/', true))).getHeader('Strict-Transport-Security'), undefined, 'no max-age, no header');
  });
});

test('redirect :: plain HTTP goes to HTTPS with the full path, without calling the view', async () => {
  await overrideSettings({ SECURE_SSL_REDIRECT: true }, async () => {
    viewCalls = 0;
    const response = await middleware.handle(request('/things/?a=1'));
    assert.is(response.status, 301);
    assert.is(response.getHeader('Location'), 'https://testserver/things/?a=1');
    assert.is(response.getHeader('X-Content-Type-Options'), 'nosniff', 'the redirect carries the headers too');
    assert.is(viewCalls, 0);
    const secure = await middleware.handle(request('/things/', true));
    assert.is(secure.status, 200);
    assert.is(viewCalls, 1);
  });
});

test('redirect :: SECURE_SSL_HOST and SECURE_REDIRECT_EXEMPT (searched in the path without its leading slash)', async () => {
  await overrideSettings({ SECURE_SSL_REDIRECT: true, SECURE_SSL_HOST: 'secure.example.com', SECURE_REDIRECT_EXEMPT: ['^health/', /ping$/] }, async () => {
    const moved = await middleware.handle(request('/api/'));
    assert.is(moved.getHeader('Location'), 'https://secure.example.com/api/');
    assert.is((await middleware.handle(request('/health/check/'))).status, 200);
    assert.is((await middleware.handle(request('/x/ping'))).status, 200);
    assert.is((await middleware.handle(request('/x/health/'))).status, 301, '^ anchors at the path without its slash');
  });
});

test('redirect :: a disallowed Host is refused rather than redirected to', async () => {
  await overrideSettings({ SECURE_SSL_REDIRECT: true }, async () => {
    try {
      await middleware.handle(request('/', false, 'evil.com'));
      assert.unreachable('should have thrown');
    } catch (error) {
      assert.is((error as Error).name, 'DisallowedHost');
    }
  });
});

test.run();
