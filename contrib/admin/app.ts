/**
 * The admin app (`contrib.admin`): the admin templates (`admin/*.html`). The site itself is
 * `adminSite` from `contrib/admin`, included in the URL conf at a path the project chooses.
 */
import type { AppConfig } from '../../lib/core/apps';

const admin: AppConfig = {
  label: 'admin',
  verboseName: 'Administration',
};

export default admin;
