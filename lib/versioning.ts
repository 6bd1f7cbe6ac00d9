/**
 * Provides the API versioning schemes: the version is read from the Accept header, the URL
 * path, the URL namespace, the host name or a query parameter, and checked against the
 * allowed versions. Each scheme may also rewrite `reverse()` so generated links keep the version.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - Versioning: `defaultVersion` / `allowedVersions` / `versionParam` left undefined read the
 *   settings at call time; `determineVersion(request, kwargs)`; `reverse(viewname, options)`.
 */
import { gettext } from './core/i18n';
import { NotAcceptable, NotFound } from './exceptions';
import { plainReverse, type ReverseOptions } from './reverse';
import { apiSettings } from './settings';
import { parseMediaType } from './utils/mediatypes';
import { replaceQueryParam } from './utils/urls';
import type { Request } from './request';

/** A versioning scheme class, as in `versioningClass` and `DEFAULT_VERSIONING_CLASS`. */
export type VersioningClass = new () => BaseVersioning;

/**
 * The base versioning scheme. Subclass it and override `determineVersion()` for a custom
 * scheme, and `reverse()` when the version must appear in generated URLs.
 *
 * `defaultVersion`, `allowedVersions` and `versionParam` left `undefined` read the
 * DEFAULT_VERSION, ALLOWED_VERSIONS and VERSION_PARAM settings at call time; set them in a
 * subclass to configure one view.
 */
export class BaseVersioning {
  /** The version used when the request carries none (undefined: DEFAULT_VERSION). */
  defaultVersion?: string | null;
  /** The versions accepted (undefined: ALLOWED_VERSIONS; null or empty: any). */
  allowedVersions?: readonly string[] | null;
  /** The media type or query parameter naming the version (undefined: VERSION_PARAM). */
  versionParam?: string;
  /** The detail of the error raised for a version that is not allowed. */
  invalidVersionMessage = 'Invalid version.';

  /** The effective default version. */
  getDefaultVersion(): string | null {
    return this.defaultVersion !== undefined ? this.defaultVersion : apiSettings.DEFAULT_VERSION;
  }

  /** The effective allowed versions. */
  getAllowedVersions(): readonly string[] | null {
    return this.allowedVersions !== undefined ? this.allowedVersions : apiSettings.ALLOWED_VERSIONS;
  }

  /** The effective version parameter name. */
  getVersionParam(): string {
    return this.versionParam ?? apiSettings.VERSION_PARAM;
  }

  /**
   * Return the version the request asks for, or raise when it is not allowed. Every scheme
   * overrides this.
   */
  determineVersion(_request: Request, _kwargs: Record<string, unknown> = {}): string | null {
    throw new Error('.determineVersion() must be implemented.');
  }

  /** Reverse a URL for `request`; override when the version must be part of the URL. */
  reverse(viewname: string, options: ReverseOptions = {}): string {
    return plainReverse(viewname, options);
  }

  /**
   * True when `version` may be used: any version when no list is set, otherwise a listed one
   * or the default version.
   */
  isAllowedVersion(version: string | null | undefined): boolean {
    const allowed = this.getAllowedVersions();
    if (!allowed || allowed.length === 0) return true;
    const defaultVersion = this.getDefaultVersion();
    return (version !== null && version !== undefined && version === defaultVersion) || allowed.includes(version as string);
  }
}

function requestVersion(options: ReverseOptions): string | null {
  const request = options.request;
  if (request && 'version' in request && typeof request.version === 'string') return request.version;
  return null;
}

/**
 * GET /something/ HTTP/1.1
 * Host: example.com
 * Accept: application/json; version=1.0
 *
 * The version is a parameter of the accepted media type; an unknown one answers 406.
 */
export class AcceptHeaderVersioning extends BaseVersioning {
  override invalidVersionMessage = 'Invalid version in "Accept" header.';

  override determineVersion(request: Request): string | null {
    const params = parseMediaType(request.acceptedMediaType ?? '').params;
    const param = this.getVersionParam();
    const version = Object.prototype.hasOwnProperty.call(params, param) ? params[param] : this.getDefaultVersion();
    if (!this.isAllowedVersion(version)) throw new NotAcceptable(gettext(this.invalidVersionMessage));
    return version;
  }

  // reverse() needs no override: the version is in the Accept header, not in the URL.
}

/**
 * To the client this is the same style as `NamespaceVersioning`; the difference is in the
 * URL conf: the version is a keyword argument of the route (`<version>/bookings/`).
 * An unknown version answers 404.
 */
export class URLPathVersioning extends BaseVersioning {
  override invalidVersionMessage = 'Invalid version in URL path.';

  override determineVersion(_request: Request, kwargs: Record<string, unknown> = {}): string | null {
    const raw = kwargs[this.getVersionParam()];
    const version = raw === undefined || raw === null ? this.getDefaultVersion() : String(raw);
    if (!this.isAllowedVersion(version)) throw new NotFound(gettext(this.invalidVersionMessage));
    return version;
  }

  /** Put the request's version into the reversed URL's keyword arguments. */
  override reverse(viewname: string, options: ReverseOptions = {}): string {
    const version = requestVersion(options);
    if (version !== null) {
      options = { ...options, kwargs: { ...(options.kwargs ?? {}), [this.getVersionParam()]: version } };
    }
    return super.reverse(viewname, options);
  }
}

/**
 * The version is the URL namespace the request resolved under
 * (`include(bookingsUrls, { namespace: 'v1' })`). Nested namespaces are searched left to right.
 */
export class NamespaceVersioning extends BaseVersioning {
  override invalidVersionMessage = 'Invalid version in URL path. Does not match any version namespace.';

  override determineVersion(request: Request): string | null {
    const match = request.httpRequest.resolverMatch;
    if (!match || !match.namespace) return this.getDefaultVersion();
    for (const version of match.namespace.split(':')) {
      if (this.isAllowedVersion(version)) return version;
    }
    throw new NotFound(gettext(this.invalidVersionMessage));
  }

  /** Reverse `<version>:<viewname>` for a versioned request. */
  override reverse(viewname: string, options: ReverseOptions = {}): string {
    const version = requestVersion(options);
    if (version !== null) viewname = this.getVersionedViewname(viewname, version);
    return super.reverse(viewname, options);
  }

  /** The namespaced view name for `version`; override to map versions to other namespaces. */
  getVersionedViewname(viewname: string, version: string): string {
    return `${version}:${viewname}`;
  }
}

/**
 * GET /something/ HTTP/1.1
 * Host: v1.example.com
 *
 * The version is the first label of a three-label host name; other hosts get the default.
 */
export class HostNameVersioning extends BaseVersioning {
  /** Matches the host name (without port); group 1 is the version. */
  hostnameRegex = /^([a-zA-Z0-9]+)\.[a-zA-Z0-9]+\.[a-zA-Z0-9]+$/;
  override invalidVersionMessage = 'Invalid version in hostname.';

  override determineVersion(request: Request): string | null {
    const host = request.httpRequest.getHost();
    const colon = host.indexOf(':');
    const hostname = colon >= 0 ? host.slice(0, colon) : host;
    const match = this.hostnameRegex.exec(hostname);
    if (!match) return this.getDefaultVersion();
    const version = match[1];
    if (!this.isAllowedVersion(version)) throw new NotFound(gettext(this.invalidVersionMessage));
    return version;
  }

  // reverse() needs no override: the version is in the host name, and reversed URLs are
  // made absolute with the request's host already.
}

/**
 * GET /something/?version=0.1 HTTP/1.1
 *
 * The version is a query parameter; reversed URLs get the same parameter.
 */
export class QueryParameterVersioning extends BaseVersioning {
  override invalidVersionMessage = 'Invalid version in query parameter.';

  override determineVersion(request: Request): string | null {
    const param = this.getVersionParam();
    const query = request.httpRequest.query;
    const version = query.has(param) ? (query.get(param) ?? null) : this.getDefaultVersion();
    if (!this.isAllowedVersion(version)) throw new NotFound(gettext(this.invalidVersionMessage));
    return version;
  }

  /** Add `?version=<version>` to the reversed URL of a versioned request. */
  override reverse(viewname: string, options: ReverseOptions = {}): string {
    const url = super.reverse(viewname, options);
    const version = requestVersion(options);
    return version !== null ? replaceQueryParam(url, this.getVersionParam(), version) : url;
  }
}
