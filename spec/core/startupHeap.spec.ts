import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PROJECT_ROOT } from '../../lib/core/conf';

const TS_NODE = require.resolve('ts-node/register/transpile-only');
const FIXTURE = path.join(PROJECT_ROOT, 'spec/core/fixtures/youngGeneration.ts');

interface Seen {
  held: boolean;
  released: boolean;
  start: number;
  whileHeld: number;
  afterRelease: number;
}

/** Run the fixture in a fresh node process (its own V8 heap) with `flags`. */
function run(flags: string[] = []): Seen {
  return JSON.parse(execFileSync(process.execPath, [...flags, '-r', TS_NODE, FIXTURE], { cwd: PROJECT_ROOT, encoding: 'utf8' })) as Seen;
}

test('holdYoungGeneration :: the young generation keeps its size while held and grows again once released', () => {
  const seen = run();
  assert.ok(seen.held && seen.released, JSON.stringify(seen));
  assert.is(seen.whileHeld, seen.start, `held: ${JSON.stringify(seen)}`);
  assert.ok(seen.afterRelease > seen.whileHeld, `released: ${JSON.stringify(seen)}`);
});

test('holdYoungGeneration :: a growth factor given as a node flag is left alone', () => {
  const seen = run(['--semi-space-growth-factor=2']);
  assert.not.ok(seen.held, JSON.stringify(seen));
  // V8 grows the young generation as it would without the hold.
  assert.ok(seen.whileHeld > seen.start, JSON.stringify(seen));
});

test.run();
