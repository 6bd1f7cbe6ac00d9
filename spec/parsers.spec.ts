import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../lib/core/conf';
import { callView, jsonOnlyApiSettings, useSettings } from './helpers';
import { HttpResponse, QueryDict, RequestDataTooBig, type RequestInit } from '../lib/core/http';
import type { ViewFunction } from '../lib/core/urls';
import { BaseParser, FileUploadParser, FormParser, JSONParser, MultiPartParser, ReceivedFile } from '../lib/parsers';
import { BodyStream } from '../lib/core/http/body';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { Request } from '../lib/request';
import { Response } from '../lib/response';
import { APIView } from '../lib/views';
import { APIClient, startLiveServer } from '../lib/test';
import { path as urlPath } from '../lib/core/urls';
import { request as undiciRequest } from 'undici';

const test = suite('parsers');
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings() }));

const seen: { data?: unknown; files?: unknown; request?: Request } = {};

class EchoView extends APIView {
  override parserClasses = [JSONParser, FormParser, MultiPartParser];
  async post(request: Request) {
    seen.data = request.data;
    seen.request = request;
    const data = request.data;
    if (data instanceof QueryDict) {
      const files: Record<string, unknown> = {};
      for (const [key, list] of request.files.lists()) {
        files[key] = await Promise.all(list.map(async (file) => ({ name: file.name, size: file.size, type: file.contentType, text: (await file.read()).toString() })));
      }
      return new Response({ fields: Object.fromEntries(data.lists()), files });
    }
    return new Response({ data });
  }
}

class UploadView extends APIView {
  override parserClasses = [FileUploadParser];
  async put(request: Request) {
    const file = (request.data as { file: ReceivedFile }).file;
    return new Response({ name: file.name, size: file.size, text: (await file.read()).toString() });
  }
}

function call(view: ViewFunction, init: RequestInit, kwargs: Record<string, unknown> = {}): Promise<HttpResponse> {
  return callView(view, { method: 'POST', ...init }, kwargs);
}

const json = (body: string) => ({ body, headers: { 'content-type': 'application/json' } });

function multipart(parts: Array<{ name: string; value?: string; filename?: string; type?: string; content?: Buffer | string }>, boundary = 'XyZ'): RequestInit {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), Buffer.from(part.filename !== undefined ? part.content ?? '' : part.value ?? ''), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

test('json :: parsed; malformed is a 400 with the parser detail', async () => {
  const ok = await call(EchoView.asView(), json('{"a": [1, "é"], "b": null}'));
  assert.is(ok.text, '{"data":{"a":[1,"é"],"b":null}}');
  const bad = await call(EchoView.asView(), json('[1, 2'));
  assert.is(bad.status, 400);
  assert.is(bad.text, '{"detail":"JSON parse error - Expecting \',\' delimiter: line 1 column 6 (char 5)"}');
});

test('json :: STRICT_JSON rejects NaN; permissive mode accepts it', async () => {
  const strict = await call(EchoView.asView(), json('{"a": NaN}'));
  assert.is(strict.status, 400);
  assert.is(strict.text, '{"detail":"JSON parse error - Out of range float values are not JSON compliant: \'NaN\'"}');
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [], STRICT_JSON: false } }, async () => {
    const loose = await call(EchoView.asView(), json('{"a": Infinity}'));
    assert.is(loose.status, 200);
    assert.is(loose.text, '{"data":{"a":Infinity}}');
  });
});

test('content type :: unknown is 415 naming it; missing with a body is 415 too', async () => {
  const response = await call(EchoView.asView(), { body: 'hello', headers: { 'content-type': 'text/plain; charset=utf-8' } });
  assert.is(response.status, 415);
  assert.is(response.text, '{"detail":"Unsupported media type \\"text/plain; charset=utf-8\\" in request."}');
  const none = await call(EchoView.asView(), { body: 'hello' });
  assert.is(none.status, 415);
  assert.is(none.text, '{"detail":"Unsupported media type \\"\\" in request."}');
});

test('empty body :: {} or an empty QueryDict for forms', async () => {
  await call(EchoView.asView(), { headers: { 'content-type': 'application/json' } });
  assert.equal(seen.data, {});
  await call(EchoView.asView(), { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.instance(seen.data, QueryDict);
  assert.is((seen.data as QueryDict).size, 0);
});

test('form :: url-encoded fields become a QueryDict (repeated keys kept) and fill POST', async () => {
  const response = await call(EchoView.asView(), { body: 'a=1&a=2&b=x+y', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(response.json(), { fields: { a: ['1', '2'], b: ['x y'] }, files: {} });
  assert.is(seen.request?.POST.get('b'), 'x y');
  assert.is(seen.request?.httpRequest.POST.get('a'), '2');
});

test('multipart :: several fields and files', async () => {
  const response = await call(EchoView.asView(), multipart([
    { name: 'title', value: 'Hello' },
    { name: 'tag', value: 'a' },
    { name: 'tag', value: 'b' },
    { name: 'doc', filename: 'notes.txt', type: 'text/plain', content: 'first file' },
    { name: 'doc', filename: 'more.txt', type: 'text/plain', content: 'second' },
    { name: 'empty', filename: '', content: '' },
  ]));
  assert.is(response.status, 200);
  assert.equal(response.json(), {
    fields: { title: ['Hello'], tag: ['a', 'b'], doc: ['notes.txt', 'more.txt'] },
    files: { doc: [{ name: 'notes.txt', size: 10, type: 'text/plain', text: 'first file' }, { name: 'more.txt', size: 6, type: 'text/plain', text: 'second' }] },
  });
  const data = seen.data as QueryDict;
  assert.instance(data.get('doc'), ReceivedFile);
  assert.is(data.get('title'), 'Hello');
});

test('multipart :: large files go to a temporary file', async () => {
  await overrideSettings({ FILE_UPLOAD_MAX_MEMORY_SIZE: 10 }, async () => {
    const response = await call(EchoView.asView(), multipart([{ name: 'doc', filename: 'big.bin', content: 'x'.repeat(100) }]));
    assert.is(response.status, 200);
    const file = (seen.request as Request).files.get('doc') as ReceivedFile;
    assert.ok(file.path && existsSync(file.path));
    assert.is(file.size, 100);
    assert.is((await file.read()).toString(), 'x'.repeat(100));
    await file.close();
    assert.not.ok(existsSync(file.path as string));
  });
});

/** Records the temporary file of `doc` while the view runs; `?fail=1` then raises (a 500). */
const tempSeen: { path: string | null; existed: boolean } = { path: null, existed: false };

class TempFileView extends APIView {
  override parserClasses = [MultiPartParser, FileUploadParser];
  async post(request: Request) {
    const file = request.files.get('doc') as ReceivedFile;
    tempSeen.path = file.path;
    tempSeen.existed = file.path !== null && existsSync(file.path);
    if (request.queryParams.get('fail')) throw new Error('the view failed after the upload');
    return new Response({ size: file.size });
  }

  async put(request: Request) {
    const file = request.files.get('file') as ReceivedFile;
    tempSeen.path = file.path;
    tempSeen.existed = file.path !== null && existsSync(file.path);
    return new Response({ size: file.size });
  }
}

/** The URL conf of the temporary-file tests (ROOT_URLCONF = 'spec/parsers.spec'). */
/** A parser that reads its stream chunk by chunk (the way a custom streaming parser does). */
class StreamingJSONParser extends BaseParser {
  readonly mediaType = 'application/x-streamed-json';
  async parse(stream: Readable): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString());
  }
}

/** Echoes what its parser read, with the parser's media type. */
class BodyEchoView extends APIView {
  override parserClasses = [JSONParser, StreamingJSONParser];
  post(request: Request) {
    return new Response({ data: request.data });
  }
}

export const urlpatterns = [
  urlPath('temp/', TempFileView.asView()), urlPath('temp/<str:filename>', TempFileView.asView()), urlPath('body/', BodyEchoView.asView()),
];

test('temp files :: removed when the request finishes (test client, success, 500, file upload)', async () => {
  await overrideSettings({ FILE_UPLOAD_MAX_MEMORY_SIZE: 10, ROOT_URLCONF: 'spec/parsers.spec' }, async () => {
    const client = new APIClient();
    const upload = multipart([{ name: 'doc', filename: 'big.bin', content: 'y'.repeat(200) }]);
    const contentType = (upload.headers as Record<string, string>)['content-type'];
    for (const url of ['/temp/', '/temp/?fail=1']) {
      tempSeen.path = null;
      const response = await client.generic('POST', url, upload.body as Buffer, contentType);
      assert.is(response.status, url.includes('fail') ? 500 : 200);
      assert.ok(tempSeen.path, 'the upload went to a temporary file');
      assert.ok(tempSeen.existed, 'the file existed while the view ran');
      assert.not.ok(existsSync(tempSeen.path as string), `the file is gone after the response (${url})`);
    }
    tempSeen.path = null;
    const put = await client.generic('PUT', '/temp/big.txt', 'z'.repeat(50), 'text/plain');
    assert.equal(put.json(), { size: 50 });
    assert.ok(tempSeen.path && tempSeen.existed);
    assert.not.ok(existsSync(tempSeen.path as string));
  });
});

test('body stream :: over a socket, parsers taking the body whole and parsers streaming it read the same bytes and limits', async () => {
  await overrideSettings({ DATA_UPLOAD_MAX_MEMORY_SIZE: 2000, ROOT_URLCONF: 'spec/parsers.spec' }, async () => {
    const live = await startLiveServer();
    try {
      const payload = JSON.stringify({ text: 'é'.repeat(300), list: [1, 2, 3] });
      const chunked = (text: string) => Readable.from((function* pieces() {
        const bytes = Buffer.from(text);
        for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7);
      })());
      const rows: Array<[string, string, () => string | Readable, number, unknown]> = [];
      for (const type of ['application/json', 'application/x-streamed-json']) {
        rows.push([`${type}, Content-Length`, type, () => payload, 200, { data: JSON.parse(payload) }]);
        rows.push([`${type}, chunked in 7-byte pieces`, type, () => chunked(payload), 200, { data: JSON.parse(payload) }]);
        rows.push([`${type}, over the limit by Content-Length`, type, () => `"${'x'.repeat(3000)}"`, 413,
          { detail: 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.' }]);
        rows.push([`${type}, over the limit while reading (chunked)`, type, () => chunked(`"${'x'.repeat(3000)}"`), 413,
          { detail: 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.' }]);
      }
      for (const [label, type, body, status, expected] of rows) {
        const response = await undiciRequest(`${live.url}/body/`, { method: 'POST', body: body(), headers: { 'content-type': type } });
        assert.is(response.statusCode, status, label);
        assert.equal(await response.body.json(), expected, label);
      }
    } finally {
      await live.close();
    }
  });
});

test('body stream :: taken whole only while unread; read as a stream it is limitedStream\'s', async () => {
  const make = (body: string) => {
    const raw = new IncomingMessage(new Socket());
    raw.push(Buffer.from(body));
    raw.push(null);
    return raw;
  };
  const bound = { limit: 100, message: 'too big' };
  const whole = new BodyStream(make('{"a":1}'), bound);
  const taken = whole.takeWhole();
  assert.ok(taken);
  assert.is((await taken).toString(), '{"a":1}');
  assert.is(whole.takeWhole(), null, 'taken once');
  const rest: unknown[] = [];
  for await (const chunk of whole) rest.push(chunk);
  assert.equal(rest, [], 'the stream ends empty once taken');

  const streamed = new BodyStream(make('abc'), bound);
  const chunks: Buffer[] = [];
  for await (const chunk of streamed) chunks.push(chunk as Buffer);
  assert.is(Buffer.concat(chunks).toString(), 'abc');
  assert.is(streamed.takeWhole(), null, 'not taken once read as a stream');

  const tooBig = new BodyStream(make('y'.repeat(150)), bound);
  try {
    await tooBig.takeWhole();
    assert.unreachable('over the limit');
  } catch (error) {
    assert.instance(error, RequestDataTooBig);
    assert.is((error as Error).message, 'too big');
  }
  const tooBigStreamed = new BodyStream(make('y'.repeat(150)), bound);
  try {
    for await (const chunk of tooBigStreamed) void chunk;
    assert.unreachable('over the limit');
  } catch (error) {
    assert.instance(error, RequestDataTooBig);
    assert.is((error as Error).message, 'too big');
  }
});

test('temp files :: removed after the server sent the response', async () => {
  await overrideSettings({ FILE_UPLOAD_MAX_MEMORY_SIZE: 10, ROOT_URLCONF: 'spec/parsers.spec' }, async () => {
    const live = await startLiveServer();
    try {
      tempSeen.path = null;
      const upload = multipart([{ name: 'doc', filename: 'big.bin', content: 'w'.repeat(300) }]);
      const response = await undiciRequest(`${live.url}/temp/`, { method: 'POST', body: upload.body as Buffer, headers: upload.headers as Record<string, string> });
      assert.equal(await response.body.json(), { size: 300 });
      assert.ok(tempSeen.path && tempSeen.existed);
      // The cleanup runs right after the last byte was written; wait for the server's turn.
      for (let i = 0; i < 200 && existsSync(tempSeen.path as string); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.not.ok(existsSync(tempSeen.path as string));
    } finally {
      await live.close();
    }
  });
});

test('upload limits :: over the server, files above DATA_UPLOAD_MAX_MEMORY_SIZE pass; bodies above FILE_UPLOAD_MAX_SIZE are 413', async () => {
  await overrideSettings({ DATA_UPLOAD_MAX_MEMORY_SIZE: 100, FILE_UPLOAD_MAX_SIZE: 1000, ROOT_URLCONF: 'spec/parsers.spec' }, async () => {
    const live = await startLiveServer();
    try {
      const ok = multipart([{ name: 'doc', filename: 'a.bin', content: 'a'.repeat(600) }]);
      const accepted = await undiciRequest(`${live.url}/temp/`, { method: 'POST', body: ok.body as Buffer, headers: ok.headers as Record<string, string> });
      assert.is(accepted.statusCode, 200);
      assert.equal(await accepted.body.json(), { size: 600 });
      const tooBig = multipart([{ name: 'doc', filename: 'b.bin', content: 'b'.repeat(2000) }]);
      const refused = await undiciRequest(`${live.url}/temp/`, { method: 'POST', body: tooBig.body as Buffer, headers: tooBig.headers as Record<string, string> });
      assert.is(refused.statusCode, 413);
      assert.equal(await refused.body.json(), { detail: 'Request body exceeded settings.FILE_UPLOAD_MAX_SIZE.' });
    } finally {
      await live.close();
    }
  });
});

test('multipart :: bad boundary is a parse error; oversized fields or body is 413; too many fields 400', async () => {
  const bad = await call(EchoView.asView(), { body: 'xx', headers: { 'content-type': 'multipart/form-data' } });
  assert.is(bad.status, 400);
  assert.is(bad.text, '{"detail":"Multipart form parse error - Invalid boundary in multipart: None"}');
  await overrideSettings({ DATA_UPLOAD_MAX_MEMORY_SIZE: 50 }, async () => {
    // Non-file fields are bounded by DATA_UPLOAD_MAX_MEMORY_SIZE ...
    const big = await call(EchoView.asView(), multipart([{ name: 'text', value: 'x'.repeat(500) }]));
    assert.is(big.status, 413);
    assert.is(big.text, '{"detail":"Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE."}');
    // ... files are not (they go to disk), as in the host framework ...
    const file = await call(EchoView.asView(), multipart([{ name: 'title', value: 'short' }, { name: 'doc', filename: 'big.bin', content: 'x'.repeat(500) }]));
    assert.is(file.status, 200);
    assert.equal(file.json(), { fields: { title: ['short'], doc: ['big.bin'] }, files: { doc: [{ name: 'big.bin', size: 500, type: 'application/octet-stream', text: 'x'.repeat(500) }] } });
    // ... and JSON bodies still are.
    const jsonBody = await call(EchoView.asView(), json(JSON.stringify({ text: 'x'.repeat(100) })));
    assert.is(jsonBody.status, 413);
  });
  await overrideSettings({ FILE_UPLOAD_MAX_SIZE: 400 }, async () => {
    // The whole multipart / file-upload body is bounded by FILE_UPLOAD_MAX_SIZE.
    const file = await call(EchoView.asView(), multipart([{ name: 'doc', filename: 'big.bin', content: 'x'.repeat(500) }]));
    assert.is(file.status, 413);
    assert.is(file.text, '{"detail":"Request body exceeded settings.FILE_UPLOAD_MAX_SIZE."}');
    const small = await call(EchoView.asView(), multipart([{ name: 'doc', filename: 'small.bin', content: 'x'.repeat(100) }]));
    assert.is(small.status, 200);
    const upload = await call(UploadView.asView(), { method: 'PUT', body: 'y'.repeat(401), headers: { 'content-type': 'text/plain' } }, { filename: 'f.txt' });
    assert.is(upload.status, 413);
  });
  await overrideSettings({ FILE_UPLOAD_MAX_SIZE: null, DATA_UPLOAD_MAX_MEMORY_SIZE: 10 }, async () => {
    const upload = await call(UploadView.asView(), { method: 'PUT', body: 'y'.repeat(401), headers: { 'content-type': 'text/plain' } }, { filename: 'f.txt' });
    assert.equal(upload.json(), { name: 'f.txt', size: 401, text: 'y'.repeat(401) });
  });
  await overrideSettings({ DATA_UPLOAD_MAX_NUMBER_FIELDS: 2 }, async () => {
    const many = await call(EchoView.asView(), multipart([{ name: 'a', value: '1' }, { name: 'b', value: '2' }, { name: 'c', value: '3' }]));
    assert.is(many.status, 400);
  });
});

test('file upload :: filename from the URL kwarg, filename= and filename*=', async () => {
  const put = (headers: Record<string, string>, kwargs: Record<string, unknown> = {}) =>
    call(UploadView.asView(), { method: 'PUT', body: 'file body', headers: { 'content-type': 'text/plain', ...headers } }, kwargs);
  assert.equal((await put({}, { filename: 'from-url.txt' })).json(), { name: 'from-url.txt', size: 9, text: 'file body' });
  assert.equal((await put({ 'content-disposition': 'attachment; filename="plain.txt"' })).json(), { name: 'plain.txt', size: 9, text: 'file body' });
  assert.equal(
    (await put({ 'content-disposition': "attachment; filename=fallback.txt; filename*=utf-8''%e2%82%ac%20rates.txt" })).json(),
    { name: '€ rates.txt', size: 9, text: 'file body' },
  );
  const missing = await put({});
  assert.is(missing.status, 400);
  assert.is(missing.text, '{"detail":"Missing filename. Request should include a Content-Disposition header with a filename parameter."}');
});

test.run();
