/**
 * The response classes for one status: redirects (302, 301), 304, 400, 403, 404, 405, 500.
 */
import { iriToUri } from '../encoding';
import { DisallowedRedirect } from '../exceptions';
import { HttpResponse, type ResponseInit } from './response';

const ALLOWED_REDIRECT_SCHEMES = new Set(['http', 'https', 'ftp']);

/**
 * A 302 redirect to `url`. The `Location` is `iriToUri(url)`: non-ASCII text and characters a
 * URI may not hold are percent-encoded, existing `%XX` escapes are kept (`?next=%2Fadmin%2F`
 * stays intact).
 */
export class HttpResponseRedirect extends HttpResponse {
  constructor(url: string, init: ResponseInit = {}) {
    super('', { status: 302, ...init });
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
    if (scheme && !ALLOWED_REDIRECT_SCHEMES.has(scheme.toLowerCase())) {
      throw new DisallowedRedirect(`Unsafe redirect to URL with protocol '${scheme}'`);
    }
    this.setHeader('Location', iriToUri(url));
  }

  /** The redirect target. */
  get url(): string {
    return this.getHeader('Location') ?? '';
  }
}

/** A 301 redirect to `url`. */
export class HttpResponsePermanentRedirect extends HttpResponseRedirect {
  constructor(url: string, init: ResponseInit = {}) {
    super(url, { ...init, status: 301 });
  }
}

/** A 405 response listing the permitted methods in `Allow`. */
export class HttpResponseNotAllowed extends HttpResponse {
  constructor(permittedMethods: string[], init: ResponseInit = {}) {
    super('', { ...init, status: 405 });
    this.setHeader('Allow', permittedMethods.map((m) => m.toUpperCase()).join(', '));
  }
}

/** A 304 response (no body). */
export class HttpResponseNotModified extends HttpResponse {
  constructor(init: ResponseInit = {}) {
    super('', { ...init, status: 304 });
    this.removeHeader('Content-Type');
  }
}

/** A 400 response. */
export class HttpResponseBadRequest extends HttpResponse {
  constructor(content: Buffer | string = '', init: ResponseInit = {}) {
    super(content, { ...init, status: 400 });
  }
}

/** A 403 response. */
export class HttpResponseForbidden extends HttpResponse {
  constructor(content: Buffer | string = '', init: ResponseInit = {}) {
    super(content, { ...init, status: 403 });
  }
}

/** A 404 response. */
export class HttpResponseNotFound extends HttpResponse {
  constructor(content: Buffer | string = '', init: ResponseInit = {}) {
    super(content, { ...init, status: 404 });
  }
}

/** A 500 response. */
export class HttpResponseServerError extends HttpResponse {
  constructor(content: Buffer | string = '', init: ResponseInit = {}) {
    super(content, { ...init, status: 500 });
  }
}
