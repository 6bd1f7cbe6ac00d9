/**
 * Type-level assertions for the `spec/types/*.types.ts` files. These files are compiled by
 * `npm run typecheck` and never executed: a line that must not compile carries
 * `// @ts-expect-error` (an unused directive fails the typecheck), and a value whose type must be
 * exactly `T` goes through `expectType<T>(value)`.
 */

/** Exact type equality: true only when `A` and `B` are mutually assignable in both directions. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when `value` is assignable to `T` (use `expectExactType` for equality). */
export function expectType<T>(value: T): void {
  void value;
}

/** Compiles only when `Actual` is exactly `Expected`: `expectExactType<Expected>()(value)`. */
export function expectExactType<Expected>() {
  return <Actual>(value: Actual & (Equal<Actual, Expected> extends true ? unknown : never)): void => {
    void value;
  };
}

/** Compiles only when the condition type is `true`: `assertTrue<Equal<A, B>>()`. */
export function assertTrue<_Condition extends true>(): void {}
