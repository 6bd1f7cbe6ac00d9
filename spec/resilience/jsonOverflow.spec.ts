/**
 * JSON that overflows: nesting past `JSON_MAX_DEPTH` (8,000 deep used to exhaust the encoder's
 * stack: a 500) and numbers past a float's range (`1e400` used to become Infinity and fail in
 * the renderer: a 500, as in the original). Both are 400s naming the problem, through an API
 * view; at the bound itself the document is accepted and echoed back.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { JSONParser } from '../../lib/parsers';
import type { Request } from '../../lib/request';
import { Response } from '../../lib/response';
import { APIView } from '../../lib/views';
import { dumps, JSONDepthError, loads } from '../../lib/utils/json';
import { callView, jsonOnlyApiSettings, useSettings } from '../helpers';

const test = suite('resilience: JSON overflow');
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings() }));

class EchoView extends APIView {
  override parserClasses = [JSONParser];

  post(request: Request): Response {
    return new Response({ data: request.data });
  }
}

async function post(body: string, apiSettings: Record<string, unknown> = {}): Promise<{ status: number; text: string }> {
  const run = async () => {
    const response = await callView(EchoView.asView(), { method: 'POST', body: Buffer.from(body), headers: { 'content-type': 'application/json' } });
    return { status: response.status, text: response.text };
  };
  if (!Object.keys(apiSettings).length) return run();
  const { overrideSettings } = await import('../../lib/core/conf');
  return overrideSettings({ API_FRAMEWORK: { ...jsonOnlyApiSettings(), ...apiSettings } }, run);
}

const nestedArrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const detail = (text: string): string => JSON.stringify({ detail: `JSON parse error - ${text}` });

test('depth :: 8,000 nested lists or objects -> 400 naming the bound and where it was passed', async () => {
  const cases: Array<[string, string]> = [
    [nestedArrays(8000), 'Maximum nesting depth of 512 exceeded: line 1 column 513 (char 512)'],
    [nestedObjects(8000), 'Maximum nesting depth of 512 exceeded: line 1 column 2561 (char 2560)'],
    [`{"s": "[[[[", "deep": ${nestedArrays(600)}}`, 'Maximum nesting depth of 512 exceeded: line 1 column 534 (char 533)'],
    // The slow decoder (constants) is guarded too.
    [`${'['.repeat(5000)}NaN${']'.repeat(5000)}`, 'Maximum nesting depth of 512 exceeded: line 1 column 513 (char 512)'],
  ];
  for (const [body, message] of cases) {
    const response = await post(body);
    assert.is(response.status, 400, message);
    assert.is(response.text, detail(message));
  }
});

test('depth :: at the bound the document is accepted and rendered back', async () => {
  const response = await post(nestedArrays(512));
  assert.is(response.status, 200);
  assert.is(response.text, `{"data":${nestedArrays(512)}}`);
});

test('depth :: JSON_MAX_DEPTH sets the bound', async () => {
  assert.is((await post(nestedArrays(11), { JSON_MAX_DEPTH: 10 })).text, detail('Maximum nesting depth of 10 exceeded: line 1 column 11 (char 10)'));
  assert.is((await post(nestedArrays(10), { JSON_MAX_DEPTH: 10 })).status, 200);
});

test('numbers :: past a float\'s range -> 400 naming the number (STRICT_JSON)', async () => {
  const cases: Array<[string, string]> = [
    ['{"a":1e400}', "'1e400'"],
    ['{"a":-1E+309}', "'-1E+309'"],
    [`[1, ${'9'.repeat(400)}]`, `'${'9'.repeat(37)}...'`],
  ];
  for (const [body, shown] of cases) {
    const response = await post(body);
    assert.is(response.status, 400, body);
    assert.is(response.text, detail(`Out of range float values are not JSON compliant: ${shown}`));
  }
  // Large but finite numbers, and "e400" inside a string, are values.
  assert.is((await post('{"a":1e308,"b":"1e400"}')).text, '{"data":{"a":1e+308,"b":"1e400"}}');
});

test('numbers :: without STRICT_JSON, 1e400 is Infinity as in the original', async () => {
  const response = await post('{"a":1e400}', { STRICT_JSON: false });
  assert.is(response.status, 200);
  assert.is(response.text, '{"data":{"a":Infinity}}');
});

test('dumps :: nesting past its bound throws JSONDepthError, not a stack overflow', () => {
  let value: unknown = 1;
  for (let i = 0; i < 20000; i += 1) value = [value];
  assert.throws(() => dumps(value), (error: unknown) => error instanceof JSONDepthError && error.message === 'Maximum nesting depth of 1000 exceeded');
  assert.is(dumps(loads(nestedArrays(512))), nestedArrays(512));
});

test.run();
