/**
 * `migrations.W001`: migrations of the installed apps that the database has not applied yet
 * (the host framework's `runserver` warning, as a check tagged `database`). The migration
 * tooling loads only when the check runs.
 */
import { PROG } from '../management';
import { Warning, type CheckMessage } from './messages';
import { register, Tags } from './registry';

/** The `app.name` keys of the migrations not applied yet, in plan order. */
export async function unappliedMigrations(): Promise<Array<{ app: string; name: string }>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const migrations = require('../db/migrations') as typeof import('../db/migrations');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const connection = require('../db/connection') as typeof import('../db/connection');
  const plan = migrations.loadMigrationPlan();
  const { sequelize } = connection.getConnectionState();
  const executed = new Set(await connection.usePrimary(() => new migrations.MigrationRecorder(sequelize).applied()));
  return plan.filter((entry) => !executed.has(entry.key)).map((entry) => ({ app: entry.app, name: entry.name }));
}

/** Warn about unapplied migrations (needs the database: runs with `includeDatabaseChecks`). */
export async function checkUnappliedMigrations(): Promise<CheckMessage[]> {
  const pending = await unappliedMigrations();
  if (!pending.length) return [];
  const labels = [...new Set(pending.map((m) => m.app))].sort();
  return [
    new Warning(
      `You have ${pending.length} unapplied migration(s). Your project may not work properly until you apply the migrations for app(s): ${labels.join(', ')}.`,
      { id: 'migrations.W001', hint: `Run '${PROG} migrate' to apply them.` },
    ),
  ];
}

register(checkUnappliedMigrations, { tags: [Tags.database] });
