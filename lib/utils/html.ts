/**
 * Helpers for HTML form input: multi-valued dictionaries (`QueryDict`) represent form data,
 * where every field may repeat, lists are spelled `name[0]`, `name[1]`, and nested objects
 * `name.key`.
 */

/** A multi-valued mapping such as the request's parsed form data. */
export interface MultiValueInput {
  get(key: string): unknown;
  getList(key: string): unknown[];
  keys(): Iterable<string>;
}

/** True for multi-valued (form) input: it has `getList()`. */
export function isHtmlInput(data: unknown): data is MultiValueInput {
  return data !== null && typeof data === 'object' && typeof (data as { getList?: unknown }).getList === 'function';
}

/** True when `key` was sent in the form data. */
export function htmlHas(data: MultiValueInput, key: string): boolean {
  for (const k of data.keys()) if (k === key) return true;
  return false;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A simple multi-valued object built while parsing nested form keys. */
export class MultiValueDict implements MultiValueInput {
  private readonly lists = new Map<string, unknown[]>();

  /** The last value for `key`, or undefined. */
  get(key: string): unknown {
    const list = this.lists.get(key);
    return list && list.length ? list[list.length - 1] : undefined;
  }

  /** All values for `key`. */
  getList(key: string): unknown[] {
    return this.lists.get(key) ?? [];
  }

  /** Replace the values of `key`. */
  setList(key: string, values: unknown[]): void {
    this.lists.set(key, values);
  }

  /** Keys in insertion order. */
  keys(): IterableIterator<string> {
    return this.lists.keys();
  }
}

/**
 * `{'[0]': 'a', '[1]': 'b'}` -> `['a', 'b']`; `{'[0]foo': 'x'}` -> `[{foo: 'x'}]`.
 * Returns `defaultValue` when no key matches.
 */
export function parseHtmlList(data: MultiValueInput, prefix = '', defaultValue: unknown[] | null = null): unknown[] | null {
  const ret = new Map<number, unknown>();
  const regex = new RegExp(`^${escapeRegExp(prefix)}\\[([0-9]+)\\](.*)$`);
  for (const field of data.keys()) {
    const match = regex.exec(field);
    if (!match) continue;
    const index = Number(match[1]);
    const key = match[2];
    const value = data.get(field);
    if (!key) {
      ret.set(index, value);
    } else {
      let existing = ret.get(index);
      if (!(existing instanceof MultiValueDict)) {
        existing = new MultiValueDict();
        ret.set(index, existing);
      }
      (existing as MultiValueDict).setList(key, [value]);
    }
  }
  if (!ret.size) return defaultValue;
  return [...ret.keys()].sort((a, b) => a - b).map((key) => ret.get(key));
}

/** `{'profile.username': 'x'}` with prefix `profile` -> `{username: 'x'}` (multi-valued). */
export function parseHtmlDict(data: MultiValueInput, prefix = ''): MultiValueDict {
  const ret = new MultiValueDict();
  const regex = new RegExp(`^${escapeRegExp(prefix)}\\.(.+)$`);
  for (const field of data.keys()) {
    const match = regex.exec(field);
    if (match) ret.setList(match[1], data.getList(field));
  }
  return ret;
}
