/**
 * The fixed list of requests `compare-reference` sends to both servers, in order (throttles,
 * row ids and the session depend on it): every DEMO.md row, an error case for every status
 * code the demo can answer, formats, pagination, versioning, throttling, CSRF and session
 * login, OPTIONS.
 *
 * Users made before the run on both sides: `alice` (superuser, id 1) and `carol` (id 2), both
 * with password `pw`, and a token each.
 */
import type { Observed } from './compare';

/** One server as the cases see it. */
export interface Side {
  name: 'reference' | 'demo';
  origin: string;
  /** alice's and carol's token keys on this side. */
  token: string;
  carolToken: string;
  /** The session's cookies (only requests with `auth: 'session'` send and update them). */
  cookies: Record<string, string>;
  /** Values captured from earlier answers (CSRF form token, cursor links...). */
  vars: Record<string, string>;
}

/** The request one case sends to one side. */
export interface BuiltRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  useCookies: boolean;
}

/** One request of the list. */
export interface Case {
  label: string;
  /**
   * `exact` (default): body bytes; `page`: the text of a browsable/login page's panes; `text`:
   * an HTML page's visible text (own markup, the original's messages); `none`: not compared.
   */
  compareBody?: 'exact' | 'page' | 'text' | 'none';
  /** Compare `Allow` as a set (function views: DRF builds their method list from a Python set). */
  allowUnordered?: boolean;
  /** A difference accepted on purpose, with the reason: reported as KNOWN, not failing the run. */
  known?: string;
  build(side: Side): BuiltRequest;
  /** Capture values for later cases. */
  after?(side: Side, observed: Observed): void;
}

type Auth = 'alice' | 'carol' | 'bad-basic' | 'token' | 'carol-token' | 'bad-token' | 'session';
type PerSide<T> = T | ((side: Side) => T);

interface Options {
  headers?: Record<string, string>;
  /** Sent as JSON (`Content-Type: application/json`). */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: PerSide<Record<string, string>>;
  /** Sent as is. */
  body?: string | Buffer;
  auth?: Auth;
  /** `X-CSRFToken` from the session's csrftoken cookie, or a wrong one. */
  csrf?: 'cookie' | 'wrong';
  host?: string;
  /** Another path per side (cursor links). */
  path?: (side: Side) => string;
  compareBody?: Case['compareBody'];
  allowUnordered?: boolean;
  known?: string;
  after?: Case['after'];
  /** Added to the label. */
  note?: string;
}

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

function perSide<T>(value: PerSide<T>, side: Side): T {
  return typeof value === 'function' ? (value as (side: Side) => T)(side) : value;
}

function describe(method: string, path: string, options: Options): string {
  const parts = [`${method} ${path}`];
  if (options.auth) parts.push(`[${options.auth}]`);
  const accept = options.headers?.Accept ?? options.headers?.accept;
  if (accept) parts.push(`Accept: ${accept}`);
  const type = options.headers?.['Content-Type'];
  if (type) parts.push(`Content-Type: ${type.length > 40 ? `${type.slice(0, 40)}…` : type}`);
  if (options.json !== undefined) parts.push(`json ${JSON.stringify(options.json).slice(0, 60)}`);
  if (options.form) parts.push('form');
  if (options.host) parts.push(`Host: ${options.host}`);
  if (options.csrf) parts.push(`csrf: ${options.csrf}`);
  if (options.note) parts.push(`(${options.note})`);
  return parts.join(' ');
}

/** A case: `method path` with options. */
function r(method: string, path: string, options: Options = {}): Case {
  return {
    label: describe(method, path, options),
    compareBody: options.compareBody,
    allowUnordered: options.allowUnordered ?? path.startsWith('/features/echo/'),
    known: options.known,
    after: options.after,
    build(side: Side): BuiltRequest {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      let body: string | Buffer | undefined = options.body;
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers['Content-Type'] ??= 'application/json';
      }
      if (options.form) {
        body = new URLSearchParams(perSide(options.form, side)).toString();
        headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
      }
      switch (options.auth) {
        case 'alice': headers.Authorization = basic('alice', 'pw'); break;
        case 'carol': headers.Authorization = basic('carol', 'pw'); break;
        case 'bad-basic': headers.Authorization = basic('alice', 'wrong'); break;
        case 'token': headers.Authorization = `Token ${side.token}`; break;
        case 'carol-token': headers.Authorization = `Token ${side.carolToken}`; break;
        case 'bad-token': headers.Authorization = 'Token 0123456789abcdef0123456789abcdef01234567'; break;
        default: break;
      }
      if (options.csrf === 'cookie') headers['X-CSRFToken'] = side.cookies.csrftoken ?? '';
      if (options.csrf === 'wrong') headers['X-CSRFToken'] = 'x'.repeat(64);
      if (options.host) headers.host = options.host;
      return {
        method,
        path: options.path ? options.path(side) : path,
        headers,
        body,
        useCookies: options.auth === 'session',
      };
    },
  };
}

const JSON_ACCEPT = { Accept: 'application/json' };

/** Why the HTML-only highlight action's error answers lack `Vary: Cookie` here. */
const HTML_ERROR_VARY = 'DRF renders the error template of an HTML-only view through Django\'s context processors, ' +
  'whose auth processor reads the session (Vary: Cookie); our template renderers run no context processors';
const HTML_ACCEPT = { Accept: 'text/html' };

function captureCsrfForm(side: Side, observed: Observed): void {
  const match = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(observed.body.toString('utf8'));
  if (match) side.vars.csrfForm = match[1];
}

function captureLink(name: string, key: 'next' | 'previous') {
  return (side: Side, observed: Observed): void => {
    try {
      const data = JSON.parse(observed.body.toString('utf8')) as Record<string, unknown>;
      const link = data[key];
      side.vars[name] = typeof link === 'string' ? new URL(link).pathname + new URL(link).search : '';
    } catch {
      side.vars[name] = '';
    }
  };
}

const MULTIPART = '--XX\r\nContent-Disposition: form-data; name="f"\r\n\r\nv1\r\n--XX\r\nContent-Disposition: form-data; name="up"; filename="a.txt"\r\n' +
  'Content-Type: text/plain\r\n\r\nhello\r\n--XX--\r\n';

const LANGUAGES = ['python', 'javascript', 'rust', 'c', 'text'];

/** Twelve snippets of alice's (ids 1-12, varied titles and languages) and one of carol's (13). */
function createSnippets(): Case[] {
  const cases: Case[] = [];
  for (let i = 1; i <= 12; i += 1) {
    cases.push(r('POST', '/snippets/', {
      auth: 'alice',
      json: { title: `snip ${i}`, code: `print(${i})`, language: LANGUAGES[i % LANGUAGES.length], linenos: i % 2 === 0 },
    }));
  }
  cases.push(r('POST', '/snippets/', { auth: 'carol-token', json: { title: 'carol\'s', code: 'x = "é ✓ 漢字"', style: 'monokai' } }));
  return cases;
}

/** Ten more users through the quickstart API, so its user list has two pages. */
function createUsers(): Case[] {
  const cases: Case[] = [];
  for (let i = 1; i <= 10; i += 1) {
    cases.push(r('POST', '/quickstart/users/', { auth: 'alice', json: { username: `user${i}`, email: `user${i}@example.com` } }));
  }
  return cases;
}

/** The requests, in order. */
export const CASES: Case[] = [
  // -- the tutorial's API root and format selection --------------------------------------------
  r('GET', '/'),
  r('GET', '/', { headers: JSON_ACCEPT }),
  r('GET', '/?format=json'),
  r('GET', '/.json'),
  r('GET', '/', { headers: HTML_ACCEPT, compareBody: 'page' }),
  r('GET', '/?format=api', { compareBody: 'page' }),
  r('GET', '/.api', { compareBody: 'page' }),
  r('GET', '/', { headers: { Accept: 'application/xml' } }),
  r('GET', '/', { headers: { Accept: 'application/json; indent=4' } }),
  r('GET', '/', { headers: { Accept: 'text/html;q=0.5, application/json' } }),
  r('GET', '/?format=xml'),
  r('GET', '/.xml'),
  r('GET', '/snippets.xml'),
  r('GET', '/', { headers: { 'Accept-Language': 'de' } }),

  // -- empty lists, unknown rows -----------------------------------------------------------------
  r('GET', '/snippets/'),
  r('GET', '/users/'),
  r('GET', '/users/1/'),
  r('GET', '/users/999/'),
  r('GET', '/snippets/1/'),
  r('GET', '/snippets/abc/'),

  // -- refused writes: 401, 403, 400, 415, 405 ------------------------------------------------------
  r('POST', '/snippets/', { json: { code: 'x' } }),
  r('POST', '/snippets/', { json: { code: 'x' }, auth: 'bad-basic' }),
  r('POST', '/snippets/', { json: { code: 'x' }, auth: 'bad-token' }),
  r('POST', '/snippets/', { json: { code: 'x' }, headers: { Authorization: 'Basic !!!' } }),
  r('POST', '/snippets/', { json: { code: 'x' }, headers: { Authorization: 'Token a b' } }),
  r('POST', '/snippets/', { json: { code: 'x', language: 'nope', style: 'nah' }, auth: 'alice' }),
  r('POST', '/snippets/', { json: {}, auth: 'alice' }),
  r('POST', '/snippets/', { body: '{bad', headers: { 'Content-Type': 'application/json' }, auth: 'alice' }),
  r('POST', '/snippets/', { body: 'code=x', headers: { 'Content-Type': 'text/plain' }, auth: 'alice' }),
  r('POST', '/snippets/', { body: '', headers: { 'Content-Type': 'application/json' }, auth: 'alice' }),
  r('POST', '/snippets/', { body: 'code=x', headers: { 'Content-Type': 'multipart/form-data' }, auth: 'alice' }),
  r('POST', '/snippets/', { json: [], auth: 'alice' }),
  r('POST', '/snippets/', { json: { code: '', title: 'x'.repeat(101), linenos: 'maybe' }, auth: 'alice' }),
  r('POST', '/snippets/', { json: { code: null }, auth: 'alice' }),
  r('DELETE', '/snippets/', { auth: 'alice' }),
  r('PUT', '/users/1/', { json: {}, auth: 'alice' }),
  r('GET', '/snippets/'),

  // -- snippets --------------------------------------------------------------------------------------
  ...createSnippets(),
  r('POST', '/snippets/', { form: { code: 'from a form', title: 'form' }, auth: 'alice', note: 'then deleted' }),
  r('DELETE', '/snippets/14/', { auth: 'alice' }),
  r('GET', '/snippets/'),
  r('GET', '/snippets/?format=json'),
  r('GET', '/snippets/', { headers: HTML_ACCEPT, compareBody: 'page' }),
  r('GET', '/snippets/1/'),
  r('GET', '/snippets/1.json'),
  r('GET', '/snippets/1.json/'),
  r('GET', '/snippets/1/.json'),
  r('GET', '/snippets.json'),
  r('GET', '/snippets/.json'),
  r('GET', '/snippets/1.api', { compareBody: 'page' }),
  r('GET', '/snippets/999/'),
  r('GET', '/snippets/1/highlight/', { compareBody: 'none', note: 'Pygments vs highlight.js markup' }),
  r('GET', '/snippets/1/highlight/', { headers: JSON_ACCEPT, known: HTML_ERROR_VARY }),
  r('GET', '/snippets/1/highlight/?format=json', { known: HTML_ERROR_VARY }),
  r('HEAD', '/snippets/'),
  r('OPTIONS', '/snippets/'),
  r('OPTIONS', '/snippets/', { auth: 'alice' }),
  r('OPTIONS', '/snippets/3/', { auth: 'alice' }),
  r('OPTIONS', '/snippets/3/', { auth: 'carol' }),
  r('OPTIONS', '/snippets/3/'),
  r('OPTIONS', '/users/'),
  r('GET', '/users/'),
  r('GET', '/users/1/'),
  r('GET', '/users/2/'),

  // -- updates and deletes: owner rules ------------------------------------------------------
  r('PUT', '/snippets/2/', { json: { code: 'y = 2', title: 'put' }, auth: 'alice' }),
  r('PATCH', '/snippets/2/', { json: { linenos: true, style: 'monokai' }, auth: 'alice' }),
  r('PATCH', '/snippets/2/', { json: { owner: 'carol', id: 99 }, auth: 'alice' }),
  r('PATCH', '/snippets/2/', { json: { style: 'nope' }, auth: 'alice' }),
  r('PUT', '/snippets/2/', { json: { title: 'no code' }, auth: 'alice' }),
  r('PATCH', '/snippets/2/', { json: { code: 'z' }, auth: 'carol' }),
  r('PUT', '/snippets/2/', { json: { code: 'z' } }),
  r('PATCH', '/snippets/2/', { json: { code: 'z' } }),
  r('DELETE', '/snippets/2/'),
  r('DELETE', '/snippets/13/', { auth: 'alice' }),
  r('GET', '/snippets/2/'),
  r('GET', '/users/2/'),

  // -- the token endpoint -------------------------------------------------------------------------
  r('POST', '/api-token-auth/', { json: { username: 'alice', password: 'nope' } }),
  r('POST', '/api-token-auth/', { json: {} }),
  r('POST', '/api-token-auth/', { json: { username: 'alice' } }),
  r('POST', '/api-token-auth/', { form: { username: 'alice', password: 'nope' } }),
  r('POST', '/api-token-auth/', { json: { username: 'alice', password: 'pw' } }),
  r('POST', '/api-token-auth/', { form: { username: 'carol', password: 'pw' } }),
  r('POST', '/api-token-auth/', { body: '{bad', headers: { 'Content-Type': 'application/json' } }),
  r('GET', '/api-token-auth/'),
  r('OPTIONS', '/api-token-auth/'),

  // -- quickstart: authentication, pagination, hyperlinks ----------------------------------------
  r('GET', '/quickstart/'),
  r('GET', '/quickstart/', { auth: 'alice' }),
  r('GET', '/quickstart/users/'),
  r('GET', '/quickstart/users/', { auth: 'alice' }),
  r('GET', '/quickstart/users/', { auth: 'token' }),
  r('GET', '/quickstart/users/', { auth: 'bad-basic' }),
  r('GET', '/quickstart/users/1/', { auth: 'alice' }),
  r('GET', '/quickstart/users/999/', { auth: 'alice' }),
  r('GET', '/quickstart/groups/', { auth: 'alice' }),
  r('POST', '/quickstart/groups/', { json: { name: 'staff' }, auth: 'alice' }),
  r('POST', '/quickstart/groups/', { json: { name: 'staff' }, auth: 'alice' }),
  r('POST', '/quickstart/groups/', { json: { name: 'admins' }, auth: 'alice' }),
  r('POST', '/quickstart/groups/', { json: { name: '' }, auth: 'alice' }),
  r('POST', '/quickstart/groups/', { json: {}, auth: 'alice' }),
  r('GET', '/quickstart/groups/', { auth: 'alice' }),
  r('PUT', '/quickstart/groups/999/', { json: { name: 'x' }, auth: 'alice' }),
  r('PATCH', '/quickstart/users/2/', { json: { groups: ['http://127.0.0.1:8000/quickstart/groups/1/'] }, auth: 'alice' }),
  r('PATCH', '/quickstart/users/2/', { json: { groups: 'x' }, auth: 'alice' }),
  // Issue 16 item 10: many-to-many values listed in the same order on write and on read.
  r('PATCH', '/quickstart/users/2/', { json: { groups: ['http://127.0.0.1:8000/quickstart/groups/2/', 'http://127.0.0.1:8000/quickstart/groups/1/'] }, auth: 'alice' }),
  r('GET', '/quickstart/users/2/', { auth: 'alice' }),
  r('PUT', '/quickstart/users/2/', { json: { username: 'carol', email: '', groups: ['http://127.0.0.1:8000/quickstart/groups/2/', 'http://127.0.0.1:8000/quickstart/groups/1/'] }, auth: 'alice' }),
  r('POST', '/quickstart/users/', { json: { email: 'bad' }, auth: 'alice' }),
  r('POST', '/quickstart/users/', { json: { username: 'alice' }, auth: 'alice' }),
  r('POST', '/quickstart/users/', { json: { username: 'bad name!', groups: ['nope'] }, auth: 'alice' }),
  ...createUsers(),
  r('GET', '/quickstart/users/', { auth: 'alice' }),
  r('GET', '/quickstart/users/?page=2', { auth: 'alice' }),
  r('GET', '/quickstart/users/?page=3', { auth: 'alice' }),
  r('GET', '/quickstart/users/?page=x', { auth: 'alice' }),
  r('GET', '/quickstart/users/?page=last', { auth: 'alice' }),
  r('GET', '/quickstart/users/.json', { auth: 'alice' }),
  r('GET', '/quickstart/users.json', { auth: 'alice' }),
  r('GET', '/quickstart/users/', { auth: 'alice', headers: HTML_ACCEPT, compareBody: 'page' }),
  r('OPTIONS', '/quickstart/users/', { auth: 'alice' }),
  r('OPTIONS', '/quickstart/groups/1/', { auth: 'alice' }),
  r('DELETE', '/quickstart/groups/2/', { auth: 'alice' }),

  // -- features: parsing ------------------------------------------------------------------------
  r('GET', '/features/echo/?a=1&a=2&b=3'),
  r('POST', '/features/echo/', { json: { x: [1, 2.5, null, true], é: '漢字' } }),
  r('POST', '/features/echo/', { body: 'a=1&a=2&b=%C3%A9', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
  r('PUT', '/features/echo/', { body: MULTIPART, headers: { 'Content-Type': 'multipart/form-data; boundary=XX' } }),
  r('POST', '/features/echo/', { body: '{bad', headers: { 'Content-Type': 'application/json' } }),
  r('POST', '/features/echo/', { body: 'x', headers: { 'Content-Type': 'text/plain' } }),
  r('POST', '/features/echo/', { body: Buffer.alloc(3 * 1024 * 1024, 0x61), headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, note: '3 MiB',
    known: 'DRF reads form bodies from the stream, past Django\'s DATA_UPLOAD_MAX_MEMORY_SIZE check; we enforce the bound (413)' }),
  r('DELETE', '/features/echo/'),
  r('PUT', '/features/upload/a.bin/', { body: '12345', headers: { 'Content-Type': 'application/octet-stream' } }),
  r('PUT', '/features/upload/a.bin/'),
  r('POST', '/features/upload/a.bin/', { body: '12345' }),

  // -- features: versioning ---------------------------------------------------------------------
  r('GET', '/features/v1/bookings/'),
  r('GET', '/features/v2/bookings/'),
  r('GET', '/features/v3/bookings/'),
  r('GET', '/features/accept-version/'),
  r('GET', '/features/accept-version/', { headers: { Accept: 'application/json; version=2.0' } }),
  r('GET', '/features/accept-version/', { headers: { Accept: 'application/json; version=3.0' } }),
  r('GET', '/features/query-version/'),
  r('GET', '/features/query-version/?version=2'),
  r('GET', '/features/query-version/?version=3'),
  r('GET', '/features/host-version/', { host: 'v1.example.com' }),
  r('GET', '/features/host-version/', { host: 'v2.example.com' }),
  r('GET', '/features/host-version/', { host: 'v3.example.com' }),
  r('GET', '/features/host-version/'),
  r('GET', '/features/host-version/', { host: 'evil.com' }),
  r('GET', '/features/ns/v1/items/'),
  r('GET', '/features/ns/v2/items/'),

  // -- features: throttling (429 and Retry-After) -------------------------------------------------
  r('GET', '/features/throttle/anon/'),
  r('GET', '/features/throttle/anon/'),
  r('GET', '/features/throttle/anon/'),
  r('GET', '/features/throttle/anon/'),
  r('GET', '/features/throttle/anon/', { auth: 'alice' }),
  r('GET', '/features/throttle/scoped/'),
  r('GET', '/features/throttle/scoped/'),
  r('GET', '/features/throttle/scoped/'),
  r('GET', '/features/throttle/user/', { auth: 'alice' }),
  r('GET', '/features/throttle/user/', { auth: 'alice' }),
  r('GET', '/features/throttle/user/', { auth: 'alice' }),
  r('GET', '/features/throttle/user/', { auth: 'alice' }),
  r('GET', '/features/throttle/user/', { auth: 'alice' }),
  r('GET', '/features/throttle/user/', { auth: 'alice' }),
  r('GET', '/features/throttle/user/', { auth: 'carol' }),

  // -- features: pagination and filtering -------------------------------------------------------
  r('GET', '/features/snippets/limit/'),
  r('GET', '/features/snippets/limit/?limit=3&offset=4'),
  r('GET', '/features/snippets/limit/?limit=50'),
  r('GET', '/features/snippets/limit/?limit=x&offset=-1'),
  r('GET', '/features/snippets/limit/?offset=10'),
  r('GET', '/features/snippets/limit/', { headers: HTML_ACCEPT, compareBody: 'page' }),
  r('GET', '/features/snippets/page/'),
  r('GET', '/features/snippets/page/?page=2'),
  r('GET', '/features/snippets/page/?page=last'),
  r('GET', '/features/snippets/page/?page=9'),
  r('GET', '/features/snippets/page/?page=0'),
  r('GET', '/features/snippets/page/?page_size=100'),
  r('GET', '/features/snippets/page/?page_size=3&page=2'),
  r('GET', '/features/snippets/cursor/', { after: captureLink('cursorNext', 'next') }),
  r('GET', '/features/snippets/cursor/?cursor=NEXT', { path: (side) => side.vars.cursorNext || '/features/snippets/cursor/?cursor=missing', after: captureLink('cursorPrevious', 'previous'), note: 'its next link' }),
  r('GET', '/features/snippets/cursor/?cursor=PREVIOUS', { path: (side) => side.vars.cursorPrevious || '/features/snippets/cursor/?cursor=missing', note: 'its previous link' }),
  r('GET', '/features/snippets/cursor/?cursor=garbage'),
  r('GET', '/features/snippets/search/?search=snip+1'),
  r('GET', '/features/snippets/search/?search=javascript'),
  r('GET', '/features/snippets/search/?search=java'),
  r('GET', '/features/snippets/search/?search=carol'),
  r('GET', '/features/snippets/search/?ordering=-title'),
  r('GET', '/features/snippets/search/?ordering=-created,id'),
  r('GET', '/features/snippets/search/?ordering=code'),
  r('GET', '/features/snippets/search/?ordering=nope'),
  r('GET', '/features/snippets/search/?ordering=owner__username'),
  r('GET', '/features/snippets/search/?search=snip&ordering=-id'),
  r('GET', '/features/snippets/search/?search=&ordering='),
  r('GET', '/features/snippets/search/', { headers: HTML_ACCEPT, compareBody: 'page' }),

  // -- features: validation, rendering, errors ----------------------------------------------------
  r('POST', '/features/validate/', { json: {} }),
  r('POST', '/features/validate/', { json: { name: 'toolong', count: 0, price: '1234.5', email: 'x', choice: 'c', tags: ['abcd', 1], when: 'nope', nested: { flag: 'maybe' } } }),
  r('POST', '/features/validate/', { json: { name: 'ok', count: 3, price: '12.5', email: 'a@b.co', choice: 'a', tags: ['ab'], when: '2024-01-02T03:04:05Z', nested: { flag: true, note: 'n' } } }),
  r('POST', '/features/validate/', { json: { name: 'ok', count: '3', price: 12.5, email: 'a@b.co', choice: 'b', tags: [], nested: null } }),
  r('POST', '/features/validate/', { json: [1] }),
  r('POST', '/features/validate/', { json: { name: null, count: 'x', price: 'abc', tags: 'notalist', nested: 'str' } }),
  r('POST', '/features/validate/', { json: { name: '', count: 1.5, price: '999.999', email: '', choice: '', tags: [null] } }),
  r('POST', '/features/validate/', { json: { name: 'ok', count: 3, price: '12.5', email: 'a@b.co', choice: 'a', tags: ['ab'], when: '2024-01-02 03:04' } }),
  r('POST', '/features/validate/', { json: { name: 'ok', count: 3, price: '12.345', email: 'a@b.co', choice: 'a', tags: ['ab'], nested: { flag: 'yes', note: '' } } }),
  r('POST', '/features/validate/', { body: '{"name":"ok","count":99999999999999999999,"price":"NaN","email":"a@b.co","choice":"a","tags":["ab"]}', headers: { 'Content-Type': 'application/json' } }),
  // Issue 16 item 2: DateTimeField offsets beyond ±23:59 and results outside years 1..9999.
  ...['2000-01-01T22:00-24:00', '2000-01-01T22:00+2400', '2000-01-01T22:00+23:59', '2000-01-01T22:00+05',
    '9999-12-31T21:59:59.99990-03:00', '0001-01-01T00:00:00+01:00', '0001-01-01T05:00:00Z'].map((when) =>
    r('POST', '/features/validate/', { json: { name: 'ok', count: 3, price: '12.5', email: 'a@b.co', choice: 'a', tags: ['ab'], when } })),
  // Issue 16 item 4: NaN and infinities are not JSON (STRICT_JSON, the strict json module).
  r('POST', '/features/validate/', { body: '{"name": NaN}', headers: { 'Content-Type': 'application/json' } }),
  r('POST', '/features/validate/', { body: '{"name": "ok", "count": Infinity}', headers: { 'Content-Type': 'application/json' } }),
  r('POST', '/features/validate/', { body: '[-Infinity]', headers: { 'Content-Type': 'application/json' } }),
  // Issue 16 item 9a: a null body is "No data provided".
  r('POST', '/features/validate/', { body: 'null', headers: { 'Content-Type': 'application/json' } }),
  r('POST', '/features/validate/', { body: 'name=ab&count=2&price=1.00&email=a%40b.co&choice=a&tags=x&tags=y', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
  r('OPTIONS', '/features/validate/'),
  r('GET', '/features/validate/'),
  r('GET', '/features/render/'),
  r('GET', '/features/render/?format=json'),
  r('GET', '/features/render/', { headers: { Accept: 'application/json; indent=2' } }),
  r('GET', '/features/render/', { headers: HTML_ACCEPT, compareBody: 'page' }),
  r('GET', '/features/errors/unavailable/'),
  r('GET', '/features/errors/handler/'),
  r('GET', '/features/errors/crash/'),
  r('POST', '/features/errors/crash/'),

  // -- features: permissions ----------------------------------------------------------------------
  r('GET', '/features/admin-only/'),
  r('GET', '/features/admin-only/', { auth: 'alice' }),
  r('GET', '/features/admin-only/', { auth: 'carol' }),
  r('GET', '/features/anon-only/'),
  r('GET', '/features/anon-only/', { auth: 'alice' }),
  r('GET', '/features/either/'),
  r('POST', '/features/either/'),
  r('POST', '/features/either/', { auth: 'alice' }),
  r('POST', '/features/either/', { auth: 'carol' }),

  // -- the host: unknown URLs, APPEND_SLASH, hosts -----------------------------------------------
  r('GET', '/nope/'),
  r('POST', '/nope/'),
  r('GET', '/quickstart/nope/'),
  r('GET', '/snippets'),
  r('GET', '/snippets?format=json'),
  r('POST', '/snippets', { json: { code: 'x' }, auth: 'alice' }),
  r('GET', '/quickstart/users', { auth: 'alice' }),
  r('GET', '/', { host: 'evil.com' }),
  r('GET', '/static/nope.css'),

  // -- the browsable API's session login, CSRF --------------------------------------------------
  r('GET', '/api-auth/login/', { auth: 'session', compareBody: 'page', after: captureCsrfForm }),
  r('POST', '/api-auth/login/?next=/snippets/', { auth: 'session', compareBody: 'page', form: (side) => ({ username: 'alice', password: 'nope', csrfmiddlewaretoken: side.vars.csrfForm ?? '' }), note: 'wrong password' }),
  r('POST', '/api-auth/login/?next=/snippets/', { auth: 'session', form: { username: 'alice', password: 'pw' }, note: 'no CSRF token', compareBody: 'text' }),
  r('GET', '/api-auth/login/?next=/snippets/', { auth: 'session', compareBody: 'page', after: captureCsrfForm }),
  r('POST', '/api-auth/login/?next=/snippets/', { auth: 'session', form: (side) => ({ username: 'alice', password: 'pw', csrfmiddlewaretoken: side.vars.csrfForm ?? '', next: '/snippets/' }) }),
  r('GET', '/snippets/', { auth: 'session' }),
  r('GET', '/snippets/', { auth: 'session', headers: HTML_ACCEPT, compareBody: 'page' }),
  r('POST', '/snippets/', { auth: 'session', json: { code: 'session' } }),
  r('POST', '/snippets/', { auth: 'session', json: { code: 'session' }, csrf: 'wrong' }),
  r('POST', '/snippets/', { auth: 'session', json: { code: 'session' }, csrf: 'cookie' }),
  r('GET', '/quickstart/users/?format=json', { auth: 'session' }),
  r('GET', '/snippets/', { auth: 'session', headers: { Accept: 'application/xml' }, note: 'early 406' }),
  r('GET', '/features/v3/bookings/', { auth: 'session', note: 'early bad version' }),
  r('GET', '/features/query-version/?version=3', { auth: 'session', note: 'early bad version' }),
  r('GET', '/snippets/?format=xml', { auth: 'session', note: 'unknown format' }),
  r('GET', '/features/v3/bookings/?format=api', { auth: 'session', compareBody: 'page', note: 'the page shows the user' }),
  r('GET', '/nope/', { auth: 'session' }),
  r('POST', '/api-auth/logout/', { auth: 'session', form: (side) => ({ csrfmiddlewaretoken: side.cookies.csrftoken ?? '' }) }),
  r('POST', '/snippets/', { auth: 'session', json: { code: 'session' }, csrf: 'cookie', note: 'after logout' }),
  r('POST', '/api-auth/login/?next=http://evil.com/', { auth: 'session', form: (side) => ({ username: 'alice', password: 'pw', csrfmiddlewaretoken: side.cookies.csrftoken ?? '' }) }),
  r('GET', '/api-auth/logout/', {
    auth: 'session', note: 'GET',
    known: 'Django 3.2 logs out on GET (a logout CSRF, deprecated in 4.1, removed in 5.0); ours asks for a confirming POST',
  }),
  r('GET', '/snippets/', { auth: 'session', note: 'after GET logout' }),
];
