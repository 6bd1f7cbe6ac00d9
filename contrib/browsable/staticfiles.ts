/**
 * Serves the static assets (CSS, JS) of the browsable API and the admin from the framework
 * itself — no CDN. Files are looked up in the STATICFILES_DIRS setting (project-relative
 * folders), then each installed app's `static` folder, then this app's own. Responses carry
 * an ETag (a `304 Not Modified` answers a matching `If-None-Match`) and Cache-Control; paths
 * that try to leave the static folders are refused with a 404.
 *
 * @example
 * // urls.ts
 * export const urlpatterns = [...staticfilesUrlpatterns(), path('api-auth/', include(browsableUrls))];
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FRAMEWORK_ROOT, PROJECT_ROOT, settings } from '../../lib/core/conf';
import { Http404 } from '../../lib/core/exceptions';
import { HttpResponse, HttpResponseNotAllowed, HttpResponseNotModified, type HttpRequest } from '../../lib/core/http';
import { modulePathToFile } from '../../lib/core/modules';
import { path as urlPath, type UrlPattern, type ViewFunction } from '../../lib/core/urls';
import { staticUrl } from './templates';

/** The content types of the files the framework serves, by extension. */
export const STATIC_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/vnd.microsoft.icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

/** Seconds browsers may reuse an asset before revalidating it with its ETag. */
export const STATIC_MAX_AGE = 3600;

/** The folders searched for static files, in order. */
export function staticRoots(): string[] {
  const roots: string[] = [];
  const configured = settings.STATICFILES_DIRS;
  if (Array.isArray(configured)) {
    for (const dir of configured) if (typeof dir === 'string') roots.push(path.resolve(PROJECT_ROOT, dir));
  }
  for (const app of settings.INSTALLED_APPS ?? []) roots.push(path.join(modulePathToFile(app), 'static'));
  for (const own of ['browsable', 'admin']) {
    const dir = path.join(FRAMEWORK_ROOT, 'contrib', own, 'static');
    if (!roots.includes(dir)) roots.push(dir);
  }
  return roots;
}

/**
 * The file for a static path such as `api_framework/css/browsable.css`, or null. Absolute
 * paths, `..` segments, backslashes and NUL bytes are refused before touching the disk.
 */
export async function findStaticFile(relative: string): Promise<string | null> {
  if (!relative || relative.includes('\0') || relative.includes('\\') || relative.startsWith('/')) return null;
  const segments = relative.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.' || segment === '')) return null;
  for (const root of staticRoots()) {
    const candidate = path.resolve(root, ...segments);
    if (!candidate.startsWith(root + path.sep)) continue;
    try {
      const stat = await fs.stat(candidate);
      if (stat.isFile()) return candidate;
    } catch {
      // Not in this root.
    }
  }
  return null;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));
}

/**
 * The view serving one static file (`kwargs.path`): GET and HEAD only, 404 for anything
 * missing or outside the static folders.
 */
export const serveStatic: ViewFunction = async (request: HttpRequest, kwargs: Record<string, unknown>) => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return new HttpResponseNotAllowed(['GET', 'HEAD']);
  const relative = typeof kwargs.path === 'string' ? kwargs.path : '';
  const file = await findStaticFile(relative);
  if (file === null) throw new Http404(`'${relative}' could not be found`);
  const stat = await fs.stat(file);
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    ETag: etag,
    'Cache-Control': `public, max-age=${STATIC_MAX_AGE}`,
    'Last-Modified': stat.mtime.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  };
  if (etagMatches(request.header('if-none-match'), etag)) {
    const notModified = new HttpResponseNotModified();
    for (const [name, value] of Object.entries(headers)) notModified.setHeader(name, value);
    return notModified;
  }
  const contentType = STATIC_CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const response = new HttpResponse(await fs.readFile(file), { contentType });
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  return response;
};
serveStatic.csrfExempt = true;

/**
 * URL patterns serving the static files under `STATIC_URL` (Django's
 * `staticfiles_urlpatterns()`). Only a local prefix (`/static/`) can be served this way.
 */
export function staticfilesUrlpatterns(prefix: string = staticUrl()): UrlPattern[] {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(prefix)) return [];
  const route = prefix.replace(/^\/+/, '');
  return [urlPath(`${route}<path:path>`, serveStatic, { name: 'static' })];
}
