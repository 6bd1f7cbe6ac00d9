/**
 * `reportSkipped()` (spec/skip.ts): a suite that cannot run is counted on uvu's `Skipped:`
 * line while `Total:` and `Passed:` (which `.ci/run` reads) count only the tests that ran.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const test = suite('spec helpers :: reportSkipped');

test('summary :: skipped suites counted as skipped, not passed', () => {
  const root = path.resolve(__dirname, '..');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/uvu/bin.js'), 'spec/fixtures', 'skipFixture\\.ts$',
    '-r', 'ts-node/register/transpile-only'], { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  const summary = result.stdout.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
  assert.is(result.status, 0, result.stderr);
  assert.match(summary, /\[skip\] fixture :: needs Redis: no CACHE_URL in this fixture\./);
  assert.match(summary, /Total: {5}1\n/);
  assert.match(summary, /Passed: {4}1\n/);
  assert.match(summary, /Skipped: {3}1\n/);
});

test.run();
