import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Http404 } from '../lib/core/exceptions';
import { anonymousUser, HttpRequest, type AuthUser } from '../lib/core/http';
import { MethodNotAllowed } from '../lib/exceptions';
import {
  AllowAny,
  and,
  BasePermission,
  DjangoModelPermissions,
  DjangoModelPermissionsOrAnonReadOnly,
  DjangoObjectPermissions,
  IsAdminUser,
  IsAuthenticated,
  IsAuthenticatedOrReadOnly,
  not,
  or,
  SAFE_METHODS,
} from '../lib/permissions';
import { Request } from '../lib/request';
import { Group, Permission, User } from '../contrib/auth/models';
import { useTestDatabase } from '../lib/core/db/testing';
import { JSONRenderer } from '../lib/renderers';
import { Response } from '../lib/response';
import { APIRequestFactory, forceAuthenticate } from '../lib/test';
import { APIView } from '../lib/views';

const test = suite('permissions');

function fakeUser(options: { staff?: boolean; perms?: string[]; objectPerms?: Map<unknown, string[]>; active?: boolean } = {}): AuthUser & {
  checked: Array<[string[], unknown]>;
} {
  const checked: Array<[string[], unknown]> = [];
  return {
    pk: 1,
    id: 1,
    username: 'alice',
    is_active: options.active ?? true,
    is_staff: options.staff ?? false,
    is_superuser: false,
    isAuthenticated: true,
    isAnonymous: false,
    checked,
    hasPerm: () => false,
    async hasPerms(perms: Iterable<string>, obj?: unknown) {
      const list = [...perms];
      checked.push([list, obj]);
      const granted = obj === undefined ? (options.perms ?? []) : (options.objectPerms?.get(obj) ?? []);
      return list.every((perm) => granted.includes(perm));
    },
  };
}

function makeRequest(method: string, user: AuthUser | null): Request {
  const request = new Request(HttpRequest.create({ method, url: '/', headers: { host: 'testserver' } }));
  request.user = user;
  request.auth = null;
  return request;
}

const view = {} as any;

async function grants(cls: new () => BasePermission, request: Request, v: unknown = view): Promise<boolean> {
  return Boolean(await new cls().hasPermission(request, v as any));
}

async function grantsObject(cls: new () => BasePermission, request: Request, obj: unknown, v: unknown = view): Promise<boolean> {
  return Boolean(await new cls().hasObjectPermission(request, v as any, obj));
}

// -- Basic classes -------------------------------------------------------------------------------

test('SAFE_METHODS :: GET, HEAD, OPTIONS', () => {
  assert.equal([...SAFE_METHODS], ['GET', 'HEAD', 'OPTIONS']);
});

test('BasePermission :: grants view and object by default', async () => {
  assert.ok(await grants(BasePermission, makeRequest('POST', anonymousUser)));
  assert.ok(await grantsObject(BasePermission, makeRequest('POST', anonymousUser), {}));
});

test('AllowAny :: grants everyone', async () => {
  assert.ok(await grants(AllowAny, makeRequest('DELETE', anonymousUser)));
  assert.ok(await grants(AllowAny, makeRequest('DELETE', null)));
});

test('IsAuthenticated :: only authenticated users', async () => {
  assert.not.ok(await grants(IsAuthenticated, makeRequest('GET', anonymousUser)));
  assert.not.ok(await grants(IsAuthenticated, makeRequest('GET', null)));
  assert.ok(await grants(IsAuthenticated, makeRequest('GET', fakeUser())));
});

test('IsAdminUser :: only staff users', async () => {
  assert.not.ok(await grants(IsAdminUser, makeRequest('GET', anonymousUser)));
  assert.not.ok(await grants(IsAdminUser, makeRequest('GET', fakeUser())));
  assert.ok(await grants(IsAdminUser, makeRequest('GET', fakeUser({ staff: true }))));
  assert.not.ok(await grants(IsAdminUser, makeRequest('GET', null)));
});

test('IsAuthenticatedOrReadOnly :: anonymous may only read', async () => {
  for (const method of ['GET', 'HEAD', 'OPTIONS']) assert.ok(await grants(IsAuthenticatedOrReadOnly, makeRequest(method, anonymousUser)));
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    assert.not.ok(await grants(IsAuthenticatedOrReadOnly, makeRequest(method, anonymousUser)), method);
    assert.ok(await grants(IsAuthenticatedOrReadOnly, makeRequest(method, fakeUser())), method);
  }
});

// -- Composition ---------------------------------------------------------------------------------

/** Grants the view and objects as configured; records calls. */
function fixed(view: boolean, object: boolean, calls: string[] = [], label = 'P') {
  return class extends BasePermission {
    override hasPermission() {
      calls.push(`${label}.view`);
      return view;
    }
    override async hasObjectPermission() {
      calls.push(`${label}.object`);
      return object;
    }
  };
}

const T = fixed(true, true);
const F = fixed(false, false);

test('and :: both must grant (view and object)', async () => {
  const request = makeRequest('GET', anonymousUser);
  assert.ok(await grants(and(T, T), request));
  assert.not.ok(await grants(and(T, F), request));
  assert.not.ok(await grants(and(F, T), request));
  assert.ok(await grantsObject(and(T, T), request, {}));
  assert.not.ok(await grantsObject(and(T, F), request, {}));
});

test('and :: short-circuits on the first refusal', async () => {
  const calls: string[] = [];
  await grants(and(fixed(false, false, calls, 'A'), fixed(true, true, calls, 'B')), makeRequest('GET', anonymousUser));
  assert.equal(calls, ['A.view']);
});

test('or :: either may grant the view', async () => {
  const request = makeRequest('GET', anonymousUser);
  assert.ok(await grants(or(F, T), request));
  assert.ok(await grants(or(T, F), request));
  assert.not.ok(await grants(or(F, F), request));
});

test('or :: object level counts an operand only if it grants view and object (3.14)', async () => {
  const request = makeRequest('GET', anonymousUser);
  const viewOnly = fixed(true, false);
  const objectOnly = fixed(false, true);
  assert.not.ok(await grantsObject(or(viewOnly, objectOnly), request, {}));
  assert.ok(await grantsObject(or(viewOnly, T), request, {}));
  assert.ok(await grantsObject(or(T, objectOnly), request, {}));
  const calls: string[] = [];
  await grantsObject(or(fixed(true, true, calls, 'A'), fixed(true, true, calls, 'B')), request, {});
  assert.equal(calls, ['A.view', 'A.object']);
});

test('not :: inverts view and object answers', async () => {
  const request = makeRequest('GET', anonymousUser);
  assert.not.ok(await grants(not(T), request));
  assert.ok(await grants(not(F), request));
  assert.ok(await grants(not(IsAuthenticated), request));
  assert.not.ok(await grants(not(IsAuthenticated), makeRequest('GET', fakeUser())));
  assert.not.ok(await grantsObject(not(T), request, {}));
  assert.ok(await grantsObject(not(F), request, {}));
});

test('static helpers :: A.and(B), A.or(B), A.not() compose and chain', async () => {
  const anon = makeRequest('POST', anonymousUser);
  const user = makeRequest('POST', fakeUser());
  const admin = makeRequest('POST', fakeUser({ staff: true }));
  const adminOrReadOnly = IsAdminUser.or(IsAuthenticatedOrReadOnly);
  assert.not.ok(await grants(adminOrReadOnly, anon));
  assert.ok(await grants(adminOrReadOnly, makeRequest('GET', anonymousUser)));
  assert.ok(await grants(adminOrReadOnly, user));
  const staffOnly = IsAuthenticated.and(IsAdminUser);
  assert.not.ok(await grants(staffOnly, user));
  assert.ok(await grants(staffOnly, admin));
  assert.ok(await grants(IsAuthenticated.not(), anon));
  // Chains: (IsAuthenticated & ~IsAdminUser) | AllowAny-on-GET
  const nonStaff = IsAuthenticated.and(IsAdminUser.not());
  assert.ok(await grants(nonStaff, user));
  assert.not.ok(await grants(nonStaff, admin));
  assert.ok(await grants(nonStaff.or(IsAdminUser), admin));
  assert.is(nonStaff.name, '(IsAuthenticated & ~IsAdminUser)');
});

test('composition :: message and code of composed classes default to undefined', () => {
  const composed = new (IsAuthenticated.and(IsAdminUser))();
  assert.is(composed.message, undefined);
  assert.instance(composed, BasePermission);
});

// -- Model permissions ---------------------------------------------------------------------------

class Note {
  static meta = { appLabel: 'notes' };
}
const noteQueryset = { model: Note };

function modelView(extra: Record<string, unknown> = {}) {
  return { queryset: noteQueryset, ...extra };
}

test('DjangoModelPermissions :: perms per method', async () => {
  const cases: Array<[string, string[]]> = [
    ['GET', []],
    ['HEAD', []],
    ['OPTIONS', []],
    ['POST', ['notes.add_note']],
    ['PUT', ['notes.change_note']],
    ['PATCH', ['notes.change_note']],
    ['DELETE', ['notes.delete_note']],
  ];
  for (const [method, perms] of cases) {
    const user = fakeUser({ perms });
    assert.ok(await grants(DjangoModelPermissions, makeRequest(method, user), modelView()), method);
    assert.equal(user.checked[0][0], perms);
    if (perms.length) assert.not.ok(await grants(DjangoModelPermissions, makeRequest(method, fakeUser()), modelView()), method);
  }
});

test('DjangoModelPermissions :: unauthenticated users are refused even for reads', async () => {
  assert.not.ok(await grants(DjangoModelPermissions, makeRequest('GET', anonymousUser), modelView()));
  assert.not.ok(await grants(DjangoModelPermissions, makeRequest('GET', null), modelView()));
});

test('DjangoModelPermissions :: unknown method is 405', async () => {
  try {
    await grants(DjangoModelPermissions, makeRequest('TRACE', fakeUser()), modelView());
    assert.unreachable();
  } catch (error) {
    assert.instance(error, MethodNotAllowed);
    assert.is(String((error as MethodNotAllowed).detail), 'Method "TRACE" not allowed.');
  }
});

test('DjangoModelPermissions :: getQueryset() wins over queryset; modelName override', async () => {
  class Other {
    static meta = { appLabel: 'misc', modelName: 'thing' };
  }
  const user = fakeUser({ perms: ['misc.add_thing'] });
  const v = modelView({ getQueryset: () => ({ model: Other }) });
  assert.ok(await grants(DjangoModelPermissions, makeRequest('POST', user), v));
  assert.equal(user.checked[0][0], ['misc.add_thing']);
});

test('DjangoModelPermissions :: a view without queryset is a configuration error', async () => {
  try {
    await grants(DjangoModelPermissions, makeRequest('GET', fakeUser()), {});
    assert.unreachable();
  } catch (error) {
    assert.match(
      (error as Error).message,
      'Cannot apply DjangoModelPermissions on a view that does not set `.queryset` or have a `.getQueryset()` method.',
    );
  }
});

test('DjangoModelPermissions :: ignoreModelPermissions views are allowed', async () => {
  assert.ok(await grants(DjangoModelPermissions, makeRequest('POST', fakeUser()), { ignoreModelPermissions: true }));
});

test('DjangoModelPermissions :: a custom permsMap can guard reads', async () => {
  class ReadGuarded extends DjangoModelPermissions {
    override permsMap = { ...new DjangoModelPermissions().permsMap, GET: ['%(app_label)s.view_%(model_name)s'] };
  }
  assert.not.ok(await grants(ReadGuarded, makeRequest('GET', fakeUser()), modelView()));
  assert.ok(await grants(ReadGuarded, makeRequest('GET', fakeUser({ perms: ['notes.view_note'] })), modelView()));
});

test('DjangoModelPermissionsOrAnonReadOnly :: anonymous reads allowed, writes refused', async () => {
  assert.ok(await grants(DjangoModelPermissionsOrAnonReadOnly, makeRequest('GET', anonymousUser), modelView()));
  assert.not.ok(await grants(DjangoModelPermissionsOrAnonReadOnly, makeRequest('POST', anonymousUser), modelView()));
});

// -- Object permissions --------------------------------------------------------------------------

test('DjangoObjectPermissions :: granted with the object permission', async () => {
  const obj = { id: 1 };
  const user = fakeUser({ objectPerms: new Map([[obj, ['notes.change_note']]]) });
  assert.ok(await grantsObject(DjangoObjectPermissions, makeRequest('PUT', user), obj, modelView()));
  assert.equal(user.checked[0], [['notes.change_note'], obj]);
});

test('DjangoObjectPermissions :: no read access to the object is 404', async () => {
  const obj = { id: 2 };
  const user = fakeUser({ objectPerms: new Map() });
  class ReadGuarded extends DjangoObjectPermissions {
    override permsMap = { ...new DjangoObjectPermissions().permsMap, GET: ['%(app_label)s.view_%(model_name)s'] };
  }
  for (const method of ['GET', 'DELETE']) {
    try {
      await grantsObject(ReadGuarded, makeRequest(method, user), obj, modelView());
      assert.unreachable(method);
    } catch (error) {
      assert.instance(error, Http404);
    }
  }
});

test('DjangoObjectPermissions :: read access but no write access is 403 (false)', async () => {
  const obj = { id: 3 };
  const user = fakeUser({ objectPerms: new Map([[obj, ['notes.view_note']]]) });
  class ReadGuarded extends DjangoObjectPermissions {
    override permsMap = { ...new DjangoObjectPermissions().permsMap, GET: ['%(app_label)s.view_%(model_name)s'] };
  }
  assert.not.ok(await grantsObject(ReadGuarded, makeRequest('DELETE', user), obj, modelView()));
});

test('DjangoObjectPermissions :: unknown method is 405', async () => {
  try {
    await grantsObject(DjangoObjectPermissions, makeRequest('TRACE', fakeUser()), {}, modelView());
    assert.unreachable();
  } catch (error) {
    assert.instance(error, MethodNotAllowed);
  }
});

// -- Model permissions with the auth app's users and groups ---------------------------------------

useTestDatabase(test);

function groupsView(permission: new () => BasePermission) {
  class GroupList extends APIView {
    override authenticationClasses = [];
    override permissionClasses = [permission] as any;
    override rendererClasses = [JSONRenderer] as any;
    queryset = Group.objects.all();

    get() {
      return new Response({ ok: true });
    }
    post() {
      return new Response({ ok: true }, { status: 201 });
    }
    delete() {
      return new Response(null, { status: 204 });
    }
  }
  return GroupList.asView();
}

async function statusOf(view: ReturnType<typeof groupsView>, method: 'get' | 'post' | 'delete', user: AuthUser | null): Promise<number> {
  const request = await factory[method]('/groups/');
  if (user) forceAuthenticate(request, user);
  return (await view(request, {})).status;
}

const factory = new APIRequestFactory();

test('DjangoModelPermissions :: permissions granted through a group', async () => {
  const editors = await Group.objects.create({ name: 'editors' });
  await editors.$add('permissions', [await Permission.objects.get({ codename: 'add_group' })]);
  const member = await User.objects.createUser('member', '', 'pw');
  await member.$add('groups', editors);
  const outsider = await User.objects.createUser('outsider', '', 'pw');
  const view = groupsView(DjangoModelPermissions);
  const fresh = (await User.objects.get({ id: member.id })) as unknown as AuthUser;
  assert.is(await statusOf(view, 'get', fresh), 200);
  assert.is(await statusOf(view, 'post', fresh), 201);
  assert.is(await statusOf(view, 'delete', fresh), 403);
  assert.is(await statusOf(view, 'post', outsider as unknown as AuthUser), 403);
  // Anonymous users are refused even for reads, unless anonymous reads are allowed.
  assert.is(await statusOf(view, 'get', null), 403);
  assert.is(await statusOf(groupsView(DjangoModelPermissionsOrAnonReadOnly), 'get', null), 200);
  assert.is(await statusOf(groupsView(DjangoModelPermissionsOrAnonReadOnly), 'post', null), 403);
});

test('DjangoModelPermissions :: superusers have every permission; IsAdminUser needs is_staff', async () => {
  const root = (await User.objects.createSuperuser('root', '', 'pw')) as unknown as AuthUser;
  assert.is(await statusOf(groupsView(DjangoModelPermissions), 'delete', root), 204);
  assert.is(await statusOf(groupsView(IsAdminUser), 'delete', root), 204);
  const plainUser = (await User.objects.get({ username: 'outsider' })) as unknown as AuthUser;
  assert.is(await statusOf(groupsView(IsAdminUser), 'get', plainUser), 403);
});

test('checkObjectPermissions :: answers a promise (resolved, or rejected at the first refusal) whether permissions answer at once or not', async () => {
  class Owner extends BasePermission {
    override hasObjectPermission(_request: Request, _view: unknown, obj: unknown): boolean {
      return (obj as { owner: string }).owner === 'alice';
    }
  }
  class LaterOwner extends BasePermission {
    override async hasObjectPermission(_request: Request, _view: unknown, obj: unknown): Promise<boolean> {
      return (obj as { owner: string }).owner === 'alice';
    }
  }
  for (const Permission of [Owner, LaterOwner]) {
    const view = new APIView();
    view.permissionClasses = [Permission];
    const request = new Request(HttpRequest.create({ url: '/' }), { authenticators: [] });
    request.user = anonymousUser;
    const allowed = view.checkObjectPermissions(request, { owner: 'alice' });
    assert.instance(allowed, Promise, Permission.name);
    await allowed;
    let refused: unknown = null;
    let pending: Promise<void> | null = null;
    assert.not.throws(() => {
      pending = view.checkObjectPermissions(request, { owner: 'bob' });
    }, Permission.name);
    await (pending as unknown as Promise<void>).catch((error: unknown) => (refused = error));
    assert.ok(refused instanceof Error && refused.name === 'PermissionDenied', Permission.name);
  }
});

test.run();
