/**
 * The browsable API app (`contrib.browsable`, the original's `rest_framework` app): its
 * templates (`api_framework/*.html`) and static assets (`api_framework/css`, `js`). Listing it
 * in INSTALLED_APPS is optional — the renderer finds its own templates and the static view its
 * own assets — but lets projects see it among their apps.
 */
import type { AppConfig } from '../../lib/core/apps';

const browsable: AppConfig = {
  label: 'api_framework',
  verboseName: 'API framework',
};

export default browsable;
