/**
 * Sessions kept in the cookie itself, signed (`SESSION_ENGINE =
 * 'contrib.sessions.backends.signedCookies'`): no storage at all, but the data is readable by
 * the client (only tamper-proof), limited by cookie size, and cannot be revoked server-side.
 */
import { dumps, loads } from '../../../lib/core/signing';
import { SessionBase, type SessionData } from './base';

const SALT = 'django.contrib.sessions.backends.signed_cookies';

/** A session store whose "key" is the signed, compressed data. */
export class SessionStore extends SessionBase {
  override async load(): Promise<SessionData> {
    try {
      const value = loads(this.currentKey ?? '', { salt: SALT, maxAge: this.getSessionCookieAge() });
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as SessionData;
    } catch {
      // Bad signature or expired: start afresh.
    }
    await this.create();
    return {};
  }

  override async exists(_sessionKey: string): Promise<boolean> {
    return false;
  }

  override async create(): Promise<void> {
    this.modified = true;
  }

  /** Re-sign the data; the cookie value is the new key. */
  override async save(_mustCreate = false): Promise<void> {
    this.currentKey = dumps(this.sessionForSave(true), { salt: SALT, compress: true });
    this.modified = true;
  }

  override async destroy(_sessionKey: string | null = null): Promise<void> {
    this.currentKey = '';
    this.data = {};
    this.modified = true;
  }

  /** The key is derived from the data: re-signing is enough. */
  override async cycleKey(): Promise<void> {
    await this.save();
  }

  /** Nothing is stored server-side. */
  static async clearExpired(): Promise<void> {
    // Expiry is enforced by the signature's timestamp.
  }
}
