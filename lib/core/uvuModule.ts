/**
 * Which uvu `manage.ts test` runs: the project's own (resolved from the project's folder and
 * its parent), else the framework's. The runner's command line (`bin.js`) and the module the
 * runner's setup patches (`testRunnerSetup.ts`) must be the same copy the spec files import.
 */
import path from 'node:path';
import { SOURCE_ROOT } from './conf';

/** The path of uvu's main module for the project, or null when none is installed. */
export function uvuMainModule(root: string = SOURCE_ROOT): string | null {
  for (const paths of [[root, path.dirname(root)], undefined]) {
    try {
      return require.resolve('uvu', paths ? { paths } : undefined);
    } catch {
      // try the next place
    }
  }
  return null;
}
