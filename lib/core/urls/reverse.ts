/**
 * `reverse()`: the URL of a named pattern or a view, walking the namespaces of
 * `'quickstart:user-list'` from the root resolver.
 */
import type { HttpRequest } from '../http';
import { combineCandidates, type ReverseCandidate } from './candidates';
import { NoReverseMatch } from './exceptions';
import { getResolver, type ReverseKey, type URLResolver } from './resolvers';
import { memoisedPath, memorisePath, reverseMemoKey } from './reverseMemo';
import type { UrlConfModule, ViewFunction } from './types';

/** Options of `reverse()`. */
export interface ReverseOptions {
  args?: unknown[];
  kwargs?: Record<string, unknown>;
  /** When given, the result is absolute (`http://host/path`) and its namespace is preferred. */
  request?: HttpRequest | null;
  /** The instance namespace to prefer for application namespaces. */
  currentApp?: string | null;
  urlconf?: string | UrlConfModule;
}

/**
 * The URL of a named pattern (`'snippet-detail'`, `'quickstart:user-list'`) or of a view
 * function. Throws `NoReverseMatch`.
 */
export function reverse(viewName: string | ViewFunction, options: ReverseOptions = {}): string {
  const root = getResolver(options.urlconf);
  const args = options.args ?? [];
  const kwargs = options.kwargs ?? {};
  const memoKey = typeof viewName === 'string'
    ? reverseMemoKey(viewName, options.currentApp ?? options.request?.resolverMatch?.namespace ?? null, args, kwargs)
    : null;
  let url = memoKey === null ? undefined : memoisedPath(root, memoKey);
  if (url === undefined) {
    url = reversePath(root, viewName, options, args, kwargs);
    if (memoKey !== null) memorisePath(root, memoKey, url);
  }
  return options.request ? options.request.buildAbsoluteUri(url) : url;
}

/** The path `reverse()` answers, walked from `root` (no memo). */
function reversePath(root: URLResolver, viewName: string | ViewFunction, options: ReverseOptions, args: unknown[], kwargs: Record<string, unknown>): string {
  let resolver = root;
  let prefix: ReverseCandidate[] = [];
  let key: ReverseKey = viewName;
  if (typeof viewName === 'string') {
    const segments = viewName.split(':');
    key = segments.pop()!;
    const currentApp = options.currentApp ?? options.request?.resolverMatch?.namespace ?? null;
    let currentPath: string[] | null = currentApp ? currentApp.split(':').reverse() : null;
    const resolved: string[] = [];
    for (let ns of segments) {
      const currentNs = currentPath?.length ? currentPath.pop()! : null;
      const appList = resolver.appDict().get(ns);
      if (appList) {
        if (currentNs && appList.includes(currentNs)) ns = currentNs;
        else if (!appList.includes(ns)) ns = appList[0];
      }
      if (ns !== currentNs) currentPath = null;
      const entry = resolver.namespaceDict().get(ns);
      if (!entry) {
        if (resolved.length) throw new NoReverseMatch(`'${ns}' is not a registered namespace inside '${resolved.join(':')}'`);
        throw new NoReverseMatch(`'${ns}' is not a registered namespace`);
      }
      resolved.push(ns);
      prefix = combineCandidates(prefix, entry.prefix);
      resolver = entry.resolver;
    }
  }
  const url = `/${resolver.reverseWithPrefix(key, prefix, args, kwargs)}`;
  return url.startsWith('//') ? `/%2F${url.slice(2)}` : url;
}
