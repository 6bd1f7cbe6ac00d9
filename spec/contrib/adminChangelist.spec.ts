/**
 * contrib/admin's changelist as the original's admin shows it: foreign-key columns show the
 * related object's text, models without `toString()` are `SSlot object (1)`, decimals keep
 * their places on SQLite, sidebar list filters, search across relations (listed once), and
 * the bulk "Delete selected" action with its confirmation page.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AdminSite } from '../../contrib/admin';
import { User } from '../../contrib/auth/models';
import { staticfilesUrlpatterns } from '../../contrib/browsable/staticfiles';
import { overrideSettings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { clearUrlCaches, path } from '../../lib/core/urls';
import { APIClient, type TestResponse } from '../../lib/test';
import { SArticle, SArticleTag, SSlot, STag, serializerModels } from '../models/serializers/models';

const site = new AdminSite('changelistadmin');
site.autodiscoverDefaults = false;
site.register(SArticle as never, {
  listDisplay: ['title', 'owner', 'price', 'published', 'status'],
  listFilter: ['owner', 'published', 'status'],
  searchFields: ['title', 'owner__username', 'tags__name'],
});
site.register(SSlot as never);

export const urlpatterns = [path('admin/', site.urls), ...staticfilesUrlpatterns()];

const test = suite('contrib.admin changelist');
useTestDatabase(test, { models: serializerModels });

let restore: (() => void) | null = null;
let staff: User;
const ids: Record<string, number> = {};

test.before(async () => {
  restore = overrideSettings.enter({ ROOT_URLCONF: 'spec/contrib/adminChangelist.spec' });
  clearUrlCaches();
  staff = await User.objects.createSuperuser('boss', 'boss@example.com', 'boss-password');
  const ann = await User.objects.createUser('ann', 'ann@example.com', 'x');
  const bob = await User.objects.createUser('bob', 'bob@example.com', 'x');
  const red = await STag.objects.create({ name: 'red' });
  const blue = await STag.objects.create({ name: 'blue' });
  const first = await SArticle.objects.create({ title: 'First', owner_id: ann.id, price: '3.10', published: true, status: 'live' });
  const second = await SArticle.objects.create({ title: 'Second', owner_id: bob.id, price: '12.00', published: false });
  await SArticle.objects.create({ title: 'Third', owner_id: null, price: '0.50' });
  for (const tag of [red, blue]) await SArticleTag.objects.create({ article_id: first.id, tag_id: tag.id });
  Object.assign(ids, { ann: ann.id, bob: bob.id, first: first.id, second: second.id });
  await SSlot.objects.create({ room: 'A', number: 1 });
});

test.after(() => {
  restore?.();
  clearUrlCaches();
});

async function staffClient(): Promise<APIClient> {
  const client = new APIClient({ enforceCsrfChecks: true });
  await client.forceLogin(staff);
  return client;
}

function csrfFrom(page: TestResponse): string {
  const match = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page.text);
  assert.ok(match, 'the page has a CSRF token field');
  return match[1];
}

function form(values: Record<string, string | string[]>): { data: string; contentType: string } {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
  return { data: params.toString(), contentType: 'application/x-www-form-urlencoded' };
}

/** The changelist rows as lists of cell texts. */
function cells(page: TestResponse): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page.text)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) => [...row.matchAll(/<td>([\s\S]*?)<\/td>/g)]
    .map(([, cell]) => cell.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim()));
}

test('columns :: foreign key as the related text, decimals with their places, choice labels', async () => {
  const client = await staffClient();
  const page = await client.get('/admin/sertest/sarticle/');
  assert.is(page.status, 200);
  assert.equal(cells(page), [
    ['First', 'ann', '3.10', '✓', 'Live'],
    ['Second', 'bob', '12.00', '✗', 'Draft'],
    ['Third', '-', '0.50', '✗', 'Draft'],
  ]);
});

test('default text :: a model without toString() is "SSlot object (1)" in list, title and breadcrumb', async () => {
  const client = await staffClient();
  const slot = await SSlot.objects.get({ room: 'A' });
  assert.is(String(slot), `SSlot object (${slot.id})`);
  assert.is(String(new SSlot()), 'SSlot object (None)');
  const list = await client.get('/admin/sertest/sslot/');
  assert.equal(cells(list), [[`SSlot object (${slot.id})`]]);
  const change = await client.get(`/admin/sertest/sslot/${slot.id}/change/`);
  assert.ok(change.text.includes(`SSlot object (${slot.id})`));
  assert.not.ok(change.text.includes('[object'));
});

test('list filters :: sidebar choices; filtering by relation, boolean and choice; bad values 400', async () => {
  const client = await staffClient();
  const page = await client.get('/admin/sertest/sarticle/');
  assert.match(page.text, /<h3>By owner<\/h3>/);
  assert.match(page.text, /<h3>By published<\/h3>/);
  assert.match(page.text, /<h3>By status<\/h3>/);
  assert.match(page.text, new RegExp(`href="\\?owner__id__exact=${ids.ann}">ann</a>`));
  const rows: Array<[string, string[]]> = [
    [`?owner__id__exact=${ids.bob}`, ['Second']],
    ['?published__exact=1', ['First']],
    ['?published__exact=0', ['Second', 'Third']],
    ['?status__exact=draft', ['Second', 'Third']],
    [`?status__exact=draft&owner__id__exact=${ids.bob}`, ['Second']],
  ];
  for (const [query, titles] of rows) {
    const filtered = await client.get(`/admin/sertest/sarticle/${query}`);
    assert.is(filtered.status, 200, query);
    assert.equal(cells(filtered).map((row) => row[0]), titles, query);
  }
  const selected = await client.get('/admin/sertest/sarticle/?published__exact=1');
  assert.match(selected.text, /<li class="selected"><a href="\?published__exact=1">Yes<\/a><\/li>/);
  for (const bad of ['?owner__id__exact=abc', '?published__exact=maybe', '?status__exact=gone', "?owner__id__exact=1%20OR%201=1"]) {
    assert.is((await client.get(`/admin/sertest/sarticle/${bad}`)).status, 400, bad);
  }
});

test('search :: across a foreign key and a many-to-many relation, each row once', async () => {
  const client = await staffClient();
  assert.equal(cells(await client.get('/admin/sertest/sarticle/?q=bob')).map((row) => row[0]), ['Second']);
  // 'e' is in both tags of First (red, blue): First is listed once.
  assert.equal(cells(await client.get('/admin/sertest/sarticle/?q=e')).map((row) => row[0]), ['First', 'Second']);
  assert.equal(cells(await client.get('/admin/sertest/sarticle/?q=blue')).map((row) => row[0]), ['First']);
});

test('bulk delete :: confirmation page, then deletion on the confirming POST', async () => {
  const client = await staffClient();
  const list = await client.get('/admin/sertest/sarticle/');
  assert.match(list.text, /<option value="delete_selected">Delete selected articles<\/option>/);
  const token = csrfFrom(list);
  const none = await client.post('/admin/sertest/sarticle/', form({ csrfmiddlewaretoken: token, action: 'delete_selected' }));
  assert.is(none.status, 302);
  assert.match((await client.get('/admin/sertest/sarticle/')).text, /Items must be selected in order to perform actions on them\./);
  const chosen = [String(ids.first), String(ids.second)];
  assert.is((await client.post('/admin/sertest/sarticle/', form({ action: 'delete_selected', _selected_action: chosen }))).status, 403);
  const confirm = await client.post('/admin/sertest/sarticle/', form({ csrfmiddlewaretoken: token, action: 'delete_selected', _selected_action: chosen }));
  assert.is(confirm.status, 200);
  assert.match(confirm.text, /Are you sure you want to delete the selected articles\?/);
  assert.match(confirm.text, /<li><a href="[^"]+">First<\/a><\/li>/);
  assert.is(await SArticle.objects.filter({ id: ids.first }).exists(), true, 'the confirmation page deletes nothing');
  const done = await client.post('/admin/sertest/sarticle/', form({
    csrfmiddlewaretoken: csrfFrom(confirm), action: 'delete_selected', _selected_action: chosen, post: 'yes',
  }));
  assert.is(done.status, 302);
  assert.is(await SArticle.objects.filter({ id__in: [ids.first, ids.second] }).count(), 0);
  const after = await client.get('/admin/sertest/sarticle/');
  assert.match(after.text, /Successfully deleted 2 articles\./);
  assert.equal(cells(after).map((row) => row[0]), ['Third']);
});

test.run();
