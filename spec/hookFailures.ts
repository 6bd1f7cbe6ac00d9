/**
 * A suite whose `before()` hook throws must fail the run. uvu 0.5 returns from a `finally`
 * block around the hook, which drops the error: the suite's tests do not run, nothing is
 * printed, and the run exits 0 (only `Total:` minus `Passed:` shows it). Loaded by
 * `spec/setup.ts` before the spec files: every suite made with uvu's `suite()` has its
 * `before()` hooks wrapped to print the error, with the suite's name, and to make the process
 * exit 1 once uvu has finished.
 */
import type * as Uvu from 'uvu';

// The module object itself (spec files read `suite` from it when they call it), not a copy.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const uvu = require('uvu') as typeof Uvu;

type Hook = (context: unknown) => unknown;
type HookRegistrar = ((hook: Hook) => void) & { each: (hook: Hook) => void };

const failedSuites: string[] = [];

/** `hook` that reports its error for `suiteName` (and still throws it, as uvu expects). */
function reporting(suiteName: string, hook: Hook): Hook {
  return async (context) => {
    try {
      await hook(context);
    } catch (error) {
      failedSuites.push(suiteName);
      const detail = error instanceof Error ? error.stack ?? error.message : String(error);
      process.stderr.write(`\n  [before() failed] suite "${suiteName}": its tests did not run.\n  ${detail.split('\n').join('\n  ')}\n`);
      throw error;
    }
  };
}

/** Install the wrapper on uvu's `suite()` (idempotent). */
export function reportHookFailures(): void {
  const module = uvu as unknown as { suite: typeof Uvu.suite; reportingHooks?: boolean };
  if (module.reportingHooks) return;
  const originalSuite = module.suite;
  module.suite = ((name?: string, state?: object) => {
    const test = originalSuite(name, state);
    const register = test.before as unknown as HookRegistrar;
    const wrapped = ((hook: Hook) => register(reporting(name ?? '', hook))) as HookRegistrar;
    wrapped.each = register.each;
    (test as unknown as { before: HookRegistrar }).before = wrapped;
    return test;
  }) as typeof Uvu.suite;
  module.reportingHooks = true;
  // uvu sets `process.exitCode` from the tests alone when it finishes: set it again after.
  process.on('exit', () => {
    if (failedSuites.length) {
      process.stderr.write(`\n  ${failedSuites.length} suite(s) failed in before(): ${failedSuites.join(', ')}\n`);
      process.exitCode = 1;
    }
  });
}
