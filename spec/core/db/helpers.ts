/** Shared setup for the database-layer specs: install the test apps for one suite. */
import { overrideSettings } from '../../../lib/core/conf';
import { apps } from '../../../lib/core/apps';
import type { SuiteHooks } from '../../../lib/core/db/testing';

/** Install `installedApps` (instead of the project's) for the suite; restore afterwards. */
export function useTestApps(suite: SuiteHooks, installedApps: string[] = ['spec.core.db.library']): void {
  let restore: (() => void) | null = null;
  suite.before(() => {
    restore = overrideSettings.enter({ INSTALLED_APPS: installedApps });
    apps.reset();
  });
  suite.after(() => {
    restore?.();
    apps.reset();
  });
}

/** Assert that `fn` rejects with an error accepted by `check` (a class or a predicate). */
export async function rejects(
  fn: () => Promise<unknown>,
  check: (new (...args: never[]) => Error) | ((error: Error) => boolean),
): Promise<Error> {
  let caught: unknown = null;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  if (!(caught instanceof Error)) throw new Error('Expected the promise to reject, but it resolved.');
  const ok = check.prototype instanceof Error || check === Error
    ? caught instanceof (check as new (...args: never[]) => Error)
    : (check as (error: Error) => boolean)(caught);
  if (!ok) throw new Error(`Unexpected rejection: ${caught.name}: ${caught.message}`);
  return caught;
}
