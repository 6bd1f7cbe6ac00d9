/**
 * The authentication app (`contrib.auth`): users, groups, permissions and content types, their
 * migration, the `createsuperuser` / `changepassword` commands, and the post-migrate step that
 * creates default permissions.
 */
import path from 'node:path';
import type { AppConfig } from '../../lib/core/apps';

const auth: AppConfig = {
  label: 'auth',
  verboseName: 'Authentication and Authorization',
  migrationsDir: path.join(__dirname, 'migrations'),
  // Loaded when the models are first needed (importing them pulls in the database layer);
  // the auto-created join-table models are bound through the relations that name them.
  models: './models',
  commands: './commands',
  ready: (): void => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { userLoggedIn } = require('./signals') as typeof import('./signals');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { updateLastLogin } = require('./index') as typeof import('./index');
    userLoggedIn.connect(null, updateLastLogin, { dispatchUid: 'update_last_login' });
  },
  postMigrate: async (): Promise<void> => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createPermissions } = require('./createPermissions') as typeof import('./createPermissions');
    await createPermissions();
  },
};

export default auth;
