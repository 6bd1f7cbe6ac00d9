/**
 * The demo's OpenAPI 3.1 document, generated from its URL conf with the demo's settings:
 * valid against the OpenAPI 3.1 schema (a real validator from the npm registry), and the
 * tutorial's and quickstart's operations, parameters, bodies, responses, components and
 * security checked field by field. A versioned document keeps only that version's paths.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Validator } from '@seriousme/openapi-schema-validator';
import { SchemaGenerator, type OpenAPIDocument, type Operation, type SchemaObject } from '../../lib/schemas';
import { useSettings } from '../helpers';
import { LANGUAGE_CHOICES, STYLE_CHOICES } from '../../demo/snippets/choices';

const test = suite('schemas: the demo document');

useSettings(test, () => ({
  API_FRAMEWORK: {
    DEFAULT_AUTHENTICATION_CLASSES: [
      'api_framework.authentication.SessionAuthentication',
      'api_framework.authentication.BasicAuthentication',
      'api_framework.authentication.TokenAuthentication',
    ],
  },
}));

let doc: OpenAPIDocument;
let warnings: string[] = [];

async function validate(document: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  return new Validator().validate(document as Parameters<Validator["validate"]>[0]);
}

function op(path: string, method: string): Operation {
  const operation = doc.paths[path]?.[method];
  assert.ok(operation, `${method.toUpperCase()} ${path} is documented`);
  return operation;
}

function component(name: string): SchemaObject & { properties: Record<string, SchemaObject>; required?: string[] } {
  const schema = doc.components?.schemas?.[name];
  assert.ok(schema, `component ${name}`);
  return schema as SchemaObject & { properties: Record<string, SchemaObject>; required?: string[] };
}

const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });
const FORM_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];
const ALL_AUTH = [{ cookieAuth: [] }, { basicAuth: [] }, { tokenAuth: [] }];

test.before(async () => {
  const generator = new SchemaGenerator({ title: 'demo', urlconf: 'demo.urls' });
  doc = await generator.getSchema(null, true);
  warnings = generator.warnings;
});

test('document :: valid OpenAPI 3.1 (JSON Schema 2020-12 dialect), no warnings', async () => {
  assert.is(doc.openapi, '3.1.0');
  assert.is(doc.jsonSchemaDialect, 'https://spec.openapis.org/oas/3.1/dialect/base');
  assert.equal(doc.info, { title: 'demo', version: '' });
  const result = await validate(doc);
  assert.ok(result.valid, JSON.stringify(result.errors));
  assert.equal(warnings, []);
  // the validator is real: a broken document is refused
  const broken = JSON.parse(JSON.stringify(doc)) as OpenAPIDocument;
  (broken.paths['/snippets/'].get as unknown as Record<string, unknown>).responses = { ok: {} };
  assert.not.ok((await validate(broken)).valid);
});

test('document :: operation ids unique; clashes resolved by namespace or view name', () => {
  const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((operation) => operation.operationId));
  assert.is(new Set(ids).size, ids.length);
  assert.is(op('/users/', 'get').operationId, 'listUsers');
  assert.is(op('/quickstart/users/', 'get').operationId, 'quickstartListUsers');
  assert.is(op('/quickstart/users/{id}/', 'get').operationId, 'quickstartReadUser');
  assert.is(op('/snippets/', 'get').operationId, 'listSnippets');
  assert.is(op('/features/snippets/cursor/', 'get').operationId, 'listSnippetCursors');
  assert.is(op('/features/ns/v2/items/', 'get').operationId, 'v2ListItems');
  // excluded: the API roots, format-suffix duplicates, the schema view itself
  for (const path of ['/', '/quickstart/', '/schema/', '/snippets.{format}', '/snippets/{id}.{format}']) assert.not.ok(doc.paths[path], path);
});

test('tutorial :: snippet operations, SCHEMA_COERCE_* applied, typed {id}', () => {
  assert.equal(Object.keys(doc.paths['/snippets/']), ['get', 'post']);
  assert.equal(Object.keys(doc.paths['/snippets/{id}/']), ['get', 'put', 'patch', 'delete']);
  assert.equal(
    ['get', 'put', 'patch', 'delete'].map((m) => op('/snippets/{id}/', m).operationId),
    ['readSnippet', 'updateSnippet', 'partialUpdateSnippet', 'deleteSnippet'],
  );
  assert.is(op('/snippets/', 'post').operationId, 'createSnippet');
  assert.is(op('/snippets/{id}/highlight/', 'get').operationId, 'highlightSnippet');
  assert.equal(op('/snippets/{id}/', 'get').parameters, [
    { name: 'id', in: 'path', required: true, description: 'A unique integer value identifying this snippet.', schema: { type: 'integer' } },
  ]);
  assert.equal(op('/snippets/', 'get').parameters, []);
  assert.equal(op('/snippets/', 'get').tags, ['snippets']);
  assert.match(op('/snippets/', 'get').description, /automatically provides `list`, `create`/);
});

test('tutorial :: request bodies per parser media type, writable fields only, required list', () => {
  const post = op('/snippets/', 'post').requestBody!;
  assert.equal(Object.keys(post.content), FORM_TYPES);
  for (const type of FORM_TYPES) assert.equal(post.content[type].schema, ref('SnippetRequest'));
  assert.is(post.required, true);
  assert.equal(op('/snippets/{id}/', 'put').requestBody!.content['application/json'].schema, ref('SnippetRequest'));
  assert.equal(op('/snippets/{id}/', 'patch').requestBody!.content['multipart/form-data'].schema, ref('PatchedSnippetRequest'));
  assert.is(op('/snippets/{id}/', 'patch').requestBody!.required, undefined);
  assert.is(op('/snippets/', 'get').requestBody, undefined);

  const request = component('SnippetRequest');
  assert.equal(Object.keys(request.properties), ['title', 'code', 'linenos', 'language', 'style']);
  assert.equal(request.required, ['code']);
  assert.equal(request.properties.title, { type: 'string', maxLength: 100, default: '' });
  assert.equal(request.properties.code, { type: 'string', minLength: 1 });
  assert.equal(request.properties.linenos, { type: 'boolean', default: false });
  assert.equal(request.properties.language, { enum: LANGUAGE_CHOICES.map(([value]) => value), type: 'string', default: 'python' });
  assert.equal(request.properties.style, { enum: STYLE_CHOICES.map(([value]) => value), type: 'string', default: 'friendly' });
  const patched = component('PatchedSnippetRequest');
  assert.equal(patched.properties, request.properties);
  assert.is(patched.required, undefined);
});

test('tutorial :: response component with readOnly fields; statuses per operation', () => {
  const snippet = component('Snippet');
  assert.equal(Object.keys(snippet.properties), ['id', 'title', 'code', 'linenos', 'language', 'style', 'owner']);
  assert.equal(snippet.required, ['id', 'title', 'code', 'linenos', 'language', 'style', 'owner']);
  assert.equal(snippet.properties.id, { type: 'integer', readOnly: true });
  assert.equal(snippet.properties.owner, { type: 'string', maxLength: 150, readOnly: true });

  const list = op('/snippets/', 'get').responses;
  assert.equal(Object.keys(list), ['200']);
  assert.equal(list['200'].content!['application/json'].schema, { type: 'array', items: ref('Snippet') });
  const create = op('/snippets/', 'post').responses;
  assert.equal(Object.keys(create), ['201', '400', '403']);
  assert.equal(create['201'].content!['application/json'].schema, ref('Snippet'));
  assert.equal(create['400'].content!['application/json'].schema, ref('ValidationError'));
  assert.equal(create['403'].content!['application/json'].schema, ref('ErrorDetail'));
  assert.equal(Object.keys(op('/snippets/{id}/', 'get').responses), ['200', '404']);
  assert.equal(Object.keys(op('/snippets/{id}/', 'put').responses), ['200', '400', '403', '404']);
  assert.equal(op('/snippets/{id}/', 'delete').responses, {
    204: { description: 'No response body' },
    403: { description: 'The request is not allowed for this user.', content: { 'application/json': { schema: ref('ErrorDetail') } } },
    404: { description: 'Not found.', content: { 'application/json': { schema: ref('ErrorDetail') } } },
  });
  // the highlight action renders HTML only
  assert.equal(op('/snippets/{id}/highlight/', 'get').responses['200'].content, { 'text/html': { schema: { type: 'string' } } });
  assert.equal(component('ErrorDetail'), { type: 'object', properties: { detail: { type: 'string', readOnly: true } }, required: ['detail'] });
  assert.equal((component('ValidationError').properties as Record<string, unknown>).non_field_errors, { type: 'array', items: { type: 'string' } });
});

test('tutorial :: users are read-only; related snippets as integer pks', () => {
  assert.equal(Object.keys(doc.paths['/users/']), ['get']);
  assert.equal(Object.keys(doc.paths['/users/{id}/']), ['get']);
  const user = component('User');
  assert.equal(Object.keys(user.properties), ['id', 'username', 'snippets']);
  assert.equal(user.properties.snippets, { type: 'array', items: { type: 'integer' } });
  assert.equal(user.properties.id, { type: 'integer', readOnly: true });
  assert.equal(user.properties.username.type, 'string');
  assert.equal(user.properties.username.maxLength, 150);
  assert.match(String(user.properties.username.description), /150 characters or fewer/);
  assert.not.ok(doc.components?.schemas?.UserRequest);
});

test('security :: schemes from the authentication classes, applied per operation', () => {
  assert.equal(doc.components?.securitySchemes, {
    cookieAuth: {
      type: 'apiKey', in: 'cookie', name: 'sessionid',
      description: 'Session login. Unsafe requests (POST, PUT, PATCH, DELETE) must also send the CSRF token from the `csrftoken` cookie in the `X-CSRFToken` header.',
    },
    basicAuth: { type: 'http', scheme: 'basic' },
    tokenAuth: {
      type: 'apiKey', in: 'header', name: 'Authorization',
      description: 'Token-based authentication with required prefix "Token": `Authorization: Token <key>`.',
    },
  });
  // IsAuthenticatedOrReadOnly: anonymous reads allowed ({}), writes need a login
  assert.equal(op('/snippets/', 'get').security, [...ALL_AUTH, {}]);
  assert.equal(op('/snippets/', 'post').security, ALL_AUTH);
  assert.equal(op('/snippets/{id}/', 'delete').security, ALL_AUTH);
  // the quickstart authenticates with Basic and Session only, and always needs a login
  assert.equal(op('/quickstart/users/', 'get').security, [{ basicAuth: [] }, { cookieAuth: [] }]);
});

test('quickstart :: paginated envelope, page parameter, hyperlinks, 401 with Basic first', () => {
  const list = op('/quickstart/users/', 'get');
  assert.equal(list.parameters, [
    { name: 'page', required: false, in: 'query', description: 'A page number within the paginated result set.', schema: { type: 'integer' } },
  ]);
  const envelope = list.responses['200'].content!['application/json'].schema as { properties: Record<string, SchemaObject>; required: string[] };
  assert.equal(envelope.required, ['count', 'next', 'previous', 'results']);
  assert.equal(envelope.properties.count, { type: 'integer', example: 123 });
  assert.equal(envelope.properties.next.type, ['string', 'null']);
  assert.equal(envelope.properties.next.format, 'uri');
  assert.equal(envelope.properties.results, { type: 'array', items: ref('QuickstartUser') });
  assert.equal(Object.keys(list.responses), ['200', '401']);
  assert.equal(Object.keys(op('/quickstart/users/', 'post').responses), ['201', '400', '401']);
  assert.equal(Object.keys(op('/quickstart/groups/{id}/', 'delete').responses), ['204', '401', '404']);

  const user = component('QuickstartUser');
  assert.equal(Object.keys(user.properties), ['url', 'username', 'email', 'groups']);
  assert.equal(user.properties.url, { type: 'string', format: 'uri', readOnly: true });
  // blank allowed: '' is the alternative to an email address
  assert.equal(user.properties.email, { type: 'string', anyOf: [{ format: 'email' }, { const: '' }], maxLength: 254, default: '' });
  assert.equal(user.properties.groups.type, 'array');
  assert.equal(user.properties.groups.items, { type: 'string', format: 'uri' });
  const request = component('QuickstartUserRequest');
  assert.equal(Object.keys(request.properties), ['username', 'email', 'groups']);
  assert.equal(request.required, ['username']);
  assert.equal(op('/quickstart/users/', 'post').requestBody!.content['application/json'].schema, ref('QuickstartUserRequest'));
  assert.equal(op('/quickstart/users/{id}/', 'patch').requestBody!.content['application/json'].schema, ref('PatchedQuickstartUserRequest'));
  const group = component('Group');
  assert.equal(group.properties, { url: { type: 'string', format: 'uri', readOnly: true }, name: { type: 'string', maxLength: 150 } });
  assert.equal(component('GroupRequest').properties, { name: { type: 'string', maxLength: 150, minLength: 1 } });
});

test('features :: filters, other paginations, function views, file upload, path versions', () => {
  assert.equal(op('/features/snippets/search/', 'get').parameters.map((p) => p.name), ['search', 'ordering']);
  assert.equal(op('/features/snippets/limit/', 'get').parameters.map((p) => p.name), ['limit', 'offset']);
  const cursor = op('/features/snippets/cursor/', 'get').responses['200'].content!['application/json'].schema as { required: string[] };
  assert.equal(cursor.required, ['next', 'previous', 'results']);
  assert.equal(Object.keys(doc.paths['/features/echo/']), ['get', 'post', 'put']);
  assert.equal(op('/features/upload/{filename}/', 'put').requestBody!.content, { '*/*': { schema: { type: 'string', format: 'binary' } } });
  assert.equal(op('/features/{version}/bookings/', 'get').parameters[0].schema, { type: 'string', enum: ['v1', 'v2'] });
  assert.equal(op('/features/query-version/', 'get').parameters, [
    { name: 'version', in: 'query', required: false, description: 'The API version.', schema: { type: 'string', enum: ['1', '2'], default: '1' } },
  ]);
  const feature = component('FeatureRequest');
  assert.equal(feature.properties.price, { type: 'string', format: 'decimal', pattern: '^-?\\d{0,3}(?:\\.\\d{0,2})?$' });
  assert.equal(feature.properties.nested, ref('NestedRequest'));
  assert.equal(feature.properties.tags, { type: 'array', items: { type: 'string', maxLength: 3, minLength: 1 } });
  assert.equal(feature.properties.choice, { enum: ['a', 'b'], type: 'string' });
  assert.equal(feature.properties.when, { type: 'string', format: 'date-time' });
});

test('versioned :: a version keeps that version\'s paths (URL path, namespace, allowed versions)', async () => {
  const v1 = await new SchemaGenerator({ title: 'demo', version: 'v1', urlconf: 'demo.urls' }).getSchema(null, true);
  assert.ok((await validate(v1)).valid);
  assert.is(v1.info.version, 'v1');
  assert.ok(v1.paths['/features/v1/bookings/']);
  assert.not.ok(v1.paths['/features/{version}/bookings/']);
  assert.ok(v1.paths['/features/ns/v1/items/']);
  assert.not.ok(v1.paths['/features/ns/v2/items/']);
  assert.ok(v1.paths['/features/host-version/']);
  assert.not.ok(v1.paths['/features/query-version/'], 'query versioning allows 1 and 2 only');
  assert.ok(v1.paths['/snippets/'], 'unversioned views stay');
  assert.equal(v1.paths['/features/v1/bookings/'].get.parameters, []);
  const v2 = await new SchemaGenerator({ title: 'demo', version: '2', urlconf: 'demo.urls' }).getSchema(null, true);
  assert.ok(v2.paths['/features/query-version/']);
  assert.not.ok(v2.paths['/features/v1/bookings/']);
  assert.not.ok(v2.paths['/features/{version}/bookings/']);
});

test.run();
