/**
 * The start-up check of the database that `migrate`, `showmigrations`, `runserver` and `serve`
 * run before doing anything else, so an unreachable server is reported in one line.
 */
import { ImproperlyConfigured } from './conf';
import { CommandError } from './management';
import { checkDatabaseConnection, closeConnections } from './db/connection';
import { OperationalError } from './db/errors';

/**
 * Connect to the primary and every replica now; a failure (or a bad database setting) becomes
 * a `CommandError` (one line on stderr, exit status 1, no stack unless `--traceback`). With
 * `close`, the connections are closed again (a process that only forks the real servers).
 */
export async function checkDatabaseForCommand(options: { close?: boolean } = {}): Promise<void> {
  try {
    await checkDatabaseConnection();
  } catch (error) {
    if (error instanceof OperationalError || error instanceof ImproperlyConfigured) throw new CommandError(error.message);
    throw error;
  } finally {
    if (options.close) await closeConnections();
  }
}
