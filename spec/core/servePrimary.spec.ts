import { test } from 'uvu';
import * as assert from 'uvu/assert';
import os from 'node:os';
import { servePrimaryArguments, serveSupervises, type ServePrimaryArguments } from '../../lib/core/servePrimary';

const cpus = os.availableParallelism();
/** What the primary reads for the default `--workers` (one per CPU): nothing on one CPU. */
const byCpus = (host: string, port: number): ServePrimaryArguments | null => (cpus > 1 ? { workers: cpus, host, port } : null);

// Each row: the command line, and what serve's primary reads from it (null: no primary, the
// management layer runs it: `--workers 1` serves in that process; anything else it reports).
const ROWS: ReadonlyArray<readonly [string[], ServePrimaryArguments | null]> = [
  [['serve'], byCpus('127.0.0.1', 8000)],
  [['serve', '--workers', '1', '--bind', '127.0.0.1:0'], null],
  [['serve', '-w', '1'], null],
  [['serve', '--workers=1'], null],
  [['serve', '--workers', '01'], null],
  [['serve', '--workers', '2', '--bind', '127.0.0.1:0'], { workers: 2, host: '127.0.0.1', port: 0 }],
  [['serve', '-w', '3', '-b', '0.0.0.0:9000'], { workers: 3, host: '0.0.0.0', port: 9000 }],
  [['serve', '--workers=2', '--bind=[::1]:8080'], { workers: 2, host: '::1', port: 8080 }],
  [['serve', '--bind', '9001', '--skip-checks', '--settings', 'demo/settings'], byCpus('127.0.0.1', 9001)],
  [['serve', '--settings=demo/settings', '--workers', '4'], { workers: 4, host: '127.0.0.1', port: 8000 }],
  [['serve', '--workers', '2', '--access-log'], { workers: 2, host: '127.0.0.1', port: 8000 }],
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

// Each row: a serve command line (without `serve`), and whether it asks for a supervising
// primary (the management layer then loads the core command without the installed apps).
const SUPERVISES: ReadonlyArray<readonly [string[], boolean]> = [
  [[], cpus > 1],
  [['--workers', '1'], false],
  [['-w', '1', '--access-log'], false],
  [['--workers=1', '--bogus'], false],
  [['--workers', '2'], true],
  [['-w', '8'], true],
  [['--workers=3', '--bogus'], true],
  // Malformed: management reports it from the core command, as for a supervisor.
  [['--workers', '0'], true],
  [['--workers', 'two'], true],
];

for (const [argv, expected] of SUPERVISES) {
  test(`serveSupervises :: ${JSON.stringify(argv)}`, () => {
    assert.is(serveSupervises(argv), expected);
  });
}

test.run();
