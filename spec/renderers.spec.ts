import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callView, jsonOnlyApiSettings } from './helpers';
import { overrideSettings } from '../lib/core/conf';
import { HttpRequest, HttpResponse, type RequestInit } from '../lib/core/http';
import type { ViewFunction } from '../lib/core/urls';
import { NotFound } from '../lib/exceptions';
import { JSONRenderer, MultiPartRenderer, StaticHTMLRenderer, TemplateHTMLRenderer } from '../lib/renderers';
import { Response } from '../lib/response';
import { APIView } from '../lib/views';

const test = suite('renderers');
let restore: () => void;
let templates: string;

test.before(() => {
  templates = mkdtempSync(path.join(os.tmpdir(), 'templates-'));
  writeFileSync(path.join(templates, 'hello.html'), '<p>Hello {{ name }}</p>');
  writeFileSync(path.join(templates, '404.html'), '<h1>Missing: {{ detail }} ({{ status_code }})</h1>');
  restore = overrideSettings.enter({
    TEMPLATE_DIRS: [templates],
    API_FRAMEWORK: jsonOnlyApiSettings(),
  });
});
test.after(() => {
  restore();
  rmSync(templates, { recursive: true, force: true });
});

function call(view: ViewFunction, init: RequestInit = {}): Promise<HttpResponse> {
  return callView(view, init);
}

const payload = { name: 'Zoë', text: 'line\u2028sep', n: [1, 2.5] };

class DataView extends APIView {
  get() {
    return new Response(payload);
  }
}

test('json :: compact unicode by default, no charset, \\u2028 escaped', async () => {
  const response = await call(DataView.asView());
  assert.is(response.getHeader('Content-Type'), 'application/json');
  assert.is(response.text, '{"name":"Zoë","text":"line\\u2028sep","n":[1,2.5]}');
});

test('json :: UNICODE_JSON and COMPACT_JSON off', async () => {
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: [JSONRenderer], DEFAULT_AUTHENTICATION_CLASSES: [], UNICODE_JSON: false, COMPACT_JSON: false } }, async () => {
    const response = await call(DataView.asView());
    assert.is(response.text, '{"name": "Zo\\u00eb", "text": "line\\u2028sep", "n": [1, 2.5]}');
  });
});

test('json :: ensureAscii output is ASCII bytes, one per character; without it UTF-8 with \\u2028 escaped', () => {
  const texts = ['plain', 'del \x7f', 'Zoë', 'line\u2028sep\u2029', 'astral 😀', 'lone \udc00'];
  for (const text of texts) {
    const label = JSON.stringify(text);
    const ascii = Object.assign(new JSONRenderer(), { ensureAscii: true, compact: true }).render({ text });
    const escaped = `{"text":${JSON.stringify(text).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}}`;
    assert.ok(ascii.equals(Buffer.from(escaped, 'utf8')), `ensureAscii ${label}: ${ascii.toString('latin1')}`);
    const unicode = Object.assign(new JSONRenderer(), { ensureAscii: false, compact: true }).render({ text });
    const expected = `{"text":${JSON.stringify(text).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}}`;
    assert.ok(unicode.equals(Buffer.from(expected, 'utf8')), `unicode ${label}: ${unicode.toString('utf8')}`);
  }
});

test('json :: indent from the accepted media type (clamped to 8, 0 means none)', async () => {
  const response = await call(DataView.asView(), { headers: { accept: 'application/json; indent=2' } });
  assert.is(response.text, '{\n  "name": "Zoë",\n  "text": "line\\u2028sep",\n  "n": [\n    1,\n    2.5\n  ]\n}');
  assert.is(response.getHeader('Content-Type'), 'application/json');
  const renderer = new JSONRenderer();
  assert.is(renderer.getIndent('application/json; indent=20', {}), 8);
  assert.is(renderer.getIndent('application/json; indent=0', {}), null);
  assert.is(renderer.getIndent('application/json; indent=x', { indent: 3 }), 3);
});

test('json :: STRICT_JSON refuses NaN at render time', async () => {
  class NaNView extends APIView {
    get() {
      return new Response({ a: NaN });
    }
  }
  const request = HttpRequest.create({ url: '/' });
  const response = (await NaNView.asView()(request, {})) as Response;
  try {
    await response.render();
    assert.unreachable('should throw');
  } catch (error) {
    assert.match((error as Error).message, 'Out of range float values are not JSON compliant');
  }
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: [JSONRenderer], DEFAULT_AUTHENTICATION_CLASSES: [], STRICT_JSON: false } }, async () => {
    assert.is((await call(NaNView.asView())).text, '{"a":NaN}');
  });
});

test('empty :: null data renders no body and no Content-Type', async () => {
  class NoContent extends APIView {
    delete() {
      return new Response(null, { status: 204 });
    }
  }
  const response = await call(NoContent.asView(), { method: 'DELETE' });
  assert.is(response.status, 204);
  assert.is(response.text, '');
  assert.is(response.getHeader('Content-Type'), undefined);
});

test('html :: templates, error templates and the plain fallback', async () => {
  class Page extends APIView {
    override rendererClasses = [TemplateHTMLRenderer];
    templateName = 'hello.html';
    get(_request: unknown, kwargs: Record<string, unknown>) {
      if (kwargs.missing) throw new NotFound();
      if (kwargs.denied) return new Response({ detail: 'x' }, { status: 403, exception: true });
      return new Response({ name: '<World>' });
    }
  }
  const ok = await call(Page.asView());
  assert.is(ok.getHeader('Content-Type'), 'text/html; charset=utf-8');
  assert.is(ok.text, '<p>Hello &lt;World&gt;</p>');
  const request = HttpRequest.create({ url: '/' });
  const missing = (await Page.asView()(request, { missing: true })) as Response;
  await missing.render();
  assert.is(missing.status, 404);
  assert.is(missing.text, '<h1>Missing: Not found. (404)</h1>');
  const denied = (await Page.asView()(HttpRequest.create({ url: '/' }), { denied: true })) as Response;
  await denied.render();
  assert.is(denied.text, '403 Forbidden');
});

test('html :: static HTML is passed through', async () => {
  class Static extends APIView {
    override rendererClasses = [StaticHTMLRenderer];
    get() {
      return new Response('<b>hi</b>');
    }
  }
  const response = await call(Static.asView());
  assert.is(response.text, '<b>hi</b>');
  assert.is(response.getHeader('Content-Type'), 'text/html; charset=utf-8');
});

test('multipart :: test-client bodies with the fixed boundary', async () => {
  const renderer = new MultiPartRenderer();
  assert.is(renderer.mediaType, 'multipart/form-data; boundary=BoUnDaRyStRiNg');
  const body = await renderer.render({ a: 'x', flag: true, list: ['1', '2'], file: { name: 'dir/f.txt', contentType: 'text/plain', content: 'data' } });
  assert.is(
    body.toString(),
    [
      '--BoUnDaRyStRiNg', 'Content-Disposition: form-data; name="a"', '', 'x',
      '--BoUnDaRyStRiNg', 'Content-Disposition: form-data; name="flag"', '', 'True',
      '--BoUnDaRyStRiNg', 'Content-Disposition: form-data; name="list"', '', '1',
      '--BoUnDaRyStRiNg', 'Content-Disposition: form-data; name="list"', '', '2',
      '--BoUnDaRyStRiNg', 'Content-Disposition: form-data; name="file"; filename="f.txt"', 'Content-Type: text/plain', '', 'data',
      '--BoUnDaRyStRiNg--', '',
    ].join('\r\n'),
  );
  let error: unknown = null;
  try {
    await renderer.render({ a: { nested: 1 } });
  } catch (caught) {
    error = caught;
  }
  assert.match((error as Error).message, "Test data contained a dictionary value for key 'a'");
  error = null;
  try {
    await renderer.render({ a: null });
  } catch (caught) {
    error = caught;
  }
  assert.match((error as Error).message, "Cannot encode None for key 'a' as POST data.");
});

test.run();
