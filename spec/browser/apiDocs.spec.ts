/**
 * The API docs page in real Chromium (headless, driven by playwright-core) against the demo
 * served by `manage.ts runserver`: the page loads Swagger UI from the demo server itself (no
 * CDN), lists the tutorial's snippet operations from `/schema/`, and "Try it out" creates a
 * snippet with a session login (the CSRF header taken from the csrftoken cookie) and with
 * `Authorization: Token <key>` entered in the Authorize dialog. The page's
 * Content-Security-Policy must not block anything.
 *
 * Needs `/usr/bin/chromium`; without it (or with `SKIP_BROWSER_TESTS=1`) the suite prints a
 * note and skips, as the browsable API's browser test does.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { PASSWORD } from '../e2e/demoServer';
import { BrowserSession } from './browserSession';

const test = suite('browser: API docs page');
const session = new BrowserSession();

/** Expand `operationId` (tag `tag`), try it out with `body`, execute; the live response's status and body. */
async function tryCreateSnippet(page: Page, body: Record<string, unknown>): Promise<{ status: string; text: string }> {
  const block = page.locator('#operations-snippets-createSnippet');
  await block.locator('.opblock-summary').click();
  await block.locator('button.try-out__btn').click();
  await block.locator('textarea.body-param__text').fill(JSON.stringify(body));
  await block.locator('button.execute').click();
  const status = block.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor();
  return {
    status: (await status.textContent())?.trim() ?? '',
    text: (await block.locator('.live-responses-table .response-col_description pre').first().textContent()) ?? '',
  };
}

if (BrowserSession.available('browser :: API docs page', 'the browser test of the API docs page')) {
  test.before(() => session.start());
  test.after(() => session.stop());

  test('docs :: the page lists the snippet operations, every asset from the demo server', async () => {
    const page = await session.newPage({ timeout: 20_000, allowedPrefixes: ['data:', 'about:', 'blob:'] });
    await page.goto(`${session.origin}/schema/docs/`);
    await page.locator('#operations-snippets-listSnippets').waitFor();
    assert.match(await page.locator('.info .title').textContent() ?? '', /api_framework demo/);
    for (const [id, method, path] of [
      ['listSnippets', 'GET', '/snippets/'],
      ['createSnippet', 'POST', '/snippets/'],
      ['readSnippet', 'GET', '/snippets/{id}/'],
      ['updateSnippet', 'PUT', '/snippets/{id}/'],
      ['partialUpdateSnippet', 'PATCH', '/snippets/{id}/'],
      ['deleteSnippet', 'DELETE', '/snippets/{id}/'],
      ['highlightSnippet', 'GET', '/snippets/{id}/highlight/'],
    ]) {
      const block = page.locator(`#operations-snippets-${id}`);
      assert.is((await block.locator('.opblock-summary-method').textContent())?.trim(), method, id);
      assert.is((await block.locator('.opblock-summary-path').getAttribute('data-path')), path, id);
      assert.is((await block.locator('.opblock-summary-operation-id').textContent())?.trim(), id);
    }
    assert.is(await page.locator('a.login-link').count(), 1);
    await page.context().close();
    assert.equal(session.foreign, [], 'no request went to another host');
    assert.equal(session.violations, [], 'no Content-Security-Policy violation');
  });

  test('docs :: try it out with a session login (the CSRF header from the csrftoken cookie)', async () => {
    const page = await session.newPage({ timeout: 20_000, allowedPrefixes: ['data:', 'about:', 'blob:'] });
    const origin = session.origin;
    await page.goto(`${origin}/schema/docs/`);
    await Promise.all([page.waitForNavigation(), page.click('a.login-link')]);
    await page.fill('#id_username', 'alice');
    await page.fill('#id_password', PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('form button[type=submit]')]);
    assert.is(page.url(), `${origin}/schema/docs/`);
    assert.is(await page.locator('[data-testid=username]').textContent(), 'alice');
    await page.locator('#operations-snippets-createSnippet').waitFor();
    const { status, text } = await tryCreateSnippet(page, { title: 'from the docs page', code: 'print(1)' });
    assert.is(status, '201', text);
    assert.match(text, /"owner": "alice"/);
    const listed = await session.server!.call('GET', '/snippets/');
    assert.ok((listed.json() as Array<{ title: string }>).some((snippet) => snippet.title === 'from the docs page'));
    await page.context().close();
  });

  test('docs :: try it out with Authorization: Token, entered in the Authorize dialog', async () => {
    const page = await session.newPage({ timeout: 20_000, allowedPrefixes: ['data:', 'about:', 'blob:'] });
    await page.goto(`${session.origin}/schema/docs/`);
    await page.locator('#operations-snippets-createSnippet').waitFor();
    // Anonymous first: refused.
    const refused = await tryCreateSnippet(page, { code: 'print(2)' });
    assert.is(refused.status, '403', refused.text);
    // A fresh load (deep links would keep the operation open): authorize, then try again.
    await page.goto(`${session.origin}/schema/docs/`);
    await page.locator('#operations-snippets-createSnippet').waitFor();
    await page.locator('.auth-wrapper button.authorize').click();
    const tokenSection = page.locator('.modal-ux .auth-container').filter({ hasText: 'tokenAuth' });
    await tokenSection.locator('input').fill(`Token ${session.server!.aliceToken}`);
    await tokenSection.locator('button.authorize').click();
    await tokenSection.locator('button.btn-done').click();
    const { status, text } = await tryCreateSnippet(page, { title: 'by token', code: 'print(3)' });
    assert.is(status, '201', text);
    assert.match(text, /"owner": "alice"/);
    await page.context().close();
    assert.equal(session.foreign, [], 'no request went to another host');
    assert.equal(session.violations, [], 'no Content-Security-Policy violation');
  });

  test.run();
}
