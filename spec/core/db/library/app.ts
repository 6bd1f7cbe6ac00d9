/** A test-only app for the database layer's specs. */
import path from 'node:path';
import type { AppConfig } from '../../../../lib/core/apps';
import { LibAuthor, LibBook, LibTag, LibBookTag } from './models';

export const postMigrateCalls: number[] = [];

const config: AppConfig = {
  label: 'library',
  models: () => [LibAuthor, LibTag, LibBook, LibBookTag],
  migrationsDir: path.join(__dirname, 'migrations'),
  postMigrate: async () => {
    postMigrateCalls.push(Date.now());
  },
};

export default config;
