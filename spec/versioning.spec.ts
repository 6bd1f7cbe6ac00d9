import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../lib/core/conf';
import { HttpRequest } from '../lib/core/http';
import { resolve } from '../lib/core/urls';
import { NotAcceptable, NotFound } from '../lib/exceptions';
import { Request } from '../lib/request';
import { reverse } from '../lib/reverse';
import { APIClient } from '../lib/test';
import {
  AcceptHeaderVersioning,
  BaseVersioning,
  HostNameVersioning,
  NamespaceVersioning,
  QueryParameterVersioning,
  URLPathVersioning,
} from '../lib/versioning';
import * as urls from './fixtures/versioningUrls';

const test = suite('versioning');

function makeRequest(url = '/', headers: Record<string, string> = {}): Request {
  return new Request(HttpRequest.create({ url, headers: { host: 'testserver', ...headers } }));
}

function apiSettings(values: Record<string, unknown>, fn: () => void): void {
  overrideSettings({ API_FRAMEWORK: values }, fn);
}

function throwsWith(fn: () => unknown, cls: new (...args: never[]) => Error, detail: string): void {
  try {
    fn();
  } catch (error) {
    assert.instance(error, cls);
    assert.is(String((error as NotFound).detail), detail);
    return;
  }
  assert.unreachable(`expected ${cls.name}: ${detail}`);
}

// -- Base --------------------------------------------------------------------------------------

test('base :: defaults come from the settings at call time', () => {
  const scheme = new BaseVersioning();
  assert.is(scheme.getDefaultVersion(), null);
  assert.is(scheme.getVersionParam(), 'version');
  apiSettings({ DEFAULT_VERSION: '1.0', ALLOWED_VERSIONS: ['1.0', '2.0'], VERSION_PARAM: 'v' }, () => {
    assert.is(scheme.getDefaultVersion(), '1.0');
    assert.equal(scheme.getAllowedVersions(), ['1.0', '2.0']);
    assert.is(scheme.getVersionParam(), 'v');
  });
});

test('base :: class fields win over settings', () => {
  class Custom extends BaseVersioning {
    override defaultVersion = '3';
    override allowedVersions = ['3', '4'];
    override versionParam = 'api';
  }
  apiSettings({ DEFAULT_VERSION: '1.0', VERSION_PARAM: 'v' }, () => {
    const scheme = new Custom();
    assert.is(scheme.getDefaultVersion(), '3');
    assert.is(scheme.getVersionParam(), 'api');
    assert.ok(scheme.isAllowedVersion('4'));
    assert.not.ok(scheme.isAllowedVersion('1.0'));
  });
});

test('base :: isAllowedVersion: any version without a list; the default always allowed', () => {
  const scheme = new BaseVersioning();
  assert.ok(scheme.isAllowedVersion('anything'));
  class Listed extends BaseVersioning {
    override defaultVersion = 'v0';
    override allowedVersions = ['v1'];
  }
  const listed = new Listed();
  assert.ok(listed.isAllowedVersion('v1'));
  assert.ok(listed.isAllowedVersion('v0'));
  assert.not.ok(listed.isAllowedVersion('v2'));
  assert.not.ok(listed.isAllowedVersion(null));
  class NoDefault extends BaseVersioning {
    override defaultVersion = null;
    override allowedVersions = ['v1'];
  }
  assert.not.ok(new NoDefault().isAllowedVersion(null));
});

test('base :: determineVersion must be implemented', () => {
  assert.throws(() => new BaseVersioning().determineVersion(makeRequest()), /must be implemented/);
});

// -- Accept header -------------------------------------------------------------------------------

class AcceptVersioning extends AcceptHeaderVersioning {
  override allowedVersions = ['1.0', '2.0'];
  override defaultVersion = '1.0';
}

test('accept :: version parameter of the accepted media type', () => {
  const request = makeRequest();
  request.acceptedMediaType = 'application/json; version=2.0';
  assert.is(new AcceptVersioning().determineVersion(request), '2.0');
  request.acceptedMediaType = 'application/vnd.example+json; indent=4; VERSION="1.0"';
  assert.is(new AcceptVersioning().determineVersion(request), '1.0');
});

test('accept :: a quoted version may hold ";" (parameters split outside quoted strings)', () => {
  class AnyVersion extends AcceptHeaderVersioning {}
  const request = makeRequest();
  request.acceptedMediaType = 'application/json; version="1;0"; indent=2';
  assert.is(new AnyVersion().determineVersion(request), '1;0');
  request.acceptedMediaType = 'application/json; Version = "2.0" ; note="x; version=3.0"';
  assert.is(new AcceptVersioning().determineVersion(request), '2.0');
  request.acceptedMediaType = 'application/json; note="x; version=3.0"';
  assert.is(new AcceptVersioning().determineVersion(request), '1.0', 'a version inside a quoted value is no parameter');
  request.acceptedMediaType = 'application/json; version="3;0"';
  throwsWith(() => new AcceptVersioning().determineVersion(request), NotAcceptable, 'Invalid version in "Accept" header.');
});

test('accept :: no parameter gives the default version', () => {
  const request = makeRequest();
  request.acceptedMediaType = 'application/json';
  assert.is(new AcceptVersioning().determineVersion(request), '1.0');
  assert.is(new AcceptHeaderVersioning().determineVersion(request), null);
});

test('accept :: a version outside the allowed list is 406', () => {
  const request = makeRequest();
  request.acceptedMediaType = 'application/json; version=3.0';
  throwsWith(() => new AcceptVersioning().determineVersion(request), NotAcceptable, 'Invalid version in "Accept" header.');
});

test('accept :: VERSION_PARAM names the parameter', () => {
  const request = makeRequest();
  request.acceptedMediaType = 'application/json; v=7; version=9';
  apiSettings({ VERSION_PARAM: 'v' }, () => {
    assert.is(new AcceptHeaderVersioning().determineVersion(request), '7');
  });
});

// -- URL path ------------------------------------------------------------------------------------

class PathVersioning extends URLPathVersioning {
  override allowedVersions = ['v1', 'v2'];
}

test('url path :: version keyword argument', () => {
  assert.is(new PathVersioning().determineVersion(makeRequest(), { version: 'v2' }), 'v2');
  assert.is(new URLPathVersioning().determineVersion(makeRequest(), {}), null);
  // No version and no default, with an allowed list: not allowed.
  throwsWith(() => new PathVersioning().determineVersion(makeRequest(), {}), NotFound, 'Invalid version in URL path.');
});

test('url path :: invalid version is 404', () => {
  throwsWith(() => new PathVersioning().determineVersion(makeRequest(), { version: 'v3' }), NotFound, 'Invalid version in URL path.');
});

test('url path :: DEFAULT_VERSION and ALLOWED_VERSIONS settings', () => {
  apiSettings({ DEFAULT_VERSION: 'v1', ALLOWED_VERSIONS: ['v2'] }, () => {
    const scheme = new URLPathVersioning();
    assert.is(scheme.determineVersion(makeRequest(), {}), 'v1');
    assert.is(scheme.determineVersion(makeRequest(), { version: 'v1' }), 'v1');
    throwsWith(() => scheme.determineVersion(makeRequest(), { version: 'v9' }), NotFound, 'Invalid version in URL path.');
  });
});

test('url path :: reverse inserts the request version', () => {
  const request = makeRequest('/v1/bookings/');
  request.version = 'v2';
  request.versioningScheme = new PathVersioning();
  assert.is(reverse('booking-list', { request, urlconf: urls }), 'http://testserver/v2/bookings/');
  // A route without a version argument falls back to the plain reverse.
  assert.is(reverse('plain', { request, urlconf: urls }), 'http://testserver/plain/');
});

// -- Namespace -----------------------------------------------------------------------------------

class NsVersioning extends NamespaceVersioning {
  override allowedVersions = ['v1', 'v2'];
}

test('namespace :: version is the resolved namespace', () => {
  const request = makeRequest('/ns/v2/items/');
  request.httpRequest.resolverMatch = resolve('/ns/v2/items/', urls);
  assert.is(new NsVersioning().determineVersion(request), 'v2');
});

test('namespace :: no namespace gives the default', () => {
  const request = makeRequest('/plain/');
  request.httpRequest.resolverMatch = resolve('/plain/', urls);
  assert.is(new NsVersioning().determineVersion(request), null);
  assert.is(new NsVersioning().determineVersion(makeRequest()), null);
});

test('namespace :: a namespace that is not an allowed version is 404', () => {
  const request = makeRequest('/other/x/');
  request.httpRequest.resolverMatch = resolve('/other/x/', urls);
  throwsWith(
    () => new NsVersioning().determineVersion(request),
    NotFound,
    'Invalid version in URL path. Does not match any version namespace.',
  );
});

test('namespace :: reverse looks up <version>:<name>', () => {
  const request = makeRequest('/ns/v1/items/');
  request.version = 'v1';
  request.versioningScheme = new NsVersioning();
  assert.is(reverse('item-detail', { kwargs: { pk: 5 }, request, urlconf: urls }), 'http://testserver/ns/v1/items/5/');
  request.version = 'v2';
  assert.is(reverse('item-list', { request, urlconf: urls }), 'http://testserver/ns/v2/items/');
  // Not namespaced under the version: the plain reverse is used.
  assert.is(reverse('plain', { request, urlconf: urls }), 'http://testserver/plain/');
});

// -- Host name -----------------------------------------------------------------------------------

class HostVersioning extends HostNameVersioning {
  override allowedVersions = ['v1', 'v2'];
}

test('host name :: first label of a three-label host, port ignored', () => {
  assert.is(new HostVersioning().determineVersion(makeRequest('/', { host: 'v1.example.com' })), 'v1');
  assert.is(new HostVersioning().determineVersion(makeRequest('/', { host: 'v2.example.com:8000' })), 'v2');
});

test('host name :: other host shapes give the default', () => {
  assert.is(new HostVersioning().determineVersion(makeRequest('/', { host: 'example.com' })), null);
  assert.is(new HostVersioning().determineVersion(makeRequest('/', { host: '127.0.0.1' })), null);
  assert.is(new HostVersioning().determineVersion(makeRequest('/', { host: 'a.b.example.com' })), null);
});

test('host name :: unknown version is 404', () => {
  throwsWith(
    () => new HostVersioning().determineVersion(makeRequest('/', { host: 'v3.example.com' })),
    NotFound,
    'Invalid version in hostname.',
  );
});

// -- Query parameter -----------------------------------------------------------------------------

class QueryVersioning extends QueryParameterVersioning {
  override allowedVersions = ['1', '2'];
  override defaultVersion = '1';
}

test('query parameter :: version from ?version=', () => {
  assert.is(new QueryVersioning().determineVersion(makeRequest('/x/?version=2')), '2');
  assert.is(new QueryVersioning().determineVersion(makeRequest('/x/')), '1');
});

test('query parameter :: invalid version is 404', () => {
  throwsWith(() => new QueryVersioning().determineVersion(makeRequest('/x/?version=5')), NotFound, 'Invalid version in query parameter.');
});

test('query parameter :: reverse adds the version parameter', () => {
  const request = makeRequest('/plain/?version=2');
  request.version = '2';
  request.versioningScheme = new QueryVersioning();
  assert.is(reverse('plain-detail', { kwargs: { pk: 1 }, request, urlconf: urls }), 'http://testserver/plain/1/?version=2');
});

// -- reverse() -----------------------------------------------------------------------------------

test('reverse :: relative without a request, absolute with one', () => {
  assert.is(reverse('plain-detail', { args: [3], urlconf: urls }), '/plain/3/');
  assert.is(reverse('plain', { request: makeRequest('/'), urlconf: urls }), 'http://testserver/plain/');
  assert.is(reverse('plain', { request: HttpRequest.create({ headers: { host: 'testserver' }, secure: true }), urlconf: urls }), 'https://testserver/plain/');
});

test('reverse :: keeps the format override query parameter', () => {
  const request = makeRequest('/plain/?format=json&page=2');
  assert.is(reverse('plain', { request, urlconf: urls }), 'http://testserver/plain/?format=json');
  apiSettings({ URL_FORMAT_OVERRIDE: null }, () => {
    assert.is(reverse('plain', { request, urlconf: urls }), 'http://testserver/plain/');
  });
});

test('reverse :: version and format parameters are both kept, keys sorted', () => {
  const request = makeRequest('/plain/?version=2&format=api');
  request.version = '2';
  request.versioningScheme = new QueryVersioning();
  assert.is(reverse('plain', { request, urlconf: urls }), 'http://testserver/plain/?format=api&version=2');
});

test('reverse :: unversioned request under a versioning scheme reverses plainly', () => {
  const request = makeRequest('/plain/');
  request.versioningScheme = new QueryVersioning();
  assert.is(reverse('plain', { request, urlconf: urls }), 'http://testserver/plain/');
});

// -- Through views and the whole stack -------------------------------------------------------------

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

let restoreUrls: () => void = () => undefined;
test.before(() => {
  restoreUrls = overrideSettings.enter({ ROOT_URLCONF: 'spec.fixtures.versioningUrls' });
});
test.after(() => restoreUrls());

test('views :: URL path version, and reverse() keeps it', async () => {
  const client = new APIClient();
  const ok = await client.get('/v2/bookings/');
  assert.is(ok.status, 200);
  assert.equal(json(ok.data), { version: 'v2', self: 'http://testserver/v2/bookings/' });
  const bad = await client.get('/v3/bookings/');
  assert.is(bad.status, 404);
  assert.equal(json(bad.data), { detail: 'Invalid version in URL path.' });
});

test('views :: Accept header version; invalid is 406', async () => {
  const client = new APIClient();
  const two = await client.get('/accept/', { headers: { Accept: 'application/json; version=2.0' } });
  assert.equal(json(two.data), { version: '2.0', self: 'http://testserver/accept/' });
  const none = await client.get('/accept/', { headers: { Accept: 'application/json' } });
  assert.equal(json(none.data), { version: '1.0', self: 'http://testserver/accept/' });
  const quoted = await client.get('/accept/', { headers: { Accept: 'application/json; version="2.0"; note="a;version=3.0"' } });
  assert.is(quoted.status, 200);
  assert.equal(json(quoted.data), { version: '2.0', self: 'http://testserver/accept/' });
  const bad = await client.get('/accept/', { headers: { Accept: 'application/json; version=3.0' } });
  assert.is(bad.status, 406);
  assert.equal(json(bad.data), { detail: 'Invalid version in "Accept" header.' });
});

test('views :: query parameter version, carried by reverse()', async () => {
  const client = new APIClient();
  const two = await client.get('/query/?version=2');
  assert.equal(json(two.data), { version: '2', self: 'http://testserver/query/?version=2' });
  const dflt = await client.get('/query/');
  assert.equal(json(dflt.data), { version: '1', self: 'http://testserver/query/?version=1' });
  const bad = await client.get('/query/?version=7');
  assert.is(bad.status, 404);
  assert.equal(json(bad.data), { detail: 'Invalid version in query parameter.' });
});

test('views :: host name version', async () => {
  const client = new APIClient();
  const v1 = await client.get('/host/', { headers: { Host: 'v1.example.com' } });
  assert.equal(json(v1.data), { version: 'v1', self: 'http://v1.example.com/host/' });
  const plainHost = await client.get('/host/');
  assert.equal(json(plainHost.data), { version: null, self: 'http://testserver/host/' });
  const bad = await client.get('/host/', { headers: { Host: 'v3.example.com' } });
  assert.is(bad.status, 404);
  assert.equal(json(bad.data), { detail: 'Invalid version in hostname.' });
});

test('views :: namespace version, reverse() stays in the namespace', async () => {
  const client = new APIClient();
  const v2 = await client.get('/ns/v2/items/');
  assert.equal(json(v2.data), { version: 'v2', self: 'http://testserver/ns/v2/items/' });
  const v1 = await client.get('/ns/v1/items/?format=json');
  assert.equal(json(v1.data), { version: 'v1', self: 'http://testserver/ns/v1/items/?format=json' });
  const bad = await client.get('/other/x/');
  assert.is(bad.status, 404);
  assert.equal(json(bad.data), { detail: 'Invalid version in URL path. Does not match any version namespace.' });
});

test.run();
