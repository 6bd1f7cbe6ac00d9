/** `manage.ts clearsessions`: delete expired sessions from the configured session store. */
import { BaseCommand, CommandError } from '../../../lib/core/management';
import { settings } from '../../../lib/core/conf';
import { getSessionStore } from '../middleware';

/** Remove expired sessions (run it from cron). */
export default class Command extends BaseCommand {
  static override help = 'Can be run as a cronjob or directly to clean out expired sessions (only with the database backend at the moment).';

  override async handle(): Promise<void> {
    const engine = settings.SESSION_ENGINE;
    const Store = getSessionStore(engine);
    if (typeof Store.clearExpired !== 'function') {
      throw new CommandError(`Session engine '${engine}' doesn't support clearing expired sessions.`);
    }
    await Store.clearExpired();
  }
}
