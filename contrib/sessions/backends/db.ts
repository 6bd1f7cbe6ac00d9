/**
 * Sessions stored in the `django_session` table (the default `SESSION_ENGINE`,
 * `contrib.sessions.backends.db`). Expired rows are ignored when read and removed by the
 * `clearsessions` command.
 */
import { atomic } from '../../../lib/core/db';
import { Session } from '../models';
import { CreateError, SessionBase, UpdateError, type SessionData } from './base';

/** A session store on the database. Override `model` to store sessions in another table. */
export class SessionStore extends SessionBase {
  /** The model holding the rows. */
  get model(): typeof Session {
    return Session;
  }

  override async load(): Promise<SessionData> {
    const row = this.currentKey
      ? await this.model.objects.filter({ session_key: this.currentKey, expire_date__gt: new Date() }).first()
      : null;
    if (!row) {
      this.currentKey = null;
      return {};
    }
    return this.decode(row.session_data);
  }

  override async exists(sessionKey: string): Promise<boolean> {
    return this.model.objects.filter({ session_key: sessionKey }).exists();
  }

  override async create(): Promise<void> {
    await this.saveUnderNewKey();
  }

  override async save(mustCreate = false): Promise<void> {
    if (this.currentKey === null) {
      await this.create();
      return;
    }
    const data = this.sessionForSave(mustCreate);
    const values = {
      session_data: this.encode(data),
      expire_date: this.getExpiryDate(),
    };
    const key = this.currentKey;
    if (mustCreate) {
      try {
        await atomic(() => this.model.objects.create({ session_key: key, ...values }));
      } catch (error) {
        if ((error as Error).name === 'SequelizeUniqueConstraintError') throw new CreateError('Session key already exists.');
        throw error;
      }
      return;
    }
    const updated = await this.model.objects.filter({ session_key: key }).update(values);
    if (updated === 0) throw new UpdateError('The session was deleted meanwhile.');
  }

  override async destroy(sessionKey: string | null = null): Promise<void> {
    const key = sessionKey ?? this.currentKey;
    if (key === null) return;
    await this.model.objects.filter({ session_key: key }).delete();
  }

  /** Delete every expired row. */
  static async clearExpired(): Promise<void> {
    await Session.objects.filter({ expire_date__lt: new Date() }).delete();
  }
}
