/**
 * Asynchronous values inside a representation. A `SerializerMethodField` method may be async
 * (it looks something up); the representation itself is built synchronously, so such a value
 * is a promise placed where the field's value goes. `await serializer.getData()` builds the
 * representation inside `collectPending()`, then `resolvePending()` replaces each promise by
 * its value. Outside that (the synchronous `serializer.data`) a promise cannot be awaited, and
 * `deferValue()` throws instead of letting `{}` reach the client.
 */

/** The promises deferred while one `collectPending()` runs; the set is made with the first. */
interface Collection {
  pending: Set<Promise<unknown>> | null;
}

let collector: Collection | null = null;

/** What `collectPending()` answers when no field deferred a value. */
const NOTHING_PENDING: ReadonlySet<Promise<unknown>> = new Set();

/** True for promises and other thenables. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function')
    && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Run `build` (synchronous) and return what it built with the promises that fields deferred
 * while it ran (empty when none did).
 */
export function collectPending<T>(build: () => T): { value: T; pending: ReadonlySet<Promise<unknown>> } {
  const outer = collector;
  const collection: Collection = { pending: null };
  collector = collection;
  try {
    const value = build();
    return { value, pending: collection.pending ?? NOTHING_PENDING };
  } finally {
    collector = outer;
  }
}

/**
 * The placeholder for an async field value: the promise itself while `collectPending()` runs.
 * Otherwise throws, naming the field and the async entry point (`describe` says which field).
 */
export function deferValue(value: PromiseLike<unknown>, describe: () => string): Promise<unknown> {
  const promise = Promise.resolve(value);
  if (collector === null) {
    // Nobody will await it: keep a rejection from becoming an unhandled one.
    promise.catch(() => undefined);
    throw new Error(`${describe()} returned a Promise, which the synchronous \`serializer.data\` cannot wait for: ` +
      'use `await serializer.getData()` (generic views do).');
  }
  (collector.pending ??= new Set()).add(promise);
  return promise;
}

/**
 * Await the `pending` promises found inside `data` (objects and arrays, walked in place) and
 * put each one's value where the promise was. Rejects with the first rejection.
 */
export async function resolvePending(data: unknown, pending: ReadonlySet<Promise<unknown>>): Promise<void> {
  if (!pending.size) return;
  const slots: Array<{ holder: Record<string | number, unknown>; key: string | number; promise: Promise<unknown> }> = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (item instanceof Promise && pending.has(item)) slots.push({ holder: node as unknown[] as Record<number, unknown>, key: i, promise: item });
        else visit(item);
      }
      return;
    }
    const proto = Object.getPrototypeOf(node) as unknown;
    if (proto !== Object.prototype && proto !== null) return;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (item instanceof Promise && pending.has(item)) slots.push({ holder: record, key, promise: item });
      else visit(item);
    }
  };
  visit(data);
  const placed = new Set(slots.map((slot) => slot.promise));
  for (const promise of pending) if (!placed.has(promise)) promise.catch(() => undefined);
  const values = await Promise.all(slots.map((slot) => slot.promise));
  slots.forEach((slot, i) => { slot.holder[slot.key] = values[i]; });
}
