/**
 * Handled exceptions raised by API views and their policies.
 *
 * `exceptionHandler` (lib/views.ts) turns any `APIException` into a response whose status is
 * the exception's `statusCode` and whose body is `{"detail": ...}` (or the validation errors).
 * Subclass `APIException` with new `statusCode`, `defaultDetail` and `defaultCode` statics for
 * custom errors.
 */
import { HttpResponse, type HttpRequest } from './core/http';
import { gettext } from './core/i18n';
import { dumps } from './utils/json';
import { returnDict, returnList } from './utils/serializerHelpers';
import { isPlainObject } from './core/typeGuards';

/**
 * A string that also carries a machine-readable error `code`.
 *
 * It is a `String` object: it renders as its text in JSON and templates, compares loosely
 * equal (`==`) to plain strings, and `equals()` also compares codes when the other side has one.
 */
export class ErrorDetail extends String {
  /** Machine-readable identifier of the error, such as `required` or `invalid`. */
  readonly code: string | null;

  constructor(text: string, code: string | null = null) {
    super(text);
    this.code = code;
  }

  /** The plain text. */
  get string(): string {
    return this.valueOf();
  }

  /** Same text and, when `other` is an `ErrorDetail`, the same code. */
  equals(other: unknown): boolean {
    if (other instanceof ErrorDetail) return this.valueOf() === other.valueOf() && this.code === other.code;
    return typeof other === 'string' && this.valueOf() === other;
  }

  /** Serialise as the plain text. */
  toJSON(): string {
    return this.valueOf();
  }

  /** Debug representation, as in the original. */
  inspect(): string {
    return `ErrorDetail(string=${JSON.stringify(this.valueOf())}, code=${JSON.stringify(this.code)})`;
  }
}

/** Normalised error details: an `ErrorDetail`, or lists and objects of them, nested. */
export type ErrorDetails = ErrorDetail | ErrorDetails[] | { [key: string]: ErrorDetails };

/** What may be passed as a detail: text (or anything printable), lists and objects of them. */
export type DetailInput = string | ErrorDetail | number | boolean | DetailInput[] | { [key: string]: DetailInput };

/** Error codes in the shape of the details. */
export type ErrorCodes = string | null | ErrorCodes[] | { [key: string]: ErrorCodes };

/** `{message, code}` pairs in the shape of the details. */
export type FullDetails =
  | { message: ErrorDetail; code: string | null }
  | FullDetails[]
  | { [key: string]: FullDetails };

/** The serializer a `ReturnDict`/`ReturnList` (e.g. `serializer.errors`) refers back to, if any. */
function serializerBehind(data: object): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(data, 'serializer');
  return descriptor && !descriptor.enumerable ? descriptor.value : undefined;
}

/**
 * Turn nested text into nested `ErrorDetail`s, keeping existing codes. Details built from
 * `serializer.errors` keep its back-reference to the serializer (the browsable API refills
 * the form of a failed request from it).
 */
export function getErrorDetails(data: unknown, defaultCode: string | null = null): ErrorDetails {
  if (Array.isArray(data)) {
    const result = data.map((item) => getErrorDetails(item, defaultCode));
    const serializer = serializerBehind(data);
    if (serializer !== undefined) returnList(result, serializer);
    return result;
  }
  if (isPlainObject(data)) {
    const result: { [key: string]: ErrorDetails } = {};
    for (const [key, value] of Object.entries(data)) result[key] = getErrorDetails(value, defaultCode);
    const serializer = serializerBehind(data);
    if (serializer !== undefined) returnDict(result, serializer);
    return result;
  }
  if (data instanceof ErrorDetail) return data;
  const code = data !== null && typeof data === 'object' && 'code' in data && typeof data.code === 'string'
    ? data.code
    : defaultCode;
  return new ErrorDetail(String(data), code);
}

function getCodes(detail: ErrorDetails): ErrorCodes {
  if (Array.isArray(detail)) return detail.map(getCodes);
  if (detail instanceof ErrorDetail) return detail.code;
  const result: { [key: string]: ErrorCodes } = {};
  for (const [key, value] of Object.entries(detail)) result[key] = getCodes(value);
  return result;
}

function getFullDetails(detail: ErrorDetails): FullDetails {
  if (Array.isArray(detail)) return detail.map(getFullDetails);
  if (detail instanceof ErrorDetail) return { message: detail, code: detail.code };
  const result: { [key: string]: FullDetails } = {};
  for (const [key, value] of Object.entries(detail)) result[key] = getFullDetails(value);
  return result;
}

/**
 * Base class for REST framework exceptions.
 * Subclasses should provide `statusCode`, `defaultDetail` and `defaultCode` statics.
 */
export class APIException extends Error {
  static statusCode = 500;
  static defaultDetail = 'A server error occurred.';
  static defaultCode = 'error';

  /** The HTTP status; an instance field so that a handler can rewrite it (401 -> 403). */
  statusCode: number;
  /** The normalised details: an `ErrorDetail`, or a list/object of them. */
  detail: ErrorDetails;

  constructor(detail?: DetailInput | null, code?: string | null) {
    super();
    const cls = new.target as typeof APIException;
    this.name = cls.name;
    this.statusCode = cls.statusCode;
    const text = detail ?? gettext(cls.defaultDetail);
    this.detail = getErrorDetails(text, code ?? cls.defaultCode);
    this.message = String(this.detail);
  }

  /** The error codes, in the same shape as `detail`. */
  getCodes(): ErrorCodes {
    return getCodes(this.detail);
  }

  /** `{message, code}` pairs, in the same shape as `detail`. */
  getFullDetails(): FullDetails {
    return getFullDetails(this.detail);
  }

  override toString(): string {
    return String(this.detail);
  }
}

/**
 * Raised by fields, validators and serializers when input is invalid.
 * The detail is always a list or an object: a single message becomes a one-item list.
 */
export class ValidationError extends APIException {
  static override statusCode = 400;
  static override defaultDetail = 'Invalid input.';
  static override defaultCode = 'invalid';

  constructor(detail?: DetailInput | null, code?: string | null) {
    const text: DetailInput = detail ?? gettext(ValidationError.defaultDetail);
    super(Array.isArray(text) || isPlainObject(text) ? text : [text], code);
  }

  override toString(): string {
    return JSON.stringify(this.detail);
  }
}

/** The request body could not be parsed. */
export class ParseError extends APIException {
  static override statusCode = 400;
  static override defaultDetail = 'Malformed request.';
  static override defaultCode = 'parse_error';
}

/** Credentials were given but are wrong. */
export class AuthenticationFailed extends APIException {
  static override statusCode = 401;
  static override defaultDetail = 'Incorrect authentication credentials.';
  static override defaultCode = 'authentication_failed';
}

/** An unauthenticated request failed the permission checks. */
export class NotAuthenticated extends APIException {
  static override statusCode = 401;
  static override defaultDetail = 'Authentication credentials were not provided.';
  static override defaultCode = 'not_authenticated';
}

/** The request is not allowed to perform this action. */
export class PermissionDenied extends APIException {
  static override statusCode = 403;
  static override defaultDetail = 'You do not have permission to perform this action.';
  static override defaultCode = 'permission_denied';
}

/** No resource at this URL. */
export class NotFound extends APIException {
  static override statusCode = 404;
  static override defaultDetail = 'Not found.';
  static override defaultCode = 'not_found';
}

/** The view has no handler for the request method. */
export class MethodNotAllowed extends APIException {
  static override statusCode = 405;
  static override defaultDetail = 'Method "{method}" not allowed.';
  static override defaultCode = 'method_not_allowed';

  constructor(method: string, detail?: DetailInput | null, code?: string | null) {
    super(detail ?? gettext(MethodNotAllowed.defaultDetail).replace('{method}', method), code);
  }
}

/** No renderer can satisfy the Accept header. */
export class NotAcceptable extends APIException {
  static override statusCode = 406;
  static override defaultDetail = 'Could not satisfy the request Accept header.';
  static override defaultCode = 'not_acceptable';

  /** The renderers that were considered, for error pages that list alternatives. */
  availableRenderers: unknown[] | null;

  constructor(detail?: DetailInput | null, code?: string | null, availableRenderers: unknown[] | null = null) {
    super(detail, code);
    this.availableRenderers = availableRenderers;
  }
}

/** No parser handles the request's content type. */
export class UnsupportedMediaType extends APIException {
  static override statusCode = 415;
  static override defaultDetail = 'Unsupported media type "{media_type}" in request.';
  static override defaultCode = 'unsupported_media_type';

  constructor(mediaType: string, detail?: DetailInput | null, code?: string | null) {
    super(detail ?? gettext(UnsupportedMediaType.defaultDetail).replace('{media_type}', mediaType), code);
  }
}

/** A throttle refused the request; `wait` is the number of seconds until it may retry. */
export class Throttled extends APIException {
  static override statusCode = 429;
  static override defaultDetail = 'Request was throttled.';
  static override defaultCode = 'throttled';
  static extraDetailSingular = 'Expected available in {wait} second.';
  static extraDetailPlural = 'Expected available in {wait} seconds.';

  /** Whole seconds until the request may be retried, or null when unknown. */
  wait: number | null;

  constructor(wait?: number | null, detail?: string | null, code?: string | null) {
    let text = detail ?? gettext(Throttled.defaultDetail);
    let seconds: number | null = null;
    if (wait !== undefined && wait !== null) {
      seconds = Math.ceil(wait);
      const extra = seconds === 1 ? Throttled.extraDetailSingular : Throttled.extraDetailPlural;
      text = `${text} ${gettext(extra).replace('{wait}', String(seconds))}`;
    }
    super(text, code);
    this.wait = seconds;
  }
}

/** Generic 500 error view, for `handler500` in a URL conf: `{"error": "Server Error (500)"}`. */
export function serverError(_request: HttpRequest, _error?: unknown): HttpResponse {
  return new HttpResponse(dumps({ error: 'Server Error (500)' }), { status: 500, contentType: 'application/json' });
}

/** Generic 400 error view, for `handler400` in a URL conf: `{"error": "Bad Request (400)"}`. */
export function badRequest(_request: HttpRequest, _exception?: unknown): HttpResponse {
  return new HttpResponse(dumps({ error: 'Bad Request (400)' }), { status: 400, contentType: 'application/json' });
}
