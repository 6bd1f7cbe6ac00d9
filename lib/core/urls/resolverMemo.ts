/**
 * A bounded memo per root resolver: what the URL memos (`resolveMemo.ts` for `resolve()`,
 * `reverseMemo.ts` for `reverse()`) keep. Entries live as long as their resolver (a new
 * `ROOT_URLCONF` means a new resolver); at `limit` entries for one resolver its memo starts
 * over. Use one per kind of answer; call `clear()` to forget everything.
 */
import type { URLResolver } from './resolvers';

/** Answers kept by key under each root resolver, at most `limit` per resolver. */
export class ResolverMemo<V> {
  private memos = new WeakMap<URLResolver, Map<string, V>>();

  constructor(private readonly limit: number) {}

  /** The answer kept for `key` under `resolver`, or undefined. */
  get(resolver: URLResolver, key: string): V | undefined {
    return this.memos.get(resolver)?.get(key);
  }

  /** Keep `value` for `key` under `resolver` (the resolver's memo starts over when full). */
  set(resolver: URLResolver, key: string, value: V): void {
    let memo = this.memos.get(resolver);
    if (!memo) {
      memo = new Map();
      this.memos.set(resolver, memo);
    } else if (memo.size >= this.limit) {
      memo.clear();
    }
    memo.set(key, value);
  }

  /** Forget every answer of every resolver. */
  clear(): void {
    this.memos = new WeakMap();
  }
}
