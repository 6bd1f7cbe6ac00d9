/**
 * The API docs page without a browser: the page (configuration as inert JSON, login link or
 * user name, no inline script), its assets from `swagger-ui-dist` and its own (ETag, 304,
 * Cache-Control, nosniff), and what it refuses (unknown assets, other methods).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpRequest, type HttpResponse } from '../../lib/core/http';
import { Http404 } from '../../lib/core/exceptions';
import { DEFAULT_CONTENT_SECURITY_POLICY } from '../../lib/core/csp';
import { docsAsset, docsUrlpatterns, getDocsView, swaggerUiDistDir } from '../../lib/schemas';
import { fakeUser, useSettings } from '../helpers';
import fs from 'node:fs';
import path from 'node:path';

const test = suite('schemas: docs page');

useSettings(test, () => ({ LOGIN_URL: '/api-auth/login/', CSRF_COOKIE_NAME: 'csrftoken', CSRF_HEADER_NAME: 'HTTP_X_CSRFTOKEN' }));

async function call(init: Parameters<typeof HttpRequest.create>[0], kwargs: Record<string, unknown> = {}, options = {}): Promise<HttpResponse> {
  const request = HttpRequest.create({ url: '/schema/docs/', ...init });
  return getDocsView({ title: 'Docs <&>', schemaUrl: '/schema/', ...options })(request, kwargs);
}

test('page :: title escaped, configuration as JSON data, assets relative, login link', async () => {
  const response = await call({ url: '/schema/docs/' });
  assert.is(response.statusCode, 200);
  assert.is(response.getHeader('Content-Type'), 'text/html; charset=utf-8');
  assert.is(response.getHeader('Vary'), 'Cookie');
  assert.is(response.getHeader('Content-Security-Policy'), DEFAULT_CONTENT_SECURITY_POLICY);
  const html = String(response.content);
  assert.match(html, /<title>Docs &lt;&amp;&gt;<\/title>/);
  const config = /<script id="api-docs-config" type="application\/json">([^<]*)<\/script>/.exec(html);
  assert.ok(config);
  assert.equal(JSON.parse(config[1]), { schemaUrl: '/schema/?format=openapi-json', csrfCookieName: 'csrftoken', csrfHeaderName: 'X-CSRFToken' });
  assert.equal([...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]), [
    ' id="api-docs-config" type="application/json"', ' src="assets/swagger-ui-bundle.js"', ' src="assets/docs.js"',
  ]);
  assert.not.match(html, /style="/);
  assert.match(html, /<a class="login-link" href="\/api-auth\/login\/\?next=%2Fschema%2Fdocs%2F">Log in<\/a>/);
  assert.not.match(html, /https?:\/\//, 'nothing from another host');
});

test('page :: the user name when logged in; markup in the schema URL cannot leave the JSON', async () => {
  const request = HttpRequest.create({ url: '/schema/docs/' });
  request.user = { ...fakeUser(2, 'bob<b>') };
  const html = String((await getDocsView({ schemaUrl: '/s/?x=</script><b>' })(request, {})).content);
  assert.match(html, /<span data-testid="username">bob&lt;b&gt;<\/span>/);
  assert.not.match(html, /<\/script><b>/);
  assert.match(html, /"schemaUrl":"\/s\/\?x=\\u003c\/script\\u003e\\u003cb\\u003e"/);
  assert.match(html, /<title>API documentation<\/title>/);
});

test('assets :: swagger-ui-dist files and the page\'s own, with ETag, 304 and caching headers', async () => {
  const rows: Array<[string, string, Buffer | null]> = [
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8', fs.readFileSync(path.join(swaggerUiDistDir(), 'swagger-ui-bundle.js'))],
    ['swagger-ui.css', 'text/css; charset=utf-8', fs.readFileSync(path.join(swaggerUiDistDir(), 'swagger-ui.css'))],
    ['favicon-32x32.png', 'image/png', fs.readFileSync(path.join(swaggerUiDistDir(), 'favicon-32x32.png'))],
    ['docs.js', 'text/javascript; charset=utf-8', null],
    ['docs.css', 'text/css; charset=utf-8', null],
  ];
  for (const [name, type, bytes] of rows) {
    const response = await call({ url: `/schema/docs/assets/${name}` }, { asset: name });
    assert.is(response.statusCode, 200, name);
    assert.is(response.getHeader('Content-Type'), type, name);
    assert.is(response.getHeader('Cache-Control'), 'public, max-age=3600', name);
    assert.is(response.getHeader('X-Content-Type-Options'), 'nosniff', name);
    if (bytes) assert.ok(Buffer.compare(response.content as Buffer, bytes) === 0, name);
    const etag = String(response.getHeader('ETag'));
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const again = await call({ url: `/schema/docs/assets/${name}`, headers: { 'If-None-Match': etag } }, { asset: name });
    assert.is(again.statusCode, 304, name);
    assert.is(String(again.content), '');
  }
  assert.match(String(docsAsset('docs.js')!.body), /request\.headers\[config\.csrfHeaderName\] = token/);
});

test('refusals :: unknown or traversing asset names 404, other methods 405', async () => {
  for (const name of ['index.html', '../package.json', 'swagger-ui.js.map', 'docs.ts', '']) {
    try {
      await call({ url: '/schema/docs/assets/x' }, { asset: name });
      assert.unreachable(name);
    } catch (error) {
      assert.instance(error, Http404, name);
    }
  }
  const post = await call({ url: '/schema/docs/', method: 'POST' });
  assert.is(post.statusCode, 405);
  assert.is(post.getHeader('Allow'), 'GET, HEAD');
});

test('urlpatterns :: the page and its assets under the include', () => {
  const patterns = docsUrlpatterns({ schemaUrl: '/schema/' });
  assert.equal(patterns.map((pattern) => pattern.pattern.describe), ['', 'assets/<str:asset>']);
});

test.run();
