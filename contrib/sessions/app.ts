/**
 * The sessions app (`contrib.sessions`): the `django_session` table, its migration and the
 * `clearsessions` command. `SessionMiddleware` and the CSRF middleware live beside it.
 */
import path from 'node:path';
import type { AppConfig } from '../../lib/core/apps';

const sessions: AppConfig = {
  label: 'sessions',
  verboseName: 'Sessions',
  migrationsDir: path.join(__dirname, 'migrations'),
  // Loaded when the models are first needed: importing them pulls in the database layer.
  models: './models',
  commands: './commands',
};

export default sessions;
