/**
 * The demo's OpenAPI document tells the truth: served by the running demo (`/schema/`, YAML
 * and JSON), valid OpenAPI 3.1, and the real answers of the tutorial, the quickstart and the
 * features app's paginated lists validate against the document's own response schemas (JSON
 * Schema 2020-12, checked with Ajv), as do the request bodies sent and the error bodies received.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { Validator } from '@seriousme/openapi-schema-validator';
import { PASSWORD, skipE2E, startDemoServer, type DemoServer, type E2EResponse } from './demoServer';

interface Document {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: Record<string, unknown>;
}

const DOC_ID = 'https://demo.invalid/openapi.json';
const test = suite('e2e openapi document');
let server: DemoServer;
let doc: Document;
let ajv: Ajv2020;

/** A schema of the document, with its `$ref`s pointing into the document registered with Ajv. */
function anchored(schema: unknown): object {
  return JSON.parse(JSON.stringify(schema).split('"#/components/').join(`"${DOC_ID}#/components/`)) as object;
}

function expectValid(schema: unknown, value: unknown, what: string): void {
  const validate = ajv.compile(anchored(schema));
  assert.ok(validate(value), `${what}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(value).slice(0, 300)}`);
}

/** The response of `method path` validates against the document's schema for its status. */
function expectDocumented(path: string, method: string, response: E2EResponse): void {
  const operation = doc.paths[path]?.[method];
  assert.ok(operation, `${method} ${path} documented`);
  const documented = operation.responses[String(response.status)];
  assert.ok(documented, `${method} ${path}: status ${response.status} documented (${Object.keys(operation.responses).join(', ')}): ${response.text.slice(0, 200)}`);
  if (response.status === 204) return;
  expectValid(documented.content!['application/json'].schema, response.json(), `${method} ${path} ${response.status}`);
}

function requestSchema(path: string, method: string): unknown {
  return doc.paths[path][method].requestBody!.content['application/json'].schema;
}

if (!skipE2E('e2e openapi document')) {
  test.before(async () => {
    server = await startDemoServer();
    const response = await server.call('GET', '/schema/?format=openapi-json');
    assert.is(response.status, 200);
    doc = response.json() as Document;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    // OpenAPI's own formats: decimals are checked by their pattern, binary is raw bytes.
    ajv.addFormat('decimal', true);
    ajv.addFormat('binary', true);
    ajv.addSchema({ $id: DOC_ID, components: doc.components });
  });

  test.after(async () => {
    await server?.stop();
  });

  test('schema view :: YAML by default, JSON on request, the same valid OpenAPI 3.1 document', async () => {
    const yaml = await server.call('GET', '/schema/');
    assert.is(yaml.headers['content-type'], 'application/vnd.oai.openapi');
    const json = await server.call('GET', '/schema/', { headers: { accept: 'application/vnd.oai.openapi+json' } });
    assert.is(json.headers['content-type'], 'application/vnd.oai.openapi+json');
    assert.equal(parse(yaml.text), json.json());
    assert.equal(json.json(), doc);
    const result = await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0]);
    assert.ok(result.valid, JSON.stringify(result.errors));
    // the docs page is served next to it
    const page = await server.call('GET', '/schema/docs/');
    assert.is(page.status, 200);
    assert.match(page.text, /<script src="assets\/swagger-ui-bundle\.js"><\/script>/);
    assert.is((await server.call('GET', '/schema/docs/assets/swagger-ui-bundle.js')).status, 200);
  });

  test('tutorial :: real answers validate against the documented schemas', async () => {
    const token = server.aliceToken;
    const body = { title: 'documented', code: 'print("schema")', linenos: true, language: 'python', style: 'friendly' };
    expectValid(requestSchema('/snippets/', 'post'), body, 'the request body');
    const created = await server.call('POST', '/snippets/', { token, body });
    expectDocumented('/snippets/', 'post', created);
    const id = (created.json() as { id: number }).id;
    expectDocumented('/snippets/', 'get', await server.call('GET', '/snippets/'));
    expectDocumented('/snippets/{id}/', 'get', await server.call('GET', `/snippets/${id}/`));
    expectValid(requestSchema('/snippets/{id}/', 'patch'), { title: 'patched' }, 'the PATCH body');
    expectDocumented('/snippets/{id}/', 'patch', await server.call('PATCH', `/snippets/${id}/`, { token, body: { title: 'patched' } }));
    expectDocumented('/snippets/{id}/', 'put', await server.call('PUT', `/snippets/${id}/`, { token, body }));
    // errors: validation, refusals, not found
    const invalid = await server.call('POST', '/snippets/', { token, body: { code: '', language: 'nope' } });
    assert.is(invalid.status, 400);
    expectDocumented('/snippets/', 'post', invalid);
    const anonymous = await server.call('POST', '/snippets/', { body });
    assert.is(anonymous.status, 403);
    expectDocumented('/snippets/', 'post', anonymous);
    expectDocumented('/snippets/{id}/', 'get', await server.call('GET', '/snippets/999999/'));
    expectDocumented('/users/', 'get', await server.call('GET', '/users/'));
    expectDocumented('/users/{id}/', 'get', await server.call('GET', '/users/1/'));
    expectDocumented('/snippets/{id}/', 'delete', await server.call('DELETE', `/snippets/${id}/`, { token }));
    // the schemas are strict enough to refuse wrong answers
    const snippet = ajv.getSchema(`${DOC_ID}#/components/schemas/Snippet`)!;
    assert.not.ok(snippet({ ...body, id: 'one', owner: 'alice' }));
    assert.not.ok(snippet({ ...body, id: 1, owner: 'alice', language: 'klingon' }));
    assert.not.ok(snippet({ id: 1, owner: 'alice' }));
  });

  test('quickstart :: paginated envelopes, hyperlinks, 401 and created groups validate', async () => {
    const basic: [string, string] = ['alice', PASSWORD];
    expectDocumented('/quickstart/users/', 'get', await server.call('GET', '/quickstart/users/', { basic }));
    expectDocumented('/quickstart/users/', 'get', await server.call('GET', '/quickstart/users/'));
    const group = { name: 'documented' };
    expectValid(requestSchema('/quickstart/groups/', 'post'), group, 'the group body');
    const created = await server.call('POST', '/quickstart/groups/', { basic, body: group });
    expectDocumented('/quickstart/groups/', 'post', created);
    expectDocumented('/quickstart/groups/', 'get', await server.call('GET', '/quickstart/groups/', { basic }));
    expectDocumented('/quickstart/users/{id}/', 'get', await server.call('GET', '/quickstart/users/1/', { basic }));
  });

  test('features :: each pagination style\'s envelope validates', async () => {
    const token = server.aliceToken;
    for (let i = 0; i < 3; i++) await server.call('POST', '/snippets/', { token, body: { code: `print(${i})` } });
    for (const path of ['/features/snippets/limit/', '/features/snippets/cursor/', '/features/snippets/page/', '/features/snippets/search/']) {
      expectDocumented(path, 'get', await server.call('GET', path));
    }
  });

  test.run();
}
