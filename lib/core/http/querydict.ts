/**
 * Multi-value dictionaries: `MultiValueDict` (`request.FILES`) and `QueryDict` (the query
 * string and url-encoded forms, `request.GET` / `request.POST`).
 */
import { settings } from '../conf';
import { TooManyFieldsSent } from '../exceptions';

/**
 * A dictionary whose keys may hold several values, as query strings and forms do.
 * `get(key)` answers the last value (like the host framework), `getList(key)` all of them.
 */
export class MultiValueDict<V> {
  protected readonly data = new Map<string, V[]>();
  protected mutable = true;

  constructor(entries?: Iterable<[string, V]>) {
    if (entries) for (const [key, value] of entries) this.appendValue(key, value);
  }

  /** The last value for `key`, or `fallback` when the key is absent. */
  get(key: string): V | undefined;
  get<D>(key: string, fallback: D): V | D;
  get<D>(key: string, fallback?: D): V | D | undefined {
    const values = this.data.get(key);
    return values && values.length > 0 ? values[values.length - 1] : fallback;
  }

  /** Every value for `key` (a copy), or `[]`. */
  getList(key: string): V[] {
    return [...(this.data.get(key) ?? [])];
  }

  /** True when `key` holds at least one value. */
  has(key: string): boolean {
    return this.data.has(key);
  }

  /** The keys, in insertion order. */
  keys(): string[] {
    return [...this.data.keys()];
  }

  /** `[key, lastValue]` pairs. */
  entries(): Array<[string, V]> {
    const out: Array<[string, V]> = [];
    for (const [key, values] of this.data) if (values.length) out.push([key, values[values.length - 1]]);
    return out;
  }

  /** `[key, allValues]` pairs. */
  lists(): Array<[string, V[]]> {
    return [...this.data].map(([key, values]) => [key, [...values]]);
  }

  /** Every `[key, value]` pair, repeated keys included, in order. */
  items(): Array<[string, V]> {
    const out: Array<[string, V]> = [];
    for (const [key, values] of this.data) for (const value of values) out.push([key, value]);
    return out;
  }

  /** Number of distinct keys. */
  get size(): number {
    return this.data.size;
  }

  /** Iterates the keys, like the host framework's dictionaries. */
  [Symbol.iterator](): IterableIterator<string> {
    return this.data.keys();
  }

  /** Replace the values of `key` with this single value. */
  set(key: string, value: V): void {
    this.assertMutable();
    this.data.set(key, [value]);
  }

  /** Replace the values of `key` with a list. */
  setList(key: string, values: V[]): void {
    this.assertMutable();
    this.data.set(key, [...values]);
  }

  /** Add a value to `key`'s list. */
  appendList(key: string, value: V): void {
    this.assertMutable();
    this.appendValue(key, value);
  }

  /** Remove `key`. */
  delete(key: string): boolean {
    this.assertMutable();
    return this.data.delete(key);
  }

  /** A plain object of last values (handy for logging and tests). */
  toObject(): Record<string, V> {
    return Object.fromEntries(this.entries());
  }

  /** JSON output is the object of last values, as the host framework's `json.dumps(QueryDict)`. */
  toJSON(): Record<string, V> {
    return this.toObject();
  }

  /** A mutable copy. */
  copy(): this {
    const Ctor = this.constructor as new () => this;
    const clone = new Ctor();
    for (const [key, values] of this.data) clone.data.set(key, [...values]);
    clone.mutable = true;
    return clone;
  }

  protected appendValue(key: string, value: V): void {
    const values = this.data.get(key);
    if (values) values.push(value);
    else this.data.set(key, [value]);
  }

  protected assertMutable(): void {
    if (!this.mutable) throw new TypeError('This QueryDict instance is immutable');
  }
}

/** Parsed query strings and url-encoded forms; immutable unless copied (`copy()`). */
export class QueryDict extends MultiValueDict<string> {
  /**
   * Parse `a=1&a=2&b=` keeping repeated and blank values. Raises `TooManyFieldsSent` past
   * `DATA_UPLOAD_MAX_NUMBER_FIELDS`.
   */
  static parse(queryString: string, options: { mutable?: boolean } = {}): QueryDict {
    const dict = new QueryDict();
    if (queryString) {
      const limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS;
      let count = 0;
      for (const [key, value] of new URLSearchParams(queryString)) {
        count += 1;
        if (limit !== null && limit !== undefined && count > limit) {
          throw new TooManyFieldsSent('The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.');
        }
        dict.appendValue(key, value);
      }
    }
    dict.mutable = options.mutable ?? false;
    return dict;
  }

  /** Encode back to a query string (`a=1&a=2`). */
  urlencode(): string {
    const params = new URLSearchParams();
    for (const [key, value] of this.items()) params.append(key, value);
    return params.toString();
  }
}
