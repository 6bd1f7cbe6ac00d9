/**
 * The memo of `reverse()`: the path a (root resolver, view name, current app, arguments) gives,
 * kept so a URL named again (the API root's links, a hyperlinked list's detail URLs) is not
 * rebuilt. Only string view names with string/number/boolean arguments are kept; a failed
 * reverse (`NoReverseMatch`) is never kept. Forgotten when any setting changes (a new
 * `ROOT_URLCONF` also means a new resolver) and when `clearUrlCaches()` runs; bounded: at
 * `MAX_ENTRIES` entries per resolver the memo starts over.
 */
import { onSettingChanged } from '../conf';
import type { URLResolver } from './resolvers';
import { ResolverMemo } from './resolverMemo';

/** The most paths kept per root resolver. */
export const MAX_ENTRIES = 4096;

const memos = new ResolverMemo<string>(MAX_ENTRIES);
let generation = 0;

onSettingChanged(() => {
  memos.clear();
  generation += 1;
});

/** Forget every memoised path (`clearUrlCaches()` calls this). */
export function clearReverseMemo(): void {
  memos.clear();
  generation += 1;
}

/**
 * A number that changes whenever the memo is forgotten (a setting changed, `clearUrlCaches()`):
 * memos of reversed URLs kept elsewhere (hyperlinked fields) include it in their keys.
 */
export function reverseMemoGeneration(): number {
  return generation;
}

/** The keys of names reversed without arguments or current app, by name (bounded). */
const bareKeys = new Map<string, string>();

/** True when `for...in` visits any key of `object` (as the key loop below does). */
function hasKeys(object: Record<string, unknown>): boolean {
  for (const _name in object) return true;
  return false;
}

function argumentKey(value: unknown): string | null {
  switch (typeof value) {
    case 'string': return `s${value.length}:${value}`;
    case 'number': return `n${value}`;
    case 'boolean': return value ? 't' : 'f';
    default: return null;
  }
}

/**
 * The memo key of one reverse, or null when it cannot be memoised (an argument that is not a
 * string, number or boolean: its text could change between calls).
 */
export function reverseMemoKey(viewName: string, currentApp: string | null, args: readonly unknown[], kwargs: Record<string, unknown>): string | null {
  if (currentApp === null && args.length === 0 && !hasKeys(kwargs)) {
    // A name alone (the API root's links): the same key string every time, whose hash the
    // engine keeps, instead of a new string to hash.
    let bare = bareKeys.get(viewName);
    if (bare === undefined) {
      bare = `${viewName.length}:${viewName}|||`;
      if (bareKeys.size < MAX_ENTRIES) bareKeys.set(viewName, bare);
    }
    return bare;
  }
  let key = `${viewName.length}:${viewName}|${currentApp ?? ''}|`;
  for (const value of args) {
    const part = argumentKey(value);
    if (part === null) return null;
    key += `${part},`;
  }
  key += '|';
  for (const name in kwargs) {
    const part = argumentKey(kwargs[name]);
    if (part === null) return null;
    key += `${name.length}:${name}=${part},`;
  }
  return key;
}

/** The memoised path of `key` under `resolver`, or undefined. */
export function memoisedPath(resolver: URLResolver, key: string): string | undefined {
  return memos.get(resolver, key);
}

/** Keep `path` as what `key` reverses to under `resolver`. */
export function memorisePath(resolver: URLResolver, key: string, path: string): void {
  memos.set(resolver, key, path);
}
