/**
 * Authentication signals: `userLoggedIn` (after `login()`; updates `last_login`),
 * `userLoggedOut` (before `logout()` flushes the session) and `userLoginFailed` (when no
 * backend accepted the credentials; passwords are masked).
 */
import type { HttpRequest } from '../../lib/core/http';
import { Signal } from '../../lib/core/db';

/** Arguments of `userLoggedIn` / `userLoggedOut` (`user` is null for an anonymous logout). */
export interface UserSignalArgs {
  request: HttpRequest | null;
  user: object | null;
}

/** Arguments of `userLoginFailed`. */
export interface LoginFailedArgs {
  credentials: Record<string, unknown>;
  request: HttpRequest | null;
}

/** Sent after a user logged in. */
export const userLoggedIn = new Signal<UserSignalArgs>('user_logged_in');
/** Sent before a user's session is flushed by `logout()`. */
export const userLoggedOut = new Signal<UserSignalArgs>('user_logged_out');
/** Sent when `authenticate()` found no backend accepting the credentials. */
export const userLoginFailed = new Signal<LoginFailedArgs>('user_login_failed');
