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

/**
 * Response headers with case-insensitive names (the original spelling is kept for output).
 * A response has a handful of headers: they are kept in one flat list (`[key, name, value, ...]`,
 * `key` the lower-case name), searched in order, so setting one allocates nothing but its slot.
 */
export class ResponseHeaders {
  private readonly list: string[] = [];

  constructor(init?: Record<string, string | number> | Iterable<[string, string]>) {
    if (init) {
      const entries = Symbol.iterator in Object(init) ? (init as Iterable<[string, string]>) : Object.entries(init);
      for (const [name, value] of entries) this.set(name, String(value));
    }
  }

  /** The position of `key` (a lower-case name) in the list, or -1. */
  private indexOf(key: string): number {
    const list = this.list;
    for (let i = 0; i < list.length; i += 3) if (list[i] === key) return i;
    return -1;
  }

  /** Set (replace) a header: it keeps its place, with the name as spelled now. */
  set(name: string, value: string | number): void {
    const key = lower(name);
    const text = typeof value === 'string' ? value : String(value);
    const i = this.indexOf(key);
    if (i < 0) {
      this.list.push(key, name, text);
    } else {
      this.list[i + 1] = name;
      this.list[i + 2] = text;
    }
  }

  /** A header's value, or undefined. */
  get(name: string): string | undefined {
    const i = this.indexOf(lower(name));
    return i < 0 ? undefined : this.list[i + 2];
  }

  /** True when the header is set. */
  has(name: string): boolean {
    return this.indexOf(lower(name)) >= 0;
  }

  /** Remove a header. */
  delete(name: string): boolean {
    const i = this.indexOf(lower(name));
    if (i < 0) return false;
    this.list.splice(i, 3);
    return true;
  }

  /** The number of headers. */
  get size(): number {
    return this.list.length / 3;
  }

  /** `[name, value]` pairs (copies) in the order first set. */
  entries(): Array<[string, string]> {
    const pairs: Array<[string, string]> = [];
    const list = this.list;
    for (let i = 0; i < list.length; i += 3) pairs.push([list[i + 1], list[i + 2]]);
    return pairs;
  }

  /** Append `name, value` of every header, in the order first set, to `flat` (node's flat header list). */
  appendTo(flat: Array<string | string[]>): void {
    const list = this.list;
    for (let i = 0; i < list.length; i += 3) flat.push(list[i + 1], list[i + 2]);
  }

  /** Iterates the `[name, value]` pairs in the order first set. */
  [Symbol.iterator](): Iterator<readonly [string, string]> {
    return this.entries()[Symbol.iterator]();
  }
}
