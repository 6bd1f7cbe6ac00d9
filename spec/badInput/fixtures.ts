/**
 * Helpers of the bad-input specs: a remote-user backend that lower-cases names (as a server
 * sending `ALICE` for the `alice` account would need).
 */
import { RemoteUserBackend } from '../../contrib/auth/backends';

/** Remote user names are case-insensitive: `ALICE` is the `alice` account. */
export class LowercaseRemoteUserBackend extends RemoteUserBackend {
  override cleanUsername(username: string): string {
    return username.toLowerCase();
  }
}

/** Like `RemoteUserBackend`, but never creates users the database does not know. */
export class KnownRemoteUserBackend extends RemoteUserBackend {
  override createUnknownUser = false;
}
