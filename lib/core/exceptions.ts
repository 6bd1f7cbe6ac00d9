/**
 * The host layer's exceptions (the host framework's `core.exceptions`): the ones the request
 * handler turns into 400/403/404/413 responses, the model layer's lookup errors, and the
 * `ValidationError` of model-field and password validators. The database layer's own errors
 * are in `db/errors.ts`; the API framework's `APIException` family lives in `lib/exceptions.ts`.
 */
export { ImproperlyConfigured } from './conf';

/** The user did something suspicious (a bad Host header, a tampered value): answered with 400. */
export class SuspiciousOperation extends Error {
  override name = 'SuspiciousOperation';
}

/** The Host header is not in `ALLOWED_HOSTS`. */
export class DisallowedHost extends SuspiciousOperation {
  override name = 'DisallowedHost';
}

/** A redirect to a URL with an unsafe scheme was attempted. */
export class DisallowedRedirect extends SuspiciousOperation {
  override name = 'DisallowedRedirect';
}

/** The request body is larger than `DATA_UPLOAD_MAX_MEMORY_SIZE`: answered with 413. */
export class RequestDataTooBig extends SuspiciousOperation {
  override name = 'RequestDataTooBig';
}

/**
 * The client closed the connection (or stopped sending) before the whole request arrived: the
 * host framework's `RequestAborted`. Not a server error: the server logs it as a client abort
 * and no answer can be delivered.
 */
export class RequestAborted extends Error {
  override name = 'RequestAborted';
  constructor(message = 'The client closed the connection before sending the whole request body.') {
    super(message);
  }
}

/** More GET/POST parameters than `DATA_UPLOAD_MAX_NUMBER_FIELDS` were sent. */
export class TooManyFieldsSent extends SuspiciousOperation {
  override name = 'TooManyFieldsSent';
}

/** The user may not do this: answered with 403 (the API framework maps it to its own 403). */
export class PermissionDenied extends Error {
  override name = 'PermissionDenied';
}

/** Raise from a view to answer 404 (the API framework maps it to `NotFound`). */
export class Http404 extends Error {
  override name = 'Http404';
}

/** Raised by `QuerySet.get()` when nothing matches; every model's `DoesNotExist` extends it. */
export class ObjectDoesNotExist extends Error {
  override name = 'DoesNotExist';
}

/** Raised by `QuerySet.get()` when more than one row matches. */
export class MultipleObjectsReturned extends Error {
  override name = 'MultipleObjectsReturned';
}

/**
 * Raised when a lookup or ordering names a field the model does not have, or uses a lookup
 * the field does not support. Never build SQL from the offending name.
 */
export class FieldError extends Error {
  override name = 'FieldError';
}

/**
 * Raised by a model-field or user validator (not an API exception): `message` is shown to the
 * user, `code` identifies the rule. Serializer fields turn it into an error detail.
 */
export class ValidationError extends Error {
  override name = 'ValidationError';
  constructor(
    message: string,
    readonly code: string = 'invalid',
  ) {
    super(message);
  }
}
