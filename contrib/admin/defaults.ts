/**
 * The admin classes of the framework's own models, registered on a site by `autodiscover()`
 * for the apps that are installed: users and groups (`contrib.auth`) and tokens
 * (`contrib.authtoken`) — the original's `auth/admin.py` and `authtoken/admin.py`.
 */
import type { Model } from 'sequelize-typescript';
import { settings } from '../../lib/core/conf';
import { canonicalModulePath } from '../../lib/core/modules';
import { ModelSerializer, type ModelSerializerMeta } from '../../lib/serializers';
import { getUserModel } from '../auth';
import { ModelAdmin, type AdminModel } from './options';

let userMeta: ModelSerializerMeta | null = null;

/** The user form: the password is typed in clear and stored hashed; blank keeps it on change. */
export class UserAdminSerializer extends ModelSerializer {
  /** Built on first use, for the configured user model (AUTH_USER_MODEL). */
  static get Meta(): ModelSerializerMeta {
    userMeta ??= {
      model: getUserModel(),
      fields: ['username', 'password', 'first_name', 'last_name', 'email', 'is_active', 'is_staff', 'is_superuser', 'groups'],
      extraKwargs: {
        password: {
          writeOnly: true, required: false, allowBlank: true, style: { input_type: 'password' },
          helpText: 'Raw passwords are not stored; leave blank to keep the current password.',
        },
        groups: { required: false },
      },
    };
    return userMeta;
  }

  /** Create the user with a hashed password (unusable when left blank). */
  override async create(validatedData: Record<string, unknown>): Promise<Model> {
    const { password, ...rest } = validatedData;
    const user = await super.create(rest) as Model & { setPassword(raw: string | null): Promise<void> };
    await user.setPassword(typeof password === 'string' && password ? password : null);
    await user.save();
    return user;
  }

  /** Update the user; a non-blank password replaces the current one. */
  override async update(instance: Model, validatedData: Record<string, unknown>): Promise<Model> {
    const { password, ...rest } = validatedData;
    const user = await super.update(instance, rest) as Model & { setPassword(raw: string | null): Promise<void> };
    if (typeof password === 'string' && password) {
      await user.setPassword(password);
      await user.save();
    }
    return user;
  }
}

/** Users: searchable by username, names and email. */
export class UserAdmin extends ModelAdmin {
  override listDisplay = ['username', 'email', 'first_name', 'last_name', 'is_staff'];
  override searchFields = ['username', 'first_name', 'last_name', 'email'];
  override ordering = ['username'];
  override serializerClass = UserAdminSerializer as unknown as ModelAdmin['serializerClass'];
}

/** Groups: by name. */
export class GroupAdmin extends ModelAdmin {
  override listDisplay = ['name'];
  override searchFields = ['name'];
  override ordering = ['name'];
  override fields = ['name', 'permissions'];
}

/** Tokens: the key is generated on save; pick the user. */
export class TokenAdmin extends ModelAdmin {
  override listDisplay = ['key', 'user', 'created'];
  override searchFields = ['key', 'user__username'];
  override ordering = ['-created'];
  override fields = ['user'];
  /** Load the users with the tokens. */
  override getQueryset(): ReturnType<ModelAdmin['getQueryset']> {
    return super.getQueryset().selectRelated('user');
  }
  /** Show the user's name rather than the relation object. */
  override getListValue(obj: Model, item: string | ((obj: Model) => unknown)): unknown {
    if (item === 'user') return String((obj as unknown as { user?: unknown }).user ?? (obj as unknown as { user_id: unknown }).user_id);
    return super.getListValue(obj, item);
  }
}

/** A site the defaults can be registered on. */
export interface RegistrySite {
  isRegistered(model: AdminModel): boolean;
  register(model: AdminModel, admin: ModelAdmin): void;
}

/** Register the admins of the installed framework apps that the site does not have yet. */
export function registerDefaultAdmins(site: RegistrySite): void {
  const installed = (settings.INSTALLED_APPS ?? []).map(canonicalModulePath);
  if (installed.includes('api_framework.contrib.auth')) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Group } = require('../auth/models') as typeof import('../auth/models');
    const user: AdminModel = getUserModel();
    const group: AdminModel = Group;
    if (!site.isRegistered(user)) {
      site.register(user, new UserAdmin(user));
    }
    if (!site.isRegistered(group)) site.register(group, new GroupAdmin(group));
  }
  if (installed.includes('api_framework.contrib.authtoken')) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Token } = require('../authtoken/models') as typeof import('../authtoken/models');
    const token: AdminModel = Token;
    if (!site.isRegistered(token)) site.register(token, new TokenAdmin(token));
  }
}
