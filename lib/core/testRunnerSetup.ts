/**
 * Loaded (`node -r`) before the spec files by `manage.ts test`: the project's settings, quiet
 * expected server errors, and the test client's host allowed — the host framework's
 * `setup_test_environment()` — and a suite whose `before()` hook throws failing the run
 * (`testHookFailures.ts`). A project's own `testSetup.ts` (written by `startproject`), when
 * present in the project folder, is loaded after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import 'reflect-metadata';
import { SOURCE_ROOT, setupSettings } from './conf';
import { allowTestClientHost } from './http/hosts';
import { reportHookFailures } from './testHookFailures';
import { uvuMainModule } from './uvuModule';

process.env.API_FRAMEWORK_QUIET ??= '1';
setupSettings();
allowTestClientHost(true);

const uvu = uvuMainModule();
// eslint-disable-next-line @typescript-eslint/no-require-imports
if (uvu !== null) reportHookFailures(require(uvu) as object);

for (const name of ['testSetup.ts', 'testSetup.js']) {
  const file = path.join(SOURCE_ROOT, name);
  if (fs.existsSync(file)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(file);
    break;
  }
}
