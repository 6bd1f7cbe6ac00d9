/** A test-only app whose model points at the `books` app (cross-app migration dependencies). */
import type { AppConfig } from '../../../../lib/core/apps';
import { BkReview } from './models';

/** Where the app's migrations live for the current suite. */
export const reviewsApp = { migrationsDir: '' };

const config: AppConfig = {
  label: 'reviews',
  get migrationsDir(): string {
    return reviewsApp.migrationsDir;
  },
  models: () => [BkReview],
};

export default config;
