/**
 * `reportHookFailures()` (lib/core/testHookFailures.ts, installed by spec/setup.ts): a suite
 * whose `before()` hook throws fails the run with its name and the error (uvu alone would exit
 * 0 and print nothing); a run without such a suite still exits 0.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const test = suite('hookFailures');
const ROOT = path.resolve(__dirname, '..');

function runUvu(pattern: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [
    '-r', 'ts-node/register/transpile-only', '-r', './spec/setup.ts', 'node_modules/uvu/bin.js',
    'spec/fixtures/hookFailure', pattern, '-r', 'ts-node/register/transpile-only',
  ], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }, timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('a before() that throws fails the run, naming the suite and the error', () => {
  const { status, output } = runUvu('failingBefore\\.fixture\\.ts$');
  assert.is(status, 1, output);
  assert.match(output, '[before() failed] suite "fixture: before() throws": its tests did not run.');
  assert.match(output, 'the database could not be set up');
  assert.match(output, '1 suite(s) failed in before(): fixture: before() throws');
  assert.not.match(output, 'a test of a suite whose before() failed ran');
  // The other suite of the file still ran and passed.
  assert.match(output, /Total:\s+2/);
  assert.match(output, /Passed:\s+1/);
});

test('a run without a failing before() keeps uvu\'s exit code', () => {
  const { status, output } = runUvu('passing\\.fixture\\.ts$');
  assert.is(status, 0, output);
  assert.not.match(output, 'before() failed');
  assert.match(output, /Passed:\s+1/);
});

test.run();
