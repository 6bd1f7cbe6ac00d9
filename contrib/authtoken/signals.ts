/**
 * Creating a token for every new user, with the database layer's `postSave` signal.
 *
 * DRF's documentation shows this receiver; here it is ready-made. Connect it once, for
 * example in your app's `AppConfig.ready()`:
 *
 * @example
 *     import { postSave } from 'api_framework/lib/core/db/signals';
 *     import { getUserModel } from 'api_framework/contrib/auth';
 *     import { createAuthToken } from 'api_framework/contrib/authtoken/signals';
 *
 *     postSave.connect(getUserModel(), createAuthToken, { dispatchUid: 'create-auth-token' });
 *
 * or call `connectCreateAuthToken()`, which does the same. Users that existed before get
 * their tokens with `manage.ts drf_create_token <username>` or
 * `await Token.getOrCreateForUser(user)`.
 */
import { postSave, type PostSaveArgs } from '../../lib/core/db/signals';
import { Token, userModel } from './models';

/** The dispatch uid under which `connectCreateAuthToken()` registers the receiver. */
export const CREATE_AUTH_TOKEN_UID = 'api_framework.authtoken.createAuthToken';

/** A `postSave` receiver: give a newly created user a token. */
export async function createAuthToken({ instance, created }: PostSaveArgs): Promise<void> {
  if (!created) return;
  const pk = (instance as { pk?: unknown }).pk;
  if (pk === undefined || pk === null) return;
  await Token.getOrCreateForUser({ pk });
}

/** Connect `createAuthToken` to the user model's `postSave` (idempotent). */
export function connectCreateAuthToken(): void {
  postSave.connect(userModel(), createAuthToken, { dispatchUid: CREATE_AUTH_TOKEN_UID });
}

/** Undo `connectCreateAuthToken()`. */
export function disconnectCreateAuthToken(): boolean {
  return postSave.disconnect(userModel(), CREATE_AUTH_TOKEN_UID);
}
