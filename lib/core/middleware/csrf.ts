/**
 * Cross Site Request Forgery protection, with the host framework's semantics.
 *
 * A 32-character secret lives in the `csrftoken` cookie (or the session, with
 * `CSRF_USE_SESSIONS`), always stored and handed out *masked*: a random 32-character mask
 * followed by the secret shifted by it, 64 characters in all. Every `getToken()` call returns a
 * freshly masked token (so the token in a page differs per response, against BREACH) and all of
 * them unmask to the same secret, which is what is compared.
 *
 * Unsafe requests (anything but GET, HEAD, OPTIONS, TRACE) must carry the token in the
 * `csrfmiddlewaretoken` form field or the header named by `CSRF_HEADER_NAME` (`X-CSRFToken`),
 * and pass the Origin check, or, over HTTPS without an Origin header, the Referer check.
 *
 * Form data: the check reads `request.POST` when the request layer has parsed the form already;
 * otherwise, for POST requests with an urlencoded or multipart body, it reads the (cached) body
 * itself and looks only for `csrfmiddlewaretoken`.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `lib/core/middleware/csrf.ts` exports `CsrfViewMiddleware`, `getToken(request)`,
 *   `rotateToken(request)`, `csrfExempt(view)`, `dontEnforceCsrfChecks(request)` and
 *   `checkCsrf(request): Promise<string | null>` (the failure reason, or null when the request
 *   passes) which `SessionAuthentication` calls for authenticated unsafe requests. The form token
 *   is read from `request.POST` when the parsers filled it; otherwise, for POST with an urlencoded
 *   or multipart body, from the (cached) body. `CSRF_TRUSTED_ORIGINS` accepts Django 4.0 entries
 *   (`https://*.example.com`) and 3.2 host entries (`.example.com`). A failed middleware check
 *   answers `CsrfViewMiddleware.reject()`: the view named by `CSRF_FAILURE_VIEW`
 *   (`(request, reason) => HttpResponse`), default `csrfFailure` (`lib/core/middleware/csrfFailure.ts`:
 *   the host framework's 403 `text/html` page and messages; the reason only with DEBUG).
 */
import type Busboy from 'busboy';
import { settings } from '../conf';
import { DisallowedHost } from '../exceptions';
import { constantTimeCompare, getRandomString } from '../signing';
import { patchVaryHeaders, type HttpRequest, type HttpResponse } from '../http';
import type { ViewFunction } from '../urls';
import { getFailureView } from './csrfFailure';
import { MiddlewareMixin } from '../middleware';

export const CSRF_SECRET_LENGTH = 32;
export const CSRF_TOKEN_LENGTH = 2 * CSRF_SECRET_LENGTH;
export const CSRF_ALLOWED_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Session key of the token when `CSRF_USE_SESSIONS` is on. */
export const CSRF_SESSION_KEY = '_csrftoken';

export const REASON_BAD_ORIGIN = 'Origin checking failed - %s does not match any trusted origins.';
export const REASON_NO_REFERER = 'Referer checking failed - no Referer.';
export const REASON_BAD_REFERER = 'Referer checking failed - %s does not match any trusted origins.';
export const REASON_NO_CSRF_COOKIE = 'CSRF cookie not set.';
export const REASON_BAD_TOKEN = 'CSRF token missing or incorrect.';
export const REASON_MALFORMED_REFERER = 'Referer checking failed - Referer is malformed.';
export const REASON_INSECURE_REFERER = 'Referer checking failed - Referer is insecure while host is secure.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** Per-request CSRF bookkeeping (Django keeps it in `request.META`). */
interface CsrfState {
  /** The masked token the response cookie will carry. */
  cookie?: string;
  /** A token was handed out (or rotated): the cookie must be (re)sent. */
  used: boolean;
  /** The incoming cookie was malformed or rotated: resend even if already set. */
  needsReset: boolean;
  /** The request already loaded its cookie token. */
  loaded: boolean;
}

const states = new WeakMap<object, CsrfState>();

function stateOf(request: HttpRequest): CsrfState {
  let state = states.get(request);
  if (!state) {
    state = { used: false, needsReset: false, loaded: false };
    states.set(request, state);
  }
  return state;
}

function newCsrfString(): string {
  return getRandomString(CSRF_SECRET_LENGTH, CSRF_ALLOWED_CHARS);
}

/** Mask a 32-character secret with a fresh random mask: `mask + cipher`, 64 characters. */
export function maskCipherSecret(secret: string): string {
  const mask = newCsrfString();
  const n = CSRF_ALLOWED_CHARS.length;
  let cipher = '';
  for (let i = 0; i < secret.length; i++) {
    const x = CSRF_ALLOWED_CHARS.indexOf(secret[i]);
    const y = CSRF_ALLOWED_CHARS.indexOf(mask[i]);
    cipher += CSRF_ALLOWED_CHARS[(x + y) % n];
  }
  return mask + cipher;
}

/** Recover the secret from a 64-character masked token. */
export function unmaskCipherToken(token: string): string {
  const mask = token.slice(0, CSRF_SECRET_LENGTH);
  const cipher = token.slice(CSRF_SECRET_LENGTH);
  const n = CSRF_ALLOWED_CHARS.length;
  let secret = '';
  for (let i = 0; i < cipher.length; i++) {
    const x = CSRF_ALLOWED_CHARS.indexOf(cipher[i]);
    const y = CSRF_ALLOWED_CHARS.indexOf(mask[i]);
    secret += CSRF_ALLOWED_CHARS[(x - y + n) % n];
  }
  return secret;
}

function newCsrfToken(): string {
  return maskCipherSecret(newCsrfString());
}

/**
 * Normalise an incoming token: a 64-character token is kept, a bare 32-character secret is
 * masked, anything else (wrong length, foreign characters) becomes a new random token that will
 * not match.
 */
export function sanitizeToken(token: string): string {
  if (/[^a-zA-Z0-9]/.test(token)) return newCsrfToken();
  if (token.length === CSRF_TOKEN_LENGTH) return token;
  if (token.length === CSRF_SECRET_LENGTH) return maskCipherSecret(token);
  return newCsrfToken();
}

/** True when both masked tokens carry the same secret (constant time). */
export function compareMaskedTokens(requestToken: string, cookieToken: string): boolean {
  return constantTimeCompare(unmaskCipherToken(requestToken), unmaskCipherToken(cookieToken));
}

/** What the CSRF middleware needs of `request.session` (set by the sessions app's middleware). */
interface SessionValues {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

function isSessionValues(value: unknown): value is SessionValues {
  return (
    typeof value === 'object' && value !== null &&
    'get' in value && typeof value.get === 'function' &&
    'set' in value && typeof value.set === 'function'
  );
}

function sessionOf(request: HttpRequest): SessionValues {
  // Read by name: the host layer knows sessions only by this duck type (contrib/sessions
  // declares the property on HttpRequest and sits above lib/core in the import graph).
  const session: unknown = Reflect.get(request, 'session');
  if (!isSessionValues(session)) {
    throw new Error(
      'CSRF_USE_SESSIONS is enabled, but request.session is not set. SessionMiddleware must appear before CsrfViewMiddleware in MIDDLEWARE.',
    );
  }
  return session;
}

/** The (sanitised) token sent by the client in its cookie or session, or null. */
function readIncomingToken(request: HttpRequest): string | null {
  const state = stateOf(request);
  if (settings.CSRF_USE_SESSIONS) {
    const value = sessionOf(request).get(CSRF_SESSION_KEY);
    return typeof value === 'string' ? value : null;
  }
  const cookieToken = request.cookies[settings.CSRF_COOKIE_NAME];
  if (cookieToken === undefined) return null;
  const token = sanitizeToken(cookieToken);
  if (token !== cookieToken) state.needsReset = true;
  return token;
}

/** Load the incoming token once per request (Django's `process_request`). */
function loadToken(request: HttpRequest): void {
  const state = stateOf(request);
  if (state.loaded) return;
  state.loaded = true;
  const token = readIncomingToken(request);
  if (token !== null && state.cookie === undefined) state.cookie = token;
}

/**
 * Return a masked CSRF token for a form or header, creating the secret if the client has none,
 * and make sure the response sets the cookie. Each call returns a differently masked token.
 */
export function getToken(request: HttpRequest): string {
  loadToken(request);
  const state = stateOf(request);
  let secret: string;
  if (state.cookie === undefined) {
    secret = newCsrfString();
    state.cookie = maskCipherSecret(secret);
  } else {
    secret = unmaskCipherToken(state.cookie);
  }
  state.used = true;
  return maskCipherSecret(secret);
}

/** Replace the CSRF secret (done on login, so a token seen before login is useless after it). */
export function rotateToken(request: HttpRequest): void {
  loadToken(request);
  const state = stateOf(request);
  state.used = true;
  state.cookie = newCsrfToken();
  state.needsReset = true;
}

/**
 * Mark a view as exempt from `CsrfViewMiddleware` (the API framework's views are exempt and
 * enforce CSRF themselves for session-authenticated requests).
 */
export function csrfExempt<V extends ViewFunction>(view: V): V {
  view.csrfExempt = true;
  return view;
}

/** Tell the CSRF check to accept this request without checking (test clients use it). */
export function dontEnforceCsrfChecks(request: HttpRequest): void {
  request.dontEnforceCsrfChecks = true;
}

/** Is `host` the domain `pattern` (or, for a pattern starting with `.`, one of its subdomains)? */
export function isSameDomain(host: string, pattern: string): boolean {
  if (!pattern) return false;
  const h = host.toLowerCase();
  const p = pattern.toLowerCase();
  return (p.startsWith('.') && (h.endsWith(p) || h === p.slice(1))) || h === p;
}

interface ParsedUrl {
  scheme: string;
  netloc: string;
}

function parseUrl(value: string): ParsedUrl | null {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)/.exec(value);
  if (!match) {
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value);
    return { scheme: scheme ? scheme[1].toLowerCase() : '', netloc: '' };
  }
  return { scheme: match[1].toLowerCase(), netloc: match[2] };
}

/** The trusted origins, split once per settings value. */
interface TrustedOrigins {
  exact: Set<string>;
  /** scheme -> host patterns (`.example.com` for `https://*.example.com`). */
  subdomains: Map<string, string[]>;
  /** Host patterns for the Referer check (any scheme). */
  hosts: string[];
}

let trustedCache: { key: string; value: TrustedOrigins } | null = null;

/**
 * Read `CSRF_TRUSTED_ORIGINS`. Entries with a scheme (`https://api.example.com`,
 * `https://*.example.com`) are matched against Origin exactly or by subdomain; entries without
 * one (the older `.example.com` / `api.example.com` form) match any scheme.
 */
function trustedOrigins(): TrustedOrigins {
  const entries = settings.CSRF_TRUSTED_ORIGINS;
  const key = entries.join('\n');
  if (trustedCache && trustedCache.key === key) return trustedCache.value;
  const value: TrustedOrigins = { exact: new Set(), subdomains: new Map(), hosts: [] };
  for (const entry of entries) {
    if (entry.includes('://')) {
      const parsed = parseUrl(entry);
      if (!parsed) continue;
      const host = parsed.netloc.replace(/^\*+/, '');
      value.hosts.push(host);
      if (entry.includes('*')) {
        const list = value.subdomains.get(parsed.scheme) ?? [];
        list.push(host);
        value.subdomains.set(parsed.scheme, list);
      } else {
        value.exact.add(entry);
      }
    } else {
      value.hosts.push(entry);
      for (const scheme of ['http', 'https']) {
        const list = value.subdomains.get(scheme) ?? [];
        list.push(entry);
        value.subdomains.set(scheme, list);
      }
    }
  }
  trustedCache = { key, value };
  return value;
}

function tryHost(request: HttpRequest): string | null {
  try {
    return request.getHost();
  } catch (error) {
    if (error instanceof DisallowedHost) return null;
    throw error;
  }
}

function originVerified(request: HttpRequest, origin: string): boolean {
  const host = tryHost(request);
  if (host !== null && origin === `${request.isSecure() ? 'https' : 'http'}://${host}`) return true;
  const trusted = trustedOrigins();
  if (trusted.exact.has(origin)) return true;
  const parsed = parseUrl(origin);
  if (!parsed || !parsed.netloc) return false;
  return (trusted.subdomains.get(parsed.scheme) ?? []).some((pattern) => isSameDomain(parsed.netloc, pattern));
}

function requestPort(request: HttpRequest): string {
  return String(request.META.SERVER_PORT ?? (request.isSecure() ? '443' : '80'));
}

/** The Referer check made over HTTPS when no Origin header is present; the reason or null. */
function checkReferer(request: HttpRequest): string | null {
  const referer = request.header('referer');
  if (referer === undefined || referer === null) return REASON_NO_REFERER;
  const parsed = parseUrl(referer);
  if (!parsed || !parsed.scheme || !parsed.netloc) return REASON_MALFORMED_REFERER;
  if (parsed.scheme !== 'https') return REASON_INSECURE_REFERER;
  const goodHosts = [...trustedOrigins().hosts];
  const cookieDomain = settings.CSRF_USE_SESSIONS ? settings.SESSION_COOKIE_DOMAIN : settings.CSRF_COOKIE_DOMAIN;
  if (cookieDomain) {
    const port = requestPort(request);
    goodHosts.push(port === '443' || port === '80' ? cookieDomain : `${cookieDomain}:${port}`);
  } else {
    const host = tryHost(request);
    if (host !== null) goodHosts.push(host);
  }
  if (!goodHosts.some((pattern) => isSameDomain(parsed.netloc, pattern))) {
    return REASON_BAD_REFERER.replace('%s', referer);
  }
  return null;
}

/** The `csrfmiddlewaretoken` of a form body that nobody has parsed yet. */
async function readFormToken(request: HttpRequest): Promise<string> {
  const type = request.contentType;
  if (type === 'application/x-www-form-urlencoded') {
    const body = await request.body();
    return new URLSearchParams(body.toString('latin1')).getAll('csrfmiddlewaretoken').pop() ?? '';
  }
  if (type === 'multipart/form-data') {
    const body = await request.body();
    return new Promise<string>((resolve) => {
      let token = '';
      let parser: Busboy.Busboy;
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        parser = (require('busboy') as typeof Busboy)({ headers: { 'content-type': request.header('content-type') ?? '' } });
      } catch {
        resolve('');
        return;
      }
      parser.on('field', (name, value) => {
        // No value for a part whose charset busboy cannot decode.
        if (name === 'csrfmiddlewaretoken') token = typeof value === 'string' ? value : '';
      });
      // A truncated form destroys the part's stream with an error; without a listener it would
      // be thrown out of the process (the parser's own 'error' answers).
      parser.on('file', (_name, stream) => stream.on('error', () => undefined).resume());
      parser.on('close', () => resolve(token));
      parser.on('error', () => resolve(token));
      parser.end(body);
    });
  }
  return '';
}

async function requestToken(request: HttpRequest): Promise<string> {
  let token = '';
  if (request.method === 'POST') {
    try {
      // Use the form the request layer parsed already; otherwise read the cached body.
      token = request.POST.size > 0 ? (request.POST.get('csrfmiddlewaretoken') ?? '') : await readFormToken(request);
    } catch {
      // A broken or oversized body: fall through to the header and fail there.
      token = '';
    }
  }
  if (token === '') {
    token = String(request.META[settings.CSRF_HEADER_NAME] ?? '');
  }
  return token;
}

/**
 * Check an unsafe request: Origin (or, over HTTPS, Referer), then the token. Returns the
 * failure reason, or null when the request passes. Safe methods always pass.
 */
async function verify(request: HttpRequest): Promise<string | null> {
  if (SAFE_METHODS.has(request.method)) return null;
  loadToken(request);
  const state = stateOf(request);
  if (request.dontEnforceCsrfChecks) return null;
  const origin = request.header('origin');
  if (origin !== undefined && origin !== null) {
    if (!originVerified(request, origin)) return REASON_BAD_ORIGIN.replace('%s', origin);
  } else if (request.isSecure()) {
    const reason = checkReferer(request);
    if (reason) return reason;
  }
  // Read the token now: login() may have rotated it earlier in this request.
  const cookieToken = state.cookie;
  if (cookieToken === undefined) return REASON_NO_CSRF_COOKIE;
  const sent = sanitizeToken(await requestToken(request));
  if (!compareMaskedTokens(sent, cookieToken)) return REASON_BAD_TOKEN;
  return null;
}

/**
 * Run the CSRF check for one request regardless of view exemption, as the API framework's
 * `SessionAuthentication` does for authenticated unsafe requests. Returns the failure reason
 * (`CSRF token missing or incorrect.` ...) or null when the request passes.
 */
export async function checkCsrf(request: HttpRequest): Promise<string | null> {
  return verify(request);
}

/** Whether the response must (re)set the CSRF cookie, and with which value. */
function setTokenOnResponse(request: HttpRequest, response: HttpResponse): void {
  const state = stateOf(request);
  if (!state.used || state.cookie === undefined) return;
  if (settings.CSRF_USE_SESSIONS) {
    const session = sessionOf(request);
    if (session.get(CSRF_SESSION_KEY) !== state.cookie) session.set(CSRF_SESSION_KEY, state.cookie);
    return;
  }
  response.setCookie(settings.CSRF_COOKIE_NAME, state.cookie, {
    maxAge: settings.CSRF_COOKIE_AGE,
    domain: settings.CSRF_COOKIE_DOMAIN ?? undefined,
    path: settings.CSRF_COOKIE_PATH ?? '/',
    secure: settings.CSRF_COOKIE_SECURE,
    httpOnly: settings.CSRF_COOKIE_HTTPONLY,
    sameSite: settings.CSRF_COOKIE_SAMESITE,
  });
  patchVaryHeaders(response, ['Cookie']);
}

/** Is this response already carrying the CSRF cookie set by an inner middleware? */
const cookieSetOn = new WeakSet<object>();

/**
 * Middleware that rejects unsafe requests without a valid CSRF token with 403, and sets the
 * `csrftoken` cookie on responses whose page used a token. Views marked with `csrfExempt()` are
 * skipped. Override `reject()` to answer failures differently.
 */
export class CsrfViewMiddleware extends MiddlewareMixin {
  /**
   * Load the incoming token when it lives in the session. The cookie is read when a token is
   * first asked for (getToken(), rotateToken(), the check of an unsafe request): reading it has
   * no other effect. The session is read here, as the host framework does, because reading it
   * is seen (Vary: Cookie).
   */
  override processRequest(request: HttpRequest): null {
    if (settings.CSRF_USE_SESSIONS) loadToken(request);
    return null;
  }

  /**
   * Check the request before the view runs; a response (403) when it fails, else null. Safe
   * methods and exempt views answer at once (no promise).
   */
  processView(
    request: HttpRequest,
    view: ViewFunction | null,
    _args?: unknown,
    _kwargs?: unknown,
  ): HttpResponse | null | Promise<HttpResponse | null> {
    if (request.csrfProcessingDone) return null;
    if (view && view.csrfExempt) return null;
    if (SAFE_METHODS.has(request.method)) {
      request.csrfProcessingDone = true;
      return null;
    }
    return this.checkUnsafe(request);
  }

  private async checkUnsafe(request: HttpRequest): Promise<HttpResponse | null> {
    const reason = await verify(request);
    if (reason !== null) return this.reject(request, reason);
    request.csrfProcessingDone = true;
    return null;
  }

  /** Set the CSRF cookie when a token was used or rotated. */
  override processResponse(request: HttpRequest, response: HttpResponse): HttpResponse {
    const state = states.get(request);
    // No token was asked for or checked: nothing to set.
    if (state === undefined) return response;
    if (!state.needsReset && cookieSetOn.has(response)) return response;
    if (!state.used) return response;
    setTokenOnResponse(request, response);
    cookieSetOn.add(response);
    return response;
  }

  /**
   * The 403 answer to a failed check: the `CSRF_FAILURE_VIEW` (default: the host framework's
   * HTML page, `csrfFailure`); override to answer otherwise.
   */
  reject(request: HttpRequest, reason: string): HttpResponse | Promise<HttpResponse> {
    return getFailureView()(request, reason);
  }
}
