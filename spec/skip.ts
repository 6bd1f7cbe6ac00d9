/**
 * Suites that cannot run here (no Redis, no MariaDB, no browser, a missing fixture) are
 * reported as skipped, not left out: `reportSkipped()` registers each named suite with uvu's
 * own `skip()`, so the closing summary's `Skipped:` line counts them (and `Total:`/`Passed:`
 * stay the tests that ran), and prints why they did not run.
 */
import { suite } from 'uvu';

/** Print `reason` once and count each of `suiteNames` as one skipped entry in uvu's summary. */
export function reportSkipped(suiteNames: string | readonly string[], reason: string): void {
  const names = typeof suiteNames === 'string' ? [suiteNames] : suiteNames;
  console.log(`\n  [skip] ${names.join(', ')}: ${reason}\n`);
  for (const name of names) {
    const skipped = suite(name);
    skipped.skip();
    skipped.run();
  }
}
