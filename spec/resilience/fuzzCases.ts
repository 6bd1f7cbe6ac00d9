/**
 * The fuzzer's generators: from a seeded PRNG (mulberry32, so a failing case reproduces with
 * its seed), malformed requests for the demo — paths (odd ids, 309-digit numbers, NUL and
 * invalid UTF-8 escapes, format suffixes, long and dotted segments), queries (pagination,
 * ordering, search, versions with junk), headers (Accept, Content-Type, Authorization, Cookie,
 * Host, forwarded headers), bodies (mutated JSON: deep, huge numbers, NaN, wrong types, NUL;
 * truncated JSON; form bodies; multipart streams with broken boundaries, headers and parts;
 * random bytes) — and raw HTTP framing garbage for a socket.
 *
 * No case carries a valid credential (no known password, no real token or session), so no
 * request may change a row.
 */

/** A deterministic PRNG in [0, 1) (mulberry32). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Helpers over one PRNG. */
export class Dice {
  constructor(readonly random: () => number) {}

  int(max: number): number {
    return Math.floor(this.random() * max);
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Random printable-and-not text (no CR/LF, which header values cannot carry). */
  text(max = 40, alphabet: 'ascii' | 'any' = 'any'): string {
    const length = this.int(max + 1);
    let out = '';
    for (let i = 0; i < length; i += 1) {
      const roll = this.random();
      if (alphabet === 'ascii' || roll < 0.7) out += String.fromCharCode(0x20 + this.int(95));
      else if (roll < 0.8) out += this.pick(['\0', '\t', '\u0001', '\u007f', '%00', '%', '\\', '"', "'", '<', '>', '&', ';', ',', '=']);
      else if (roll < 0.9) out += this.pick(['é', '漢', '\u{1F600}', '\u202e', '\ufeff', '\u2028', 'ß', '\ud800']);
      else out += this.pick(['../', '%2e%2e/', '%C3%28', '%FF', '%E2%82', '{{', '}}', '${x}', '__proto__', 'constructor']);
    }
    return out;
  }

  bytes(max: number): Buffer {
    const length = this.int(max + 1);
    const buffer = Buffer.alloc(length);
    for (let i = 0; i < length; i += 1) buffer[i] = this.int(256);
    return buffer;
  }
}

const ROUTES = [
  '/', '/snippets/', '/snippets/{id}/', '/snippets/{id}/highlight/', '/users/', '/users/{id}/',
  '/quickstart/', '/quickstart/users/', '/quickstart/users/{id}/', '/quickstart/groups/', '/quickstart/groups/{id}/',
  '/api-auth/login/', '/api-auth/logout/', '/api-token-auth/',
  '/admin/', '/admin/login/', '/admin/logout/', '/admin/auth/user/', '/admin/auth/user/{id}/change/', '/admin/auth/group/add/',
  '/admin/snippets/snippet/', '/admin/snippets/snippet/{id}/delete/', '/admin/authtoken/token/',
  '/features/echo/', '/features/upload/{name}/', '/features/{version}/bookings/', '/features/accept-version/',
  '/features/query-version/', '/features/host-version/', '/features/ns/v1/', '/features/ns/v2/',
  '/features/throttle/anon/', '/features/throttle/user/', '/features/throttle/scoped/',
  '/features/snippets/limit/', '/features/snippets/cursor/', '/features/snippets/page/', '/features/snippets/search/',
  '/features/validate/', '/features/render/', '/features/admin-only/', '/features/anon-only/', '/features/either/',
  '/static/api_framework/css/browsable.css', '/static/api_framework/js/browsable.js', '/static/../settings.ts',
  '/nowhere/', '/snippets', '/favicon.ico',
];

const IDS = [
  '1', '2', '3', '0', '-1', '007', '1.5', '1e3', 'abc', '%00', '1%00', '%2F', '9223372036854775807', '9223372036854775808',
  '2147483648', '-2147483649', '1'.repeat(309), '9'.repeat(40), 'NaN', 'Infinity', ' 1', '1 ', '%20', '漢', '%C3%28', '',
];

const SUFFIXES = ['', '', '', '', '.json', '.api', '.xml', '.JSON', '.%00', '.'];

const QUERY_KEYS = [
  'page', 'limit', 'offset', 'cursor', 'ordering', 'search', 'format', 'version', 'q', 'o', 'p', 'next', 'indent',
  'page_size', 'language', 'owner', 'id', 'title', 'e', 'all', '', '%00', 'a[b]', '__proto__',
];

const QUERY_VALUES = [
  '1', '2', '0', '-1', '1e400', '9'.repeat(400), 'abc', '', '%00', 'title', '-created', 'owner__password', 'code,,title',
  '?', 'api', 'json', 'xml', '1.0', 'v1', 'v3', '%C3%28', '%FF%FE', 'a%00b', 'cD0yMDIw', '!!!', 'NaN', '10000000',
];

const MEDIA_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=latin-1', 'application/json; charset=bogus',
  'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=', 'text/plain', 'text/html',
  'application/octet-stream', '*/*', 'application/*', 'garbage', '', ';;;', 'application/json; version=2.0', 'text/html; q=0.5, */*',
  'application/xml', 'application/vnd.api+json', 'application/json; indent=4', 'application/json; indent=-9',
];

const METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'FOO', 'PROPFIND'];

/** One HTTP request of the fuzzer. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What was generated, for the failure message. */
  kind: string;
}

/** Percent-encode every byte of `text` (UTF-8; lone surrogates as U+FFFD) outside a safe set; keep `%` as is. */
function encodeBytes(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9._~!$&'()*+,;=:@/%-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function fillPath(dice: Dice, route: string): string {
  let path = route.replace('{id}', () => encodeBytes(dice.pick(IDS))).replace('{name}', () => encodeBytes(dice.text(12, 'ascii')).replace(/\//g, '%2F') || 'x')
    .replace('{version}', () => dice.pick(['v1', 'v2', 'v3', '%00', '..', 'v1.0']));
  if (dice.chance(0.15)) path = path.replace(/\/$/, '') + dice.pick(SUFFIXES) + (dice.chance(0.5) ? '/' : '');
  if (dice.chance(0.08)) path = path.replace(/\//g, () => (dice.chance(0.3) ? '//' : '/'));
  if (dice.chance(0.08)) path += encodeBytes(dice.text(20));
  if (dice.chance(0.02)) path += 'x'.repeat(dice.int(5000));
  return path;
}

function query(dice: Dice): string {
  if (dice.chance(0.5)) return '';
  const parts: string[] = [];
  const count = 1 + dice.int(4);
  for (let i = 0; i < count; i += 1) {
    const key = dice.pick(QUERY_KEYS);
    const value = dice.chance(0.8) ? dice.pick(QUERY_VALUES) : encodeBytes(dice.text(20)).replace(/[&=#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
    parts.push(dice.chance(0.05) ? key : `${key}=${value}`);
  }
  return `?${parts.join(dice.chance(0.05) ? ';' : '&')}`;
}

function authorization(dice: Dice): string | null {
  const roll = dice.int(10);
  if (roll < 4) return null;
  const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
  switch (roll) {
    case 4: return `Basic ${b64(`${dice.pick(['alice', 'carol', 'admin', 'alice\0', '', 'alice:'])}:${dice.pick(['', 'x', 'pw ', 'PW', 'pw\0', 'secret'])}`)}`;
    case 5: return `Basic ${dice.pick(['', '!!!', '=', b64('nocolon'), b64(dice.text(30)), 'YWxpY2U6', 'a b c'])}`;
    case 6: return `Token ${dice.pick(['', '0'.repeat(40), 'f'.repeat(40), 'a b', dice.text(50, 'ascii'), 'x'.repeat(300), '%00'])}`;
    case 7: return `Bearer ${dice.text(40, 'ascii')}`;
    case 8: return dice.pick(['Basic', 'Token', 'Digest x', 'basic YWxpY2U6cHc=', 'Token  ', 'TOKEN abc']);
    default: return dice.text(60, 'ascii');
  }
}

function cookie(dice: Dice): string | null {
  if (dice.chance(0.6)) return null;
  const pairs = [
    `sessionid=${dice.pick(['', 'x', '0'.repeat(32), dice.text(40, 'ascii').replace(/;/g, ''), '"quoted"'])}`,
    `csrftoken=${dice.pick(['', 'a'.repeat(64), dice.text(64, 'ascii').replace(/;/g, '')])}`,
    dice.text(30, 'ascii'),
    '=; ;;=x',
    `theme=${'y'.repeat(dice.int(5000))}`,
  ];
  return Array.from({ length: 1 + dice.int(3) }, () => dice.pick(pairs)).join('; ');
}

/** A JSON value with random shapes, strings, numbers and nesting. */
function jsonValue(dice: Dice, depth: number): unknown {
  const roll = dice.int(depth > 4 ? 6 : 9);
  switch (roll) {
    case 0: return dice.text(40);
    case 1: return dice.pick([0, -1, 1.5, 2 ** 53 + 2, -0, 1e308, 2 ** 70]);
    case 2: return dice.pick([true, false, null]);
    case 3: return dice.pick(['python', 'javascript', 'friendly', 'monokai', '', 'x'.repeat(200)]);
    case 4: return 'x'.repeat(dice.int(3000));
    case 5: return dice.int(100);
    case 6: return Array.from({ length: dice.int(4) }, () => jsonValue(dice, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = dice.int(5); i > 0; i -= 1) object[dice.pick(['code', 'title', 'language', 'style', 'linenos', 'owner', 'id', 'url', 'name', 'username', 'password', 'groups', 'email', dice.text(8)])] = jsonValue(dice, depth + 1);
      return object;
    }
  }
}

function jsonBody(dice: Dice): Buffer {
  const roll = dice.int(10);
  let text: string;
  if (roll < 4) {
    const snippet: Record<string, unknown> = { code: 'print(1)', title: 't', language: 'python', style: 'friendly', linenos: false };
    for (const key of Object.keys(snippet)) if (dice.chance(0.3)) snippet[key] = jsonValue(dice, 3);
    if (dice.chance(0.2)) snippet.owner = dice.pick([1, 'alice', null, { id: 1 }]);
    text = JSON.stringify(snippet);
  } else if (roll < 6) {
    text = JSON.stringify(jsonValue(dice, 0)) ?? 'null';
  } else if (roll === 6) {
    const depth = dice.pick([100, 511, 513, 2000, 8000]);
    text = dice.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  } else if (roll === 7) {
    text = dice.pick(['{"a":1e400}', '{"a":-1e999}', '[NaN]', '{"a":Infinity}', `{"id":${'9'.repeat(400)}}`, '{"code":"\\u0000"}', '{"a":"\\ud800"}', '{"__proto__":{"x":1}}']);
  } else {
    text = JSON.stringify(jsonValue(dice, 1)) ?? '';
    text = text.slice(0, dice.int(text.length + 1)) + dice.pick(['', '}', ']', ',', '"', '\\', '\0', ' x']);
  }
  return Buffer.from(text, 'utf8');
}

function formBody(dice: Dice): Buffer {
  const pairs = Array.from({ length: dice.int(6) }, () => {
    const key = dice.pick(['code', 'title', 'language', 'username', 'password', 'next', 'csrfmiddlewaretoken', '_method', '_content', '_content_type', encodeBytes(dice.text(6)).replace(/[&=]/g, '_')]);
    return `${key}=${dice.chance(0.7) ? encodeBytes(dice.text(30)).replace(/[&=]/g, '_') : dice.pick(['%00', '%', '%G1', '+', 'alice%00', '%C3%28'])}`;
  });
  if (dice.chance(0.02)) pairs.push(...Array.from({ length: 1200 }, (_, i) => `f${i}=1`));
  return Buffer.from(pairs.join('&'), 'latin1');
}

function multipartBody(dice: Dice, boundary: string): Buffer {
  const parts: Buffer[] = [];
  const count = dice.int(4);
  for (let i = 0; i < count; i += 1) {
    const name = dice.pick(['code', 'title', 'file', 'up', '', '"', 'a\0b', dice.text(8, 'ascii')]);
    const filename = dice.chance(0.4) ? `; filename="${dice.pick(['a.txt', '', '../../etc/passwd', 'x\0y', '漢.txt', 'a'.repeat(300)])}"` : '';
    const headers = dice.chance(0.1)
      ? dice.text(80, 'ascii')
      : `Content-Disposition: form-data; name="${name}"${filename}${dice.chance(0.3) ? `\r\nContent-Type: ${dice.pick(MEDIA_TYPES)}` : ''}`;
    const content = dice.chance(0.5) ? Buffer.from(dice.text(200)) : dice.bytes(3000);
    parts.push(Buffer.from(`--${dice.chance(0.9) ? boundary : 'WRONG'}\r\n${headers}\r\n\r\n`, 'latin1'), content, Buffer.from('\r\n'));
  }
  if (dice.chance(0.7)) parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  return dice.chance(0.2) ? body.subarray(0, dice.int(body.length + 1)) : body;
}

/** The next fuzzed request. */
export function fuzzRequest(dice: Dice, hostPort: string): FuzzRequest {
  const method = dice.pick(METHODS);
  const path = fillPath(dice, dice.pick(ROUTES)) + query(dice);
  const headers: Record<string, string> = {};
  const kinds: string[] = [];
  if (dice.chance(0.6)) headers.accept = dice.pick(MEDIA_TYPES);
  const auth = authorization(dice);
  if (auth !== null) { headers.authorization = auth; kinds.push('auth'); }
  const cookies = cookie(dice);
  if (cookies !== null) { headers.cookie = cookies; kinds.push('cookie'); }
  if (dice.chance(0.05)) headers.host = dice.pick(['evil.com', 'v1.example.com', '', `${hostPort}:1`, '[::1]:x', 'a'.repeat(300), 'localhost']);
  if (dice.chance(0.05)) headers['x-forwarded-for'] = dice.text(30, 'ascii');
  if (dice.chance(0.05)) headers['x-forwarded-proto'] = dice.pick(['https', 'http', 'gopher', '']);
  if (dice.chance(0.05)) headers['x-csrftoken'] = dice.text(64, 'ascii');
  if (dice.chance(0.03)) headers['accept-language'] = dice.pick(['fr', 'zh-hans', '*', dice.text(30, 'ascii')]);
  if (dice.chance(0.03)) headers['x-http-method-override'] = dice.pick(METHODS);
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD' ? dice.chance(0.85) : dice.chance(0.05)) {
    const roll = dice.int(10);
    if (roll < 5) {
      body = jsonBody(dice);
      headers['content-type'] = dice.chance(0.9) ? 'application/json' : dice.pick(MEDIA_TYPES);
      kinds.push('json');
    } else if (roll < 7) {
      body = formBody(dice);
      headers['content-type'] = 'application/x-www-form-urlencoded';
      kinds.push('form');
    } else if (roll < 9) {
      const boundary = dice.pick(['XX', '----b', 'a'.repeat(70), 'é', '"q"', '']);
      body = multipartBody(dice, boundary);
      headers['content-type'] = dice.chance(0.9) ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data';
      kinds.push('multipart');
    } else {
      body = dice.bytes(5000);
      headers['content-type'] = dice.pick(MEDIA_TYPES);
      kinds.push('bytes');
    }
  }
  return { method, path, headers, body, kind: kinds.join('+') || 'plain' };
}

/** Raw bytes for a socket: broken request lines, headers and framing (node's parser answers 400). */
export function rawGarbage(dice: Dice): Buffer {
  const cases = [
    () => `GET ${dice.text(50, 'ascii').replace(/ /g, '')} HTTP/1.1\r\nHost: x\r\n\r\n`,
    () => `GET / HTTP/9.9\r\nHost: x\r\n\r\n`,
    () => `POST /features/echo/ HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n${dice.pick(['zz', '5\r\nab', 'ffffffffffffffff\r\n', '-1\r\n'])}\r\n`,
    () => `POST /features/echo/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!`,
    () => `POST /features/echo/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -3\r\n\r\n`,
    () => `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\u0000b\r\n\r\n`,
    () => `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n${'X-Long: '.padEnd(20000, 'y')}\r\n\r\n`,
    () => `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n`,
    () => `\r\n\r\n\r\n`,
    () => dice.bytes(200).toString('latin1'),
    () => `GET /snippets/ HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n`,
  ];
  return Buffer.from(dice.pick(cases)(), 'latin1');
}
