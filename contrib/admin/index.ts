/**
 * A small admin for the framework's projects: `adminSite.register(Model, options)` and
 * `path('admin/', adminSite.urls)`. See `sites.ts`.
 */
export { AdminSite, adminSite, AlreadyRegistered, NotRegistered } from './sites';
export { ModelAdmin, type ModelAdminOptions, type AdminModel } from './options';
export { UserAdmin, GroupAdmin, TokenAdmin, UserAdminSerializer } from './defaults';
