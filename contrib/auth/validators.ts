/**
 * Username validators, as the host framework's: letters (any script), digits and `@ . + - _`.
 */
import { ValidationError } from '../../lib/core/exceptions';

export { ValidationError };

/** Validate usernames of any script: `\w` in the Unicode sense plus `@ . + -`. */
export class UnicodeUsernameValidator {
  /** The pattern a valid username matches in full. */
  regex: RegExp = /^[\p{L}\p{N}\p{M}\p{Pc}@.+-]+$/u;
  message = 'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.';
  code = 'invalid';

  /** Throw `ValidationError` when `value` is not a valid username. */
  validate(value: string): void {
    // `$` in Python's pattern is `\Z`: a trailing newline is not allowed either.
    if (!this.regex.test(value)) throw new ValidationError(this.message, this.code);
  }
}

/** Like `UnicodeUsernameValidator`, but ASCII letters and digits only. */
export class ASCIIUsernameValidator extends UnicodeUsernameValidator {
  override regex: RegExp = /^[A-Za-z0-9_@.+-]+$/;
  override message = 'Enter a valid username. This value may contain only English letters, numbers, and @/./+/-/_ characters.';
}

/** Django's `AbstractBaseUser.normalize_username`: NFKC normalisation. */
export function normalizeUsername(username: string): string {
  return username.normalize('NFKC');
}

/** Lower-case the domain part of an email address (Django's `normalize_email`). */
export function normalizeEmail(email: string | null | undefined): string {
  const value = email ?? '';
  const at = value.lastIndexOf('@');
  if (at < 0) return value;
  return `${value.slice(0, at)}@${value.slice(at + 1).toLowerCase()}`;
}

// The quoted local part legitimately allows control characters, as the original does.
// eslint-disable-next-line no-control-regex
const EMAIL_USER = /^([-!#$%&'*+/=?^_`{}|~0-9A-Z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*$|^"([\x01-\x08\x0b\x0c\x0e-\x1f!#-[\]-\x7f]|\\[\x01-\x09\x0b\x0c\x0d-\x7f])*"$)/i;
const EMAIL_DOMAIN = /^((?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+)(?:[A-Z0-9-]{2,63}(?<!-))$/i;

/** Validate an email address as the host framework's `EmailValidator` does (ASCII domains). */
export function validateEmail(value: string): void {
  const message = 'Enter a valid email address.';
  const at = value.lastIndexOf('@');
  if (!value || at < 0) throw new ValidationError(message);
  const user = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!EMAIL_USER.test(user)) throw new ValidationError(message);
  if (domain !== 'localhost' && !EMAIL_DOMAIN.test(domain) && !/^\[[0-9a-f:.]+\]$/i.test(domain)) {
    throw new ValidationError(message);
  }
}
