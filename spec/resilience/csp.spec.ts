/**
 * The framework's HTML pages carry a Content-Security-Policy (`default-src 'self'`, inline
 * styles only by the hashes of the original's markup, no inline script): the browsable API
 * (a page, an error page, its login page), the admin pages; JSON answers do not. The setting
 * replaces or removes it; a view's own header is kept. The browser test (spec/browser) checks
 * that Chromium reports no violation while the pages are used.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import nodePath from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { adminSite } from '../../contrib/admin';
import { User } from '../../contrib/auth/models';
import { staticfilesUrlpatterns } from '../../contrib/browsable/staticfiles';
import { BrowsableAPIRenderer } from '../../contrib/browsable/renderers';
import { overrideSettings } from '../../lib/core/conf';
import { ALLOWED_INLINE_STYLES, DEFAULT_CONTENT_SECURITY_POLICY } from '../../lib/core/csp';
import { useTestDatabase } from '../../lib/core/db/testing';
import { clearUrlCaches, include, path } from '../../lib/core/urls';
import { JSONRenderer } from '../../lib/renderers';
import { Response } from '../../lib/response';
import { APIView } from '../../lib/views';
import { APIClient } from '../../lib/test';

const ROOT = nodePath.resolve(__dirname, '..', '..');

class PagesView extends APIView {
  override rendererClasses = [JSONRenderer, BrowsableAPIRenderer];

  get(): Response {
    return new Response({ hello: 'world' });
  }
}

class OwnPolicyView extends APIView {
  override rendererClasses = [BrowsableAPIRenderer];

  get(): Response {
    return new Response({ own: true }, { headers: { 'Content-Security-Policy': "default-src 'none'" } });
  }
}

export const urlpatterns = [
  path('admin/', adminSite.urls),
  path('pages/', PagesView.asView()),
  path('own/', OwnPolicyView.asView()),
  path('api-auth/', include('contrib.browsable.urls')),
  ...staticfilesUrlpatterns(),
];

const test = suite('resilience: Content-Security-Policy');
useTestDatabase(test);

let restore: (() => void) | null = null;

test.before(async () => {
  restore = overrideSettings.enter({ ROOT_URLCONF: 'spec/resilience/csp.spec' });
  clearUrlCaches();
  await User.objects.createSuperuser('root', 'root@example.com', 'root-password');
});

test.after(() => {
  restore?.();
  clearUrlCaches();
});

const HTML = { headers: { accept: 'text/html' } };

test('policy :: default-src self, inline styles only by hash, no inline script', () => {
  assert.match(DEFAULT_CONTENT_SECURITY_POLICY, /^default-src 'self'; /);
  assert.not.match(DEFAULT_CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval|script-src/);
  for (const style of ALLOWED_INLINE_STYLES) {
    const hash = crypto.createHash('sha256').update(style).digest('base64');
    assert.ok(DEFAULT_CONTENT_SECURITY_POLICY.includes(`'sha256-${hash}'`), style);
  }
});

test('policy :: every inline style attribute the framework writes is allowed by hash', () => {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = nodePath.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|html)$/.test(entry.name)) for (const match of fs.readFileSync(full, 'utf8').matchAll(/ style="([^"{}$]*)"/g)) found.add(match[1]);
    }
  };
  for (const dir of ['lib', 'contrib']) walk(nodePath.join(ROOT, dir));
  assert.equal([...found].sort(), [...ALLOWED_INLINE_STYLES].sort());
});

test('pages :: browsable page, its 404 page, its login page and the admin carry the policy; JSON does not', async () => {
  const client = new APIClient();
  const pages: Array<[string, number]> = [['/pages/', 200], ['/pages/?format=api', 200], ['/api-auth/login/', 200], ['/admin/login/', 200]];
  for (const [url, status] of pages) {
    const response = await client.get(url, HTML);
    assert.is(response.status, status, url);
    assert.is(response.header('Content-Security-Policy'), DEFAULT_CONTENT_SECURITY_POLICY, url);
  }
  await client.login({ username: 'root', password: 'root-password' });
  const admin = await client.get('/admin/', HTML);
  assert.is(admin.status, 200);
  assert.is(admin.header('Content-Security-Policy'), DEFAULT_CONTENT_SECURITY_POLICY);
  assert.not.match(admin.text, / style="/, 'the admin pages have no inline style attributes');
  const json = await new APIClient().get('/pages/');
  assert.is(json.header('Content-Type'), 'application/json');
  assert.is(json.header('Content-Security-Policy'), undefined);
});

test('setting :: CONTENT_SECURITY_POLICY replaces the policy; null removes it; a view\'s own is kept', async () => {
  const client = new APIClient();
  await overrideSettings({ CONTENT_SECURITY_POLICY: "default-src 'self' cdn.example.com" }, async () => {
    assert.is((await client.get('/pages/', HTML)).header('Content-Security-Policy'), "default-src 'self' cdn.example.com");
  });
  await overrideSettings({ CONTENT_SECURITY_POLICY: null }, async () => {
    assert.is((await client.get('/pages/', HTML)).header('Content-Security-Policy'), undefined);
    assert.is((await client.get('/admin/login/', HTML)).header('Content-Security-Policy'), undefined);
  });
  assert.is((await client.get('/own/', HTML)).header('Content-Security-Policy'), "default-src 'none'");
});

test.run();
