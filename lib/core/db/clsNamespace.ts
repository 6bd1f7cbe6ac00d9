/**
 * A continuation-local storage namespace in the shape Sequelize's `useCLS()` expects (`run`,
 * `get`, `set`, `bind`, `active`), over the host layer's shared async context
 * (`lib/core/asyncContext`). It carries the current transaction, so every query inside
 * `atomic()` joins it without passing options around. Outside any `run()` nothing is stored,
 * and the async context stays disabled (no per-promise cost).
 */
import { currentContext, runInContext, type AsyncContext } from '../asyncContext';

type Context = Map<string, unknown>;

/** A child of the current context: a copy of its values, the same language. */
function childContext(): AsyncContext {
  const parent = currentContext();
  return { language: parent?.language ?? null, values: new Map(parent?.values ?? []) };
}

/** The namespace handed to `Sequelize.useCLS()`. */
export const clsNamespace = {
  /** The context of the running async call chain, if any. */
  get active(): Context | undefined {
    return currentContext()?.values ?? undefined;
  },
  /** Run `fn` in a child context that starts with a copy of the current one. */
  run<T>(fn: (context: Context) => T): Context {
    const context = childContext();
    const values = context.values as Context;
    runInContext(context, () => fn(values));
    return values;
  },
  /** Run `fn` in a child context and return its result. */
  runAndReturn<T>(fn: (context: Context) => T): T {
    const context = childContext();
    const values = context.values as Context;
    return runInContext(context, () => fn(values));
  },
  /** Bind `fn` to the current context. */
  bind<F extends (...args: never[]) => unknown>(fn: F): F {
    const context = currentContext();
    if (!context) return fn;
    return ((...args: Parameters<F>) => runInContext(context, () => fn(...args))) as F;
  },
  /** Read a key of the current context. */
  get(key: string): unknown {
    return currentContext()?.values?.get(key);
  },
  /** Set a key of the current context (ignored outside any context). */
  set(key: string, value: unknown): void {
    currentContext()?.values?.set(key, value);
  },
};
