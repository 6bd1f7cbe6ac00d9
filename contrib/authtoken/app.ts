/**
 * The token authentication app (`api_framework.authtoken`, installed as `contrib.authtoken`):
 * the `Token` model on `authtoken_token`, its migration and the `drf_create_token` command.
 * `TokenAuthentication` itself lives in `lib/authentication.ts` and loads the model lazily.
 */
import path from 'node:path';
import type { AppConfig } from '../../lib/core/apps';

const authtoken: AppConfig = {
  label: 'authtoken',
  verboseName: 'Auth Token',
  migrationsDir: path.join(__dirname, 'migrations'),
  // Loaded when the models are first needed: importing them pulls in the database layer.
  models: './models',
  commands: './commands',
};

export default authtoken;
