/**
 * DEBUG pages (the host framework's technical 500 and 404): the exception's type, message,
 * stack with source lines and the request (HTML, or plain text when the client does not take
 * HTML), the URL patterns tried on a 404; sensitive settings hidden; the server error log line
 * carries the message even when the error's stack does not; DEBUG off keeps the default pages.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { handleRequest } from '../../lib/core/handler';
import { HttpRequest } from '../../lib/core/http';
import { cleanseSetting, formatException, patternsTried } from '../../lib/core/debug';

// A project's own key, declared through the settings extension point (see ProjectSettingsExtension).
declare module '../../lib/core/conf' {
  interface ProjectSettingsExtension {
    /** A secret-looking project key the DEBUG page must hide. */
    DATABASE_URL_SECRET?: string;
  }
}

const test = suite('core/debug pages');
let restore: () => void = () => undefined;
test.before(() => {
  restore = overrideSettings.enter({ ROOT_URLCONF: 'spec.core.fixtures.debugUrls', MIDDLEWARE: [], ALLOWED_HOSTS: ['testserver'], DEBUG: true, LOG_SERVER_ERRORS: false, DATABASE_URL_SECRET: 'hide-me' });
});
test.after(() => restore());

function get(path: string, headers: Record<string, string> = {}) {
  return handleRequest(HttpRequest.create({ url: path, headers: { host: 'testserver', ...headers } }));
}

const NOT_FOUND_PAGE = '\n<!doctype html>\n<html lang="en">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>\n';

test('500 :: HTML technical page with the exception, message, stack, source line and request', async () => {
  const response = await get('/explode/?q=1&q=2', { accept: 'text/html', cookie: 'sessionid=abc; theme=dark' });
  assert.is(response.status, 500);
  assert.is(response.getHeader('content-type'), 'text/html');
  const body = response.text;
  assert.match(body, '<title>TypeError at /explode/</title>');
  assert.match(body, '<h1>TypeError at /explode/</h1>');
  assert.match(body, '<pre class="exception_value">cannot read &lt;secret&gt; &amp; more</pre>');
  assert.match(body, '<th>Request Method:</th>\n      <td>GET</td>');
  assert.match(body, '<td>http://testserver/explode/?q=1&amp;q=2</td>');
  assert.match(body, /debugUrls\.ts<\/code>, line \d+, in explode/);
  assert.match(body, "<li class=\"current\"><pre>  throw new TypeError(&#x27;cannot read &lt;secret&gt; &amp; more&#x27;);</pre></li>");
  assert.match(body, '<td>q</td>\n        <td class="code"><pre>[&quot;1&quot;,&quot;2&quot;]</pre></td>');
  assert.match(body, '<td>theme</td>\n        <td class="code"><pre>dark</pre></td>');
  assert.match(body, '<td>sessionid</td>\n        <td class="code"><pre>********************</pre></td>');
  assert.match(body, '<td>SECRET_KEY</td>\n        <td class="code"><pre>&#x27;********************&#x27;</pre></td>');
  assert.not.match(body, 'hide-me');
  assert.match(body, "You're seeing this error because you have <code>DEBUG = True</code>");
});

test('500 :: plain text for a client that does not take HTML', async () => {
  const response = await get('/explode/', { accept: 'application/json' });
  assert.is(response.status, 500);
  assert.is(response.getHeader('content-type'), 'text/plain; charset=utf-8');
  const body = response.text;
  assert.ok(body.startsWith('TypeError at /explode/\ncannot read <secret> & more\n\nRequest Method: GET\nRequest URL: http://testserver/explode/\n'), body.slice(0, 200));
  assert.match(body, /Traceback \(most recent call first\):\n {2}File ".*debugUrls\.ts", line \d+, in explode\n {4}throw new TypeError/);
  assert.match(body, 'Exception Type: TypeError at /explode/\nException Value: cannot read <secret> & more\n');
  assert.match(body, "\nSECRET_KEY = '********************'\n");
});

test('500 :: the log line carries the message, also when the stack says only "Error"', async () => {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    await overrideSettings({ LOG_SERVER_ERRORS: true }, () => get('/column/', { accept: 'application/json' }));
  } finally {
    process.stderr.write = write;
  }
  const log = lines.join('');
  assert.match(log, 'Internal Server Error: /column/\nSequelizeDatabaseError: SQLITE_ERROR: no such column: snippets_snippet.subtitle\n    at Statement.run');
  assert.is(formatException(new RangeError('too far')).split('\n')[0], 'RangeError: too far');
});

test('404 :: unmatched path lists the patterns tried, includes expanded when their prefix matched', async () => {
  const response = await get('/shop/nothing/');
  assert.is(response.status, 404);
  const body = response.text;
  assert.match(body, '<h1>Page not found <span>(404)</span></h1>');
  assert.match(body, 'Using the URLconf defined in <code>spec.core.fixtures.debugUrls</code>');
  const items = [...body.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1].replace(/\s+/g, ' ').trim());
  assert.equal(items, ["explode/ [name='explode']", 'column/', "shop/ books/ [name='book-list']", 'shop/ books/&lt;int:pk&gt;/', 'admin/']);
  assert.match(body, /The current path, <code>shop\/nothing\/<\/code>,\s+didn't match any of these\./);
  const { tried, matched } = patternsTried('/column/');
  assert.is(matched, true);
  assert.is(tried.length, 2);
});

test('404 :: Http404 raised by a view shows its reason and the view', async () => {
  const body = (await get('/shop/books/')).text;
  assert.match(body, '<pre class="exception_value">No Book matches the given query.</pre>');
  assert.match(body, '<th>Raised by:</th>\n        <td>notThere</td>');
  assert.match(body, 'matched the last one.');
});

test('DEBUG off :: the default pages, byte for byte', async () => {
  await overrideSettings({ DEBUG: false }, async () => {
    const missing = await get('/shop/nothing/');
    assert.is(missing.text, NOT_FOUND_PAGE);
    const failed = await get('/explode/');
    assert.is(failed.status, 500);
    assert.not.match(failed.text, 'TypeError');
  });
});

test('cleanseSetting :: sensitive names and URL passwords hidden', () => {
  assert.is(cleanseSetting('SECRET_KEY', 'x'), '********************');
  assert.is(cleanseSetting('DATABASE_URL', 'mysql://root:pw@db:3306/app'), 'mysql://root:********************@db:3306/app');
  assert.equal(cleanseSetting('API_FRAMEWORK', { A: 1 }), '********************');
  assert.equal(cleanseSetting('CACHES', { default: { PASSWORD: 'x', HOST: 'h' } }), { default: { PASSWORD: '********************', HOST: 'h' } });
});

test.run();
