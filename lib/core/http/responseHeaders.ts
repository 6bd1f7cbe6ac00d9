/**
 * `ResponseHeaders`: the headers of a response, with case-insensitive names.
 */

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
    this.map.set(name.toLowerCase(), [name, String(value)]);
  }

  /** A header's value, or undefined. */
  get(name: string): string | undefined {
    return this.map.get(name.toLowerCase())?.[1];
  }

  /** True when the header is set. */
  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  /** Remove a header. */
  delete(name: string): boolean {
    return this.map.delete(name.toLowerCase());
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
