/**
 * Outages of the services a request depends on (the database, the cache): telling their errors
 * from other failures, answering them with 503 + `Retry-After` instead of a 500, and logging
 * each outage once (its first error, then a reminder at most once a minute, then its end)
 * instead of once per request.
 *
 * An error counts as an outage when the service cannot be reached or does not answer in time:
 * Sequelize's connection errors (refused, host not found, pool acquire timeout, access denied),
 * its `TimeoutError` (SQLite busy past the busy timeout), driver errors with a network code
 * (`ECONNREFUSED`, `ECONNRESET`, `ETIMEDOUT`, `PROTOCOL_CONNECTION_LOST`, the query timeout's
 * `PROTOCOL_SEQUENCE_TIMEOUT`), and ioredis's `MaxRetriesPerRequestError`, `Command timed out`
 * and `Connection is closed.`. SQL errors (syntax, constraints) are not outages.
 */
import { settings } from './conf';
import { HttpResponse } from './http/response';

/** A service whose outage answers 503. */
export type Service = 'database' | 'cache';

/** The wire text of the 503 (the API framework's `ServiceUnavailable` default detail). */
export const SERVICE_UNAVAILABLE_DETAIL = 'Service temporarily unavailable, try again later.';

/**
 * Raise it (or let the framework raise it) when a service the request needs is down: the
 * handler answers 503 with `Retry-After`. `cause` is the driver's error.
 */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';
  constructor(
    readonly service: Service,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT', 'SQLITE_BUSY',
]);

const SEQUELIZE_OUTAGES = /^Sequelize(?:Connection\w*|HostNot\w*|AccessDenied|InvalidConnection|Timeout)Error$/;

const REDIS_MESSAGES = /^(?:Command timed out|Connection is closed\.|Stream isn't writeable|Reached the max retries per request limit)/;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The service `error` says is down, or null when it is another kind of failure. */
export function outageOf(error: unknown): Service | null {
  if (error instanceof ServiceUnavailableError) return error.service;
  if (!(error instanceof Error)) return null;
  if (error.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.test(error.message)) return 'cache';
  if (SEQUELIZE_OUTAGES.test(error.name)) return 'database';
  // Sequelize wraps driver errors (DatabaseError.parent / .original); a bare network error
  // (from user code calling another service) is not the database's.
  const wrapped = (error as { parent?: unknown; original?: unknown }).parent ?? (error as { original?: unknown }).original;
  const code = codeOf(wrapped);
  if (error.name.startsWith('Sequelize') && code && NETWORK_CODES.has(code)) return 'database';
  if (error.name === 'OperationalError') return 'database';
  return null;
}

interface OutageState {
  since: number;
  lastLogged: number;
  failures: number;
}

const outages = new Map<Service, OutageState>();

/** Minimum milliseconds between two log lines about one ongoing outage. */
const REMINDER_INTERVAL_MS = 60_000;

const LABELS: Record<Service, string> = { database: 'Database', cache: 'Cache' };

function log(line: string): void {
  const setting = settings.LOG_SERVER_ERRORS;
  if (setting === false || (setting !== true && process.env.API_FRAMEWORK_QUIET === '1')) return;
  process.stderr.write(`${line}\n`);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const wrapped = (error as { parent?: unknown }).parent;
  const reason = wrapped instanceof Error && wrapped.message !== error.message ? `${error.message} (${wrapped.message})` : error.message;
  return `${error.name}: ${reason}`;
}

/**
 * Record a failure of `service`: the first of an outage is logged with its reason, the next
 * ones only counted (a reminder line at most once a minute).
 */
export function reportOutage(service: Service, error: unknown): void {
  const now = Date.now();
  const state = outages.get(service);
  if (!state) {
    outages.set(service, { since: now, lastLogged: now, failures: 1 });
    log(`${LABELS[service]} unavailable: ${describe(error)}. Requests that need it answer 503 until it recovers.`);
    return;
  }
  state.failures += 1;
  if (now - state.lastLogged >= REMINDER_INTERVAL_MS) {
    state.lastLogged = now;
    log(`${LABELS[service]} still unavailable after ${((now - state.since) / 1000).toFixed(0)} s (${state.failures} failures): ${describe(error)}.`);
  }
}

/** Record a success of `service`: ends its outage (logged once) if there is one. Cheap otherwise. */
export function reportRecovery(service: Service): void {
  if (outages.size === 0) return;
  const state = outages.get(service);
  if (!state) return;
  outages.delete(service);
  log(`${LABELS[service]} available again after ${((Date.now() - state.since) / 1000).toFixed(1)} s (${state.failures} failures).`);
}

/** Whether an outage of `service` is ongoing (its last call failed). */
export function isUnavailable(service: Service): boolean {
  return outages.has(service);
}

/** Forget every outage (tests). */
export function resetOutages(): void {
  outages.clear();
}

/** The `Retry-After` seconds of an outage's 503 (`SERVICE_UNAVAILABLE_RETRY_AFTER`). */
export function outageRetryAfter(): number {
  const value = Number(settings.SERVICE_UNAVAILABLE_RETRY_AFTER);
  return Number.isFinite(value) && value >= 1 ? Math.floor(value) : 5;
}

/**
 * The answer to a request that failed because `service` is down: 503 JSON
 * `{"detail":"Service temporarily unavailable, try again later."}` with `Retry-After`. Records
 * the outage (logged once).
 */
export function serviceUnavailableResponse(service: Service, error: unknown): HttpResponse {
  reportOutage(service, error);
  return new HttpResponse(JSON.stringify({ detail: SERVICE_UNAVAILABLE_DETAIL }), {
    status: 503,
    contentType: 'application/json',
    headers: { 'Retry-After': String(outageRetryAfter()) },
  });
}
