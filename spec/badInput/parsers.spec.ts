/**
 * Parsers fed bad bodies (lib/parsers.ts), through an API view: truncated and trailing JSON,
 * a BOM, invalid UTF-8 (the original's codec message, with the right byte and position),
 * undecodable form bodies, multipart without a boundary, with the wrong one, truncated,
 * with too many fields, nameless parts, an empty file name. Never a 500, never a crash.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { QueryDict } from '../../lib/core/http';
import { FormParser, JSONParser, MultiPartParser } from '../../lib/parsers';
import type { Request } from '../../lib/request';
import { Response } from '../../lib/response';
import { APIView } from '../../lib/views';
import { callView, jsonOnlyApiSettings, useSettings } from '../helpers';

const test = suite('badInput parsers');
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings() }));

class EchoView extends APIView {
  override parserClasses = [JSONParser, FormParser, MultiPartParser];

  post(request: Request): Response {
    const data = request.data;
    const files: Record<string, string[]> = {};
    for (const [key, list] of request.files.lists()) files[key] = list.map((file) => `${file.name}:${file.size}`);
    return new Response({ data: data instanceof QueryDict ? Object.fromEntries(data.lists()) : data, files });
  }
}

async function post(body: string | Buffer, contentType: string): Promise<{ status: number; body: unknown }> {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
  const response = await callView(EchoView.asView(), { method: 'POST', body: bytes, headers: { 'content-type': contentType } });
  const text = response.text;
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

const JSON_TYPE = 'application/json';

function parseError(detail: string): { status: number; body: unknown } {
  return { status: 400, body: { detail: `JSON parse error - ${detail}` } };
}

test('json :: truncated, trailing and blank bodies: the original\'s messages', async () => {
  assert.equal(await post('{"a":', JSON_TYPE), parseError('Expecting value: line 1 column 6 (char 5)'));
  assert.equal(await post('[1,2', JSON_TYPE), parseError("Expecting ',' delimiter: line 1 column 5 (char 4)"));
  assert.equal(await post('{"a":1} x', JSON_TYPE), parseError('Extra data: line 1 column 9 (char 8)'));
  assert.equal(await post('   ', JSON_TYPE), parseError('Expecting value: line 1 column 4 (char 3)'));
  assert.equal(await post('{"a":"\u0000"}', JSON_TYPE), parseError('Invalid control character at: line 1 column 7 (char 6)'));
  assert.equal(await post('', JSON_TYPE), { status: 200, body: { data: {}, files: {} } }, 'an empty body is no data');
});

test('json :: a UTF-8 byte order mark is skipped (the original refuses it with a 400)', async () => {
  assert.equal(await post('\xef\xbb\xbf{"a":1}', JSON_TYPE), { status: 200, body: { data: { a: 1 }, files: {} } });
});

test('json :: invalid UTF-8 names the first bad byte, its position and why', async () => {
  const codec = (detail: string) => parseError(`'utf-8' codec can't decode ${detail}`);
  assert.equal(await post('{"a":"\xff"}', JSON_TYPE), codec('byte 0xff in position 6: invalid start byte'));
  assert.equal(await post('{"a":"\xc3\xa9\xff"}', JSON_TYPE), codec('byte 0xff in position 8: invalid start byte'), 'after a valid é');
  assert.equal(await post('{"a":"\xc3"}', JSON_TYPE), codec('byte 0xc3 in position 6: invalid continuation byte'));
  assert.equal(await post('{"a":"\xe2\x82"}', JSON_TYPE), codec('bytes in position 6-7: invalid continuation byte'));
  assert.equal(await post('{"a":"\xc3(', JSON_TYPE), codec('byte 0xc3 in position 6: invalid continuation byte'));
  assert.equal(await post('{"a":"\xe0\x80\x80"}', JSON_TYPE), codec('byte 0xe0 in position 6: invalid continuation byte'), 'overlong');
  assert.equal(await post('{"a":"\xed\xa0\x80"}', JSON_TYPE), codec('byte 0xed in position 6: invalid continuation byte'), 'surrogate');
  assert.equal(await post('{"a":"\xf5"}', JSON_TYPE), codec('byte 0xf5 in position 6: invalid start byte'));
  assert.equal(await post('{"a":"\x80"}', JSON_TYPE), codec('byte 0x80 in position 6: invalid start byte'));
  assert.equal(await post('"\xf0\x9f\x98', JSON_TYPE), codec('bytes in position 1-3: unexpected end of data'));
  assert.equal(await post('"\xc3', JSON_TYPE), codec('byte 0xc3 in position 1: unexpected end of data'));
  assert.equal(await post('"\xf0\x9f\x98\x80"', JSON_TYPE), { status: 200, body: { data: '\u{1F600}', files: {} } }, 'a valid 4-byte character');
});

test('json :: a declared charset is used; an unknown one falls back to UTF-8', async () => {
  assert.equal(await post('{"a":"\xe9"}', 'application/json; charset=latin-1'), { status: 200, body: { data: { a: 'é' }, files: {} } });
  assert.equal(await post('{"a":"\xe9"}', 'application/json; charset=latin1'), { status: 200, body: { data: { a: 'é' }, files: {} } });
  assert.equal(await post('{"a":"\xc3\xa9"}', 'application/json; charset=utf_8'), { status: 200, body: { data: { a: 'é' }, files: {} } });
  assert.equal(await post('{"a":1}', 'application/json; charset=bogus'), { status: 200, body: { data: { a: 1 }, files: {} } });
  assert.equal(await post('{"a":"\xe9"}', 'application/json; charset=bogus'), parseError("'utf-8' codec can't decode byte 0xe9 in position 6: invalid continuation byte"));
});

test('form :: undecodable bytes and escapes become U+FFFD, other fields are kept', async () => {
  assert.equal(await post('a=\xff&b=%ff&c=%zz&d=ok', 'application/x-www-form-urlencoded'), {
    status: 200,
    body: { data: { a: ['\ufffd'], b: ['\ufffd'], c: ['%zz'], d: ['ok'] }, files: {} },
  });
});

test('form :: a declared charset is used, in the original\'s spellings too; an unknown one is ignored', async () => {
  const form = (charset: string) => post('a=\xe9', `application/x-www-form-urlencoded; charset=${charset}`);
  for (const charset of ['latin1', 'latin-1', 'iso-8859-1']) {
    assert.equal(await form(charset), { status: 200, body: { data: { a: ['é'] }, files: {} } }, charset);
  }
  assert.equal(await form('bogus'), { status: 200, body: { data: { a: ['\ufffd'] }, files: {} } });
  assert.equal(await post('a=%C3%A9', 'application/x-www-form-urlencoded; charset=bogus'), { status: 200, body: { data: { a: ['é'] }, files: {} } });
});

test('form :: too many fields is the 400 page (TooManyFieldsSent)', async () => {
  await overrideSettings({ DATA_UPLOAD_MAX_NUMBER_FIELDS: 2 }, async () => {
    const response = await post('a=1&b=2&c=3', 'application/x-www-form-urlencoded');
    assert.is(response.status, 400);
    assert.match(String(response.body), '<h1>Bad Request (400)</h1>');
    assert.is((await post('a=1&b=2', 'application/x-www-form-urlencoded')).status, 200);
  });
});

function part(disposition: string | null, content: string, type?: string): string {
  const headers = [disposition === null ? '' : `Content-Disposition: ${disposition}\r\n`, type ? `Content-Type: ${type}\r\n` : ''].join('');
  return `--B\r\n${headers}\r\n${content}\r\n`;
}
const MULTIPART = 'multipart/form-data; boundary=B';

test('multipart :: no boundary, a malformed boundary, a wrong one, a truncated body: 400 naming the problem', async () => {
  const body = `${part('form-data; name="t"', 'v')}--B--\r\n`;
  assert.equal(await post(body, 'multipart/form-data'), { status: 400, body: { detail: 'Multipart form parse error - Invalid boundary in multipart: None' } });
  assert.equal(await post(body, `multipart/form-data; boundary=${'x'.repeat(300)}`), {
    status: 400,
    body: { detail: `Multipart form parse error - Invalid boundary in multipart: ${'x'.repeat(300)}` },
  });
  // The original silently takes the whole body for one field's value here.
  assert.equal(await post(body, 'multipart/form-data; boundary=WRONG'), { status: 400, body: { detail: 'Multipart form parse error - Unexpected end of form' } });
  assert.equal(await post(body.slice(0, 40), MULTIPART), { status: 400, body: { detail: 'Multipart form parse error - Unexpected end of form' } });
  assert.equal(await post('garbage', MULTIPART), { status: 400, body: { detail: 'Multipart form parse error - Unexpected end of form' } });
  assert.equal(await post(body, 'multipart/form-data; boundary="B"'), { status: 200, body: { data: { t: ['v'] }, files: {} } }, 'a quoted boundary');
});

test('multipart :: too many fields is the 400 page', async () => {
  await overrideSettings({ DATA_UPLOAD_MAX_NUMBER_FIELDS: 2 }, async () => {
    const body = `${part('form-data; name="a"', '1')}${part('form-data; name="b"', '2')}${part('form-data; name="c"', '3')}--B--\r\n`;
    const response = await post(body, MULTIPART);
    assert.is(response.status, 400);
    assert.match(String(response.body), '<h1>Bad Request (400)</h1>');
  });
});

test('multipart :: parts without a name are skipped (as the host framework does), the rest kept', async () => {
  const body = [
    part('form-data', 'nameless'),
    part('form-data; filename="a.txt"', 'nameless file', 'text/plain'),
    part('form-data; name="k"', 'kept'),
    part('form-data; name=""', 'blank name (the original keeps it under the key "")'),
    '--B--\r\n',
  ].join('');
  assert.equal(await post(body, MULTIPART), { status: 200, body: { data: { k: ['kept'] }, files: {} } });
  // A part with no header at all is malformed (the original skips it too).
  assert.equal(await post(`${part(null, 'headless')}--B--\r\n`, MULTIPART), { status: 400, body: { detail: 'Multipart form parse error - Malformed part header' } });
});

test('multipart :: a file field with an empty file name is no file; undecodable field bytes become U+FFFD', async () => {
  const body = `${part('form-data; name="t"', 'v')}${part('form-data; name="f"; filename=""', '', 'application/octet-stream')}${part('form-data; name="g"; filename="g.txt"', 'abc', 'text/plain')}${part('form-data; name="u"', '\xff\xfe')}--B--\r\n`;
  assert.equal(await post(body, MULTIPART), { status: 200, body: { data: { t: ['v'], u: ['\ufffd\ufffd'], g: ['g.txt'] }, files: { g: ['g.txt:3'] } } });
});

test('multipart :: a path in the file name is reduced to its base name', async () => {
  const body = `${part('form-data; name="f"; filename="../../etc/passwd"', 'x', 'text/plain')}${part('form-data; name="w"; filename="C:\\\\dir\\\\win.txt"', 'y', 'text/plain')}--B--\r\n`;
  const response = await post(body, MULTIPART);
  assert.is(response.status, 200);
  const files = (response.body as { files: Record<string, string[]> }).files;
  assert.equal(files.f, ['passwd:1']);
  assert.not.match(files.w[0], '\\');
  assert.not.match(files.w[0], '/');
});

test.run();
