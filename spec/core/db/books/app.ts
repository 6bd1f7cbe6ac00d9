/**
 * A test-only app for the migration specs. Its migrations folder is chosen by each spec
 * (`booksApp.migrationsDir`), a scratch folder inside the repository so generated files
 * import the framework by relative path.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../../../../lib/core/apps';
import { BkAuthor, BkBook, BkTag } from './models';

/** Where the app's migrations live for the current suite. */
export const booksApp = { migrationsDir: '' };

/** A fresh, empty scratch migrations folder inside the repository (removed by `removeScratchDir`). */
export function makeScratchDir(): string {
  return fs.mkdtempSync(path.join(__dirname, '.tmp-migrations-'));
}

/** Remove a scratch folder and forget the compiled files of it. */
export function removeScratchDir(dir: string): void {
  for (const key of Object.keys(require.cache)) if (key.startsWith(dir)) delete require.cache[key];
  fs.rmSync(dir, { recursive: true, force: true });
}

const config: AppConfig = {
  label: 'books',
  get migrationsDir(): string {
    return booksApp.migrationsDir;
  },
  models: () => [BkAuthor, BkTag, BkBook],
};

export default config;
