/**
 * The template engine of the browsable API and the admin: nunjucks (Django-like syntax,
 * autoescaping on) over the project's template folders (TEMPLATE_DIRS, then every installed
 * app's `templates`), then this app's own, so a project overrides `api_framework/api.html`
 * or `admin/base.html` by adding a file of the same name. Also builds the context every
 * page shares: CSRF token, user, login/logout links and the static URL.
 */
import path from 'node:path';
import type nunjucks from 'nunjucks';
import { FRAMEWORK_ROOT, onSettingChanged, settings } from '../../lib/core/conf';
import { escapeUriPath } from '../../lib/core/encoding';
import type { HttpRequest } from '../../lib/core/http';
import { NoReverseMatch, reverse } from '../../lib/core/urls';
import { templateDirs } from '../../lib/renderers';
import { getToken } from '../../lib/core/middleware/csrf';

/** This app's template folder (under the framework's code root; the build copies it to dist/). */
export const BROWSABLE_TEMPLATES = path.join(FRAMEWORK_ROOT, 'contrib', 'browsable', 'templates');
/** The admin's template folder. */
export const ADMIN_TEMPLATES = path.join(FRAMEWORK_ROOT, 'contrib', 'admin', 'templates');

let environment: nunjucks.Environment | null = null;

/** The template library, loaded on first use: JSON-only processes never load it. */
function loadNunjucks(): typeof nunjucks {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('nunjucks') as typeof nunjucks;
}

onSettingChanged((key) => {
  if (key === 'TEMPLATE_DIRS' || key === 'INSTALLED_APPS') environment = null;
});

/** The nunjucks environment used by the browsable API and the admin (built once). */
export function getBrowsableEngine(): nunjucks.Environment {
  if (!environment) {
    const dirs = [...templateDirs()];
    for (const dir of [BROWSABLE_TEMPLATES, ADMIN_TEMPLATES]) if (!dirs.includes(dir)) dirs.push(dir);
    const engine = loadNunjucks();
    environment = new engine.Environment(new engine.FileSystemLoader(dirs, { noCache: false }), {
      autoescape: true,
      throwOnUndefined: false,
    });
  }
  return environment;
}

/** Render the template `name` with `context`. */
export function renderTemplate(name: string, context: Record<string, unknown>): string {
  return getBrowsableEngine().render(name, context);
}

/** The URL of a named pattern, or null when the project's URL conf does not have it. */
export function optionalReverse(viewName: string): string | null {
  try {
    return reverse(viewName);
  } catch (error) {
    if (error instanceof NoReverseMatch) return null;
    throw error;
  }
}

/** The CSRF header name as a browser sends it (`HTTP_X_CSRFTOKEN` -> `X-CSRFToken`). */
export function csrfHeaderName(): string {
  const meta = String(settings.CSRF_HEADER_NAME ?? 'HTTP_X_CSRFTOKEN');
  const bare = meta.replace(/^HTTP_/, '');
  if (bare === 'X_CSRFTOKEN') return 'X-CSRFToken';
  return bare.split('_').map((part) => part.charAt(0) + part.slice(1).toLowerCase()).join('-');
}

/** The static URL prefix (`STATIC_URL`, always ending with a slash). */
export function staticUrl(): string {
  const value = String(settings.STATIC_URL ?? '/static/');
  return value.endsWith('/') ? value : `${value}/`;
}

/** A user as the templates see it. */
interface TemplateUser {
  isAuthenticated?: boolean;
  username?: unknown;
  getUsername?: () => string;
}

/**
 * The context shared by every page: `csrf_token` (and the cookie is set on the response),
 * `csrf_header_name`, `user_is_authenticated`, `user_name`, `login_url` / `logout_url`
 * (`api_framework:login` / `:logout` when the project includes them), `next_path` /
 * `request_full_path` (the encoded full path), `request_path` (the encoded path) and
 * `static_url`.
 */
export function baseContext(httpRequest: HttpRequest, user?: unknown): Record<string, unknown> {
  const current = (user ?? httpRequest.user) as TemplateUser | null | undefined;
  const authenticated = Boolean(current && current.isAuthenticated);
  let userName = '';
  if (authenticated && current) {
    userName = typeof current.getUsername === 'function' ? current.getUsername() : String(current.username ?? '');
  }
  // The page's own URL, percent-encoded as the original's `request.get_full_path`: the decoded
  // path may hold spaces or control characters that must not land in the page as they are.
  const fullPath = httpRequest.getFullPath();
  return {
    csrf_token: getToken(httpRequest),
    csrf_header_name: csrfHeaderName(),
    user_is_authenticated: authenticated,
    user_name: userName,
    login_url: optionalReverse('api_framework:login'),
    logout_url: optionalReverse('api_framework:logout'),
    next_path: fullPath,
    request_path: escapeUriPath(httpRequest.path),
    request_full_path: fullPath,
    static_url: staticUrl(),
    language_code: httpRequest.languageCode || 'en',
  };
}
