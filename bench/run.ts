/**
 * `npm run bench`: runs every `bench/*.ts` file (except this one) in name order. Each bench
 * module exports `default async function (): Promise<void>` and prints its own figures.
 * Benchmarks use the test settings (`spec/settings`, SQLite in memory unless DATABASE_URL).
 */
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { setupSettings } from '../lib/core/conf';

async function main(): Promise<void> {
  process.env.API_FRAMEWORK_QUIET = '1';
  setupSettings(process.env.SETTINGS_MODULE || 'spec/settings');
  const only = process.argv.slice(2);
  const files = fs.readdirSync(__dirname)
    .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && !file.endsWith('.d.ts'))
    .filter((file) => !only.length || only.some((name) => file.includes(name)))
    .sort();
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(__dirname, file)) as { default?: () => Promise<void> };
    if (typeof mod.default !== 'function') continue;
    process.stdout.write(`# ${file}\n`);
    await mod.default();
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
