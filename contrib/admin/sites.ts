/**
 * The admin site: a small, staff-only interface to the registered models — log in, an index
 * of the models, a searchable paginated list, and add / change / delete (with confirmation)
 * forms generated from serializers. Every form is CSRF-protected; pages use the browsable
 * API's templates and static assets.
 *
 * @example
 * import { adminSite } from 'contrib/admin';
 * adminSite.register(Snippet, { listDisplay: ['title', 'owner'], searchFields: ['title'] });
 * export const urlpatterns = [path('admin/', adminSite.urls), ...staticfilesUrlpatterns()];
 */
import nodePath from 'node:path';
import type { Model } from 'sequelize-typescript';
import { authenticate, login, logout, REDIRECT_FIELD_NAME } from '../auth';
import { apps } from '../../lib/core/apps';
import { Http404 } from '../../lib/core/exceptions';
import { applyContentSecurityPolicy } from '../../lib/core/csp';
import {
  HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect, type AuthUser, type HttpRequest,
} from '../../lib/core/http';
import { include, path, reverse, type IncludeTarget, type UrlPattern, type ViewFunction } from '../../lib/core/urls';
import { renderSerializerForm } from '../browsable/forms';
import { isSafeRedirect } from '../browsable/redirects';
import { baseContext, renderTemplate } from '../browsable/templates';
import { enforceCsrf, readForm } from '../browsable/views';
import { registerDefaultAdmins } from './defaults';
import { applyListFilters } from './filters';
import { ModelAdmin, type AdminModel, type ModelAdminOptions } from './options';
import { capitalize } from './text';

/** Raised when a model is registered twice. */
export class AlreadyRegistered extends Error {
  override name = 'AlreadyRegistered';
}

/** Raised when unregistering a model that is not registered. */
export class NotRegistered extends Error {
  override name = 'NotRegistered';
}

const NEVER_CACHE = 'max-age=0, no-cache, no-store, must-revalidate, private';

/** The object's primary key as text (URLs, checkbox values). */
function pkText(obj: Model): string {
  return String((obj as Model & { pk?: unknown }).pk);
}
const MESSAGES_KEY = '_admin_messages';

type AdminViewHandler = (request: HttpRequest, kwargs: Record<string, unknown>) => Promise<HttpResponse>;

interface SessionLike {
  get<T>(key: string, fallback?: T): T | undefined;
  set(key: string, value: unknown): void;
  delete?(key: string): void;
}

function sessionOf(request: HttpRequest): SessionLike | null {
  return (request as unknown as { session?: SessionLike }).session ?? null;
}

/** Require the `admin` module of each installed app that has one (apps without it are skipped). */
export function importAppAdminModules(): void {
  for (const config of apps.getAppConfigs()) {
    if (!config.path) continue;
    let file: string;
    try {
      file = require.resolve(nodePath.join(config.path, 'admin'));
    } catch {
      continue;
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(file);
  }
}

/**
 * An AdminSite object encapsulates an instance of the admin application, ready to be hooked
 * into your URL conf. Models are registered with `register()`; `urls` gives the patterns.
 */
export class AdminSite {
  /** The heading of every admin page. */
  siteHeader = 'Site administration';
  /** The `<title>` suffix. */
  siteTitle = 'API framework admin';
  /** Where "View site" points. */
  siteUrl = '/';
  /** Whether the framework's own models (users, groups, tokens) are registered automatically. */
  autodiscoverDefaults = true;
  private readonly registry = new Map<AdminModel, ModelAdmin>();
  private discovered = false;

  constructor(readonly name = 'admin') {}

  /**
   * Register `model` with the given options, a `ModelAdmin` instance or subclass.
   * Registering a model twice raises `AlreadyRegistered`.
   */
  register(model: AdminModel, admin: ModelAdminOptions | ModelAdmin | (new (model: AdminModel) => ModelAdmin) = {}): ModelAdmin {
    if (this.registry.has(model)) throw new AlreadyRegistered(`The model ${model.name} is already registered.`);
    let instance: ModelAdmin;
    if (admin instanceof ModelAdmin) instance = admin;
    else if (typeof admin === 'function') instance = new admin(model);
    else instance = new ModelAdmin(model, admin);
    this.registry.set(model, instance);
    return instance;
  }

  /** Remove `model` from the site. */
  unregister(model: AdminModel): void {
    if (!this.registry.delete(model)) throw new NotRegistered(`The model ${model.name} is not registered.`);
  }

  /** True when `model` is registered. */
  isRegistered(model: AdminModel): boolean {
    return this.registry.has(model);
  }

  /**
   * Load every installed app's `admin` module (`books/admin.ts`: its `adminSite.register()`
   * calls), as the host framework's admin autodiscovery does, then register the framework's
   * own models the apps did not register themselves (once).
   */
  autodiscover(): void {
    if (this.discovered) return;
    this.discovered = true;
    importAppAdminModules();
    if (this.autodiscoverDefaults) registerDefaultAdmins(this);
  }

  /** The registered admins, sorted by app and name. */
  getModelAdmins(): ModelAdmin[] {
    this.autodiscover();
    return [...this.registry.values()].sort((a, b) =>
      `${a.appLabel}.${a.verboseNamePlural}`.localeCompare(`${b.appLabel}.${b.verboseNamePlural}`));
  }

  /** The admin of `appLabel.modelName`, or a 404. */
  getModelAdmin(appLabel: unknown, modelName: unknown): ModelAdmin {
    const admin = this.getModelAdmins().find((item) => item.appLabel === appLabel && item.modelName === modelName);
    if (!admin) throw new Http404('No model admin here.');
    return admin;
  }

  /** May `user` use the admin at all? Active staff members only. */
  hasPermission(user: AuthUser | null | undefined): boolean {
    return Boolean(user && user.isAuthenticated && user.is_active && user.is_staff);
  }

  // -- URLs ------------------------------------------------------------------------------------

  /** The URL patterns, to include at the URL the project chooses: `path('admin/', adminSite.urls)`. */
  get urls(): IncludeTarget {
    return include({ urlpatterns: this.getUrls(), appName: 'admin' }, { namespace: this.name });
  }

  /** The admin's URL patterns (names `index`, `login`, `logout`, `changelist`, `add`, `change`, `delete`). */
  getUrls(): UrlPattern[] {
    const model = '<str:app_label>/<str:model_name>/';
    return [
      path('', this.adminView(this.index), { name: 'index' }),
      path('login/', this.bind(this.login), { name: 'login' }),
      path('logout/', this.bind(this.logout), { name: 'logout' }),
      path(model, this.adminView(this.changelist), { name: 'changelist' }),
      path(`${model}add/`, this.adminView(this.add), { name: 'add' }),
      path(`${model}<str:object_id>/change/`, this.adminView(this.change), { name: 'change' }),
      path(`${model}<str:object_id>/delete/`, this.adminView(this.delete), { name: 'delete' }),
    ];
  }

  /** The URL of one of the admin's named patterns. */
  url(name: string, kwargs: Record<string, unknown> = {}): string {
    return reverse(`${this.name}:${name}`, { kwargs });
  }

  private bind(handler: AdminViewHandler): ViewFunction {
    return (request, kwargs) => handler.call(this, request, kwargs ?? {});
  }

  /** Wrap a view so that only staff members reach it; others go to the admin login page. */
  adminView(handler: AdminViewHandler): ViewFunction {
    return async (request, kwargs) => {
      if (!this.hasPermission(request.user)) {
        const next = encodeURIComponent(request.getFullPath());
        return this.neverCache(new HttpResponseRedirect(`${this.url('login')}?${REDIRECT_FIELD_NAME}=${next}`));
      }
      return handler.call(this, request, kwargs ?? {});
    };
  }

  // -- rendering -------------------------------------------------------------------------------

  private neverCache<R extends HttpResponse>(response: R): R {
    response.setHeader('Cache-Control', NEVER_CACHE);
    response.setHeader('X-Frame-Options', 'DENY');
    return response;
  }

  /** Queue a message shown on the next admin page. */
  message(request: HttpRequest, text: string): void {
    const session = sessionOf(request);
    if (!session) return;
    session.set(MESSAGES_KEY, [...(session.get<string[]>(MESSAGES_KEY, []) ?? []), text]);
  }

  private takeMessages(request: HttpRequest): string[] {
    const session = sessionOf(request);
    if (!session) return [];
    const messages = session.get<string[]>(MESSAGES_KEY, []) ?? [];
    if (messages.length) session.set(MESSAGES_KEY, []);
    return messages;
  }

  /** Render an admin template with the shared context. */
  render(request: HttpRequest, template: string, context: Record<string, unknown>, status = 200): HttpResponse {
    const html = renderTemplate(template, {
      ...baseContext(request),
      site_header: this.siteHeader,
      site_title: this.siteTitle,
      site_url: this.siteUrl,
      admin_index_url: this.url('index'),
      admin_logout_url: this.url('logout'),
      messages: this.takeMessages(request),
      ...context,
    });
    return applyContentSecurityPolicy(this.neverCache(new HttpResponse(html, { status, contentType: 'text/html; charset=utf-8' })));
  }

  private modelLinks(admin: ModelAdmin): Record<string, string> {
    const kwargs = { app_label: admin.appLabel, model_name: admin.modelName };
    return { changelist: this.url('changelist', kwargs), add: this.url('add', kwargs) };
  }

  private async getObject(admin: ModelAdmin, objectId: unknown): Promise<Model> {
    let obj: Model | null = null;
    try {
      obj = await admin.getQueryset().filter({ pk: objectId }).first();
    } catch {
      obj = null;
    }
    if (!obj) throw new Http404(`${capitalize(admin.verboseName)} with ID “${String(objectId)}” doesn’t exist. Perhaps it was deleted?`);
    return obj;
  }

  // -- views -----------------------------------------------------------------------------------

  /** The index: every registered model the user may see, grouped by app. */
  async index(request: HttpRequest): Promise<HttpResponse> {
    const apps = new Map<string, Array<Record<string, unknown>>>();
    for (const admin of this.getModelAdmins()) {
      if (!(await admin.hasViewPermission(request.user))) continue;
      const rows = apps.get(admin.appLabel) ?? [];
      rows.push({ name: capitalize(admin.verboseNamePlural), ...this.modelLinks(admin), can_add: await admin.hasAddPermission(request.user) });
      apps.set(admin.appLabel, rows);
    }
    const appList = [...apps].map(([label, models]) => ({ name: capitalize(label), models }));
    return this.render(request, 'admin/index.html', { title: this.siteHeader, app_list: appList });
  }

  /** The admin login page: only active staff members may log in here. */
  async login(request: HttpRequest): Promise<HttpResponse> {
    const nextValue = request.query.get(REDIRECT_FIELD_NAME) ?? '';
    const context: Record<string, unknown> = { title: 'Log in', username: '', errors: {}, next: isSafeRedirect(nextValue, request) ? nextValue : '' };
    if (request.method === 'POST') {
      const forbidden = await enforceCsrf(request);
      if (forbidden) return forbidden;
      const form = await readForm(request);
      const username = form.get('username') ?? '';
      const next = form.get(REDIRECT_FIELD_NAME) ?? '';
      context.username = username;
      context.next = isSafeRedirect(next, request) ? next : '';
      const user = username ? await authenticate(request, { username, password: form.get('password') ?? '' }) : null;
      if (user && user.is_active && user.is_staff) {
        await login(request, user);
        return this.neverCache(new HttpResponseRedirect(context.next ? String(context.next) : this.url('index')));
      }
      context.errors = {
        __all__: ['Please enter the correct username and password for a staff account. Note that both fields may be case-sensitive.'],
      };
    } else if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new HttpResponseNotAllowed(['GET', 'HEAD', 'POST']);
    } else if (this.hasPermission(request.user)) {
      return this.neverCache(new HttpResponseRedirect(context.next ? String(context.next) : this.url('index')));
    }
    return this.render(request, 'admin/login.html', context);
  }

  /** Log out on POST (with the CSRF token); GET asks for confirmation. */
  async logout(request: HttpRequest): Promise<HttpResponse> {
    if (request.method === 'POST') {
      const forbidden = await enforceCsrf(request);
      if (forbidden) return forbidden;
      await logout(request);
      return this.render(request, 'admin/logged_out.html', { title: 'Logged out', admin_login_url: this.url('login') });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return new HttpResponseNotAllowed(['GET', 'HEAD', 'POST']);
    return this.render(request, 'admin/logout.html', { title: 'Log out' });
  }

  /**
   * The list of one model's objects: searchable, filtered by the sidebar (`listFilter`),
   * paginated; a POST runs the chosen bulk action on the selected rows.
   */
  async changelist(request: HttpRequest, kwargs: Record<string, unknown>): Promise<HttpResponse> {
    const admin = this.getModelAdmin(kwargs.app_label, kwargs.model_name);
    if (!(await admin.hasViewPermission(request.user))) return this.forbidden(request);
    const kw = { app_label: admin.appLabel, model_name: admin.modelName };
    if (request.method === 'POST') return this.changelistAction(request, admin);
    if (request.method !== 'GET' && request.method !== 'HEAD') return new HttpResponseNotAllowed(['GET', 'HEAD', 'POST']);
    const query = request.query.get('q') ?? '';
    const filtered = await applyListFilters(admin, admin.getQueryset(), request.query);
    if (filtered === null) return this.render(request, 'admin/bad_request.html', { title: '400 Bad Request' }, 400);
    const queryset = admin.getSearchResults(filtered.queryset, query);
    const total = await queryset.count();
    const pages = Math.max(1, Math.ceil(total / admin.listPerPage));
    const pageNumber = Math.min(Math.max(1, parseInt(request.query.get('p') ?? '1', 10) || 1), pages);
    const related = admin.getListSelectRelated();
    const rowsQuery = related.length ? queryset.selectRelated(...related) : queryset;
    const objects = await rowsQuery.slice((pageNumber - 1) * admin.listPerPage, pageNumber * admin.listPerPage).fetch();
    const rows = objects.map((obj) => ({
      pk: pkText(obj),
      url: this.url('change', { ...kw, object_id: pkText(obj) }),
      cells: admin.listDisplay.map((item) => {
        const value = admin.getListValue(obj, item);
        if (typeof value === 'boolean') return { bool: value };
        if (value instanceof Date) return { text: value.toISOString().replace('T', ' ').slice(0, 19) };
        return { text: value === null || value === undefined ? '-' : String(value) };
      }),
    }));
    const keep = filtered.params;
    const pageLinks = Array.from({ length: pages }, (_, i) => {
      const params = new URLSearchParams({ ...keep, ...(query ? { q: query } : {}), p: String(i + 1) });
      return { number: i + 1, url: `?${params.toString()}`, active: i + 1 === pageNumber };
    });
    const canDelete = await admin.hasDeletePermission(request.user);
    const actions = admin.actions.filter((name) => name === 'delete_selected' && canDelete)
      .map((name) => ({ name, description: `Delete selected ${admin.verboseNamePlural}` }));
    return this.render(request, 'admin/change_list.html', {
      title: `Select ${admin.verboseName} to change`,
      model_name_plural: capitalize(admin.verboseNamePlural),
      verbose_name: admin.verboseName,
      verbose_name_plural: admin.verboseNamePlural,
      headers: admin.getListHeaders(),
      rows,
      total,
      query,
      has_search: admin.searchFields.length > 0,
      filters: filtered.specs,
      actions,
      page_links: pages > 1 ? pageLinks : [],
      add_url: (await admin.hasAddPermission(request.user)) ? this.url('add', kw) : null,
      changelist_url: this.url('changelist', kw),
    });
  }

  /**
   * A bulk action posted from the changelist. "Delete selected" first shows what will be
   * deleted, and deletes on the confirming POST (`post=yes`), as the original's admin.
   */
  private async changelistAction(request: HttpRequest, admin: ModelAdmin): Promise<HttpResponse> {
    const kw = { app_label: admin.appLabel, model_name: admin.modelName };
    const forbidden = await enforceCsrf(request);
    if (forbidden) return forbidden;
    const form = await readForm(request);
    const action = form.get('action') ?? '';
    const selected = form.getList('_selected_action').map(String);
    const back = this.neverCache(new HttpResponseRedirect(this.url('changelist', kw)));
    if (!admin.actions.includes(action) || action !== 'delete_selected') {
      this.message(request, 'No action selected.');
      return back;
    }
    if (!selected.length) {
      this.message(request, 'Items must be selected in order to perform actions on them. No items have been changed.');
      return back;
    }
    if (!(await admin.hasDeletePermission(request.user))) return this.forbidden(request);
    const objects = await admin.getQueryset().filter({ pk__in: selected }).fetch();
    if (form.get('post') === 'yes') {
      for (const obj of objects) await obj.destroy();
      const name = objects.length === 1 ? admin.verboseName : admin.verboseNamePlural;
      this.message(request, `Successfully deleted ${objects.length} ${name}.`);
      return back;
    }
    return this.render(request, 'admin/delete_selected_confirmation.html', {
      title: 'Are you sure?',
      verbose_name_plural: admin.verboseNamePlural,
      model_name_plural: capitalize(admin.verboseNamePlural),
      changelist_url: this.url('changelist', kw),
      objects: objects.map((obj) => ({ pk: pkText(obj), repr: String(obj),
        url: this.url('change', { ...kw, object_id: pkText(obj) }) })),
      action,
    });
  }

  /** The add form. */
  async add(request: HttpRequest, kwargs: Record<string, unknown>): Promise<HttpResponse> {
    const admin = this.getModelAdmin(kwargs.app_label, kwargs.model_name);
    if (!(await admin.hasAddPermission(request.user))) return this.forbidden(request);
    return this.changeForm(request, admin, null);
  }

  /** The change form of one object. */
  async change(request: HttpRequest, kwargs: Record<string, unknown>): Promise<HttpResponse> {
    const admin = this.getModelAdmin(kwargs.app_label, kwargs.model_name);
    if (!(await admin.hasViewPermission(request.user))) return this.forbidden(request);
    const obj = await this.getObject(admin, kwargs.object_id);
    return this.changeForm(request, admin, obj);
  }

  private async changeForm(request: HttpRequest, admin: ModelAdmin, obj: Model | null): Promise<HttpResponse> {
    const Serializer = admin.getSerializerClass();
    const kw = { app_label: admin.appLabel, model_name: admin.modelName };
    const canChange = obj === null || (await admin.hasChangePermission(request.user));
    let serializer = new Serializer(obj ? { instance: obj } : {});
    if (request.method === 'POST') {
      if (!canChange) return this.forbidden(request);
      const forbidden = await enforceCsrf(request);
      if (forbidden) return forbidden;
      const form = await readForm(request);
      serializer = new Serializer(obj ? { instance: obj, data: form } : { data: form });
      if (await serializer.isValid()) {
        const saved = await serializer.save() as Model;
        const verb = obj ? 'changed' : 'added';
        this.message(request, `The ${admin.verboseName} “${String(saved)}” was ${verb} successfully.`);
        if (form.get('_continue') !== undefined && form.get('_continue') !== null) {
          return this.neverCache(new HttpResponseRedirect(this.url('change', { ...kw, object_id: pkText(saved) })));
        }
        return this.neverCache(new HttpResponseRedirect(this.url('changelist', kw)));
      }
    } else if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new HttpResponseNotAllowed(['GET', 'HEAD', 'POST']);
    }
    const objectId = obj ? pkText(obj) : null;
    return this.render(request, 'admin/change_form.html', {
      title: obj ? `Change ${admin.verboseName}` : `Add ${admin.verboseName}`,
      object_repr: obj ? String(obj) : null,
      verbose_name: admin.verboseName,
      model_name_plural: capitalize(admin.verboseNamePlural),
      changelist_url: this.url('changelist', kw),
      form_html: await renderSerializerForm(serializer),
      has_errors: request.method === 'POST',
      can_change: canChange,
      delete_url: obj && (await admin.hasDeletePermission(request.user)) ? this.url('delete', { ...kw, object_id: objectId }) : null,
    });
  }

  /** Ask for confirmation (GET), then delete the object (POST). */
  async delete(request: HttpRequest, kwargs: Record<string, unknown>): Promise<HttpResponse> {
    const admin = this.getModelAdmin(kwargs.app_label, kwargs.model_name);
    if (!(await admin.hasDeletePermission(request.user))) return this.forbidden(request);
    const obj = await this.getObject(admin, kwargs.object_id);
    const kw = { app_label: admin.appLabel, model_name: admin.modelName };
    if (request.method === 'POST') {
      const forbidden = await enforceCsrf(request);
      if (forbidden) return forbidden;
      const repr = String(obj);
      await obj.destroy();
      this.message(request, `The ${admin.verboseName} “${repr}” was deleted successfully.`);
      return this.neverCache(new HttpResponseRedirect(this.url('changelist', kw)));
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return new HttpResponseNotAllowed(['GET', 'HEAD', 'POST']);
    return this.render(request, 'admin/delete_confirmation.html', {
      title: 'Are you sure?',
      verbose_name: admin.verboseName,
      model_name_plural: capitalize(admin.verboseNamePlural),
      object_repr: String(obj),
      changelist_url: this.url('changelist', kw),
      change_url: this.url('change', { ...kw, object_id: pkText(obj) }),
    });
  }

  private forbidden(request: HttpRequest): HttpResponse {
    return this.render(request, 'admin/forbidden.html', { title: '403 Forbidden' }, 403);
  }
}

/** The default admin site. */
export const adminSite = new AdminSite();
