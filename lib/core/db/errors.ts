/**
 * The database layer's exceptions, named as Django names them so callers (generic views,
 * `get_object_or_404`-style helpers) can catch them the same way. The lookup errors Django keeps
 * in `core.exceptions` (`ObjectDoesNotExist`, `MultipleObjectsReturned`, `FieldError`) live in
 * `lib/core/exceptions.ts` and are re-exported here.
 */
export { FieldError, MultipleObjectsReturned, ObjectDoesNotExist } from '../exceptions';

/**
 * Raised when a lookup value cannot be converted for its field (`Field 'id' expected a
 * number but got 'abc'.`). Django raises `ValueError`; DRF's `get_object_or_404` turns it
 * into a 404, and so should ours.
 */
export class ValueError extends Error {
  override name = 'ValueError';
}

/** Raised for queryset misuse, such as filtering a sliced queryset (Django's `TypeError`s). */
export class QuerySetError extends TypeError {
  override name = 'TypeError';
}

/** Raised by `atomic()` misuse and by the connection when the database is unusable. */
export class DatabaseError extends Error {
  override name = 'DatabaseError';
}

/**
 * Raised when the database cannot be reached (Django's `django.db.utils.OperationalError`):
 * `checkDatabaseConnection()` names the URL (password masked) and the driver's reason.
 */
export class OperationalError extends DatabaseError {
  override name = 'OperationalError';
}

/**
 * Raised when the connected backend cannot run a query feature (Django's
 * `django.db.utils.NotSupportedError`), e.g. `regex` lookups on SQLite.
 */
export class NotSupportedError extends DatabaseError {
  override name = 'NotSupportedError';
}
