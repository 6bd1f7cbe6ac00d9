/**
 * CSRF protection: token masking, the middleware's accept/reject matrix (cookie, header, form
 * field, Origin and Referer over HTTPS, trusted origins, exempt views) and the cookie it sets.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { HttpRequest, HttpResponse, type RequestInit } from '../../lib/core/http';
import type { ViewFunction } from '../../lib/core/urls';
import {
  CsrfViewMiddleware,
  checkCsrf,
  compareMaskedTokens,
  csrfExempt,
  getToken,
  maskCipherSecret,
  rotateToken,
  sanitizeToken,
  unmaskCipherToken,
  CSRF_TOKEN_LENGTH,
} from '../../lib/core/middleware/csrf';
import { csrfFailure } from '../../lib/core/middleware/csrfFailure';
import { importString } from '../../lib/core/modules';

const Csrf = suite('csrf');

/** A `CSRF_FAILURE_VIEW` for the spec below. */
export function customFailure(_request: HttpRequest, reason: string): HttpResponse {
  return new HttpResponse(`custom: ${reason}`, { status: 403, contentType: 'text/plain' });
}

const view: ViewFunction = () => new HttpResponse('ok');

function secret(): string {
  return 'abcdefghijklmnopqrstuvwxyzABCDEF';
}

/** A request carrying the cookie `cookieToken` (unless null). */
function req(init: RequestInit & { cookieToken?: string | null } = {}): HttpRequest {
  const headers: Record<string, string> = { host: 'testserver', ...(init.headers as Record<string, string>) };
  if (init.cookieToken) headers.cookie = `csrftoken=${init.cookieToken}`;
  return HttpRequest.create({ method: 'POST', url: '/x/', ...init, headers });
}

async function run(request: HttpRequest, v: ViewFunction = view): Promise<HttpResponse> {
  const mw: CsrfViewMiddleware = new CsrfViewMiddleware(async (r): Promise<HttpResponse> => (await mw.processView(r, v, [], {})) ?? v(r, {}));
  return mw.handle(request);
}

Csrf('tokens :: masking round-trips and differs per call', () => {
  const a = maskCipherSecret(secret());
  const b = maskCipherSecret(secret());
  assert.is(a.length, CSRF_TOKEN_LENGTH);
  assert.is.not(a, b);
  assert.is(unmaskCipherToken(a), secret());
  assert.ok(compareMaskedTokens(a, b));
  assert.not.ok(compareMaskedTokens(a, maskCipherSecret('x'.repeat(32))));
});

Csrf('tokens :: sanitize keeps 64, masks 32, replaces junk', () => {
  const token = maskCipherSecret(secret());
  assert.is(sanitizeToken(token), token);
  assert.is(unmaskCipherToken(sanitizeToken(secret())), secret());
  const junk = sanitizeToken('bad token!');
  assert.is(junk.length, 64);
  assert.not.ok(compareMaskedTokens(junk, token));
});

Csrf('getToken :: creates a cookie, new mask per call, same secret', async () => {
  const request = req({ method: 'GET' });
  let t1 = '';
  let t2 = '';
  const mw = new CsrfViewMiddleware(async (r) => {
    t1 = getToken(r);
    t2 = getToken(r);
    return new HttpResponse('page');
  });
  const response = await mw.handle(request);
  assert.is.not(t1, t2);
  assert.ok(compareMaskedTokens(t1, t2));
  const cookie = response.cookies.get('csrftoken');
  assert.ok(cookie);
  assert.ok(compareMaskedTokens(cookie.value, t1));
  assert.is(cookie.options.sameSite, 'Lax');
  assert.ok((response.getHeader('Vary') ?? '').includes('Cookie'));
});

Csrf('getToken :: keeps the secret of the incoming cookie', () => {
  const cookie = maskCipherSecret(secret());
  const request = req({ method: 'GET', cookieToken: cookie });
  assert.is(unmaskCipherToken(getToken(request)), secret());
});

Csrf('no token used :: no cookie set', async () => {
  const response = await run(req({ method: 'GET' }));
  assert.is(response.status, 200);
  assert.not.ok(response.cookies.has('csrftoken'));
});

Csrf('safe methods :: pass without any token', async () => {
  for (const method of ['GET', 'HEAD', 'OPTIONS', 'TRACE']) {
    assert.is((await run(req({ method }))).status, 200, method);
  }
});

Csrf('reject :: no cookie -> the HTML failure page explains the cookie', async () => {
  const response = await run(req({ headers: { 'x-csrftoken': maskCipherSecret(secret()) } }));
  assert.is(response.status, 403);
  assert.is(response.getHeader('Content-Type'), 'text/html');
  assert.match(response.text, '<title>403 Forbidden</title>');
  assert.match(response.text, '<h1>Forbidden <span>(403)</span></h1>\n  <p>CSRF verification failed. Request aborted.</p>');
  assert.match(response.text, 'You are seeing this message because this site requires a CSRF cookie when submitting forms.');
  assert.match(response.text, 'More information is available with DEBUG=True.');
  assert.not.match(response.text, 'CSRF cookie not set.', 'the reason only shows with DEBUG');
  assert.is(await checkCsrf(req()), 'CSRF cookie not set.');
});

Csrf('reject :: cookie but no token -> no explanation; DEBUG shows the reason, escaped', async () => {
  const response = await run(req({ cookieToken: maskCipherSecret(secret()) }));
  assert.is(response.status, 403);
  assert.match(response.text, 'CSRF verification failed. Request aborted.');
  assert.not.match(response.text, 'requires a CSRF cookie');
  await overrideSettings({ DEBUG: true }, async () => {
    const debug = await run(req({ cookieToken: maskCipherSecret(secret()) }));
    assert.match(debug.text, '<pre>CSRF token missing or incorrect.</pre>');
    assert.not.match(debug.text, 'More information is available');
  });
});

Csrf('reject :: the Referer explanation escapes its markup; CSRF_FAILURE_VIEW replaces the page', async () => {
  const page = csrfFailure(req(), 'Referer checking failed - no Referer.');
  assert.match(page.text, 'requires a “Referer header”');
  assert.match(page.text, 'If you are using the &lt;meta name=&quot;referrer&quot; content=&quot;no-referrer&quot;&gt; tag');
  await overrideSettings({ CSRF_FAILURE_VIEW: 'spec/contrib/csrf.spec.customFailure' }, async () => {
    const response = await run(req({ cookieToken: maskCipherSecret(secret()) }));
    assert.is(response.status, 403);
    assert.is(response.text, 'custom: CSRF token missing or incorrect.');
  });
});

Csrf('reject :: wrong token', async () => {
  const request = req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': maskCipherSecret('Z'.repeat(32)) } });
  assert.is(await checkCsrf(request), 'CSRF token missing or incorrect.');
});

Csrf('accept :: header token masked differently from the cookie', async () => {
  const request = req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': maskCipherSecret(secret()) } });
  assert.is((await run(request)).status, 200);
  assert.ok(request.csrfProcessingDone);
});

Csrf('accept :: the unmasked 32-character secret in the header', async () => {
  const request = req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': secret() } });
  assert.is(await checkCsrf(request), null);
});

Csrf('accept :: urlencoded form field (body read by the check)', async () => {
  const token = maskCipherSecret(secret());
  const request = req({
    cookieToken: maskCipherSecret(secret()),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `a=1&csrfmiddlewaretoken=${token}`,
  });
  assert.is(await checkCsrf(request), null);
  // The body stays readable for the parsers.
  assert.is((await request.body()).toString(), `a=1&csrfmiddlewaretoken=${token}`);
});

Csrf('accept :: multipart form field', async () => {
  const token = maskCipherSecret(secret());
  const boundary = 'XyZ';
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n${token}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
  const request = req({
    cookieToken: maskCipherSecret(secret()),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  assert.is(await checkCsrf(request), null);
});

Csrf('accept :: form already parsed into request.POST', async () => {
  const request = req({ cookieToken: maskCipherSecret(secret()) });
  request.POST.set('csrfmiddlewaretoken', maskCipherSecret(secret()));
  assert.is(await checkCsrf(request), null);
});

Csrf('reject :: wrong form field, header not consulted when the field is set', async () => {
  const request = req({
    cookieToken: maskCipherSecret(secret()),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrftoken': maskCipherSecret(secret()) },
    body: `csrfmiddlewaretoken=${maskCipherSecret('Q'.repeat(32))}`,
  });
  assert.is(await checkCsrf(request), 'CSRF token missing or incorrect.');
});

Csrf('header :: PUT and DELETE use the header', async () => {
  for (const method of ['PUT', 'DELETE', 'PATCH']) {
    const request = req({ method, cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': maskCipherSecret(secret()) } });
    assert.is(await checkCsrf(request), null, method);
  }
});

Csrf('header :: CSRF_HEADER_NAME changes the header', async () => {
  await overrideSettings({ CSRF_HEADER_NAME: 'HTTP_X_XSRF_TOKEN' }, async () => {
    const good = req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-xsrf-token': secret() } });
    assert.is(await checkCsrf(good), null);
    const old = req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': secret() } });
    assert.is(await checkCsrf(old), 'CSRF token missing or incorrect.');
  });
});

Csrf('malformed cookie :: replaced, the request fails and a new cookie is sent', async () => {
  const request = req({ cookieToken: 'short', headers: { 'x-csrftoken': 'short' } });
  const response = await run(request);
  assert.is(response.status, 403);
});

Csrf('exempt :: csrfExempt views skip the middleware; checkCsrf still checks', async () => {
  const exempt = csrfExempt(((() => new HttpResponse('ok')) as ViewFunction));
  assert.ok(exempt.csrfExempt);
  assert.is((await run(req(), exempt)).status, 200);
  assert.is(await checkCsrf(req()), 'CSRF cookie not set.');
});

Csrf('dontEnforceCsrfChecks :: test clients skip the check', async () => {
  const request = req();
  request.dontEnforceCsrfChecks = true;
  assert.is(await checkCsrf(request), null);
});

Csrf('origin :: same origin passes, foreign origin fails', async () => {
  const good = req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': secret(), origin: 'http://testserver' } });
  assert.is(await checkCsrf(good), null);
  const bad = req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': secret(), origin: 'http://evil.com' } });
  assert.is(await checkCsrf(bad), 'Origin checking failed - http://evil.com does not match any trusted origins.');
  const scheme = req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': secret(), origin: 'https://testserver' } });
  assert.is(await checkCsrf(scheme), 'Origin checking failed - https://testserver does not match any trusted origins.');
});

Csrf('origin :: CSRF_TRUSTED_ORIGINS exact and wildcard entries', async () => {
  await overrideSettings({ CSRF_TRUSTED_ORIGINS: ['https://app.partner.com', 'https://*.example.com'] }, async () => {
    const mk = (origin: string): HttpRequest =>
      req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': secret(), origin } });
    assert.is(await checkCsrf(mk('https://app.partner.com')), null);
    assert.is(await checkCsrf(mk('https://api.example.com')), null);
    assert.is(await checkCsrf(mk('http://api.example.com')), 'Origin checking failed - http://api.example.com does not match any trusted origins.');
    assert.is(await checkCsrf(mk('https://other.partner.com')), 'Origin checking failed - https://other.partner.com does not match any trusted origins.');
  });
});

Csrf('referer :: HTTPS without Origin needs a good Referer', async () => {
  const mk = (referer?: string): HttpRequest =>
    req({
      secure: true,
      cookieToken: maskCipherSecret(secret()),
      headers: { 'x-csrftoken': secret(), ...(referer === undefined ? {} : { referer }) },
    });
  assert.is(await checkCsrf(mk()), 'Referer checking failed - no Referer.');
  assert.is(await checkCsrf(mk('not a url')), 'Referer checking failed - Referer is malformed.');
  assert.is(await checkCsrf(mk('http://testserver/page/')), 'Referer checking failed - Referer is insecure while host is secure.');
  assert.is(await checkCsrf(mk('https://evil.com/page/')), 'Referer checking failed - https://evil.com/page/ does not match any trusted origins.');
  assert.is(await checkCsrf(mk('https://testserver/page/')), null);
  await overrideSettings({ CSRF_TRUSTED_ORIGINS: ['https://*.example.com'] }, async () => {
    assert.is(await checkCsrf(mk('https://www.example.com/form/')), null);
  });
});

Csrf('referer :: plain HTTP does not check the Referer', async () => {
  const request = req({ cookieToken: maskCipherSecret(secret()), headers: { 'x-csrftoken': secret() } });
  assert.is(await checkCsrf(request), null);
});

Csrf('rotateToken :: the old token no longer matches and the cookie is reset', async () => {
  const old = maskCipherSecret(secret());
  const request = req({ method: 'GET', cookieToken: old });
  const mw = new CsrfViewMiddleware(async (r) => {
    rotateToken(r);
    return new HttpResponse('logged in');
  });
  const response = await mw.handle(request);
  const cookie = response.cookies.get('csrftoken');
  assert.ok(cookie);
  assert.not.ok(compareMaskedTokens(cookie.value, old));
  assert.not.ok(compareMaskedTokens(getToken(request), old));
});

Csrf('cookie settings :: secure, httponly, age, name', async () => {
  await overrideSettings(
    { CSRF_COOKIE_SECURE: true, CSRF_COOKIE_HTTPONLY: true, CSRF_COOKIE_NAME: 'xsrf', CSRF_COOKIE_AGE: 60 },
    async () => {
      const mw = new CsrfViewMiddleware(async (r) => {
        getToken(r);
        return new HttpResponse('');
      });
      const response = await mw.handle(req({ method: 'GET' }));
      const cookie = response.cookies.get('xsrf');
      assert.ok(cookie);
      assert.is(cookie.options.secure, true);
      assert.is(cookie.options.httpOnly, true);
      assert.is(cookie.options.maxAge, 60);
      assert.match(response.cookieHeaders().join('\n'), /xsrf=[A-Za-z0-9]{64}; Max-Age=60/);
    },
  );
});

Csrf('safe methods :: the cookie is read only when a token is asked for; the answer is the same', async () => {
  const cookie = maskCipherSecret(secret());
  const reads = (request: HttpRequest): (() => number) => {
    const cookies = request.cookies;
    let count = 0;
    Object.defineProperty(request, 'cookies', { get: () => (count++, cookies) });
    return () => count;
  };
  for (const method of ['GET', 'HEAD', 'OPTIONS', 'TRACE']) {
    const plain = req({ method, cookieToken: cookie });
    const plainReads = reads(plain);
    const response = await run(plain);
    assert.is(plainReads(), 0, method);
    assert.is(response.cookies.size, 0, method);
    assert.is(response.getHeader('Vary'), undefined, method);
  }
  // A page that shows the token (the browsable API's forms) reads it and keeps the client's secret.
  const withForm = req({ method: 'GET', cookieToken: cookie });
  const formReads = reads(withForm);
  let shown = '';
  const response = await run(withForm, (r) => {
    shown = getToken(r);
    return new HttpResponse('form');
  });
  assert.is(formReads(), 1);
  assert.ok(compareMaskedTokens(shown, cookie));
  assert.ok(compareMaskedTokens(String(response.cookies.get('csrftoken')?.value), cookie));
  assert.is(response.getHeader('Vary'), 'Cookie');
});

Csrf('dotted paths :: the host-layer name and the old sessions-app names load the same middleware', () => {
  for (const path of [
    'api_framework.core.middleware.csrf.CsrfViewMiddleware',
    'api_framework.contrib.sessions.csrf.CsrfViewMiddleware',
    'contrib.sessions.csrf.CsrfViewMiddleware',
  ]) {
    assert.is(importString(path), CsrfViewMiddleware, path);
  }
  assert.is(importString('api_framework.contrib.sessions.csrfFailure.csrfFailure'), csrfFailure);
});

Csrf.run();
