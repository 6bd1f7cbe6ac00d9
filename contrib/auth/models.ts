/**
 * The authentication models on the host framework's tables: `User` (`auth_user`), `Group`
 * (`auth_group`), `Permission` (`auth_permission`), `ContentType` (`django_content_type`) and
 * the many-to-many join tables `auth_user_groups`, `auth_group_permissions`,
 * `auth_user_user_permissions`. A database created by the original is served unchanged.
 */
import 'reflect-metadata';
import { Table, Column, DataType, ForeignKey, BelongsTo, BelongsToMany } from 'sequelize-typescript';
import { BaseModel, Manager, field, relation, type ModelMeta } from '../../lib/core/db';
import { saltedHmac } from '../../lib/core/signing';
import { checkPassword, isPasswordUsable, makePassword } from './hashers';
import { UnicodeUsernameValidator, normalizeEmail, normalizeUsername } from './validators';
import { collectBackendPermissions, hasEveryPerm, userHasModulePerms, userHasPerm } from './backendPermissions';

/** Django's extra options of a many-to-many field, spread into `@BelongsToMany` options. */
function djangoInfo(options: { blank?: boolean; verboseName?: string; helpText?: string }): object {
  return options;
}

/** One row per model class, naming it by app label and lower-case class name. */
@Table({ tableName: 'django_content_type', timestamps: false })
export class ContentType extends BaseModel {
  declare static objects: Manager<ContentType>;
  static override meta: ModelMeta = {
    appLabel: 'contenttypes',
    verboseName: 'content type',
    verboseNamePlural: 'content types',
    uniqueTogether: [['app_label', 'model']],
    dbTable: 'django_content_type',
  };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true, verboseName: 'ID' }))
  declare id: number;

  @Column(field({ type: DataType.STRING(100) }))
  declare app_label: string;

  @Column(field({ type: DataType.STRING(100), verboseName: 'python model class name' }))
  declare model: string;

  /** `app_label | model`, as the original's admin shows it. */
  get appLabeledName(): string {
    return `${this.app_label} | ${this.model}`;
  }

  override toString(): string {
    return this.appLabeledName;
  }

  /** The content type of a model class, created on first use. */
  static async getForModel(model: { name: string; meta: ModelMeta }): Promise<ContentType> {
    const [ct] = await ContentType.objects.getOrCreate({ app_label: model.meta.appLabel, model: model.name.toLowerCase() });
    return ct;
  }
}

/** A named right (`auth.add_user`) attached to a content type, granted to users and groups. */
@Table({ tableName: 'auth_permission', timestamps: false })
export class Permission extends BaseModel {
  declare static objects: Manager<Permission>;
  static override meta: ModelMeta = {
    appLabel: 'auth',
    verboseName: 'permission',
    verboseNamePlural: 'permissions',
    ordering: ['content_type__app_label', 'content_type__model', 'codename'],
    uniqueTogether: [['content_type', 'codename']],
    dbTable: 'auth_permission',
  };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true, verboseName: 'ID' }))
  declare id: number;

  @Column(field({ type: DataType.STRING(255), verboseName: 'name' }))
  declare name: string;

  @ForeignKey(() => ContentType)
  @Column(field({ type: DataType.INTEGER, verboseName: 'content type' }))
  declare content_type_id: number;

  @BelongsTo(() => ContentType, relation({ foreignKey: 'content_type_id', onDelete: 'CASCADE' }))
  declare content_type?: ContentType;

  @Column(field({ type: DataType.STRING(100), verboseName: 'codename' }))
  declare codename: string;

  override toString(): string {
    return this.content_type ? `${this.content_type} | ${this.name}` : this.name;
  }
}

/** Join rows of `Group.permissions`. */
@Table({ tableName: 'auth_group_permissions', timestamps: false })
export class GroupPermission extends BaseModel {
  static override meta: ModelMeta = { appLabel: 'auth', uniqueTogether: [['group_id', 'permission_id']] };
  /** Created for a many-to-many relation: no content type or permissions of its own. */
  static autoCreated = true;

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @ForeignKey(() => Group)
  @Column(field({ type: DataType.INTEGER }))
  declare group_id: number;

  @ForeignKey(() => Permission)
  @Column(field({ type: DataType.INTEGER }))
  declare permission_id: number;
}

/** A named set of users sharing permissions (`editors`). */
@Table({ tableName: 'auth_group', timestamps: false })
export class Group extends BaseModel {
  declare static objects: Manager<Group>;
  static override meta: ModelMeta = {
    appLabel: 'auth',
    verboseName: 'group',
    verboseNamePlural: 'groups',
    dbTable: 'auth_group',
  };

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true, verboseName: 'ID' }))
  declare id: number;

  @Column(field({ type: DataType.STRING(150), unique: true, verboseName: 'name' }))
  declare name: string;

  @BelongsToMany(
    () => Permission,
    { through: () => GroupPermission, foreignKey: 'group_id', otherKey: 'permission_id', ...djangoInfo({ blank: true, verboseName: 'permissions' }) },
  )
  declare permissions?: Permission[];

  override toString(): string {
    return this.name;
  }
}

/** Join rows of `User.groups`. */
@Table({ tableName: 'auth_user_groups', timestamps: false })
export class UserGroup extends BaseModel {
  static override meta: ModelMeta = { appLabel: 'auth', uniqueTogether: [['user_id', 'group_id']] };
  static autoCreated = true;

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @ForeignKey(() => User)
  @Column(field({ type: DataType.INTEGER }))
  declare user_id: number;

  @ForeignKey(() => Group)
  @Column(field({ type: DataType.INTEGER }))
  declare group_id: number;
}

/** Join rows of `User.user_permissions`. */
@Table({ tableName: 'auth_user_user_permissions', timestamps: false })
export class UserPermission extends BaseModel {
  static override meta: ModelMeta = { appLabel: 'auth', uniqueTogether: [['user_id', 'permission_id']] };
  static autoCreated = true;

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
  declare id: number;

  @ForeignKey(() => User)
  @Column(field({ type: DataType.INTEGER }))
  declare user_id: number;

  @ForeignKey(() => Permission)
  @Column(field({ type: DataType.INTEGER }))
  declare permission_id: number;
}

/** Extra column values accepted by `createUser()` / `createSuperuser()`. */
export type ExtraUserFields = Partial<
  Pick<User, 'first_name' | 'last_name' | 'is_staff' | 'is_superuser' | 'is_active' | 'date_joined' | 'last_login'>
> &
  Record<string, unknown>;

/** `User.objects`: the root QuerySet plus the user-creation helpers. */
export class UserManager extends Manager<User> {
  /** Look a user up by username (the natural key). */
  getByNaturalKey(username: string): Promise<User> {
    return this.get({ [User.USERNAME_FIELD]: username });
  }

  private async createWith(username: string, email: string | null | undefined, password: string | null | undefined, extra: ExtraUserFields): Promise<User> {
    if (!username) throw new TypeError('The given username must be set');
    const user = User.build({
      ...extra,
      username: normalizeUsername(username),
      email: normalizeEmail(email),
    });
    user.password = await makePassword(password ?? null);
    await user.save();
    return user;
  }

  /** Create and save a user; no password (null) makes the password unusable. */
  createUser(username: string, email?: string | null, password?: string | null, extra: ExtraUserFields = {}): Promise<User> {
    return this.createWith(username, email, password, { is_staff: false, is_superuser: false, ...extra });
  }

  /** Create and save a staff superuser. */
  createSuperuser(username: string, email?: string | null, password?: string | null, extra: ExtraUserFields = {}): Promise<User> {
    const values: ExtraUserFields = { is_staff: true, is_superuser: true, ...extra };
    if (values.is_staff !== true) throw new TypeError('Superuser must have is_staff: true.');
    if (values.is_superuser !== true) throw new TypeError('Superuser must have is_superuser: true.');
    return this.createWith(username, email, password, values);
  }
}

/** The permission caches of one user instance (filled by the model backend). */
export interface PermissionCaches {
  user?: Set<string>;
  group?: Set<string>;
  all?: Set<string>;
}

/**
 * A person who can log in: the host framework's default user model, with its columns,
 * password handling and permission checks.
 */
@Table({ tableName: 'auth_user', timestamps: false })
export class User extends BaseModel {
  declare static objects: UserManager;
  static override managerClass = UserManager as unknown as typeof BaseModel.managerClass;
  static override meta: ModelMeta = {
    appLabel: 'auth',
    verboseName: 'user',
    verboseNamePlural: 'users',
    dbTable: 'auth_user',
  };
  /** The field that identifies a user when logging in. */
  static USERNAME_FIELD = 'username';
  /** The field holding the email address. */
  static EMAIL_FIELD = 'email';
  /** Fields `createsuperuser` prompts for besides the username and password. */
  static REQUIRED_FIELDS: string[] = ['email'];
  /** Validates usernames (`createsuperuser`, serializers). */
  static usernameValidator = new UnicodeUsernameValidator();

  @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true, verboseName: 'ID' }))
  declare id: number;

  @Column(field({ type: DataType.STRING(128), default: '', verboseName: 'password' }))
  declare password: string;

  @Column(field({ type: DataType.DATE(6), allowNull: true, blank: true, verboseName: 'last login' }))
  declare last_login: Date | null;

  @Column(field({
    type: DataType.BOOLEAN,
    default: false,
    verboseName: 'superuser status',
    helpText: 'Designates that this user has all permissions without explicitly assigning them.',
  }))
  declare is_superuser: boolean;

  @Column(field({
    type: DataType.STRING(150),
    unique: true,
    verboseName: 'username',
    helpText: 'Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.',
    errorMessages: { unique: 'A user with that username already exists.' },
    validators: [new UnicodeUsernameValidator()],
  }))
  declare username: string;

  @Column(field({ type: DataType.STRING(150), blank: true, default: '', verboseName: 'first name' }))
  declare first_name: string;

  @Column(field({ type: DataType.STRING(150), blank: true, default: '', verboseName: 'last name' }))
  declare last_name: string;

  @Column(field({ type: DataType.STRING(254), blank: true, default: '', verboseName: 'email address', fieldType: 'EmailField' }))
  declare email: string;

  @Column(field({
    type: DataType.BOOLEAN,
    default: false,
    verboseName: 'staff status',
    helpText: 'Designates whether the user can log into this admin site.',
  }))
  declare is_staff: boolean;

  @Column(field({
    type: DataType.BOOLEAN,
    default: true,
    verboseName: 'active',
    helpText: 'Designates whether this user should be treated as active. Unselect this instead of deleting accounts.',
  }))
  declare is_active: boolean;

  @Column(field({ type: DataType.DATE(6), default: DataType.NOW, verboseName: 'date joined' }))
  declare date_joined: Date;

  @BelongsToMany(
    () => Group,
    {
      through: () => UserGroup,
      foreignKey: 'user_id',
      otherKey: 'group_id',
      ...djangoInfo({
        blank: true,
        verboseName: 'groups',
        helpText: 'The groups this user belongs to. A user will get all permissions granted to each of their groups.',
      }),
    },
  )
  declare groups?: Group[];

  @BelongsToMany(
    () => Permission,
    {
      through: () => UserPermission,
      foreignKey: 'user_id',
      otherKey: 'permission_id',
      ...djangoInfo({ blank: true, verboseName: 'user permissions', helpText: 'Specific permissions for this user.' }),
    },
  )
  declare user_permissions?: Permission[];

  /** Permission sets cached on this instance by the model backend (reset by `refreshFromDb`). */
  permCaches?: PermissionCaches;

  /** Always true for real users (the anonymous user says false). */
  get isAuthenticated(): boolean {
    return true;
  }

  /** Always false for real users. */
  get isAnonymous(): boolean {
    return false;
  }

  /** The value of `USERNAME_FIELD`. */
  getUsername(): string {
    return this.username;
  }

  /** First and last name, separated by a space. */
  getFullName(): string {
    return `${this.first_name ?? ''} ${this.last_name ?? ''}`.trim();
  }

  /** The first name. */
  getShortName(): string {
    return this.first_name ?? '';
  }

  override toString(): string {
    return this.getUsername();
  }

  // -- passwords ---------------------------------------------------------------

  /** Hash and set a new password (not saved: call `save()`); null makes it unusable. */
  async setPassword(rawPassword: string | null): Promise<void> {
    this.password = await makePassword(rawPassword);
  }

  /**
   * True when `rawPassword` is the user's password. An outdated hash (fewer iterations, other
   * algorithm) is replaced and saved on success.
   */
  async checkPassword(rawPassword: string): Promise<boolean> {
    return checkPassword(rawPassword, this.password, async (password) => {
      await this.setPassword(password);
      await this.save({ fields: ['password'] });
    });
  }

  /** Make the password unusable (for users who authenticate elsewhere). */
  async setUnusablePassword(): Promise<void> {
    this.password = await makePassword(null);
  }

  /** False after `setUnusablePassword()`. */
  hasUsablePassword(): boolean {
    return isPasswordUsable(this.password);
  }

  /**
   * An HMAC of the password hash, kept in the session at login: changing the password changes
   * it, which logs out every other session.
   */
  getSessionAuthHash(): string {
    return saltedHmac('django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash', this.password, undefined, 'sha256').digest('hex');
  }

  override async refreshFromDb(): Promise<this> {
    this.permCaches = undefined;
    return super.refreshFromDb();
  }

  // -- permissions -------------------------------------------------------------

  /** Permission strings (`app_label.codename`) granted directly to this user. */
  getUserPermissions(obj?: unknown): Promise<Set<string>> {
    return collectBackendPermissions(this, 'getUserPermissions', obj);
  }

  /** Permission strings granted through the user's groups. */
  getGroupPermissions(obj?: unknown): Promise<Set<string>> {
    return collectBackendPermissions(this, 'getGroupPermissions', obj);
  }

  /** Every permission string the user has, directly or through groups. */
  getAllPermissions(obj?: unknown): Promise<Set<string>> {
    return collectBackendPermissions(this, 'getAllPermissions', obj);
  }

  /**
   * True when the user has `perm` (`app_label.codename`). Active superusers have every
   * permission; inactive users have none (unless a custom backend says otherwise).
   */
  async hasPerm(perm: string, obj?: unknown): Promise<boolean> {
    if (this.is_active && this.is_superuser) return true;
    return userHasPerm(this, perm, obj);
  }

  /** True when the user has every permission in `perms`. */
  hasPerms(perms: Iterable<string>, obj?: unknown): Promise<boolean> {
    return hasEveryPerm((perm) => this.hasPerm(perm, obj), perms);
  }

  /** True when the user has any permission in the app `appLabel`. */
  async hasModulePerms(appLabel: string): Promise<boolean> {
    if (this.is_active && this.is_superuser) return true;
    return userHasModulePerms(this, appLabel);
  }
}
