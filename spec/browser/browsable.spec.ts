/**
 * The browsable API and the admin as a person uses them, in real Chromium (headless, driven by
 * playwright-core) against the demo served by `manage.ts runserver`: log in through the login
 * form, create a snippet through the HTML form, find it in the list, edit it, delete it, log
 * out; then the admin: log in as staff, list users, create, edit and delete a group. Every
 * request the browser makes must go to the demo server itself (no CDN, no other host), and
 * the pages' Content-Security-Policy must not block anything (no violation reported).
 *
 * Needs `/usr/bin/chromium` (`.ci/run` installs Debian's package); without it the suite prints
 * a note and skips. `SKIP_BROWSER_TESTS=1` skips it too (`.ci/run` runs it in the SQLite pass
 * only: it does not depend on the database or cache backend).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { PASSWORD } from '../e2e/demoServer';
import { BrowserSession } from './browserSession';

const test = suite('browser: browsable API and admin');
const session = new BrowserSession();

async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

if (BrowserSession.available('browser :: browsable API', 'the browser test of the browsable API')) {
  test.before(() => session.start());
  test.after(() => session.stop());

  test('browsable :: log in, create, list, edit, delete a snippet, log out', async () => {
    const page = await session.newPage({ timeout: 15_000, allowedPrefixes: ['data:', 'about:'], acceptDialogs: true });
    const origin = session.origin;
    await page.goto(`${origin}/snippets/`);
    assert.is(await page.locator('h1').textContent(), 'Snippet List');
    assert.is(await page.locator('#post-object-form').count(), 0, 'no form before logging in');
    const styles = await page.evaluate(() => getComputedStyle(document.querySelector('.navbar')!).backgroundImage);
    assert.match(styles, /gradient/, 'the stylesheet was loaded from the server');

    await submit(page, 'a.login-link');
    assert.match(page.url(), /\/api-auth\/login\/\?next=%2Fsnippets%2F$/);
    await page.fill('#id_username', 'alice');
    await page.fill('#id_password', 'wrong');
    await submit(page, 'form button[type=submit]');
    assert.match(await page.locator('.alert-danger').textContent() ?? '', /Please enter a correct username and password/);
    await page.fill('#id_password', PASSWORD);
    await submit(page, 'form button[type=submit]');
    assert.is(page.url(), `${origin}/snippets/`);
    assert.is(await page.locator('[data-testid=username]').textContent(), 'alice');

    // Create through the HTML form.
    const title = 'Browser </script><img src=x onerror=window.__pwned=1>';
    await page.fill('#post-id_title', title);
    await page.fill('#post-id_code', 'print("hello from chromium")');
    await submit(page, '#post-object-form .panel-html button[type=submit]');
    assert.match(await page.locator('.response-info').textContent() ?? '', /HTTP 201 Created/);
    assert.ok((await page.locator('.response-info').textContent())?.includes(title), 'the title is shown as text');
    assert.is(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'no markup was injected');

    const created = await page.locator('.response-info').textContent() ?? '';
    const id = /"id": (\d+)/.exec(created)?.[1];
    assert.ok(id, 'the new snippet has an id');

    // See it in the list (through the breadcrumb), then open it.
    await submit(page, '.breadcrumb a:text-is("Snippet List")');
    assert.is(page.url(), `${origin}/snippets/`);
    assert.ok((await page.locator('.response-info').textContent())?.includes(title));
    const detailUrl = `${origin}/snippets/${id}/`;
    await page.goto(detailUrl);
    assert.is(await page.locator('h1').textContent(), 'Snippet Instance');

    // Edit through the PUT form (sent by the page's script).
    assert.is(await page.locator('#put-id_title').inputValue(), title);
    await page.fill('#put-id_title', 'Edited in the browser');
    await page.click('#put-object-form .panel-html button[type=submit]');
    await page.waitForFunction(() => document.querySelector('.request-info')?.textContent?.includes('PUT'));
    assert.match(await page.locator('.response-info').textContent() ?? '', /HTTP 200 OK/);
    assert.ok((await page.locator('.response-info').textContent())?.includes('"title": "Edited in the browser"'));

    // Delete, after the confirmation dialog.
    await page.goto(detailUrl);
    await page.click('.toolbar [data-request-method=DELETE]');
    await page.click('#delete-dialog [data-request-method=DELETE]');
    await page.waitForSelector('text=HTTP 204 No Content');
    await page.goto(`${origin}/snippets/`);
    assert.not.ok((await page.locator('.response-info').textContent())?.includes('Edited in the browser'));

    // Log out (a POST form with the CSRF token), back on the same page as anonymous.
    await submit(page, '.navbar form button[type=submit]');
    assert.is(page.url(), `${origin}/snippets/`);
    assert.is(await page.locator('a.login-link').count(), 1);
    assert.is(await page.locator('[data-testid=username]').count(), 0);
    await page.context().close();
    assert.equal(session.foreign, [], 'no request went to another host');
    assert.equal(session.violations, [], 'no Content-Security-Policy violation');
  });

  test('admin :: log in as staff, list users, create, edit and delete a group', async () => {
    const page = await session.newPage({ timeout: 15_000, allowedPrefixes: ['data:', 'about:'], acceptDialogs: true });
    const origin = session.origin;
    await page.goto(`${origin}/admin/`);
    assert.match(page.url(), /\/admin\/login\/\?next=%2Fadmin%2F$/);
    await page.fill('#id_username', 'carol');
    await page.fill('#id_password', PASSWORD);
    await submit(page, 'form button[type=submit]');
    assert.match(await page.locator('.alert-danger').textContent() ?? '', /staff account/);
    await page.fill('#id_username', 'alice');
    await page.fill('#id_password', PASSWORD);
    await submit(page, 'form button[type=submit]');
    assert.is(page.url(), `${origin}/admin/`);

    await submit(page, '.app-list a:text-is("Users")');
    const users = await page.locator('#result_list tbody').textContent() ?? '';
    assert.match(users, /alice/);
    assert.match(users, /carol/);
    await page.fill('input[name=q]', 'car');
    await submit(page, '.searchbar button[type=submit]');
    assert.not.match(await page.locator('#result_list tbody').textContent() ?? '', /alice/);

    await page.goto(`${origin}/admin/auth/group/add/`);
    await page.fill('#id_name', 'browser-editors');
    await submit(page, 'button[name=_save]');
    assert.match(await page.locator('.alert-success').textContent() ?? '', /The group “browser-editors” was added successfully\./);
    await submit(page, '#result_list a:text-is("browser-editors")');
    await page.fill('#id_name', 'browser-writers');
    await submit(page, 'button[name=_save]');
    assert.match(await page.locator('#result_list').textContent() ?? '', /browser-writers/);
    await submit(page, '#result_list a:text-is("browser-writers")');
    await submit(page, 'a.btn-danger:text-is("Delete")');
    assert.match(await page.locator('main').textContent() ?? '', /Are you sure you want to delete the group “browser-writers”\?/);
    await submit(page, 'button:text-is("Yes, I’m sure")');
    assert.match(await page.locator('.alert-success').textContent() ?? '', /was deleted successfully/);
    assert.not.match(await page.locator('#result_list').textContent() ?? '', /browser-writers/);

    await submit(page, '.navbar form button[type=submit]');
    assert.match(await page.locator('main').textContent() ?? '', /Log in again/);
    await page.context().close();
    assert.equal(session.foreign, [], 'no request went to another host');
    assert.equal(session.violations, [], 'no Content-Security-Policy violation');
  });
}

test.run();
