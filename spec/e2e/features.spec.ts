/**
 * End to end, over HTTP: every endpoint of the demo's features app (parsing, versioning,
 * throttling, pagination, filtering, validation, rendering, errors, permission composition).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PASSWORD, skipE2E, startDemoServer, type DemoServer, type E2EResponse } from './demoServer';

const ALICE: [string, string] = ['alice', PASSWORD];
const CAROL: [string, string] = ['carol', PASSWORD];

let server: DemoServer;

function expectJson(response: E2EResponse, status: number, body: string): void {
  assert.is(response.text, body);
  assert.is(response.status, status);
  assert.is(response.headers['content-type'], 'application/json');
}

const test = suite('e2e features');
const skipped = skipE2E('e2e features');

test.before(async () => {
  server = await startDemoServer();
  // Twelve snippets: ids 1..12, alice owns most, carol every third; odd ones are javascript.
  for (let i = 1; i <= 12; i += 1) {
    const created = await server.call('POST', '/snippets/', {
      body: { code: `x = ${i}`, title: `snip ${i}`, language: i % 2 ? 'javascript' : 'python' },
      basic: i % 3 === 0 ? CAROL : ALICE,
    });
    assert.is(created.status, 201);
  }
});

test.after(async () => {
  await server?.stop();
});

test('echo :: query lists, JSON values, form fields (last value), multipart files', async () => {
  expectJson(await server.call('GET', '/features/echo/?a=1&a=2&b=3'), 200,
    '{"method":"GET","content_type":null,"data":{},"files":{},"query":{"a":["1","2"],"b":["3"]}}');
  expectJson(await server.call('POST', '/features/echo/', { body: { x: [1, 2.5, null, true], é: '漢字' } }), 200,
    '{"method":"POST","content_type":"application/json","data":{"x":[1,2.5,null,true],"é":"漢字"},"files":{},"query":{}}');
  expectJson(await server.call('POST', '/features/echo/', {
    body: 'a=1&a=2&b=%C3%A9', headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }), 200, '{"method":"POST","content_type":"application/x-www-form-urlencoded","data":{"a":"2","b":"é"},"files":{},"query":{}}');
  const multipart = '--XX\r\nContent-Disposition: form-data; name="f"\r\n\r\nv1\r\n'
    + '--XX\r\nContent-Disposition: form-data; name="up"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--XX--\r\n';
  expectJson(await server.call('PUT', '/features/echo/', { body: multipart, headers: { 'content-type': 'multipart/form-data; boundary=XX' } }), 200,
    '{"method":"PUT","content_type":"multipart/form-data","data":{"f":"v1"},"files":{"up":{"name":"a.txt","size":5}},"query":{}}');
  expectJson(await server.call('POST', '/features/echo/', { body: '{bad', headers: { 'content-type': 'application/json' } }), 400,
    '{"detail":"JSON parse error - Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"}');
  expectJson(await server.call('POST', '/features/echo/', { body: 'x', headers: { 'content-type': 'text/plain' } }), 415,
    '{"detail":"Unsupported media type \\"text/plain\\" in request."}');
  const deleted = await server.call('DELETE', '/features/echo/');
  expectJson(deleted, 405, '{"detail":"Method \\"DELETE\\" not allowed."}');
  assert.equal(deleted.headers.allow.split(', ').sort(), ['GET', 'OPTIONS', 'POST', 'PUT']);
});

test('upload :: the raw body as a file named by the URL', async () => {
  expectJson(await server.call('PUT', '/features/upload/a.bin/', { body: Buffer.from('12345'), headers: { 'content-type': 'application/octet-stream' } }), 200,
    '{"filename":"a.bin","size":5}');
  expectJson(await server.call('PUT', '/features/upload/a.bin/'), 400, '{"detail":"No file was submitted."}');
  expectJson(await server.call('POST', '/features/upload/a.bin/', { body: 'x' }), 405, '{"detail":"Method \\"POST\\" not allowed."}');
});

test('versioning :: URL path, Accept header, query parameter, host name, namespace', async () => {
  const o = server.origin;
  expectJson(await server.call('GET', '/features/v2/bookings/'), 200, `{"version":"v2","self":"${o}/features/v2/bookings/"}`);
  expectJson(await server.call('GET', '/features/v3/bookings/'), 404, '{"detail":"Invalid version in URL path."}');
  expectJson(await server.call('GET', '/features/accept-version/'), 200, `{"version":"1.0","self":"${o}/features/accept-version/"}`);
  expectJson(await server.call('GET', '/features/accept-version/', { headers: { accept: 'application/json; version=2.0' } }), 200,
    `{"version":"2.0","self":"${o}/features/accept-version/"}`);
  expectJson(await server.call('GET', '/features/accept-version/', { headers: { accept: 'application/json; version=3.0' } }), 406,
    '{"detail":"Invalid version in \\"Accept\\" header."}');
  expectJson(await server.call('GET', '/features/query-version/'), 200, `{"version":"1","self":"${o}/features/query-version/?version=1"}`);
  expectJson(await server.call('GET', '/features/query-version/?version=2'), 200, `{"version":"2","self":"${o}/features/query-version/?version=2"}`);
  expectJson(await server.call('GET', '/features/query-version/?version=3'), 404, '{"detail":"Invalid version in query parameter."}');
  expectJson(await server.call('GET', '/features/host-version/', { headers: { host: 'v1.example.com' } }), 200,
    '{"version":"v1","self":"http://v1.example.com/features/host-version/"}');
  expectJson(await server.call('GET', '/features/host-version/', { headers: { host: 'v3.example.com' } }), 404,
    '{"detail":"Invalid version in hostname."}');
  expectJson(await server.call('GET', '/features/host-version/'), 200, `{"version":null,"self":"${o}/features/host-version/"}`);
  expectJson(await server.call('GET', '/features/ns/v1/items/'), 200, `{"version":"v1","self":"${o}/features/ns/v1/items/"}`);
  expectJson(await server.call('GET', '/features/ns/v2/items/'), 200, `{"version":"v2","self":"${o}/features/ns/v2/items/"}`);
});

test('throttling :: anonymous, per user and scoped rates; 429 with Retry-After', async () => {
  for (let i = 0; i < 3; i += 1) expectJson(await server.call('GET', '/features/throttle/anon/'), 200, '{"ok":true}');
  const anon = await server.call('GET', '/features/throttle/anon/');
  assert.is(anon.status, 429);
  assert.match(anon.text, /^\{"detail":"Request was throttled\. Expected available in \d+ seconds?\."\}$/);
  assert.ok(Number(anon.headers['retry-after']) > 0 && Number(anon.headers['retry-after']) <= 60);
  // Authenticated users are not counted by the anonymous throttle.
  expectJson(await server.call('GET', '/features/throttle/anon/', { basic: ALICE }), 200, '{"ok":true}');

  for (let i = 0; i < 5; i += 1) expectJson(await server.call('GET', '/features/throttle/user/', { basic: ALICE }), 200, '{"ok":true}');
  assert.is((await server.call('GET', '/features/throttle/user/', { basic: ALICE })).status, 429);
  expectJson(await server.call('GET', '/features/throttle/user/', { basic: CAROL }), 200, '{"ok":true}');

  for (let i = 0; i < 2; i += 1) expectJson(await server.call('GET', '/features/throttle/scoped/'), 200, '{"ok":true}');
  assert.is((await server.call('GET', '/features/throttle/scoped/')).status, 429);
});

test('pagination :: limit/offset envelope, links and limits', async () => {
  const o = `${server.origin}/features/snippets/limit/`;
  const first = (await server.call('GET', '/features/snippets/limit/')).json();
  assert.equal(Object.keys(first), ['count', 'next', 'previous', 'results']);
  assert.is(first.count, 12);
  assert.is(first.next, `${o}?limit=5&offset=5`);
  assert.is(first.previous, null);
  assert.equal(first.results.map((s: { id: number }) => s.id), [1, 2, 3, 4, 5]);
  assert.equal(first.results[2], { id: 3, title: 'snip 3', code: 'x = 3', linenos: false, language: 'javascript', style: 'friendly', owner: 'carol' });
  const middle = (await server.call('GET', '/features/snippets/limit/?limit=3&offset=4')).json();
  assert.equal(middle.results.map((s: { id: number }) => s.id), [5, 6, 7]);
  assert.is(middle.next, `${o}?limit=3&offset=7`);
  assert.is(middle.previous, `${o}?limit=3&offset=1`);
  assert.is((await server.call('GET', '/features/snippets/limit/?limit=50')).json().results.length, 12);
  assert.is((await server.call('GET', '/features/snippets/limit/?limit=x&offset=-1')).json().results.length, 5);
});

test('pagination :: page numbers with page_size, last page, invalid pages', async () => {
  const o = `${server.origin}/features/snippets/page/`;
  const page2 = (await server.call('GET', '/features/snippets/page/?page=2')).json();
  assert.equal(page2.results.map((s: { id: number }) => s.id), [6, 7, 8, 9, 10]);
  assert.is(page2.next, `${o}?page=3`);
  assert.is(page2.previous, o);
  const last = (await server.call('GET', '/features/snippets/page/?page=last')).json();
  assert.equal(last.results.map((s: { id: number }) => s.id), [11, 12]);
  assert.is((await server.call('GET', '/features/snippets/page/?page_size=100')).json().results.length, 7);
  const sized = (await server.call('GET', '/features/snippets/page/?page_size=3&page=2')).json();
  assert.equal(sized.results.map((s: { id: number }) => s.id), [4, 5, 6]);
  assert.is(sized.next, `${o}?page=3&page_size=3`);
  expectJson(await server.call('GET', '/features/snippets/page/?page=9'), 404, '{"detail":"Invalid page."}');
  expectJson(await server.call('GET', '/features/snippets/page/?page=0'), 404, '{"detail":"Invalid page."}');
});

test('pagination :: cursor pages newest first, forwards and back, never a row twice', async () => {
  const seen: number[] = [];
  let url: string | null = `${server.origin}/features/snippets/cursor/`;
  let last: { previous: string | null } | null = null;
  while (url) {
    const page = (await server.call('GET', url.slice(server.origin.length))).json();
    assert.equal(Object.keys(page), ['next', 'previous', 'results']);
    seen.push(...page.results.map((s: { id: number }) => s.id));
    last = page;
    url = page.next;
  }
  assert.equal(seen, [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  const back = (await server.call('GET', last!.previous!.slice(server.origin.length))).json();
  assert.equal(back.results.map((s: { id: number }) => s.id), [7, 6, 5, 4, 3]);
  expectJson(await server.call('GET', '/features/snippets/cursor/?cursor=garbage'), 404, '{"detail":"Invalid cursor"}');
});

test('filtering :: search (contains, exact, across the owner) and ordering', async () => {
  const ids = async (query: string) => ((await server.call('GET', `/features/snippets/search/?${query}`)).json() as Array<{ id: number }>).map((s) => s.id);
  assert.equal(await ids(''), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  assert.equal(await ids('search=snip+1'), [1, 10, 11, 12]);
  assert.equal(await ids('search=javascript'), [1, 3, 5, 7, 9, 11]);
  assert.equal(await ids('search=java'), []);
  assert.equal(await ids('search=carol'), [3, 6, 9, 12]);
  assert.equal(await ids('search=carol+javascript'), [3, 9]);
  assert.equal(await ids('ordering=-id'), [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  assert.equal(await ids('ordering=title'), [1, 10, 11, 12, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(await ids('ordering=code'), await ids(''));
  assert.equal(await ids('search=snip+1&ordering=-id'), [12, 11, 10, 1]);
});

test('validation :: every common field type, the original messages, OPTIONS', async () => {
  expectJson(await server.call('POST', '/features/validate/', { body: {} }), 400,
    '{"name":["This field is required."],"count":["This field is required."],"price":["This field is required."],"email":["This field is required."],"choice":["This field is required."],"tags":["This field is required."]}');
  expectJson(await server.call('POST', '/features/validate/', {
    body: { name: 'toolong', count: 0, price: '1234.5', email: 'x', choice: 'c', tags: ['abcd', 1], when: 'nope', nested: { flag: 'maybe' } },
  }), 400, '{"name":["Ensure this field has no more than 5 characters."],'
    + '"count":["Ensure this value is greater than or equal to 1."],'
    + '"price":["Ensure that there are no more than 3 digits before the decimal point."],'
    + '"email":["Enter a valid email address."],"choice":["\\"c\\" is not a valid choice."],'
    + '"tags":{"0":["Ensure this field has no more than 3 characters."]},'
    + '"when":["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."],'
    + '"nested":{"flag":["Must be a valid boolean."],"note":["This field is required."]}}');
  expectJson(await server.call('POST', '/features/validate/', {
    body: { name: 'ok', count: 3, price: '12.5', email: 'a@b.co', choice: 'a', tags: ['ab'], when: '2024-01-02T03:04:05Z', nested: { flag: true, note: 'n' } },
  }), 200, '{"name":"ok","count":3,"price":"12.50","email":"a@b.co","choice":"a","tags":["ab"],"when":"2024-01-02T03:04:05Z","nested":{"flag":true,"note":"n"}}');
  expectJson(await server.call('POST', '/features/validate/', { body: [1] }), 400,
    '{"non_field_errors":["Invalid data. Expected a dictionary, but got list."]}');
  expectJson(await server.call('POST', '/features/validate/', {
    body: 'name=ab&count=2&price=1.00&email=a%40b.co&choice=a&tags=x&tags=y',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }), 200, '{"name":"ab","count":2,"price":"1.00","email":"a@b.co","choice":"a","tags":["x","y"]}');
  const options = (await server.call('OPTIONS', '/features/validate/')).json();
  assert.is(options.name, 'Validate');
  assert.equal(Object.keys(options.actions.POST), ['name', 'count', 'price', 'email', 'choice', 'tags', 'when', 'nested']);
  assert.equal(options.actions.POST.name, { type: 'string', required: true, read_only: false, label: 'Name', max_length: 5 });
  assert.equal(options.actions.POST.choice.choices, [{ value: 'a', display_name: 'a' }, { value: 'b', display_name: 'b' }]);
});

test('rendering :: compact raw-unicode JSON bytes', async () => {
  const response = await server.call('GET', '/features/render/');
  assert.ok(response.body.equals(Buffer.from('{"unicode":"é ✓ 漢字","list":[1,2.5,null,true],"nested":{"a":"b"}}', 'utf8')), response.text);
  assert.is(response.headers['content-type'], 'application/json');
});

test('errors :: custom exception, custom handler, the JSON 500 view', async () => {
  expectJson(await server.call('GET', '/features/errors/unavailable/'), 503, '{"detail":"Service temporarily unavailable, try again later."}');
  expectJson(await server.call('GET', '/features/errors/handler/'), 403,
    '{"detail":"You do not have permission to perform this action.","status_code":403}');
  expectJson(await server.call('GET', '/features/errors/crash/'), 500, '{"error": "Server Error (500)"}');
  // The server keeps serving after a crash.
  assert.is((await server.call('GET', '/features/render/')).status, 200);
});

test('permissions :: IsAdminUser, NOT IsAuthenticated, IsAdminUser OR IsAuthenticatedOrReadOnly', async () => {
  const denied = '{"detail":"You do not have permission to perform this action."}';
  const missing = '{"detail":"Authentication credentials were not provided."}';
  expectJson(await server.call('GET', '/features/admin-only/'), 403, missing);
  expectJson(await server.call('GET', '/features/admin-only/', { basic: CAROL }), 403, denied);
  expectJson(await server.call('GET', '/features/admin-only/', { basic: ALICE }), 200, '{"ok":true}');
  expectJson(await server.call('GET', '/features/anon-only/'), 200, '{"ok":true}');
  expectJson(await server.call('GET', '/features/anon-only/', { basic: CAROL }), 403, denied);
  expectJson(await server.call('GET', '/features/either/'), 200, '{"ok":true}');
  expectJson(await server.call('POST', '/features/either/'), 403, missing);
  expectJson(await server.call('POST', '/features/either/', { basic: CAROL }), 200, '{"ok":true}');
});

if (!skipped) test.run();
