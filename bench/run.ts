/**
 * `npm run bench [name ...]`: runs every bench module in `bench/` in name order, the
 * `*.bench.ts` files and any other `bench/*.ts` file (except this one and declarations);
 * `bench/fixtures/` holds their models and URL confs and is not scanned. A bench module
 * default-exports `async function (): Promise<void>` that prints its own figures and tears
 * down what it set up; each can also run alone (`npx ts-node bench/<name>.bench.ts`).
 * Arguments keep only the files whose names contain one of them. Benchmarks use the test
 * settings (`spec/settings`, SQLite in memory unless DATABASE_URL).
 */
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { setupSettings } from '../lib/core/conf';
import { closeConnections } from '../lib/core/db';
import { closeCaches } from '../lib/core/cache';

/** The bench files to run, in name order, filtered by `only` (substrings of file names). */
function benchFiles(only: readonly string[] = []): string[] {
  return fs.readdirSync(__dirname, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && entry.name !== 'run.ts')
    .map((entry) => entry.name)
    .filter((file) => !only.length || only.some((name) => file.includes(name)))
    .sort();
}

async function main(): Promise<void> {
  process.env.API_FRAMEWORK_QUIET = '1';
  setupSettings(process.env.SETTINGS_MODULE || 'spec/settings');
  const files = benchFiles(process.argv.slice(2));
  if (!files.length) throw new Error(`No bench file matches ${process.argv.slice(2).join(', ')}.`);
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(__dirname, file)) as { default?: () => Promise<void> };
    if (typeof mod.default !== 'function') throw new Error(`bench/${file} does not default-export its bench function.`);
    process.stdout.write(`# ${file}\n`);
    await mod.default();
  }
}

main()
  .then(async () => {
    await closeCaches();
    await closeConnections();
  })
  .then(() => process.exit(0), (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
