/**
 * The auth and content-type tables, as the host framework's migrations leave them (auth 0012,
 * contenttypes 0002; columns in the original's order). Recorded as `auth.0001_initial`: the
 * content-type table belongs to `contrib.auth` here. A database the original migrated already
 * has `auth.0001_initial` applied; `migrate --fake-initial` recognises one that lacks the row.
 */
import { CreateModel, NOW, type MigrationDependency } from '../../../lib/core/db';

export const initial = true;

export const dependencies: MigrationDependency[] = [];

export const operations = [
  new CreateModel({
    name: 'ContentType',
    table: 'django_content_type',
    fields: [
      ['id', { type: 'AutoField', primaryKey: true }],
      ['app_label', { type: 'CharField', maxLength: 100 }],
      ['model', { type: 'CharField', maxLength: 100 }],
    ],
    options: {
      uniqueTogether: [['app_label', 'model']],
      verboseName: 'content type',
      verboseNamePlural: 'content types',
    },
  }),
  new CreateModel({
    name: 'Permission',
    table: 'auth_permission',
    fields: [
      ['id', { type: 'AutoField', primaryKey: true }],
      ['content_type', { type: 'ForeignKey', to: 'auth.ContentType', onDelete: 'CASCADE' }],
      ['codename', { type: 'CharField', maxLength: 100 }],
      ['name', { type: 'CharField', maxLength: 255 }],
    ],
    options: {
      uniqueTogether: [['content_type', 'codename']],
      ordering: ['content_type__app_label', 'content_type__model', 'codename'],
      verboseName: 'permission',
      verboseNamePlural: 'permissions',
    },
  }),
  new CreateModel({
    name: 'Group',
    table: 'auth_group',
    fields: [
      ['id', { type: 'AutoField', primaryKey: true }],
      ['name', { type: 'CharField', maxLength: 150, unique: true }],
      [
        'permissions',
        {
          type: 'ManyToManyField',
          to: 'auth.Permission',
          dbTable: 'auth_group_permissions',
          columns: ['group_id', 'permission_id'],
          blank: true,
        },
      ],
    ],
    options: { verboseName: 'group', verboseNamePlural: 'groups' },
  }),
  new CreateModel({
    name: 'User',
    table: 'auth_user',
    fields: [
      ['id', { type: 'AutoField', primaryKey: true }],
      ['password', { type: 'CharField', maxLength: 128, default: '' }],
      ['last_login', { type: 'DateTimeField', null: true, blank: true }],
      ['is_superuser', { type: 'BooleanField', default: false }],
      ['username', { type: 'CharField', maxLength: 150, unique: true }],
      ['last_name', { type: 'CharField', maxLength: 150, blank: true, default: '' }],
      ['email', { type: 'EmailField', maxLength: 254, blank: true, default: '' }],
      ['is_staff', { type: 'BooleanField', default: false }],
      ['is_active', { type: 'BooleanField', default: true }],
      ['date_joined', { type: 'DateTimeField', default: NOW }],
      ['first_name', { type: 'CharField', maxLength: 150, blank: true, default: '' }],
      [
        'groups',
        {
          type: 'ManyToManyField',
          to: 'auth.Group',
          dbTable: 'auth_user_groups',
          columns: ['user_id', 'group_id'],
          blank: true,
        },
      ],
      [
        'user_permissions',
        {
          type: 'ManyToManyField',
          to: 'auth.Permission',
          dbTable: 'auth_user_user_permissions',
          columns: ['user_id', 'permission_id'],
          blank: true,
        },
      ],
    ],
    options: { verboseName: 'user', verboseNamePlural: 'users' },
  }),
];
