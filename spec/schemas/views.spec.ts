/**
 * The schema view and `manage.ts generateschema`: YAML by default and JSON by Accept or
 * `?format=`, the document lists only what the user's permissions allow unless public,
 * errors render with the default renderers; the command writes YAML or JSON to stdout or a file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { apps } from '../../lib/core/apps';
import { overrideSettings } from '../../lib/core/conf';
import { callCommand } from '../../lib/core/management';
import type { UrlPattern } from '../../lib/core/urls';
import { IsAuthenticated } from '../../lib/permissions';
import { Response } from '../../lib/response';
import { getSchemaView, type OpenAPIDocument } from '../../lib/schemas';
import { APIRequestFactory, forceAuthenticate } from '../../lib/test';
import { fakeUser, useSettings } from '../helpers';
import { urlpatterns } from './schemaUrls';

const test = suite('schemas: schema view and generateschema');
const factory = new APIRequestFactory();

const patterns: UrlPattern[] = urlpatterns;

useSettings(test, () => ({ API_FRAMEWORK: { DEFAULT_AUTHENTICATION_CLASSES: [], UNAUTHENTICATED_USER: null } }));

async function get(view: ReturnType<typeof getSchemaView>, url: string, headers: Record<string, string> = {}, user: ReturnType<typeof fakeUser> | null = null) {
  const request = await factory.get(url, { headers });
  if (user) forceAuthenticate(request, user);
  const response = await view(request, {});
  if (response instanceof Response) await response.render();
  return { status: response.statusCode, type: String(response.getHeader('Content-Type')), text: String(response.content) };
}

test('negotiation :: YAML by default, JSON by Accept or ?format=', async () => {
  const view = getSchemaView({ title: 'Things', description: 'All of them', patterns, public: true });
  const yaml = await get(view, '/schema/');
  assert.is(yaml.status, 200);
  assert.is(yaml.type, 'application/vnd.oai.openapi');
  assert.match(yaml.text, /^openapi: 3\.1\.0\n/);
  const fromYaml = parse(yaml.text) as OpenAPIDocument;
  assert.equal(fromYaml.info, { title: 'Things', version: '', description: 'All of them' });
  assert.equal(Object.keys(fromYaml.paths), ['/open/', '/members/', '/staff/', '/ping/']);

  const json = await get(view, '/schema/', { Accept: 'application/vnd.oai.openapi+json' });
  assert.is(json.type, 'application/vnd.oai.openapi+json');
  assert.equal(JSON.parse(json.text), fromYaml);
  assert.match(json.text, /^\{\n {2}"openapi": "3\.1\.0",/);
  const byFormat = await get(view, '/schema/?format=openapi-json');
  assert.is(byFormat.type, 'application/vnd.oai.openapi+json');
  assert.is((await get(view, '/schema/?format=openapi', { Accept: '*/*' })).type, 'application/vnd.oai.openapi');
  // a format and an Accept header that disagree: 406, rendered as JSON
  const disagree = await get(view, '/schema/?format=openapi', { Accept: 'application/vnd.oai.openapi+json' });
  assert.is(disagree.status, 406);
  assert.is(disagree.type, 'application/json');
  // the function view keeps its function's name in its operation id
  assert.is(fromYaml.paths['/ping/'].get.operationId, 'listPings');
});

test('permissions :: the document lists what the user may use, unless public', async () => {
  const view = getSchemaView({ title: 'Things', patterns });
  const anonymous = JSON.parse((await get(view, '/schema/?format=openapi-json')).text) as OpenAPIDocument;
  assert.equal(Object.keys(anonymous.paths), ['/open/', '/ping/']);
  const member = JSON.parse((await get(view, '/schema/?format=openapi-json', {}, fakeUser(3))).text) as OpenAPIDocument;
  assert.equal(Object.keys(member.paths), ['/open/', '/members/', '/ping/']);
  const staff = JSON.parse((await get(view, '/schema/?format=openapi-json', {}, { ...fakeUser(4), is_staff: true })).text) as OpenAPIDocument;
  assert.equal(Object.keys(staff.paths), ['/open/', '/members/', '/staff/', '/ping/']);
  // the documented responses follow the permissions too
  assert.equal(Object.keys(staff.paths['/members/'].get.responses), ['200', '403']);
  assert.equal(Object.keys(staff.paths['/open/'].get.responses), ['200']);
});

test('permissions :: the schema view\'s own refusal renders with the default renderers', async () => {
  const view = getSchemaView({ title: 'Things', patterns, permissionClasses: [IsAuthenticated] });
  const refused = await get(view, '/schema/');
  assert.is(refused.status, 403);
  assert.is(refused.type, 'application/json');
  assert.is(refused.text, '{"detail":"You do not have permission to perform this action."}');
});

test('generateschema :: YAML on stdout by default; JSON to a file; bad options refused', async () => {
  const restore = overrideSettings.enter({ INSTALLED_APPS: ['contrib.auth', 'contrib.sessions', 'contrib.authtoken', 'contrib.browsable'] });
  apps.reset();
  try {
    const yaml = await callCommand('generateschema', ['--urlconf', 'spec.schemas.schemaUrls', '--title', 'Things']);
    assert.is(yaml.exitCode, 0, yaml.stderr);
    const document = parse(yaml.stdout) as OpenAPIDocument;
    assert.is(document.openapi, '3.1.0');
    assert.equal(document.info, { title: 'Things', version: '' });
    assert.equal(Object.keys(document.paths), ['/open/', '/members/', '/staff/', '/ping/']);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-'));
    const file = path.join(dir, 'openapi.json');
    const json = await callCommand('generateschema', ['--urlconf', 'spec.schemas.schemaUrls', '--format', 'openapi-json', '--file', file,
      '--description', 'd', '--api_version', '2.0', '--url', 'https://api.example.com/v/']);
    assert.is(json.exitCode, 0, json.stderr);
    assert.is(json.stdout, '');
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as OpenAPIDocument;
    assert.equal(written.info, { title: '', version: '2.0', description: 'd' });
    assert.equal(written.servers, [{ url: 'https://api.example.com' }]);
    assert.equal(Object.keys(written.paths), ['/v/open/', '/v/members/', '/v/staff/', '/v/ping/']);
    fs.rmSync(dir, { recursive: true });

    const badFormat = await callCommand('generateschema', ['--format', 'corejson']);
    assert.is(badFormat.exitCode, 1);
    assert.match(badFormat.stderr, /invalid choice: 'corejson'/);
    const badGenerator = await callCommand('generateschema', ['--generator_class', 'api_framework.views.APIView']);
    assert.is(badGenerator.exitCode, 1);
    assert.match(badGenerator.stderr, /is not a SchemaGenerator subclass/);
  } finally {
    restore();
    apps.reset();
  }
});

test.run();
