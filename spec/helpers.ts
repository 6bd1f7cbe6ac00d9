/**
 * Helpers shared by the spec files: the settings most view specs run under, a suite-wide
 * settings override, calling a view function as the handler would, a user without a row, and
 * counting the calls of a method while something runs.
 */
import type { Test } from 'uvu';
import { overrideSettings, type ProjectSettings } from '../lib/core/conf';
import { responseForException } from '../lib/core/handler';
import { HttpRequest, type AuthUser, type HttpResponse } from '../lib/core/http';
import type { ViewFunction } from '../lib/core/urls';
import { Response } from '../lib/response';

/** `API_FRAMEWORK` for specs asserting exact bytes: the JSON renderer only, no authentication. */
export function jsonOnlyApiSettings(): Record<string, unknown> {
  return { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [] };
}

/** Override `values` for the whole suite: entered in `before()`, restored in `after()`. */
export function useSettings<T>(test: Test<T>, values: () => Partial<ProjectSettings>): void {
  let restore: (() => void) | undefined;
  test.before(() => {
    restore = overrideSettings.enter(values());
  });
  test.after(() => restore?.());
}

/**
 * Call `view` with a socket-less request and render the response; an error is answered as the
 * host handler answers it (`responseForException`).
 */
export async function callView(
  view: ViewFunction,
  init: Parameters<typeof HttpRequest.create>[0] = {},
  kwargs: Record<string, unknown> = {},
): Promise<HttpResponse> {
  const request = HttpRequest.create({ url: '/', ...init });
  try {
    const response = await view(request, kwargs);
    if (response instanceof Response) await response.render();
    return response;
  } catch (error) {
    return responseForException(request, error);
  }
}

/** An authenticated, active, non-staff user without a database row and without permissions. */
export function fakeUser(pk: number, username = `user${pk}`): AuthUser {
  return {
    pk,
    id: pk,
    username,
    is_active: true,
    is_staff: false,
    is_superuser: false,
    isAuthenticated: true,
    isAnonymous: false,
    hasPerm: () => false,
    hasPerms: () => false,
  };
}

/**
 * Counts the calls of the method `name` of `targets` (models' statics such as `findAll` or
 * `bulkBuild`) while `fn` runs; answers fn's result and the count. The methods are restored
 * afterwards, own descriptors included.
 */
export async function countCalls<T>(targets: readonly object[], name: string, fn: () => Promise<T>): Promise<[T, number]> {
  let calls = 0;
  const originals = targets.map((target) => Object.getOwnPropertyDescriptor(target, name));
  for (const target of targets) {
    const original = (target as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value(this: unknown, ...args: unknown[]) {
        calls += 1;
        return original.apply(this, args);
      },
    });
  }
  try {
    return [await fn(), calls];
  } finally {
    targets.forEach((target, i) => {
      const descriptor = originals[i];
      if (descriptor) Object.defineProperty(target, name, descriptor);
      else delete (target as Record<string, unknown>)[name];
    });
  }
}
