/**
 * The versioning schemes (lib/versioning.ts) fed odd versions: NUL bytes, `../`, `;`, very long
 * strings, non-ASCII text and markup, through the URL path, a query parameter, the Accept
 * header and the host name. Each is a clean 404/406 with the original's message (or the host
 * framework's 400 for a host name it refuses), never a 500, never reflected unescaped in an
 * HTML page, and `reverse()` never builds a URL from a version that was not allowed.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BrowsableAPIRenderer } from '../../contrib/browsable/renderers';
import { overrideSettings } from '../../lib/core/conf';
import { HttpRequest } from '../../lib/core/http';
import { path, rePath } from '../../lib/core/urls';
import { NotAcceptable, NotFound } from '../../lib/exceptions';
import { JSONRenderer } from '../../lib/renderers';
import { Request } from '../../lib/request';
import { Response } from '../../lib/response';
import { reverse } from '../../lib/reverse';
import { APIClient, type TestResponse } from '../../lib/test';
import {
  AcceptHeaderVersioning,
  HostNameVersioning,
  QueryParameterVersioning,
  URLPathVersioning,
  type VersioningClass,
} from '../../lib/versioning';
import { APIView } from '../../lib/views';

const test = suite('badInput versioning');

// The odd versions, each sent where a scheme reads it.
const MARKUP = '<script>alert(1)</script>';
const ODD_VERSIONS = ['v1\u0000', '../v1', 'v1;drop', 'v1%00', 'v'.repeat(4000), 'vé', '☃', MARKUP, 'V1', ' v1', 'v1\t', "v1'--", '"v1"'];

class PathVersions extends URLPathVersioning {
  override allowedVersions = ['v1', 'v2'];
}

class QueryVersions extends QueryParameterVersioning {
  override allowedVersions = ['v1', 'v2'];
  override defaultVersion = 'v1';
}

class AcceptVersions extends AcceptHeaderVersioning {
  override allowedVersions = ['v1', 'v2'];
  override defaultVersion = 'v1';
}

class HostVersions extends HostNameVersioning {
  override allowedVersions = ['v1', 'v2'];
}

// The views record every URL they reversed: none may hold a version that was refused.
const reversed: string[] = [];

function versionView(versioning: VersioningClass, urlName: string) {
  class VersionView extends APIView {
    override authenticationClasses = [];
    override permissionClasses = [];
    override rendererClasses = [JSONRenderer, BrowsableAPIRenderer];
    override versioningClass = versioning;

    get(request: Request) {
      const self = reverse(urlName, { request, kwargs: urlName === 'path-items' ? { version: request.version } : {} });
      reversed.push(self);
      return new Response({ version: request.version, self });
    }
  }
  return VersionView.asView();
}

export const urlpatterns = [
  path('<str:version>/items/', versionView(PathVersions, 'path-items'), { name: 'path-items' }),
  rePath('^re/(?P<version>.+)/items/$', versionView(PathVersions, 'path-items'), { name: 're-items' }),
  path('query/', versionView(QueryVersions, 'query'), { name: 'query' }),
  path('accept/', versionView(AcceptVersions, 'accept'), { name: 'accept' }),
  path('host/', versionView(HostVersions, 'host'), { name: 'host' }),
];

let restore: () => void = () => undefined;
test.before(() => {
  restore = overrideSettings.enter({ ROOT_URLCONF: 'spec/badInput/versioning.spec' });
});
test.after(() => restore());
test.before.each(() => {
  reversed.length = 0;
});

/** The response is `status` with `detail` in JSON, or an HTML page that does not echo markup. */
function assertClean(response: TestResponse, status: number, detail: string | null, label: string): void {
  assert.is(response.status, status, label);
  const body = response.content.toString('utf8');
  if (detail !== null) {
    if (String(response.header('Content-Type')).startsWith('application/json')) {
      assert.equal(JSON.parse(body), { detail }, label);
    } else {
      assert.ok(body.includes(detail.replace(/"/g, '\\&quot;')), `${label}: the detail is on the page`);
    }
  }
  assert.not.ok(body.includes(MARKUP), `${label}: markup is never echoed as it was sent`);
  assert.not.ok(body.includes('<script>'), `${label}: markup is never echoed as it was sent`);
}

test('url path :: odd versions are 404 Invalid version in URL path., in JSON and HTML', async () => {
  const client = new APIClient();
  for (const version of ODD_VERSIONS) {
    const url = `/re/${encodeURIComponent(version)}/items/`;
    const label = JSON.stringify(version.slice(0, 20));
    assertClean(await client.get(url), 404, 'Invalid version in URL path.', label);
    assertClean(await client.get(url, { headers: { Accept: 'text/html' } }), 404, 'Invalid version in URL path.', `${label} html`);
  }
  assert.equal(reversed, [], 'no view ran, nothing was reversed');
  const ok = await client.get('/re/v2/items/');
  assert.equal(ok.data, { version: 'v2', self: 'http://testserver/v2/items/' });
});

test('url path :: a version with a slash does not resolve <str:version> at all (404 page)', async () => {
  const client = new APIClient();
  for (const url of ['/..%2Fv1/items/', '/v1%2F..%2F/items/', '/%2E%2E/items/']) {
    const response = await client.get(url, { headers: { Accept: 'text/html' } });
    assert.is(response.status, 404, url);
    assert.not.ok(response.content.toString().includes(MARKUP));
  }
  for (const version of ODD_VERSIONS.filter((v) => !v.includes('/'))) {
    assertClean(await new APIClient().get(`/${encodeURIComponent(version)}/items/`), 404, 'Invalid version in URL path.', version.slice(0, 20));
  }
});

test('query parameter :: odd versions are 404 Invalid version in query parameter.', async () => {
  const client = new APIClient();
  for (const version of [...ODD_VERSIONS, '', 'v1&version=v2']) {
    const url = `/query/?version=${encodeURIComponent(version)}`;
    const label = JSON.stringify(version.slice(0, 20));
    assertClean(await client.get(url), 404, 'Invalid version in query parameter.', label);
    assertClean(await client.get(url, { headers: { Accept: 'text/html' } }), 404, 'Invalid version in query parameter.', `${label} html`);
  }
  // A raw, undecodable or broken escape is read as the host framework reads it: still refused.
  for (const raw of ['v1%00', 'v1%ff', 'v1%', 'v1%zz', '%E2%82']) {
    assertClean(await client.get(`/query/?version=${raw}`), 404, 'Invalid version in query parameter.', raw);
  }
  assert.equal(reversed, []);
  // The first of repeated parameters is not what is read: the last one is, as in the original.
  const repeated = await client.get('/query/?version=zz&version=v2');
  assert.equal(repeated.data, { version: 'v2', self: 'http://testserver/query/?version=v2' });
});

test('accept header :: odd versions are 406 Invalid version in "Accept" header.', async () => {
  const client = new APIClient();
  // Header values cannot hold NUL, line breaks or characters above U+00FF; the UTF-8 bytes of a
  // non-ASCII version arrive as latin-1 characters.
  const latin1 = Buffer.from('vé', 'utf8').toString('latin1');
  const refused = ['v1%00', '../v1', 'v'.repeat(4000), latin1, MARKUP, 'V1', "v1'--", '"v1;drop"', '"v1\\"x"', ''];
  for (const version of refused) {
    const label = JSON.stringify(version.slice(0, 20));
    for (const accept of [`application/json; version=${version}`, `text/html; version=${version}`]) {
      assertClean(await client.get('/accept/', { headers: { Accept: accept } }), 406, 'Invalid version in "Accept" header.', label);
    }
  }
  assert.equal(reversed, []);
  // Read as the original reads media type parameters: spaces stripped, quotes removed, and an
  // unquoted `;` ends the parameter; these are all version v1.
  for (const version of [' v1', 'v1\t', 'v1;drop', '"v1"']) {
    const ok = await client.get('/accept/', { headers: { Accept: `application/json; version=${version}` } });
    assert.equal(ok.data, { version: 'v1', self: 'http://testserver/accept/' }, JSON.stringify(version));
  }
});

test('host name :: an unknown version label is 404; a host the host framework refuses is 400', async () => {
  const client = new APIClient();
  for (const host of ['v3.example.com', `${'v'.repeat(4000)}.example.com`, 'V1.example.com']) {
    assertClean(await client.get('/host/', { headers: { Host: host } }), 404, 'Invalid version in hostname.', host.slice(0, 20));
  }
  for (const host of ['v1%00.example.com', 'v1;drop.example.com', 'vé.example.com', '<script>.example.com', "v1'.example.com"]) {
    const response = await client.get('/host/', { headers: { Host: Buffer.from(host, 'utf8').toString('latin1') } });
    assert.is(response.status, 400, host);
    assert.not.ok(response.content.toString().includes('<script>.'), `${host}: not echoed`);
  }
  // A label the scheme's pattern does not take is no version at all: the default (none).
  for (const host of ['v-1.example.com', '..v1.example.com', 'v1.v2.example.com']) {
    const response = await client.get('/host/', { headers: { Host: host } });
    assert.equal(response.data, { version: null, self: `http://${host}/host/` }, host);
  }
  assert.equal(reversed, ['http://v-1.example.com/host/', 'http://..v1.example.com/host/', 'http://v1.v2.example.com/host/']);
});

test('reverse :: a scheme never puts a refused version into a URL', () => {
  for (const Scheme of [PathVersions, QueryVersions, AcceptVersions, HostVersions]) {
    const scheme = new Scheme();
    for (const version of ODD_VERSIONS) assert.not.ok(scheme.isAllowedVersion(version), `${Scheme.name} ${version.slice(0, 20)}`);
  }
  // determineVersion() raises before anything is recorded on the request.
  const request = new Request(HttpRequest.create({ url: `/query/?version=${encodeURIComponent(MARKUP)}`, headers: { host: 'testserver' } }));
  assert.throws(() => new QueryVersions().determineVersion(request), (error: unknown) => error instanceof NotFound);
  assert.is(request.version, null);
  request.acceptedMediaType = 'application/json; version=../v1';
  assert.throws(() => new AcceptVersions().determineVersion(request), (error: unknown) => error instanceof NotAcceptable);
  assert.is(request.version, null);
  assert.is(request.versioningScheme, null);
  // An unversioned request (version null) reverses plainly, whatever the scheme.
  request.versioningScheme = new QueryVersions();
  assert.is(reverse('query', { request }), 'http://testserver/query/');
});

test.run();
