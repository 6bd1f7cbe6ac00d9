import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonOnlyApiSettings, useSettings } from './helpers';
import { HttpRequest } from '../lib/core/http';
import { apiView } from '../lib/decorators';
import type { Request } from '../lib/request';
import { Response } from '../lib/response';
import { APIView } from '../lib/views';

const test = suite('decorators');
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings() }));

const snippetList = apiView(['GET', 'POST'])(async function snippetList(request: Request, kwargs) {
  if (request.method === 'POST') return new Response({ created: request.data }, { status: 201 });
  return new Response({ kwargs });
});

async function call(method: string, body?: string) {
  const request = HttpRequest.create({ method, url: '/', body, headers: body ? { 'content-type': 'application/json' } : {} });
  const response = (await snippetList(request, { pk: 3 })) as Response;
  await response.render();
  return response;
}

test('apiView :: dispatches the listed methods to the function', async () => {
  const get = await call('GET');
  assert.is(get.status, 200);
  assert.is(get.text, '{"kwargs":{"pk":3}}');
  assert.is(get.getHeader('Allow'), 'GET, POST, OPTIONS');
  const post = await call('POST', '{"a": 1}');
  assert.is(post.status, 201);
  assert.is(post.text, '{"created":{"a":1}}');
});

test('apiView :: other methods are 405, OPTIONS describes the view', async () => {
  const put = await call('PUT');
  assert.is(put.status, 405);
  assert.is(put.text, '{"detail":"Method \\"PUT\\" not allowed."}');
  const head = await call('HEAD');
  assert.is(head.status, 405);
  const options = await call('OPTIONS');
  assert.equal((options.json() as { name: string }).name, 'Snippet List');
});

test('apiView :: a generated APIView subclass with the given policies', async () => {
  const viewClass = snippetList.viewClass as typeof APIView;
  assert.ok(viewClass.prototype instanceof APIView);
  assert.is(viewClass.name, 'snippetList');
  assert.is(snippetList.csrfExempt, true);
  class Deny {
    message = 'No.';
    hasPermission() {
      return false;
    }
  }
  const locked = apiView(['GET'], { permissionClasses: [Deny] as never, authenticationClasses: [], description: 'Locked.' })(function locked() {
    return new Response({});
  });
  const response = (await locked(HttpRequest.create({ url: '/' }), {})) as Response;
  await response.render();
  assert.is(response.status, 403);
  assert.is(response.text, '{"detail":"No."}');
  const options = (await locked(HttpRequest.create({ method: 'OPTIONS', url: '/' }), {})) as Response;
  await options.render();
  assert.is(options.status, 403);
});

test.run();
