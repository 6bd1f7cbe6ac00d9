import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reloaderChildEnv, reloaderChildFlags } from '../../lib/core/autoreload';

// Each row: node's flags of the reloader, whether the project runs from TypeScript sources,
// and the flags the reloader adds for its server child.
const ROWS: ReadonlyArray<readonly [string[], boolean, string[]]> = [
  [[], true, ['--optimize-for-size']],
  [['-r', 'ts-node/register/transpile-only'], true, ['--optimize-for-size']],
  [[], false, []],
  [['--optimize-for-size'], true, []],
  [['--optimize_for_size'], true, []],
  [['--no-optimize-for-size'], true, []],
  [['--max-old-space-size=512'], true, ['--optimize-for-size']],
];

for (const [execArgv, fromSources, expected] of ROWS) {
  test(`reloaderChildFlags :: ${JSON.stringify(execArgv)}, ${fromSources ? 'sources' : 'compiled'}`, () => {
    assert.equal(reloaderChildFlags(execArgv, fromSources), expected);
  });
}

// Each row: the reloader's environment, sources or compiled, and what the child's adds.
const ENV_ROWS: ReadonlyArray<readonly [NodeJS.ProcessEnv, boolean, Record<string, string>]> = [
  [{}, true, { MALLOC_TRIM_THRESHOLD_: '0' }],
  [{ PATH: '/usr/bin' }, true, { MALLOC_TRIM_THRESHOLD_: '0' }],
  [{}, false, {}],
  [{ MALLOC_TRIM_THRESHOLD_: '131072' }, true, {}],
  [{ MALLOC_TRIM_THRESHOLD_: '' }, true, {}],
];

for (const [env, fromSources, expected] of ENV_ROWS) {
  test(`reloaderChildEnv :: ${JSON.stringify(env)}, ${fromSources ? 'sources' : 'compiled'}`, () => {
    assert.equal(reloaderChildEnv(env, fromSources), expected);
  });
}

test.run();
