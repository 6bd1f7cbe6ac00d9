/**
 * `ResponseHeaders`: the headers of a response, with case-insensitive names.
 */

// Header names repeat from response to response: their lower-case forms are kept (bounded).
const lowerNames = new Map<string, string>();
const MAX_LOWER_NAMES = 512;

/** `name` in lower case, as the map of `ResponseHeaders` is keyed. */
function lower(name: string): string {
  let key = lowerNames.get(name);
  if (key === undefined) {
    key = name.toLowerCase();
    if (lowerNames.size < MAX_LOWER_NAMES) lowerNames.set(name, key);
  }
  return key;
}

/** Response headers with case-insensitive names (the original spelling is kept for output). */
export class ResponseHeaders {
  private readonly map = new Map<string, [string, string]>();

  constructor(init?: Record<string, string | number> | Iterable<[string, string]>) {
    if (init) {
      const entries = Symbol.iterator in Object(init) ? (init as Iterable<[string, string]>) : Object.entries(init);
      for (const [name, value] of entries) this.set(name, String(value));
    }
  }

  /** Set (replace) a header. */
  set(name: string, value: string | number): void {
    this.map.set(lower(name), [name, typeof value === 'string' ? value : String(value)]);
  }

  /** A header's value, or undefined. */
  get(name: string): string | undefined {
    return this.map.get(lower(name))?.[1];
  }

  /** True when the header is set. */
  has(name: string): boolean {
    return this.map.has(lower(name));
  }

  /** Remove a header. */
  delete(name: string): boolean {
    return this.map.delete(lower(name));
  }

  /** `[name, value]` pairs (copies) in the order first set. */
  entries(): Array<[string, string]> {
    return Array.from(this.map.values(), ([name, value]) => [name, value]);
  }

  /** Iterates the `[name, value]` pairs in the order first set; read-only views, not copies. */
  [Symbol.iterator](): Iterator<readonly [string, string]> {
    return this.map.values();
  }
}
