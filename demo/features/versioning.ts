/**
 * One versioning scheme per style, each configured on its own class.
 */
import { versioning } from 'api_framework';

/** `/features/<version>/bookings/` with `v1` or `v2`. */
export class BookingsVersioning extends versioning.URLPathVersioning {
  override allowedVersions = ['v1', 'v2'];
}

/** `Accept: application/json; version=2.0`; `1.0` when absent. */
export class AcceptVersioning extends versioning.AcceptHeaderVersioning {
  override defaultVersion = '1.0';
  override allowedVersions = ['1.0', '2.0'];
}

/** `?version=2`; `1` when absent. */
export class QueryVersioning extends versioning.QueryParameterVersioning {
  override defaultVersion = '1';
  override allowedVersions = ['1', '2'];
}

/** `Host: v1.example.com` or `v2.example.com`. */
export class HostVersioning extends versioning.HostNameVersioning {
  override allowedVersions = ['v1', 'v2'];
}
