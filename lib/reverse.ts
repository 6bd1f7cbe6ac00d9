/**
 * Provides an alternative to the host framework's `reverse()`: given the request it returns
 * fully qualified URLs, applies the request's versioning scheme and keeps the built-in
 * `?format=` override parameter.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `reverse(viewname, { args, kwargs, request, format, currentApp, urlconf })` from
 *   `lib/reverse.ts` applies `request.versioningScheme` and keeps `?format=`; `reverseLazy(...)`
 *   returns a `LazyURL` resolved on first use (module-level URLs).
 * - `reverseRequestKey(request)` keys what `reverse()` reads from a request (scheme and host,
 *   the kept `?format=`, the URL memo's generation); null under a versioning scheme. Memos of
 *   reversed URLs (the hyperlinked fields') are valid per key.
 */
import { reverse as urlsReverse, NoReverseMatch, reverseMemoGeneration, type UrlConfModule } from './core/urls';
import type { HttpRequest } from './core/http';
import { apiSettings } from './settings';
import { replaceQueryParam } from './utils/urls';

/** The request shapes `reverse()` accepts: the API `Request` or a plain `HttpRequest`. */
export interface ReverseRequest {
  /** The API request's version (`null` when versioning is off). */
  version?: string | null;
  /** The API request's versioning scheme, when one is active. */
  versioningScheme?: VersioningSchemeLike | null;
  /** The host request underneath an API `Request`. */
  httpRequest?: HttpRequest;
}

/** Options of `reverse()`: the host reverse's arguments plus `request` and `format`. */
export interface ReverseOptions {
  args?: Array<string | number>;
  kwargs?: Record<string, unknown>;
  /** Build an absolute URI from this request, applying its versioning scheme. */
  request?: ReverseRequest | HttpRequest | null;
  /** A format suffix, passed as the `format` keyword argument (as the original does). */
  format?: string | null;
  /** The current application namespace, as for the host reverse. */
  currentApp?: string;
  /** The URL conf to reverse in (default: ROOT_URLCONF). */
  urlconf?: string | UrlConfModule;
}

/** What `reverse()` needs from a versioning scheme. */
export interface VersioningSchemeLike {
  reverse(viewname: string, options: ReverseOptions): string;
}

function hostRequestOf(request: ReverseRequest | HttpRequest): HttpRequest | null {
  if ('httpRequest' in request && request.httpRequest) return request.httpRequest;
  if ('buildAbsoluteUri' in request) return request;
  return null;
}

/**
 * Keep the URL_FORMAT_OVERRIDE query parameter (`?format=json`) of `request` on `url`, so
 * links in a response rendered by format override keep using that format.
 */
export function preserveBuiltinQueryParams(url: string, request?: ReverseRequest | HttpRequest | null): string {
  if (!request) return url;
  const hostRequest = hostRequestOf(request);
  // Without a query string there is nothing to keep (and nothing to parse).
  if (!hostRequest || hostRequest.queryString === '') return url;
  const overrides = [apiSettings.URL_FORMAT_OVERRIDE];
  for (const param of overrides) {
    if (param && hostRequest.query.has(param)) {
      url = replaceQueryParam(url, param, hostRequest.query.get(param) ?? '');
    }
  }
  return url;
}

/**
 * Reverse `viewname` through the request's versioning scheme when it has one (falling back to
 * the plain reverse if the scheme's URL does not exist), as an absolute URI when a request is
 * given.
 *
 * @example
 * reverse('snippet-detail', { kwargs: { pk: 1 }, request }) // 'http://testserver/snippets/1/'
 */
export function reverse(viewname: string, options: ReverseOptions = {}): string {
  const request = options.request ?? null;
  const scheme = request && 'versioningScheme' in request ? request.versioningScheme : null;
  let url: string;
  if (scheme) {
    try {
      url = scheme.reverse(viewname, options);
    } catch (error) {
      if (!(error instanceof NoReverseMatch)) throw error;
      url = plainReverse(viewname, options);
    }
  } else {
    url = plainReverse(viewname, options);
  }
  return preserveBuiltinQueryParams(url, request);
}

/**
 * What `reverse(viewname, { kwargs, request, format })` reads from `request`, as a key: two
 * requests with the same key get the same URLs for the same view name and arguments (the
 * scheme and host of absolute URIs, the kept `?format=` value), as long as the key's memo
 * generation holds (URL confs and settings unchanged). Null when the request's versioning
 * scheme builds its URLs (then nothing can be assumed). For memos of reversed URLs, such as
 * the hyperlinked fields' in a list.
 */
export function reverseRequestKey(request: ReverseRequest | HttpRequest | null | undefined): string | null {
  if (!request) return `${reverseMemoGeneration()}|-`;
  if ('versioningScheme' in request && request.versioningScheme) return null;
  const hostRequest = hostRequestOf(request);
  if (!hostRequest) return `${reverseMemoGeneration()}|-`;
  // Absolute URIs of reversed paths (always `/...`) depend on the request only through the
  // scheme and host it answers for `/`.
  const base = hostRequest.buildAbsoluteUri('/');
  const param = apiSettings.URL_FORMAT_OVERRIDE;
  const kept = param && hostRequest.query.has(param) ? `s${hostRequest.query.get(param) ?? ''}` : '-';
  return `${reverseMemoGeneration()}|${kept}|${base}`;
}

/**
 * Reverse without versioning: the format suffix becomes a keyword argument and the result is
 * made absolute when a request is given. Versioning schemes call this after adjusting the
 * arguments.
 */
export function plainReverse(viewname: string, options: ReverseOptions = {}): string {
  let kwargs = options.kwargs;
  if (options.format !== undefined && options.format !== null) {
    kwargs = { ...(kwargs ?? {}), format: options.format };
  }
  const url = urlsReverse(viewname, { args: options.args, kwargs, currentApp: options.currentApp, urlconf: options.urlconf });
  const hostRequest = options.request ? hostRequestOf(options.request) : null;
  return hostRequest ? hostRequest.buildAbsoluteUri(url) : url;
}

/** A lazily reversed URL: resolved when first converted to a string (for module-level use). */
export class LazyURL {
  #value: string | null = null;

  constructor(
    private readonly viewname: string,
    private readonly options: ReverseOptions = {},
  ) {}

  /** The URL, reversed on first use. */
  toString(): string {
    if (this.#value === null) this.#value = reverse(this.viewname, this.options);
    return this.#value;
  }

  /** JSON output is the URL. */
  toJSON(): string {
    return this.toString();
  }
}

/** Like `reverse()`, but resolved only when the result is first used as a string. */
export function reverseLazy(viewname: string, options: ReverseOptions = {}): LazyURL {
  return new LazyURL(viewname, options);
}
