/**
 * The browsable API's login and logout pages (`api_framework:login`, `api_framework:logout`),
 * for session authentication. Both check the CSRF token themselves, so they stay protected even
 * in a project without `CsrfViewMiddleware`.
 *
 * Logout happens on POST only (the page's "Log out" button is a small CSRF-protected form). A
 * GET of the logout URL shows a confirmation page with that form instead of logging out, so a
 * link or image elsewhere cannot log users out (the host framework allowed GET until 4.1;
 * later versions refuse it).
 */
import { login, logout, authenticate, REDIRECT_FIELD_NAME } from '../auth';
import { checkCsrf } from '../../lib/core/middleware/csrf';
import {
  HttpResponse, HttpResponseForbidden, HttpResponseNotAllowed, HttpResponseRedirect, QueryDict, type HttpRequest,
} from '../../lib/core/http';
import { DEFAULT_SETTINGS, settings } from '../../lib/core/conf';
import { applyContentSecurityPolicy } from '../../lib/core/csp';
import type { ViewFunction } from '../../lib/core/urls';
import { isSafeRedirect, safeRedirectTarget } from './redirects';
import { baseContext, renderTemplate } from './templates';

/** The never-cache headers of pages holding forms and session state. */
const NEVER_CACHE = 'max-age=0, no-cache, no-store, must-revalidate, private';

/** Django's AuthenticationForm messages. */
export const LOGIN_ERROR_MESSAGES = {
  invalid_login: 'Please enter a correct %(username)s and password. Note that both fields may be case-sensitive.',
  inactive: 'This account is inactive.',
  required: 'This field is required.',
} as const;

/** The submitted form of a POST (url-encoded or multipart, as parsed by the request layer). */
export async function readForm(request: HttpRequest): Promise<QueryDict> {
  if (request.POST.size > 0) return request.POST;
  if (request.contentType === 'application/x-www-form-urlencoded') {
    return QueryDict.parse((await request.body()).toString('utf8'));
  }
  return new QueryDict();
}

/** The 403 answer to a failed CSRF check, or null when the request passes. */
export async function enforceCsrf(request: HttpRequest): Promise<HttpResponse | null> {
  if (request.csrfProcessingDone) return null;
  const reason = await checkCsrf(request);
  if (reason === null) return null;
  return new HttpResponseForbidden(`CSRF Failed: ${reason}`, { contentType: 'text/plain; charset=utf-8' });
}

function page(template: string, request: HttpRequest, context: Record<string, unknown>, status = 200): HttpResponse {
  const html = renderTemplate(template, { ...baseContext(request), ...context });
  const response = new HttpResponse(html, { status, contentType: 'text/html; charset=utf-8' });
  response.setHeader('Cache-Control', NEVER_CACHE);
  response.setHeader('X-Frame-Options', 'DENY');
  return applyContentSecurityPolicy(response);
}

/**
 * Where a login without a usable `next` goes: LOGIN_REDIRECT_URL, except the host framework's
 * default `/accounts/profile/` (this framework has no such page), which becomes `/`.
 */
export function loginRedirectUrl(): string {
  const configured = settings.LOGIN_REDIRECT_URL;
  return configured && configured !== DEFAULT_SETTINGS.LOGIN_REDIRECT_URL ? configured : '/';
}

function nextOf(request: HttpRequest, form?: QueryDict): string {
  const value = form?.get(REDIRECT_FIELD_NAME) ?? request.query.get(REDIRECT_FIELD_NAME) ?? '';
  return isSafeRedirect(value, request) ? value : '';
}

/**
 * The login page: GET shows the form, POST checks the credentials with the configured
 * authentication backends, logs the user in (a new session and CSRF token) and redirects to
 * `next` when it is on this site, else to `loginRedirectUrl()`.
 */
export const loginView: ViewFunction = async (request: HttpRequest) => {
  if (request.method === 'GET' || request.method === 'HEAD') {
    return page('api_framework/login.html', request, { name: 'Log in', next: nextOf(request), username: '', errors: {} });
  }
  if (request.method !== 'POST') return new HttpResponseNotAllowed(['GET', 'HEAD', 'POST']);
  const forbidden = await enforceCsrf(request);
  if (forbidden) return forbidden;
  const form = await readForm(request);
  const username = form.get('username') ?? '';
  const password = form.get('password') ?? '';
  const next = nextOf(request, form);
  const errors: Record<string, string[]> = {};
  if (!username) errors.username = [LOGIN_ERROR_MESSAGES.required];
  if (!password) errors.password = [LOGIN_ERROR_MESSAGES.required];
  if (Object.keys(errors).length === 0) {
    const user = await authenticate(request, { username, password });
    if (user && user.is_active !== false) {
      await login(request, user);
      const response = new HttpResponseRedirect(safeRedirectTarget(next, request, loginRedirectUrl()));
      response.setHeader('Cache-Control', NEVER_CACHE);
      return response;
    }
    errors.__all__ = [user ? LOGIN_ERROR_MESSAGES.inactive : LOGIN_ERROR_MESSAGES.invalid_login.replace('%(username)s', 'username')];
  }
  return page('api_framework/login.html', request, { name: 'Log in', next, username, errors });
};

/**
 * The logout page: POST (with the CSRF token) ends the session and redirects to `next` when it
 * is on this site, else to LOGOUT_REDIRECT_URL when set, else shows a "logged out" page; GET
 * asks for confirmation.
 */
export const logoutView: ViewFunction = async (request: HttpRequest) => {
  if (request.method === 'GET' || request.method === 'HEAD') {
    return page('api_framework/logout.html', request, { name: 'Log out', next: nextOf(request) });
  }
  if (request.method !== 'POST') return new HttpResponseNotAllowed(['GET', 'HEAD', 'POST']);
  const forbidden = await enforceCsrf(request);
  if (forbidden) return forbidden;
  const form = await readForm(request);
  const next = nextOf(request, form);
  await logout(request);
  const target = next || settings.LOGOUT_REDIRECT_URL;
  if (target) {
    const response = new HttpResponseRedirect(target);
    response.setHeader('Cache-Control', NEVER_CACHE);
    return response;
  }
  return page('api_framework/logged_out.html', request, { name: 'Logged out' });
};
