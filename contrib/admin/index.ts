/**
 * A small admin for the framework's projects: `adminSite.register(Model, options)` and
 * `path('admin/', adminSite.urls)`. See `sites.ts`.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - Admin: `adminSite.register(Model, options | ModelAdmin | ModelAdminClass)`,
 *   `path('admin/', adminSite.urls)` (namespace `admin`: `index`, `login`, `logout`, `changelist`,
 *   `add`, `change`, `delete` with kwargs `app_label`, `model_name`, `object_id`). Users, groups
 *   and tokens of installed apps are registered on first use (`autodiscover()`).
 */
export { AdminSite, adminSite, AlreadyRegistered, NotRegistered } from './sites';
export { ModelAdmin, type ModelAdminOptions, type AdminModel } from './options';
export { UserAdmin, GroupAdmin, TokenAdmin, UserAdminSerializer } from './defaults';
