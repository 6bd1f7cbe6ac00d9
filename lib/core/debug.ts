/**
 * The host framework's DEBUG pages (`django.views.debug`): the technical 500 page (exception,
 * message, stack with source lines, request, settings; HTML, or plain text for clients that do
 * not accept HTML) and the technical 404 page listing the URL patterns tried. Answered only
 * with `DEBUG` on; sensitive settings and the password in database/cache URLs are hidden.
 */
import fs from 'node:fs';
import { readSetting, settings } from './conf';
import { escapeHtml } from './html';
import { pythonStringRepr } from './pythonRepr';
import { HttpResponse, type HttpRequest } from './http';
import { Http404 } from './exceptions';
import { getResolver, URLResolver, URLPattern, type UrlPattern } from './urls';

const CLEANSED = '********************';
const SENSITIVE_SETTING = /API|TOKEN|KEY|SECRET|PASS|SIGNATURE/i;

/** A setting's value as the DEBUG pages show it: sensitive names and URL passwords hidden. */
export function cleanseSetting(key: string, value: unknown): unknown {
  if (SENSITIVE_SETTING.test(key)) return CLEANSED;
  if (typeof value === 'string') return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, `$1${CLEANSED}@`);
  if (Array.isArray(value)) return value.map((item, i) => cleanseSetting(String(i), item));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanseSetting(k, v)]));
  }
  return value;
}

function display(value: unknown): string {
  if (typeof value === 'function') return value.name ? `<class ${value.name}>` : '<function>';
  if (typeof value === 'string') return pythonStringRepr(value);
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'function' ? `<${(v as { name?: string }).name || 'function'}>` : v)) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The settings as the DEBUG pages list them, sorted, cleansed. */
function safeSettings(): Array<[string, string]> {
  return Object.keys(settings)
    .filter((key) => key === key.toUpperCase())
    .sort()
    .map((key) => [key, display(cleanseSetting(key, readSetting(key)))]);
}

/** One frame of an error's stack. */
export interface StackFrame {
  functionName: string;
  file: string;
  line: number;
  column: number;
  /** Up to 3 source lines before and after, when the file can be read. */
  context: Array<{ line: number; text: string; current: boolean }>;
}

const FRAME = /^\s*at (?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/;

/** The frames of `error.stack` (most recent call first), with source lines when readable. */
export function stackFrames(error: unknown): StackFrame[] {
  const stack = error instanceof Error ? error.stack ?? '' : '';
  const frames: StackFrame[] = [];
  for (const raw of stack.split('\n')) {
    const match = FRAME.exec(raw);
    if (!match) continue;
    const [, fn, file, line, column] = match;
    frames.push({ functionName: fn || '<anonymous>', file, line: Number(line), column: Number(column), context: sourceContext(file, Number(line)) });
  }
  return frames;
}

function sourceContext(file: string, line: number): StackFrame['context'] {
  if (file.startsWith('node:') || !file.startsWith('/')) return [];
  let lines: string[];
  try {
    lines = fs.readFileSync(file, 'utf8').split('\n');
  } catch {
    return [];
  }
  const out: StackFrame['context'] = [];
  for (let n = Math.max(1, line - 3); n <= Math.min(lines.length, line + 3); n++) {
    out.push({ line: n, text: lines[n - 1], current: n === line });
  }
  return out;
}

/** `Name: message`, the first line the server error log and the pages show. */
export function exceptionSummary(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.message ? `${error.name}: ${error.message}` : error.name;
}

/**
 * An error as the server error log writes it: `Name: message`, then the stack's frames, then
 * the SQL of a database error and the chain of `cause`s. (Some drivers' errors carry a stack
 * that says only `Error`: the message is never lost.)
 */
export function formatException(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const lines = [exceptionSummary(error), ...frames];
  const sql = (error as { sql?: unknown }).sql;
  if (typeof sql === 'string' && sql) lines.push(`SQL: ${sql}`);
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error) lines.push(`Caused by: ${formatException(cause)}`);
  return lines.join('\n');
}

function requestUrl(request: HttpRequest): string {
  try {
    return request.buildAbsoluteUri();
  } catch {
    return request.getFullPath();
  }
}

/** True when the client takes HTML (Django's `request.accepts('text/html')`; a missing Accept takes anything). */
function acceptsHtml(request: HttpRequest): boolean {
  const header = request.header('accept') ?? '*/*';
  return header
    .split(',')
    .map((part) => part.split(';')[0].trim().toLowerCase())
    .some((type) => type === '*/*' || type === 'text/*' || type === 'text/html' || type === '*');
}

function version(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('../../package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function entries(record: Iterable<[string, unknown]>): Array<[string, string]> {
  return [...record].map(([k, v]) => [k, typeof v === 'string' ? v : display(v)]);
}

function requestSections(request: HttpRequest): Array<[string, Array<[string, string]>]> {
  const meta = Object.entries(request.META).map(([k, v]): [string, string] => [k, k === 'HTTP_COOKIE' || k === 'HTTP_AUTHORIZATION' ? CLEANSED : v]);
  const cookies = Object.entries(request.cookies).map(([k, v]): [string, string] => [k, SENSITIVE_SETTING.test(k) || /session|csrf/i.test(k) ? CLEANSED : v]);
  return [
    ['GET', entries(request.query.lists())],
    ['COOKIES', cookies],
    ['META', meta.sort(([a], [b]) => a.localeCompare(b))],
  ];
}

const STYLE = `html * { padding:0; margin:0; }
    body * { padding:10px 20px; }
    body * * { padding:0; }
    body { font:small sans-serif; background-color:#fff; color:#000; }
    body>div { border-bottom:1px solid #ddd; }
    h1 { font-weight:normal; }
    h2 { margin-bottom:.8em; }
    h3 { margin:1em 0 .5em 0; }
    code, pre { font-size: 100%; white-space: pre-wrap; word-break: break-word; }
    table { border:1px solid #ccc; border-collapse: collapse; width:100%; background:white; }
    tbody td, tbody th { vertical-align:top; padding:2px 3px; }
    th { width:12em; text-align:right; color:#666; padding-right:.5em; }
    table.vars { margin:5px 10px 2px 40px; width:auto; }
    table.vars td, table.req td { font-family:monospace; }
    ul.traceback { list-style-type:none; color: #222; }
    ul.traceback li.frame { padding-bottom:1em; color:#4f4f4f; }
    div.context { padding:10px 0; overflow:hidden; }
    div.context ol { padding-left:30px; margin:0 10px; list-style-position: inside; }
    div.context ol li { font-family:monospace; white-space:pre; color:#777; cursor:pointer; padding-left: 2px; }
    div.context ol li.current { color:#464646; background-color:#dfdfdf; padding: 3px 2px; }
    #summary { background: #ffc; }
    #summary h2 { font-weight: normal; color: #666; }
    #explanation { background:#eee; }
    #traceback { background:#eee; }
    #requestinfo { background:#f6f6f6; padding-left:120px; }
    #summary table { border:none; background:transparent; }
    #requestinfo h2, #requestinfo h3 { position:relative; margin-left:-100px; }
    #requestinfo h3 { margin-bottom:-1em; }
    .error { background: #ffc; }
    .specific { color:#cc3300; font-weight:bold; }
    pre.exception_value { font-family: sans-serif; color: #575757; font-size: 1.5em; margin: 10px 0 10px 0; }`;

function varsTable(rows: Array<[string, string]>, empty: string): string {
  if (!rows.length) return `<p>${escapeHtml(empty)}</p>`;
  const body = rows.map(([k, v]) => `      <tr>\n        <td>${escapeHtml(k)}</td>\n        <td class="code"><pre>${escapeHtml(v)}</pre></td>\n      </tr>`).join('\n');
  return `<table class="req">\n    <thead>\n      <tr>\n        <th>Variable</th>\n        <th>Value</th>\n      </tr>\n    </thead>\n    <tbody>\n${body}\n    </tbody>\n  </table>`;
}

/** The technical 500 page's HTML. */
export function technical500Html(request: HttpRequest, error: unknown): string {
  const type = error instanceof Error ? error.name : typeof error;
  const value = error instanceof Error ? error.message || 'No exception message supplied' : String(error);
  const frames = stackFrames(error);
  const location = frames[0] ? `${frames[0].file}, line ${frames[0].line}, in ${frames[0].functionName}` : '';
  const path = escapeHtml(request.pathInfo);
  const traceback = frames
    .map((frame) => {
      const context = frame.context.length
        ? `\n          <div class="context">\n            <ol start="${frame.context[0].line}">\n${frame.context
            .map((c) => `              <li${c.current ? ' class="current"' : ''}><pre>${escapeHtml(c.text)}</pre></li>`)
            .join('\n')}\n            </ol>\n          </div>`
        : '';
      return `        <li class="frame">\n          <code class="fname">${escapeHtml(frame.file)}</code>, line ${frame.line}, in ${escapeHtml(frame.functionName)}${context}\n        </li>`;
    })
    .join('\n');
  const sections = requestSections(request)
    .map(([name, rows]) => `  <h3 id="${name.toLowerCase()}-info">${name}</h3>\n  ${varsTable(rows, `No ${name} data`)}`)
    .join('\n\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta http-equiv="content-type" content="text/html; charset=utf-8">
  <meta name="robots" content="NONE,NOARCHIVE">
  <title>${escapeHtml(type)} at ${path}</title>
  <style type="text/css">
    ${STYLE}
  </style>
</head>
<body>
<div id="summary">
  <h1>${escapeHtml(type)} at ${path}</h1>
  <pre class="exception_value">${escapeHtml(value)}</pre>
  <table class="meta">
    <tr>
      <th>Request Method:</th>
      <td>${escapeHtml(request.method)}</td>
    </tr>
    <tr>
      <th>Request URL:</th>
      <td>${escapeHtml(requestUrl(request))}</td>
    </tr>
    <tr>
      <th>api_framework Version:</th>
      <td>${escapeHtml(version())}</td>
    </tr>
    <tr>
      <th>Exception Type:</th>
      <td>${escapeHtml(type)}</td>
    </tr>
    <tr>
      <th>Exception Value:</th>
      <td><pre>${escapeHtml(value)}</pre></td>
    </tr>
    <tr>
      <th>Exception Location:</th>
      <td><span class="fname">${escapeHtml(location)}</span></td>
    </tr>
    <tr>
      <th>Node Executable:</th>
      <td>${escapeHtml(process.execPath)}</td>
    </tr>
    <tr>
      <th>Node Version:</th>
      <td>${escapeHtml(process.version)}</td>
    </tr>
    <tr>
      <th>Server time:</th>
      <td>${escapeHtml(new Date().toUTCString())}</td>
    </tr>
  </table>
</div>
<div id="traceback">
  <h2>Traceback <span class="commands">(most recent call first)</span></h2>
  <div id="browserTraceback">
    <ul class="traceback">
${traceback}
    </ul>
  </div>
  <pre id="traceback_area">${escapeHtml(formatException(error))}</pre>
</div>
<div id="requestinfo">
  <h2>Request information</h2>

${sections}

  <h3 id="settings-info">Settings</h3>
  <h4>Using settings module <code>${escapeHtml(String(process.env.SETTINGS_MODULE ?? ''))}</code></h4>
  ${varsTable(safeSettings(), 'No settings')}
</div>
<div id="explanation">
  <p>
    You're seeing this error because you have <code>DEBUG = True</code> in your
    settings file. Change that to <code>False</code>, and api_framework will
    display a standard page generated by the handler for this status code.
  </p>
</div>
</body>
</html>
`;
}

/** The technical 500 page as plain text (clients that do not accept HTML). */
export function technical500Text(request: HttpRequest, error: unknown): string {
  const type = error instanceof Error ? error.name : typeof error;
  const value = error instanceof Error ? error.message || 'No exception message supplied' : String(error);
  const frames = stackFrames(error)
    .map((f) => `  File "${f.file}", line ${f.line}, in ${f.functionName}${f.context.find((c) => c.current) ? `\n    ${f.context.find((c) => c.current)?.text.trim()}` : ''}`)
    .join('\n');
  const sections = requestSections(request)
    .map(([name, rows]) => `${name}:${rows.length ? `\n${rows.map(([k, v]) => `${k} = ${display(v)}`).join('\n')}` : ` No ${name} data`}`)
    .join('\n\n');
  return `${type} at ${request.pathInfo}
${value}

Request Method: ${request.method}
Request URL: ${requestUrl(request)}
api_framework Version: ${version()}
Node Executable: ${process.execPath}
Node Version: ${process.version}
Server time: ${new Date().toUTCString()}
Installed Applications:
${display(settings.INSTALLED_APPS)}
Installed Middleware:
${display(settings.MIDDLEWARE)}


Traceback (most recent call first):
${frames}

Exception Type: ${type} at ${request.pathInfo}
Exception Value: ${value}
Request information:
USER: ${String(request.user ?? '')}

${sections}

Settings:
Using settings module ${String(process.env.SETTINGS_MODULE ?? '')}
${safeSettings().map(([k, v]) => `${k} = ${v}`).join('\n')}


You're seeing this error because you have DEBUG = True in your
settings file. Change that to False, and api_framework will
display a standard page generated by the handler for this status code.
`;
}

/** The host framework's `technical_500_response`: HTML, or plain text without HTML in Accept. */
export function technical500Response(request: HttpRequest, error: unknown, status = 500): HttpResponse {
  if (acceptsHtml(request)) return new HttpResponse(technical500Html(request, error), { status, contentType: 'text/html' });
  return new HttpResponse(technical500Text(request, error), { status, contentType: 'text/plain; charset=utf-8' });
}

/** One entry of the patterns tried: the chain of patterns from the root to the one tried. */
type TriedEntry = Array<UrlPattern | URLResolver>;

function describePattern(pattern: UrlPattern | URLResolver): string {
  return pattern.pattern.describe;
}

/**
 * The patterns the resolver tried for `path`, as the host framework lists them: an include
 * whose prefix did not match is one entry, one whose prefix matched lists its own patterns.
 * `matched` is true when the last entry is the pattern that matched.
 */
export function patternsTried(path: string, root: URLResolver = getResolver()): { tried: TriedEntry[]; matched: boolean } {
  const tried: TriedEntry[] = [];
  const walk = (resolver: URLResolver, rest: string, chain: TriedEntry): boolean => {
    for (const pattern of resolver.urlPatterns) {
      if (pattern instanceof URLResolver) {
        const match = pattern.pattern.match(rest);
        if (match && walk(pattern, match.rest, [...chain, pattern])) return true;
        if (!match) tried.push([...chain, pattern]);
        continue;
      }
      tried.push([...chain, pattern]);
      if (pattern.resolve(rest)) return true;
    }
    return false;
  };
  const start = root.pattern.match(path);
  const matched = start ? walk(root, start.rest, []) : false;
  return { tried, matched };
}

/**
 * The host framework's `technical_404_response`: the URL patterns tried for the path (or, when
 * a view raised `Http404`, the reason and the view), always HTML.
 */
export function technical404Response(request: HttpRequest, error: unknown): HttpResponse {
  const { tried, matched } = patternsTried(request.pathInfo);
  const resolved = matched && !(error instanceof Http404 && error.name === 'Resolver404');
  const reason = error instanceof Error ? error.message : String(error ?? '');
  const view = request.resolverMatch?.func;
  const raisedBy = resolved && view ? view.name || '' : '';
  const requestPath = request.pathInfo.replace(/^\//, '');
  const items = tried
    .map((chain) => {
      const last = chain[chain.length - 1];
      const name = last instanceof URLPattern && last.name ? `\n            [name='${escapeHtml(last.name)}']` : '';
      return `        <li>\n          ${chain.map((p) => `\n            ${escapeHtml(describePattern(p))}\n            `).join('')}${name}\n        </li>`;
    })
    .join('\n');
  const info = tried.length
    ? `    <p>
      Using the URLconf defined in <code>${escapeHtml(settings.ROOT_URLCONF)}</code>,
      api_framework tried these URL patterns, in this order:
    </p>
    <ol>
${items}
    </ol>
    <p>
      ${requestPath ? `The current path, <code>${escapeHtml(requestPath)}</code>,` : 'The empty path'}
      ${resolved ? 'matched the last one.' : "didn't match any of these."}
    </p>`
    : `    <p>${escapeHtml(reason)}</p>`;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta http-equiv="content-type" content="text/html; charset=utf-8">
  <title>Page not found at ${escapeHtml(request.pathInfo)}</title>
  <meta name="robots" content="NONE,NOARCHIVE">
  <style type="text/css">
    html * { padding:0; margin:0; }
    body * { padding:10px 20px; }
    body * * { padding:0; }
    body { font:small sans-serif; background:#eee; color:#000; }
    body>div { border-bottom:1px solid #ddd; }
    h1 { font-weight:normal; margin-bottom:.4em; }
    h1 span { font-size:60%; color:#666; font-weight:normal; }
    table { border:none; border-collapse: collapse; width:100%; }
    td, th { vertical-align:top; padding:2px 3px; }
    th { width:12em; text-align:right; color:#666; padding-right:.5em; }
    #info { background:#f6f6f6; }
    #info ol { margin: 0.5em 4em; }
    #info ol li { font-family: monospace; }
    #summary { background: #ffc; }
    #explanation { background:#eee; border-bottom: 0px none; }
    pre.exception_value { font-family: sans-serif; color: #575757; font-size: 1.5em; margin: 10px 0 10px 0; }
  </style>
</head>
<body>
  <div id="summary">
    <h1>Page not found <span>(404)</span></h1>
    ${resolved && reason ? `<pre class="exception_value">${escapeHtml(reason)}</pre>` : ''}
    <table class="meta">
      <tr>
        <th>Request Method:</th>
        <td>${escapeHtml(request.method)}</td>
      </tr>
      <tr>
        <th>Request URL:</th>
        <td>${escapeHtml(requestUrl(request))}</td>
      </tr>
      ${raisedBy ? `<tr>\n        <th>Raised by:</th>\n        <td>${escapeHtml(raisedBy)}</td>\n      </tr>` : ''}
    </table>
  </div>
  <div id="info">
${info}
  </div>

  <div id="explanation">
    <p>
      You're seeing this error because you have <code>DEBUG = True</code> in
      your settings file. Change that to <code>False</code>, and api_framework
      will display a standard 404 page.
    </p>
  </div>
</body>
</html>
`;
  return new HttpResponse(html, { status: 404, contentType: 'text/html' });
}
