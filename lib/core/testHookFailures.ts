/**
 * A suite whose `before()` hook throws must fail the test run. uvu 0.5 returns from a
 * `finally` block around the suite's hooks, which drops the error: the suite's tests do not
 * run, nothing is printed, and the run exits 0. `reportHookFailures()` wraps the `before()`
 * of uvu's default `test` and of every suite made with `suite()` afterwards, so that the error
 * is printed with the suite's name and the process exits 1 once uvu has finished. `manage.ts
 * test` installs it in the runner's process (`testRunnerSetup.ts`); call it from your own
 * `node -r` setup file when you run uvu yourself.
 */

type Hook = (context: unknown) => unknown;
type HookRegistrar = ((hook: Hook) => void) & { each: (hook: Hook) => void };
type UvuTest = { before: HookRegistrar };
type UvuModule = { suite: (name?: string, state?: object) => UvuTest; test?: UvuTest };

const REPORTING = Symbol.for('api_framework.reportHookFailures');
const failedSuites: string[] = [];
let exitHookInstalled = false;

/** `hook`, printing its error for `suiteName` and still throwing it (as uvu expects). */
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

/** Make `test.before(hook)` register `hook` wrapped by `reporting()`. */
function wrapBefore(test: UvuTest, suiteName: string): void {
  const register = test.before;
  const wrapped = ((hook: Hook) => register(reporting(suiteName, hook))) as HookRegistrar;
  wrapped.each = register.each;
  test.before = wrapped;
}

/**
 * Install the reporting on `uvu`, the module object the spec files import (`require('uvu')`
 * as they resolve it); a second call on the same module does nothing.
 */
export function reportHookFailures(uvu: object): void {
  const module = uvu as UvuModule & { [REPORTING]?: boolean };
  if (module[REPORTING] || typeof module.suite !== 'function') return;
  module[REPORTING] = true;
  const originalSuite = module.suite;
  module.suite = (name?: string, state?: object) => {
    const test = originalSuite(name, state);
    wrapBefore(test, name ?? '');
    return test;
  };
  if (module.test) wrapBefore(module.test, '(default test suite)');
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // uvu sets `process.exitCode` from the tests alone when it finishes: set it again after.
  process.on('exit', () => {
    if (!failedSuites.length) return;
    process.stderr.write(`\n  ${failedSuites.length} suite(s) failed in before(): ${failedSuites.join(', ')}\n`);
    process.exitCode = 1;
  });
}
