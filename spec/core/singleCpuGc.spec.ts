import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { PROJECT_ROOT } from '../../lib/core/conf';
import { parallelScavengeOffWanted } from '../../lib/core/singleCpuGc';

const ROWS: Array<[string, number, string[], boolean]> = [
  ['one CPU, no flag', 1, [], true],
  ['one CPU, other node flags', 1, ['--max-old-space-size=512', '--enable-source-maps'], true],
  ['one CPU, --parallel-scavenge chosen', 1, ['--parallel-scavenge'], false],
  ['one CPU, --no-parallel-scavenge chosen', 1, ['--no-parallel-scavenge'], false],
  ['one CPU, --no_parallel_scavenge spelling', 1, ['--no_parallel_scavenge'], false],
  ['one CPU, a longer flag that only starts alike', 1, ['--parallel-scavenge-task-trace'], true],
  ['two CPUs', 2, [], false],
  ['eight CPUs', 8, [], false],
];

for (const [name, cpus, execArgv, wanted] of ROWS) {
  test(`parallelScavengeOffWanted :: ${name} -> ${wanted}`, () => {
    assert.is(parallelScavengeOffWanted(cpus, execArgv), wanted);
  });
}

test('tuneGcForAvailableCpus :: a process pinned to one CPU turns parallel scavenging off; one on all CPUs does not', () => {
  const script = "process.stdout.write(String(require('./lib/core/singleCpuGc').tuneGcForAvailableCpus()))";
  const run = (command: string, args: string[]): string => execFileSync(command, args, { cwd: PROJECT_ROOT, encoding: 'utf8' });
  const node = [process.execPath, '-r', 'ts-node/register/transpile-only', '-e', script];
  let taskset = true;
  try {
    run('taskset', ['-c', '0', 'true']);
  } catch {
    taskset = false;
  }
  if (taskset) assert.is(run('taskset', ['-c', '0', ...node]), 'true');
  assert.is(run(node[0], node.slice(1)), String(os.availableParallelism() <= 1));
});

test.run();
