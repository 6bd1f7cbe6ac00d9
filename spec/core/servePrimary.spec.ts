import { test } from 'uvu';
import * as assert from 'uvu/assert';
import os from 'node:os';
import { servePrimaryArguments, type ServePrimaryArguments } from '../../lib/core/servePrimary';

const cpus = os.availableParallelism();

// Each row: the command line, and what serve's primary reads from it (null: the management
// layer runs it instead and reports the usage or the error).
const ROWS: ReadonlyArray<readonly [string[], ServePrimaryArguments | null]> = [
  [['serve'], { workers: cpus, host: '127.0.0.1', port: 8000 }],
  [['serve', '--workers', '1', '--bind', '127.0.0.1:0'], { workers: 1, host: '127.0.0.1', port: 0 }],
  [['serve', '-w', '3', '-b', '0.0.0.0:9000'], { workers: 3, host: '0.0.0.0', port: 9000 }],
  [['serve', '--workers=2', '--bind=[::1]:8080'], { workers: 2, host: '::1', port: 8080 }],
  [['serve', '--bind', '9001', '--skip-checks', '--settings', 'demo/settings'], { workers: cpus, host: '127.0.0.1', port: 9001 }],
  [['serve', '--settings=demo/settings', '--workers', '4'], { workers: 4, host: '127.0.0.1', port: 8000 }],
  [['serve', '--workers', '0'], null],
  [['serve', '--workers', '1.5'], null],
  [['serve', '--workers', 'two'], null],
  [['serve', '--workers'], null],
  [['serve', '--bind', 'not-a-port'], null],
  [['serve', '--bind', '127.0.0.1:70000'], null],
  [['serve', '--help'], null],
  [['serve', '-h'], null],
  [['serve', '--traceback'], null],
  [['serve', '--bogus'], null],
  [['serve', 'extra'], null],
  [['runserver', '127.0.0.1:0'], null],
  [['migrate'], null],
  [[], null],
];

for (const [argv, expected] of ROWS) {
  test(`servePrimaryArguments :: ${JSON.stringify(argv)}`, () => {
    assert.equal(servePrimaryArguments(argv), expected);
  });
}

test.run();
