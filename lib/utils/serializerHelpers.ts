/**
 * Containers used by serializers: `ReturnDict`/`ReturnList` (the representation, with a
 * back-reference to the serializer that built it, for renderers such as the browsable API)
 * and `BindingDict` (the serializer's bound fields, binding each field as it is added).
 */

/** Something that can be bound to a parent under a name (a field). */
export interface Bindable {
  bind(fieldName: string, parent: unknown): void;
}

/** The representation of one object: a plain object whose `serializer` is not enumerable. */
export type ReturnDict = Record<string, unknown> & { readonly serializer?: unknown };

/** The representation of many objects: an array whose `serializer` is not enumerable. */
export type ReturnList = unknown[] & { readonly serializer?: unknown };

/** Attach `serializer` to a representation object without making it part of the JSON. */
export function returnDict(data: Record<string, unknown>, serializer: unknown): ReturnDict {
  Object.defineProperty(data, 'serializer', { value: serializer, enumerable: false, configurable: true });
  return data;
}

/** Attach `serializer` to a representation list without making it part of the JSON. */
export function returnList(data: unknown[], serializer: unknown): ReturnList {
  Object.defineProperty(data, 'serializer', { value: serializer, enumerable: false, configurable: true });
  return data;
}

/**
 * The fields of a serializer instance, in order. Adding a field binds it to the serializer,
 * so `serializer.fields.set('extra', new CharField())` works like the original's
 * `serializer.fields['extra'] = CharField()`.
 */
export class BindingDict<F extends Bindable> implements Iterable<[string, F]> {
  private readonly map = new Map<string, F>();

  constructor(private readonly serializer: unknown) {}

  /** Bind `field` under `key` and add it (replacing any field of that name). */
  set(key: string, field: F): this {
    this.map.set(key, field);
    field.bind(key, this.serializer);
    return this;
  }

  /** The bound field called `key`, or undefined. */
  get(key: string): F | undefined {
    return this.map.get(key);
  }

  /** True when there is a field called `key`. */
  has(key: string): boolean {
    return this.map.has(key);
  }

  /** Remove the field called `key`. */
  delete(key: string): boolean {
    return this.map.delete(key);
  }

  /** The field names, in order. */
  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  /** The fields, in order. */
  values(): IterableIterator<F> {
    return this.map.values();
  }

  /** `[name, field]` pairs, in order. */
  entries(): IterableIterator<[string, F]> {
    return this.map.entries();
  }

  /** The number of fields. */
  get size(): number {
    return this.map.size;
  }

  [Symbol.iterator](): IterableIterator<[string, F]> {
    return this.map.entries();
  }
}
