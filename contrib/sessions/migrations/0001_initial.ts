/** The `django_session` table, as the host framework's `sessions.0001_initial` creates it. */
import { CreateModel, type MigrationDependency } from '../../../lib/core/db';

export const initial = true;

export const dependencies: MigrationDependency[] = [];

export const operations = [
  new CreateModel({
    name: 'Session',
    table: 'django_session',
    fields: [
      ['session_key', { type: 'CharField', primaryKey: true, maxLength: 40 }],
      ['session_data', { type: 'TextField' }],
      ['expire_date', { type: 'DateTimeField', dbIndex: true }],
    ],
    options: { verboseName: 'session', verboseNamePlural: 'sessions' },
  }),
];
