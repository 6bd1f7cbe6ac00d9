/**
 * The browsable API app (`contrib.browsable`, the original's `rest_framework` app): its
 * templates (`api_framework/*.html`), static assets (`api_framework/css`, `js`) and, as in the
 * original, the `generateschema` and `collectstatic` commands. Listing it in INSTALLED_APPS is optional for the
 * renderer — it finds its own templates and the static view its own assets — but the commands
 * are available only when it is installed.
 */
import type { AppConfig } from '../../lib/core/apps';

const browsable: AppConfig = {
  label: 'api_framework',
  verboseName: 'API framework',
  commands: './commands',
};

export default browsable;
