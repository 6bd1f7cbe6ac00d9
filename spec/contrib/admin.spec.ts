/**
 * contrib/admin without a browser: staff-only access (anonymous and non-staff users go to the
 * admin login), the login refusing non-staff accounts, CSRF on every form, and the changelist
 * search, add, change and delete of users, groups and tokens.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AdminSite, AlreadyRegistered, adminSite } from '../../contrib/admin';
import { Group, User } from '../../contrib/auth/models';
import { Token } from '../../contrib/authtoken/models';
import { staticfilesUrlpatterns } from '../../contrib/browsable/staticfiles';
import { overrideSettings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { clearUrlCaches, path } from '../../lib/core/urls';
import { APIClient, type TestResponse } from '../../lib/test';

export const urlpatterns = [path('admin/', adminSite.urls), ...staticfilesUrlpatterns()];

const test = suite('contrib.admin');
useTestDatabase(test);

let restore: (() => void) | null = null;
let staff: User;
let plain: User;

test.before(async () => {
  restore = overrideSettings.enter({ ROOT_URLCONF: 'spec/contrib/admin.spec' });
  clearUrlCaches();
  staff = await User.objects.createSuperuser('root', 'root@example.com', 'root-password');
  plain = await User.objects.createUser('plain', 'plain@example.com', 'plain-password');
});

test.after(() => {
  restore?.();
  clearUrlCaches();
});

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

async function staffClient(): Promise<APIClient> {
  const client = new APIClient({ enforceCsrfChecks: true });
  await client.forceLogin(staff);
  return client;
}

test('access :: anonymous and non-staff users are sent to the admin login with next', async () => {
  const anonymous = await new APIClient().get('/admin/auth/user/');
  assert.is(anonymous.status, 302);
  assert.is(anonymous.header('Location'), '/admin/login/?next=%2Fadmin%2Fauth%2Fuser%2F');
  const client = new APIClient();
  await client.forceLogin(plain);
  const refused = await client.get('/admin/');
  assert.is(refused.status, 302);
  const login = await client.get('/admin/login/?next=/admin/');
  assert.match(login.text, /You are authenticated as plain, but are not authorized to access this page\./);
});

test('login :: a non-staff account is refused, a staff account logs in; CSRF is required', async () => {
  const client = new APIClient({ enforceCsrfChecks: true });
  const page = await client.get('/admin/login/?next=/admin/auth/group/');
  const token = csrfFrom(page);
  const noToken = await client.post('/admin/login/', form({ username: 'root', password: 'root-password' }));
  assert.is(noToken.status, 403);
  const refused = await client.post('/admin/login/', form({ csrfmiddlewaretoken: token, username: 'plain', password: 'plain-password', next: '/admin/' }));
  assert.is(refused.status, 200);
  assert.match(refused.text, /Please enter the correct username and password for a staff account\./);
  const ok = await client.post('/admin/login/', form({ csrfmiddlewaretoken: token, username: 'root', password: 'root-password', next: '/admin/auth/group/' }));
  assert.is(ok.status, 302);
  assert.is(ok.header('Location'), '/admin/auth/group/');
  const other = new APIClient({ enforceCsrfChecks: true });
  const evil = await other.post('/admin/login/', form({ csrfmiddlewaretoken: csrfFrom(await other.get('/admin/login/')), username: 'root', password: 'root-password', next: 'https://evil.example/' }));
  assert.is(evil.header('Location'), '/admin/');
});

test('index :: lists the autodiscovered users, groups and tokens', async () => {
  const html = (await (await staffClient()).get('/admin/')).text;
  assert.match(html, /<a href="\/admin\/auth\/user\/">Users<\/a>/);
  assert.match(html, /<a href="\/admin\/auth\/group\/">Groups<\/a>/);
  assert.match(html, /<a href="\/admin\/authtoken\/token\/">Tokens<\/a>/);
  assert.match(html, /api_framework\/css\/browsable\.css/);
});

test('changelist :: search filters the users and escapes values', async () => {
  await User.objects.createUser('<b>bold</b>', 'x@example.com', 'x');
  const client = await staffClient();
  const all = (await client.get('/admin/auth/user/')).text;
  assert.match(all, /3 users/);
  assert.ok(all.includes('&lt;b&gt;bold&lt;/b&gt;'));
  assert.not.ok(all.includes('<b>bold</b>'));
  const found = (await client.get('/admin/auth/user/?q=plain')).text;
  assert.match(found, /1 user</);
  assert.match(found, /change\/">\s*plain\s*</);
  assert.not.match(found, /change\/">\s*root\s*</);
  const none = (await client.get('/admin/auth/user/?q=nobody')).text;
  assert.match(none, /No users match “nobody”\./);
});

test('groups :: create, edit and delete with confirmation, each CSRF-protected', async () => {
  const client = await staffClient();
  const addPage = await client.get('/admin/auth/group/add/');
  assert.match(addPage.text, /name="name"/);
  assert.match(addPage.text, /<select multiple class="form-control" id="id_permissions" name="permissions">/);
  const token = csrfFrom(addPage);
  assert.is((await client.post('/admin/auth/group/add/', form({ name: 'no-token' }))).status, 403);
  const invalid = await client.post('/admin/auth/group/add/', form({ csrfmiddlewaretoken: token, name: '' }));
  assert.is(invalid.status, 200);
  assert.match(invalid.text, /This field may not be blank\./);
  const created = await client.post('/admin/auth/group/add/', form({ csrfmiddlewaretoken: token, name: 'editors', _save: '1' }));
  assert.is(created.status, 302);
  assert.is(created.header('Location'), '/admin/auth/group/');
  const group = await Group.objects.get({ name: 'editors' });
  const list = await client.get('/admin/auth/group/');
  assert.match(list.text, /The group “editors” was added successfully\./);

  const changeUrl = `/admin/auth/group/${group.id}/change/`;
  const changePage = await client.get(changeUrl);
  assert.match(changePage.text, /name="name" value="editors"/);
  const changed = await client.post(changeUrl, form({ csrfmiddlewaretoken: csrfFrom(changePage), name: 'writers' }));
  assert.is(changed.status, 302);
  assert.is((await Group.objects.get({ id: group.id })).name, 'writers');

  const deleteUrl = `/admin/auth/group/${group.id}/delete/`;
  const confirm = await client.get(deleteUrl);
  assert.match(confirm.text, /Are you sure you want to delete the group “writers”\?/);
  assert.is(await Group.objects.filter({ id: group.id }).exists(), true, 'GET does not delete');
  assert.is((await client.post(deleteUrl, form({ post: 'yes' }))).status, 403);
  const deleted = await client.post(deleteUrl, form({ csrfmiddlewaretoken: csrfFrom(confirm), post: 'yes' }));
  assert.is(deleted.status, 302);
  assert.is(await Group.objects.filter({ id: group.id }).exists(), false);
  assert.is((await client.get(changeUrl)).status, 404);
});

test('users :: the password is stored hashed; blank keeps it', async () => {
  const client = await staffClient();
  const page = await client.get('/admin/auth/user/add/');
  assert.match(page.text, /<input type="password" class="form-control" id="id_password" name="password" value="">/);
  const created = await client.post('/admin/auth/user/add/', form({
    csrfmiddlewaretoken: csrfFrom(page), username: 'newbie', password: 'newbie-password', email: 'n@example.com', is_active: 'true',
  }));
  assert.is(created.status, 302);
  const user = await User.objects.get({ username: 'newbie' });
  assert.match(user.password, /^pbkdf2_sha256\$/);
  assert.ok(await user.checkPassword('newbie-password'));
  const changeUrl = `/admin/auth/user/${user.id}/change/`;
  const changePage = await client.get(changeUrl);
  assert.not.match(changePage.text, /pbkdf2_sha256/, 'the hash is never shown');
  await client.post(changeUrl, form({ csrfmiddlewaretoken: csrfFrom(changePage), username: 'newbie', password: '', is_active: 'true', is_staff: 'true' }));
  const reloaded = await User.objects.get({ id: user.id });
  assert.is(reloaded.is_staff, true);
  assert.ok(await reloaded.checkPassword('newbie-password'));
});

test('tokens :: a token is created for a chosen user with a generated key', async () => {
  const client = await staffClient();
  const page = await client.get('/admin/authtoken/token/add/');
  assert.match(page.text, /<select class="form-control" id="id_user" name="user">/);
  const created = await client.post('/admin/authtoken/token/add/', form({ csrfmiddlewaretoken: csrfFrom(page), user: String(plain.id) }));
  assert.is(created.status, 302);
  const token = await Token.objects.get({ user_id: plain.id });
  assert.match(token.key, /^[0-9a-f]{40}$/);
  const list = (await client.get('/admin/authtoken/token/')).text;
  assert.ok(list.includes(token.key));
  assert.match(list, />\s*plain\s*</);
});

test('site :: registering twice raises; custom sites register their own models', () => {
  const site = new AdminSite('other');
  site.register(Group as never, { listDisplay: ['name'] });
  assert.throws(() => site.register(Group as never), (error: Error) => error instanceof AlreadyRegistered);
  assert.ok(site.isRegistered(Group as never));
  site.unregister(Group as never);
  assert.not.ok(site.isRegistered(Group as never));
});

test.run();
