/**
 * The token table, as Django REST framework's authtoken migrations 0001-0003 leave it:
 * `key` varchar(40) primary key, `created` datetime, `user_id` unique foreign key to the user
 * model (`AUTH_USER_MODEL`).
 */
import { CreateModel, swappableDependency, swappableSetting, type MigrationDependency } from '../../../lib/core/db';

export const initial = true;

export const dependencies: MigrationDependency[] = [
  swappableDependency('AUTH_USER_MODEL'),
];

export const operations = [
  new CreateModel({
    name: 'Token',
    table: 'authtoken_token',
    fields: [
      ['key', { type: 'CharField', primaryKey: true, maxLength: 40 }],
      ['created', { type: 'DateTimeField', autoNowAdd: true }],
      [
        'user',
        {
          type: 'ForeignKey',
          to: swappableSetting('AUTH_USER_MODEL'),
          onDelete: 'CASCADE',
          relatedName: 'auth_token',
          unique: true,
        },
      ],
    ],
    options: { verboseName: 'Token', verboseNamePlural: 'Tokens' },
  }),
];
