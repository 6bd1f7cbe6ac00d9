/**
 * The API docs page: an interactive reference of the OpenAPI document (Swagger UI, installed
 * from the npm registry as `swagger-ui-dist` and served by the framework itself — no CDN).
 * "Try it out" works with a session login (the page's script sends the CSRF token from the
 * CSRF cookie in the CSRF header) and with token authentication (the Authorize dialog's
 * `tokenAuth`, `Token <key>`).
 *
 * @example
 * export const urlpatterns = [
 *   path('schema/', getSchemaView({ title: 'Snippets API' })),
 *   path('schema/docs/', include(docsUrlpatterns({ title: 'Snippets API', schemaUrl: '/schema/' }))),
 * ];
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { settings } from '../core/conf';
import { applyContentSecurityPolicy } from '../core/csp';
import { Http404 } from '../core/exceptions';
import { HttpResponse, HttpResponseNotAllowed, HttpResponseNotModified, type HttpRequest } from '../core/http';
import { path as route, type UrlPattern, type ViewFunction } from '../core/urls';
import { escapeHtml } from '../core/html';
import { DOCS_SCRIPT, DOCS_STYLE } from './docsAssets';
import { csrfHeaderName } from './security';

/** Options of `getDocsView()` and `docsUrlpatterns()`. */
export interface DocsViewOptions {
  /** The page title (default `API documentation`). */
  title?: string;
  /** The URL of the schema view (default `../`, the folder above the page); JSON is asked for with `?format=openapi-json`. */
  schemaUrl?: string;
}

/** An asset of the page: its bytes, content type and ETag. */
interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** Seconds browsers may reuse an asset before revalidating it. */
export const DOCS_ASSET_MAX_AGE = 3600;

const DIST_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const assets = new Map<string, Asset>();

function makeAsset(body: Buffer, contentType: string): Asset {
  return { body, contentType, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
}

/** The folder of the installed `swagger-ui-dist` package. */
export function swaggerUiDistDir(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** The asset called `name` (read once, then kept in memory), or null for any other name. */
export function docsAsset(name: string): Asset | null {
  const known = assets.get(name);
  if (known) return known;
  let asset: Asset;
  if (name === 'docs.js') {
    asset = makeAsset(Buffer.from(DOCS_SCRIPT, 'utf8'), 'text/javascript; charset=utf-8');
  } else if (name === 'docs.css') {
    asset = makeAsset(Buffer.from(DOCS_STYLE, 'utf8'), 'text/css; charset=utf-8');
  } else if (Object.prototype.hasOwnProperty.call(DIST_FILES, name)) {
    asset = makeAsset(readFileSync(path.join(swaggerUiDistDir(), name)), DIST_FILES[name]);
  } else {
    return null;
  }
  assets.set(name, asset);
  return asset;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => candidate.trim() === '*' || candidate.trim().replace(/^W\//, '') === etag);
}

function serveAsset(request: HttpRequest, name: string): HttpResponse {
  const asset = docsAsset(name);
  if (!asset) throw new Http404(`'${name}' could not be found`);
  const headers = { ETag: asset.etag, 'Cache-Control': `public, max-age=${DOCS_ASSET_MAX_AGE}`, 'X-Content-Type-Options': 'nosniff' };
  const response = etagMatches(request.header('if-none-match'), asset.etag)
    ? new HttpResponseNotModified()
    : new HttpResponse(asset.body, { contentType: asset.contentType });
  for (const [key, value] of Object.entries(headers)) response.setHeader(key, value);
  return response;
}

/** The JSON of the page's configuration, safe inside a `<script>` element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The schema URL the page loads: JSON asked for unless the URL already has a query. */
export function docsSchemaUrl(schemaUrl: string): string {
  return schemaUrl.includes('?') ? schemaUrl : `${schemaUrl}?format=openapi-json`;
}

/** The HTML of the page for `request`: the login state bar, Swagger UI's container and its configuration. */
export function renderDocsPage(request: HttpRequest, options: DocsViewOptions = {}): string {
  const title = options.title ?? 'API documentation';
  const config = {
    schemaUrl: docsSchemaUrl(options.schemaUrl ?? '../'),
    csrfCookieName: String(settings.CSRF_COOKIE_NAME ?? 'csrftoken'),
    csrfHeaderName: csrfHeaderName(),
  };
  const user = request.user;
  const loginUrl = typeof settings.LOGIN_URL === 'string' ? settings.LOGIN_URL : null;
  let account = '';
  if (user?.isAuthenticated) {
    account = `<span data-testid="username">${escapeHtml(String(user.username))}</span>`;
  } else if (loginUrl) {
    account = `<a class="login-link" href="${escapeHtml(`${loginUrl}?next=${encodeURIComponent(request.path)}`)}">Log in</a>`;
  }
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="assets/favicon-32x32.png">
<link rel="stylesheet" href="assets/swagger-ui.css">
<link rel="stylesheet" href="assets/docs.css">
</head>
<body>
<header class="api-docs-account">${account}</header>
<div id="swagger-ui"></div>
<script id="api-docs-config" type="application/json">${scriptJson(config)}</script>
<script src="assets/swagger-ui-bundle.js"></script>
<script src="assets/docs.js"></script>
</body>
</html>
`;
}

/**
 * The docs view: the page at its own URL (which must end in `/`: assets are relative), and
 * the page's assets when routed with an `asset` keyword argument (see `docsUrlpatterns()`).
 */
export function getDocsView(options: DocsViewOptions = {}): ViewFunction {
  const view: ViewFunction = (request: HttpRequest, kwargs: Record<string, unknown>) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new HttpResponseNotAllowed(['GET', 'HEAD']);
    if (typeof kwargs.asset === 'string') return serveAsset(request, kwargs.asset);
    const response = new HttpResponse(renderDocsPage(request, options), { contentType: 'text/html; charset=utf-8' });
    response.setHeader('Vary', 'Cookie');
    response.setHeader('Cache-Control', 'no-cache');
    return applyContentSecurityPolicy(response);
  };
  return view;
}

/**
 * The page and its assets as URL patterns, to include under the page's URL:
 * `path('schema/docs/', include(docsUrlpatterns({ schemaUrl: '/schema/' })))`.
 */
export function docsUrlpatterns(options: DocsViewOptions = {}, name = 'api-docs'): UrlPattern[] {
  const view = getDocsView(options);
  return [
    route('', view, { name }),
    route('assets/<str:asset>', view, { name: `${name}-asset` }),
  ];
}
