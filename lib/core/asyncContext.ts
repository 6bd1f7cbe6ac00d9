/**
 * The host layer's request-scoped async context: the active language (`i18n`) and the database
 * layer's continuation-local values (the current transaction) share one `AsyncLocalStorage`.
 *
 * On Node 20 an enabled `AsyncLocalStorage` installs promise hooks for the whole process, and
 * from then on every promise pays for them, whether it belongs to a context or not. So the
 * storage is enabled only while at least one `runInContext()` is under way, and disabled when
 * the last one has returned (or its promise has settled): requests that activate no language
 * and open no transaction run without the hooks. A context is visible to everything its
 * callback runs and awaits until the callback's result settles; work detached from it (a timer
 * it started and did not await) must not rely on the context once the callback is done.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The active language of a context; shared by the contexts nested in it (`activate()` writes it). */
export interface LanguageCell {
  language: string | null;
}

/** One async context: a language cell and the database layer's values (null: none yet). */
export interface AsyncContext {
  readonly language: LanguageCell | null;
  readonly values: Map<string, unknown> | null;
}

const storage = new AsyncLocalStorage<AsyncContext>();
let running = 0;

function release(): void {
  running -= 1;
  // No context is under way any more: turn the process-wide promise hooks off.
  if (running === 0) storage.disable();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The context of the running async call chain, if any. */
export function currentContext(): AsyncContext | undefined {
  return storage.getStore();
}

/**
 * Run `fn` (and everything it awaits) in `context`, and return its result. The storage stays
 * enabled until `fn` returns, or until the promise it returns settles.
 */
export function runInContext<T>(context: AsyncContext, fn: () => T): T {
  running += 1;
  let result: T;
  try {
    result = storage.run(context, fn);
  } catch (error) {
    release();
    throw error;
  }
  if (isThenable(result)) result.then(release, release);
  else release();
  return result;
}

/** The number of `runInContext()` calls under way (0: the storage is disabled). */
export function contextsRunning(): number {
  return running;
}
