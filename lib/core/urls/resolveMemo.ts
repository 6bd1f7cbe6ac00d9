/**
 * The memo of `resolve()`: the match a (root resolver, path) gave, kept so that a path asked
 * for again (every request resolves its path) skips the walk through the URL conf. Each
 * answer is a fresh `ResolverMatch` with its own `args` and `kwargs` (views may change them).
 * Only successful resolutions are kept, and only under a root resolver whose whole URL conf
 * is made of the framework's patterns and converters (`resolvers.ts` decides): a project
 * converter or pattern class may answer differently for the same path, so such a conf is
 * walked every time. Forgotten when any setting changes and when `clearUrlCaches()` runs;
 * bounded: at `MAX_RESOLVED` paths per resolver the memo starts over.
 */
import { onSettingChanged } from '../conf';
import type { ResolverMatch, URLResolver } from './resolvers';
import { ResolverMemo } from './resolverMemo';

/** The most paths kept per root resolver. */
export const MAX_RESOLVED = 1024;

const memos = new ResolverMemo<ResolverMatch>(MAX_RESOLVED);

onSettingChanged(() => {
  memos.clear();
});

/** Forget every memoised resolution (`clearUrlCaches()` calls this). */
export function clearResolveMemo(): void {
  memos.clear();
}

/** The memoised match of `path` under `resolver` (shared: copy before handing it out), or undefined. */
export function memoisedMatch(resolver: URLResolver, path: string): ResolverMatch | undefined {
  return memos.get(resolver, path);
}

/** Keep `match` as what `path` resolves to under `resolver`. */
export function memoriseMatch(resolver: URLResolver, path: string, match: ResolverMatch): void {
  memos.set(resolver, path, match);
}
