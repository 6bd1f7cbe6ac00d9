/**
 * Password validation, as the host framework's `django.contrib.auth.password_validation`: the
 * validators named by `AUTH_PASSWORD_VALIDATORS` (`[{ NAME, OPTIONS? }]`, Django's dotted
 * names accepted) check a new password; `createsuperuser` and `changepassword` apply them.
 *
 *     AUTH_PASSWORD_VALIDATORS: [
 *       { NAME: 'django.contrib.auth.password_validation.UserAttributeSimilarityValidator' },
 *       { NAME: 'django.contrib.auth.password_validation.MinimumLengthValidator', OPTIONS: { min_length: 12 } },
 *       { NAME: 'django.contrib.auth.password_validation.CommonPasswordValidator' },
 *       { NAME: 'django.contrib.auth.password_validation.NumericPasswordValidator' },
 *     ]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ImproperlyConfigured, onSettingChanged, settings } from '../../lib/core/conf';
import { ValidationError } from '../../lib/core/exceptions';
import { importString } from '../../lib/core/modules';
import { getFieldInfo, type AnyModelClass } from '../../lib/core/db/fieldInfo';

/** What a password validator does: throw `ValidationError` for a password it refuses. */
export interface PasswordValidator {
  validate(password: string, user?: object | null): void;
  /** One sentence for forms' help text. */
  getHelpText(): string;
  /** Called after a password was changed (optional). */
  passwordChanged?(password: string, user?: object | null): void;
}

/** One entry of `AUTH_PASSWORD_VALIDATORS`. */
export interface PasswordValidatorConfig {
  NAME: string | (new (options?: Record<string, unknown>) => PasswordValidator);
  OPTIONS?: Record<string, unknown>;
}

/** Thrown by `validatePassword()`: every validator's message, in order. */
export class PasswordValidationError extends ValidationError {
  constructor(readonly errors: ValidationError[]) {
    super(errors.map((e) => e.message).join(' '), errors[0]?.code);
  }

  /** The messages, one per failed validator (Django's `error.messages`). */
  get messages(): string[] {
    return this.errors.map((e) => e.message);
  }
}

/** Refuses passwords shorter than `min_length` (default 8) characters. */
export class MinimumLengthValidator implements PasswordValidator {
  readonly minLength: number;

  constructor(options: { min_length?: number } = {}) {
    this.minLength = options.min_length ?? 8;
  }

  validate(password: string): void {
    if ([...password].length < this.minLength) {
      const unit = this.minLength === 1 ? 'character' : 'characters';
      throw new ValidationError(`This password is too short. It must contain at least ${this.minLength} ${unit}.`, 'password_too_short');
    }
  }

  getHelpText(): string {
    return `Your password must contain at least ${this.minLength} ${this.minLength === 1 ? 'character' : 'characters'}.`;
  }
}

/** Python's `SequenceMatcher(a=a, b=b).quick_ratio()`: an upper bound of the similarity. */
export function quickRatio(a: string, b: string): number {
  const aChars = [...a];
  const bChars = [...b];
  const length = aChars.length + bChars.length;
  if (!length) return 1;
  const available = new Map<string, number>();
  for (const ch of bChars) available.set(ch, (available.get(ch) ?? 0) + 1);
  let matches = 0;
  for (const ch of aChars) {
    const left = available.get(ch) ?? 0;
    available.set(ch, left - 1);
    if (left > 0) matches++;
  }
  return (2 * matches) / length;
}

function exceedsMaximumLengthRatio(password: string, maxSimilarity: number, value: string): boolean {
  const passwordLength = [...password].length;
  const valueLength = [...value].length;
  return passwordLength >= 10 * valueLength && valueLength < (maxSimilarity / 2) * passwordLength;
}

/** Refuses passwords too similar to the user's username, names or email (or any part of them). */
export class UserAttributeSimilarityValidator implements PasswordValidator {
  static readonly DEFAULT_USER_ATTRIBUTES = ['username', 'first_name', 'last_name', 'email'];
  readonly userAttributes: readonly string[];
  readonly maxSimilarity: number;

  constructor(options: { user_attributes?: readonly string[]; max_similarity?: number } = {}) {
    this.userAttributes = options.user_attributes ?? UserAttributeSimilarityValidator.DEFAULT_USER_ATTRIBUTES;
    this.maxSimilarity = options.max_similarity ?? 0.7;
    if (this.maxSimilarity < 0.1) throw new ImproperlyConfigured('max_similarity must be at least 0.1');
  }

  validate(password: string, user?: object | null): void {
    if (!user) return;
    const lowered = password.toLowerCase();
    for (const attribute of this.userAttributes) {
      const value = (user as Record<string, unknown>)[attribute];
      if (!value || typeof value !== 'string') continue;
      const valueLower = value.toLowerCase();
      const parts = [...valueLower.split(/[^\p{L}\p{N}_]+/u), valueLower];
      for (const part of parts) {
        if (exceedsMaximumLengthRatio(lowered, this.maxSimilarity, part)) continue;
        if (quickRatio(lowered, part) >= this.maxSimilarity) {
          throw new ValidationError(`The password is too similar to the ${verboseName(user, attribute)}.`, 'password_too_similar');
        }
      }
    }
  }

  getHelpText(): string {
    return 'Your password can’t be too similar to your other personal information.';
  }
}

function verboseName(user: object, attribute: string): string {
  try {
    return getFieldInfo(user.constructor as AnyModelClass).getField(attribute)?.verboseName || attribute;
  } catch {
    return attribute; // not a model instance: the attribute's name, as the host framework says
  }
}

/** Django's list of 20,000 common passwords (lower-case), shipped gzip-compressed. */
export const DEFAULT_PASSWORD_LIST_PATH = path.join(__dirname, 'data', 'common-passwords.txt.gz');

const passwordLists = new Map<string, ReadonlySet<string>>();

function loadPasswordList(file: string): ReadonlySet<string> {
  let list = passwordLists.get(file);
  if (!list) {
    const raw = fs.readFileSync(file);
    let text: string;
    try {
      text = zlib.gunzipSync(raw).toString('utf8');
    } catch {
      text = raw.toString('utf8');
    }
    list = new Set(text.split('\n').map((line) => line.trim()).filter(Boolean));
    passwordLists.set(file, list);
  }
  return list;
}

/** Refuses passwords found in a list of common ones (Django's, or `password_list_path`). */
export class CommonPasswordValidator implements PasswordValidator {
  readonly passwordListPath: string;

  constructor(options: { password_list_path?: string } = {}) {
    this.passwordListPath = options.password_list_path ?? DEFAULT_PASSWORD_LIST_PATH;
  }

  /** The lower-case passwords of the list (read once per file). */
  get passwords(): ReadonlySet<string> {
    return loadPasswordList(this.passwordListPath);
  }

  validate(password: string): void {
    if (this.passwords.has(password.toLowerCase().trim())) throw new ValidationError('This password is too common.', 'password_too_common');
  }

  getHelpText(): string {
    return 'Your password can’t be a commonly used password.';
  }
}

/** Refuses passwords made of digits only. */
export class NumericPasswordValidator implements PasswordValidator {
  validate(password: string): void {
    if (/^\p{Nd}+$/u.test(password)) throw new ValidationError('This password is entirely numeric.', 'password_entirely_numeric');
  }

  getHelpText(): string {
    return 'Your password can’t be entirely numeric.';
  }
}

type ValidatorClass = new (options?: Record<string, unknown>) => PasswordValidator;

/** The built-in validators by class name (Django's `password_validation` module). */
const BUILT_IN: Readonly<Record<string, ValidatorClass>> = {
  UserAttributeSimilarityValidator: UserAttributeSimilarityValidator as ValidatorClass,
  MinimumLengthValidator: MinimumLengthValidator as ValidatorClass,
  CommonPasswordValidator: CommonPasswordValidator as ValidatorClass,
  NumericPasswordValidator: NumericPasswordValidator as ValidatorClass,
};

/** Module paths that name this module: Django's, and this framework's spellings. */
const BUILT_IN_MODULES = ['django.contrib.auth.password_validation', 'contrib.auth.passwordValidation', 'api_framework.contrib.auth.passwordValidation'];

function builtIn(name: string): ValidatorClass | undefined {
  const dot = name.lastIndexOf('.');
  return BUILT_IN_MODULES.includes(name.slice(0, dot)) ? BUILT_IN[name.slice(dot + 1)] : undefined;
}

/** The validators of `configs` (a bad NAME is an `ImproperlyConfigured` naming the setting). */
export function getPasswordValidators(configs: readonly PasswordValidatorConfig[]): PasswordValidator[] {
  return configs.map((config) => {
    let cls: unknown = config.NAME;
    if (typeof cls === 'string') {
      try {
        cls = builtIn(cls) ?? importString(cls);
      } catch {
        throw new ImproperlyConfigured(`The module in NAME could not be imported: ${config.NAME as string}. Check your AUTH_PASSWORD_VALIDATORS setting.`);
      }
    }
    if (typeof cls !== 'function') throw new ImproperlyConfigured(`AUTH_PASSWORD_VALIDATORS: ${String(config.NAME)} is not a validator class.`);
    return new (cls as new (options?: Record<string, unknown>) => PasswordValidator)(config.OPTIONS ?? {});
  });
}

let defaultValidators: PasswordValidator[] | null = null;
onSettingChanged((key) => {
  if (key === 'AUTH_PASSWORD_VALIDATORS') defaultValidators = null;
});

/** The validators of `AUTH_PASSWORD_VALIDATORS` (built once per setting value). */
export function getDefaultPasswordValidators(): PasswordValidator[] {
  const configured = settings.AUTH_PASSWORD_VALIDATORS;
  defaultValidators ??= getPasswordValidators(Array.isArray(configured) ? (configured as PasswordValidatorConfig[]) : []);
  return defaultValidators;
}

/**
 * Check `password` (for `user`, when known) with every validator; throws a
 * `PasswordValidationError` holding each failure's message.
 */
export function validatePassword(password: string, user: object | null = null, validators: readonly PasswordValidator[] = getDefaultPasswordValidators()): void {
  const errors: ValidationError[] = [];
  for (const validator of validators) {
    try {
      validator.validate(password, user);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push(error);
    }
  }
  if (errors.length) throw new PasswordValidationError(errors);
}

/** Tell the validators that have a `passwordChanged()` hook that `user`'s password changed. */
export function passwordChanged(password: string, user: object | null = null, validators: readonly PasswordValidator[] = getDefaultPasswordValidators()): void {
  for (const validator of validators) validator.passwordChanged?.(password, user);
}

/** Every validator's help text. */
export function passwordValidatorsHelpTexts(validators: readonly PasswordValidator[] = getDefaultPasswordValidators()): string[] {
  return validators.map((v) => v.getHelpText());
}
