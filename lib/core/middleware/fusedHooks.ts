/**
 * Several adjacent hook-style middleware (`MiddlewareMixin` subclasses that keep its `handle()`)
 * run as one step of the chain: their `processRequest()` hooks outermost first, the rest of the
 * chain, then their `processResponse()` hooks innermost first, in one loop each. The answer is
 * the one the nested chain (each middleware's `handle()` wrapped to turn its errors into
 * responses) gives, hook for hook:
 *
 * - a `processRequest()` answer skips the inner middleware and the rest of the chain; it goes
 *   through the `processResponse()` of its own middleware and of the outer ones;
 * - an error of a hook becomes the error response (`toResponse`) that the outer middleware see;
 *   the `processResponse()` of a middleware whose `processRequest()` failed is not called;
 * - a hook answering a promise is waited for; the others are called without an asynchronous
 *   step, so the group costs one promise reaction instead of two per middleware.
 */
import type { HttpRequest, HttpResponse } from '../http';
import type { GetResponse, MiddlewareMixin } from '../middleware';

/** Turns an error into the response the outer middleware see (never rejects). */
export type ErrorToResponse = (request: HttpRequest, error: unknown) => Promise<HttpResponse>;

/** What a `processRequest()` hook may answer. */
type EarlyAnswer = HttpResponse | null | undefined;

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * One chain step running `group` (outermost first) around `next` (a step that never rejects).
 * The step never rejects either: every error becomes a response through `toResponse`.
 */
export function fuseHookMiddleware(group: readonly MiddlewareMixin[], next: GetResponse, toResponse: ErrorToResponse): GetResponse {
  const count = group.length;

  /** The `processResponse()` hooks from `index` down to the outermost, on `response`. */
  const unwind = (request: HttpRequest, response: HttpResponse, index: number): HttpResponse | Promise<HttpResponse> => {
    for (let i = index; i >= 0; i--) {
      let answer: HttpResponse | Promise<HttpResponse>;
      try {
        answer = group[i].processResponse(request, response);
      } catch (error) {
        return toResponse(request, error).then((converted) => unwind(request, converted, i - 1));
      }
      if (isPromiseLike(answer)) {
        return Promise.resolve(answer).then(
          (resolved) => unwind(request, resolved, i - 1),
          (error: unknown) => toResponse(request, error).then((converted) => unwind(request, converted, i - 1)),
        );
      }
      response = answer;
    }
    return response;
  };

  /** The `processRequest()` hooks from `index` inward, then the rest of the chain. */
  const enter = (request: HttpRequest, index: number): Promise<HttpResponse> => {
    for (let i = index; i < count; i++) {
      let early: EarlyAnswer | Promise<EarlyAnswer>;
      try {
        early = group[i].processRequest(request);
      } catch (error) {
        return toResponse(request, error).then((converted) => unwind(request, converted, i - 1));
      }
      if (isPromiseLike(early)) {
        return Promise.resolve(early).then(
          (answer) => (answer !== null && answer !== undefined ? unwind(request, answer, i) : enter(request, i + 1)),
          (error: unknown) => toResponse(request, error).then((converted) => unwind(request, converted, i - 1)),
        );
      }
      if (early !== null && early !== undefined) {
        const response = unwind(request, early, i);
        return isPromiseLike(response) ? response : Promise.resolve(response);
      }
    }
    return next(request).then((response) => unwind(request, response, count - 1));
  };

  return (request) => enter(request, 0);
}
