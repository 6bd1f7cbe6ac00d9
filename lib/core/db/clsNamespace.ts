/**
 * A continuation-local storage namespace over `AsyncLocalStorage`, in the shape Sequelize's
 * `useCLS()` expects (`run`, `get`, `set`, `bind`, `active`). It carries the current
 * transaction, so every query inside `atomic()` joins it without passing options around.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

type Context = Map<string, unknown>;

const storage = new AsyncLocalStorage<Context>();

/** The namespace handed to `Sequelize.useCLS()`. */
export const clsNamespace = {
  /** The context of the running async call chain, if any. */
  get active(): Context | undefined {
    return storage.getStore();
  },
  /** Run `fn` in a child context that starts with a copy of the current one. */
  run<T>(fn: (context: Context) => T): Context {
    const context: Context = new Map(storage.getStore() ?? []);
    storage.run(context, () => fn(context));
    return context;
  },
  /** Run `fn` in a child context and return its result. */
  runAndReturn<T>(fn: (context: Context) => T): T {
    const context: Context = new Map(storage.getStore() ?? []);
    return storage.run(context, () => fn(context));
  },
  /** Bind `fn` to the current context. */
  bind<F extends (...args: never[]) => unknown>(fn: F): F {
    const context = storage.getStore();
    if (!context) return fn;
    return ((...args: Parameters<F>) => storage.run(context, () => fn(...args))) as F;
  },
  /** Read a key of the current context. */
  get(key: string): unknown {
    return storage.getStore()?.get(key);
  },
  /** Set a key of the current context (ignored outside any context). */
  set(key: string, value: unknown): void {
    storage.getStore()?.set(key, value);
  },
};
