/** A second test-only app whose migration depends on the library app's. */
import path from 'node:path';
import type { AppConfig } from '../../../../lib/core/apps';

const config: AppConfig = {
  label: 'shelf',
  models: () => [],
  migrationsDir: path.join(__dirname, 'migrations'),
};

export default config;
