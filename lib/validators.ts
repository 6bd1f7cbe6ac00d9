/**
 * Validators: the host framework's value validators (length, range, pattern, email, URL)
 * used by the fields, and the API framework's database validators (`UniqueValidator`,
 * `UniqueTogetherValidator`, `UniqueForDateValidator`/`Month`/`Year`), which run their
 * queries inside the current `atomic()` transaction.
 *
 * A validator is a function `(value) => void` that throws `ValidationError`, or an object
 * with `validate(value, context?)`; set `requiresContext = true` on either to receive the
 * field (or serializer) as the second argument.
 */
import { ValidationError } from './exceptions';
import { gettext } from './core/i18n';
import type { Model } from 'sequelize-typescript';
import type { QuerySet } from './core/db';
import { fromZonedParts, toZonedParts, type DateTimeParts } from './utils/datetimeFormat';

/** A plain validator function; throw `ValidationError` to reject the value. */
export type ValidatorFunction = ((value: never, context?: never) => unknown) & { requiresContext?: boolean };

/** A validator object, such as `UniqueValidator`. */
export interface ValidatorObject {
  /** When true, `validate` receives the serializer field (or serializer) as second argument. */
  readonly requiresContext?: boolean;
  validate(value: unknown, context?: unknown): unknown;
}

/** Anything accepted in a field's or serializer's `validators` list. */
export type Validator = ValidatorFunction | ValidatorObject;

/**
 * Run one validator and answer what it returned: a promise for an async validator (await it),
 * anything else for a synchronous one. Its errors are thrown (or rejected) unchanged.
 */
export function invokeValidator(validator: Validator, value: unknown, context: unknown): unknown {
  if (typeof validator === 'function') {
    const fn = validator as (value: unknown, context?: unknown) => unknown;
    return validator.requiresContext ? fn(value, context) : fn(value);
  }
  return validator.requiresContext ? validator.validate(value, context) : validator.validate(value);
}

/** Run one validator (awaiting it when it is async). */
export async function callValidator(validator: Validator, value: unknown, context: unknown): Promise<void> {
  await invokeValidator(validator, value, context);
}

/** Replace `{name}` and `{name:X}` (upper-case hex) placeholders with `params`. */
export function formatMessage(message: string, params: Record<string, unknown> = {}): string {
  return message.replace(/\{(\w+)(?::([A-Za-z]))?\}/g, (whole, name: string, spec: string | undefined) => {
    if (!(name in params)) return whole;
    const value = params[name];
    if (spec === 'X' && typeof value === 'number') return value.toString(16).toUpperCase();
    if (spec === 'x' && typeof value === 'number') return value.toString(16);
    return String(value);
  });
}

/** A message whose text is produced when it is shown (see `lazyFormat`). */
export interface LazyMessage {
  toString(): string;
}

/**
 * A message translated and formatted each time it is turned into a string (DRF's
 * `lazy_format(gettext_lazy(...))`): fields build their limit messages when they are declared,
 * usually at import time, but the text must be in the language of the request that fails.
 */
export function lazyFormat(message: string, params: Record<string, unknown> = {}): LazyMessage {
  return { toString: () => formatMessage(gettext(message), params) };
}

// -- Value validators (the host framework's django.core.validators) --------------------------

/** Base for validators that compare a value with a limit. */
abstract class BaseLimitValidator implements ValidatorObject {
  abstract readonly code: string;
  protected abstract readonly defaultMessage: string;

  constructor(readonly limitValue: number, readonly message: string | LazyMessage | null = null) {}

  protected abstract compare(cleaned: number, limit: number): boolean;

  protected clean(value: unknown): number {
    return Number(value);
  }

  /** Throw `ValidationError` when the value is past the limit. */
  validate(value: unknown): void {
    const cleaned = this.clean(value);
    if (this.compare(cleaned, this.limitValue)) {
      const text = this.message !== null ? String(this.message) : formatMessage(gettext(this.defaultMessage), { limit_value: this.limitValue, show_value: cleaned });
      throw new ValidationError(text, this.code);
    }
  }
}

/** The value must not exceed `limitValue`. */
export class MaxValueValidator extends BaseLimitValidator {
  readonly code = 'max_value';
  protected readonly defaultMessage = 'Ensure this value is less than or equal to {limit_value}.';
  protected compare(a: number, b: number): boolean { return a > b; }
}

/** The value must be at least `limitValue`. */
export class MinValueValidator extends BaseLimitValidator {
  readonly code = 'min_value';
  protected readonly defaultMessage = 'Ensure this value is greater than or equal to {limit_value}.';
  protected compare(a: number, b: number): boolean { return a < b; }
}

function lengthOf(value: unknown): number {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof Set || value instanceof Map) return value.size;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return String(value).length;
}

/** The value (string or list) must have at most `limitValue` items. */
export class MaxLengthValidator extends BaseLimitValidator {
  readonly code = 'max_length';
  protected readonly defaultMessage = 'Ensure this value has at most {limit_value} characters (it has {show_value}).';
  protected override clean(value: unknown): number { return lengthOf(value); }
  protected compare(a: number, b: number): boolean { return a > b; }
}

/** The value (string or list) must have at least `limitValue` items. */
export class MinLengthValidator extends BaseLimitValidator {
  readonly code = 'min_length';
  protected readonly defaultMessage = 'Ensure this value has at least {limit_value} characters (it has {show_value}).';
  protected override clean(value: unknown): number { return lengthOf(value); }
  protected compare(a: number, b: number): boolean { return a < b; }
}

/** The string must (or, with `inverseMatch`, must not) match `regex`. */
export class RegexValidator implements ValidatorObject {
  readonly regex: RegExp;

  constructor(regex: RegExp | string, readonly message: string = 'Enter a valid value.', readonly code = 'invalid',
    readonly inverseMatch = false) {
    this.regex = typeof regex === 'string' ? new RegExp(regex) : regex;
  }

  /** Throw `ValidationError` when the match result is not the expected one. */
  validate(value: unknown): void {
    this.regex.lastIndex = 0;
    const matched = this.regex.test(String(value));
    if (matched === this.inverseMatch) throw new ValidationError(gettext(this.message), this.code);
  }
}

// eslint-disable-next-line no-control-regex -- the RFC 5322 quoted-string grammar allows them
const EMAIL_USER_RE = /^([-!#$%&'*+/=?^_`{}|~0-9A-Z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*$|^"([\x01-\x08\x0b\x0c\x0e-\x1f!#-[\]-\x7f]|\\[\x01-\x09\x0b\x0c\x0d-\x7f])*"$)/i;
const EMAIL_DOMAIN_RE = /^((?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+)(?:[A-Z0-9-]{2,63}(?<!-))$/i;
const EMAIL_LITERAL_RE = /^\[([A-F0-9:.]+)\]$/i;

/** The value must be an e-mail address (the host framework's rules). */
export class EmailValidator implements ValidatorObject {
  constructor(readonly message = 'Enter a valid email address.', readonly code = 'invalid') {}

  /** Throw `ValidationError` unless the value is a valid address. */
  validate(value: unknown): void {
    const text = String(value);
    const fail = (): never => { throw new ValidationError(gettext(this.message), this.code); };
    if (!text || !text.includes('@')) fail();
    const at = text.lastIndexOf('@');
    const user = text.slice(0, at);
    const domain = text.slice(at + 1);
    if (!EMAIL_USER_RE.test(user)) fail();
    if (domain === 'localhost' || EMAIL_DOMAIN_RE.test(domain)) return;
    let ascii = domain;
    try {
      ascii = new URL(`http://${domain}`).hostname;
    } catch {
      fail();
    }
    if (EMAIL_DOMAIN_RE.test(ascii)) return;
    const literal = EMAIL_LITERAL_RE.exec(domain);
    if (literal && isIPAddress(literal[1], 'both')) return;
    fail();
  }
}

const IPV4_RE = /^(25[0-5]|2[0-4]\d|[0-1]?\d?\d)(\.(25[0-5]|2[0-4]\d|[0-1]?\d?\d)){3}$/;

/** True when `value` is an IPv4 and/or IPv6 address, per `protocol`. */
export function isIPAddress(value: string, protocol: 'both' | 'ipv4' | 'ipv6'): boolean {
  if (protocol !== 'ipv6' && IPV4_RE.test(value)) return true;
  if (protocol === 'ipv4') return false;
  if (!value.includes(':')) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

const URL_RE = new RegExp(
  '^(?:[a-z0-9.+-]*)://' +
  '(?:[^\\s:@/]+(?::[^\\s:@/]*)?@)?' +
  '(?:(?:25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)(?:\\.(?:25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)){3}|\\[[0-9a-f:.]+\\]|' +
  '(?:(?:[a-z\\u00a1-\\uffff0-9](?:[a-z\\u00a1-\\uffff0-9-]{0,61}[a-z\\u00a1-\\uffff0-9])?)' +
  '(?:\\.(?!-)[a-z\\u00a1-\\uffff0-9-]{1,63}(?<!-))*' +
  '\\.?(?:[a-z\\u00a1-\\uffff-]{2,63}|xn--[a-z0-9]{1,59})(?<!-)\\.?|localhost))' +
  '(?::\\d{2,5})?' +
  '(?:[/?#][^\\s]*)?$', 'i');

/** The value must be an http(s)/ftp(s) URL. */
export class URLValidator implements ValidatorObject {
  constructor(readonly schemes: readonly string[] = ['http', 'https', 'ftp', 'ftps'],
    readonly message = 'Enter a valid URL.', readonly code = 'invalid') {}

  /** Throw `ValidationError` unless the value is a URL with an allowed scheme. */
  validate(value: unknown): void {
    const text = String(value);
    const scheme = text.split('://')[0].toLowerCase();
    if (!text.includes('://') || !this.schemes.includes(scheme) || text.length > 2048 || !URL_RE.test(text)) {
      throw new ValidationError(gettext(this.message), this.code);
    }
  }
}

/** Strings may not contain NUL characters (databases reject them). */
export class ProhibitNullCharactersValidator implements ValidatorObject {
  readonly message = 'Null characters are not allowed.';
  readonly code = 'null_characters_not_allowed';

  /** Throw `ValidationError` when the value contains `\x00`. */
  validate(value: unknown): void {
    if (String(value).includes('\x00')) throw new ValidationError(gettext(this.message), this.code);
  }
}

/** Any UTF-16 surrogate code unit, paired or not. */
const SURROGATE = /[\ud800-\udfff]/;

/** Strings may not contain lone surrogate code points (they cannot be encoded as UTF-8). */
export class ProhibitSurrogateCharactersValidator implements ValidatorObject {
  readonly message = 'Surrogate characters are not allowed: U+{code_point:X}.';
  readonly code = 'surrogate_characters_not_allowed';

  /** Throw `ValidationError` at the first unpaired surrogate. */
  validate(value: unknown): void {
    const text = String(value);
    // Most text has no surrogate at all: one native scan instead of a loop over every character.
    if (!SURROGATE.test(text)) return;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) { i++; continue; }
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        throw new ValidationError(formatMessage(gettext(this.message), { code_point: c }), this.code);
      }
    }
  }
}

// -- Database validators (the API framework's) ------------------------------------------------

/** A queryset the unique validators can filter. */
export type ValidatorQuerySet = QuerySet<Model>;

/** What the unique validators read from the field or serializer they validate. */
interface BoundFieldLike {
  sourceAttrs: string[];
  source: string | null;
  parent: unknown;
}

interface SerializerLike {
  instance: unknown;
  fields: { get(name: string): BoundFieldLike | undefined };
}

function instancePk(instance: unknown): unknown {
  return instance !== null && typeof instance === 'object' ? (instance as { pk?: unknown }).pk : undefined;
}

/** `queryset.filter(lookups)`, or an empty queryset when the values cannot be compared. */
function safeFilter(queryset: ValidatorQuerySet, lookups: Record<string, unknown>): ValidatorQuerySet {
  for (const value of Object.values(lookups)) {
    if (value !== null && typeof value === 'object' && !(value instanceof Date) && !('pk' in value)) return queryset.none();
  }
  const normalised: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(lookups)) {
    normalised[key] = value !== null && typeof value === 'object' && !(value instanceof Date) ? (value as { pk: unknown }).pk : value;
  }
  return queryset.filter(normalised);
}

/**
 * The value must not already exist in `queryset` (the instance being updated excluded).
 * `ModelSerializer` adds one for every `unique` column, with the model's message.
 */
export class UniqueValidator implements ValidatorObject {
  readonly requiresContext = true;
  readonly message: string;

  constructor(readonly options: { queryset: ValidatorQuerySet; message?: string | null; lookup?: string }) {
    this.message = options.message ?? 'This field must be unique.';
  }

  /** Throw `ValidationError` (code `unique`) when another row has this value. */
  async validate(value: unknown, field?: unknown): Promise<void> {
    const bound = field as BoundFieldLike;
    const fieldName = bound.sourceAttrs[bound.sourceAttrs.length - 1];
    const instance = (bound.parent as { instance?: unknown } | null)?.instance ?? null;
    const lookup = this.options.lookup ?? 'exact';
    let queryset = safeFilter(this.options.queryset.all(), { [lookup === 'exact' ? fieldName : `${fieldName}__${lookup}`]: value });
    const pk = instancePk(instance);
    if (instance !== null && pk !== undefined && pk !== null) queryset = queryset.exclude({ pk });
    if (await queryset.exists()) throw new ValidationError(gettext(this.message), 'unique');
  }
}

/**
 * The combination of `fields` must not already exist in `queryset`. Also makes those fields
 * required when creating. `ModelSerializer` adds one per `meta.uniqueTogether` entry.
 */
export class UniqueTogetherValidator implements ValidatorObject {
  readonly requiresContext = true;
  readonly message: string;
  readonly missingMessage = 'This field is required.';

  constructor(readonly options: { queryset: ValidatorQuerySet; fields: readonly string[]; message?: string | null }) {
    this.message = options.message ?? 'The fields {field_names} must make a unique set.';
  }

  /** The model field names the serializer fields write to. */
  private sources(serializer: SerializerLike): string[] {
    return this.options.fields.map((name) => serializer.fields.get(name)?.source ?? name);
  }

  /** On create, every field of the set must be present. */
  enforceRequiredFields(attrs: Record<string, unknown>, serializer: SerializerLike): void {
    if (serializer.instance !== null && serializer.instance !== undefined) return;
    const missing: Record<string, string> = {};
    for (const name of this.options.fields) {
      const source = serializer.fields.get(name)?.source ?? name;
      if (!(source in attrs)) missing[name] = gettext(this.missingMessage);
    }
    if (Object.keys(missing).length) throw new ValidationError(missing, 'required');
  }

  /** Throw `ValidationError` when another row has the same combination. */
  async validate(value: unknown, context?: unknown): Promise<void> {
    const attrs = { ...(value as Record<string, unknown>) };
    const serializer = context as SerializerLike;
    this.enforceRequiredFields(attrs, serializer);
    const sources = this.sources(serializer);
    const instance = serializer.instance as Record<string, unknown> | null | undefined;
    if (instance) {
      for (const source of sources) if (!(source in attrs)) attrs[source] = (instance as Record<string, unknown>)[source];
    }
    const checked = sources.map((source) => attrs[source]);
    if (checked.some((v) => v === null || v === undefined)) return;
    const lookups: Record<string, unknown> = {};
    sources.forEach((source, i) => { lookups[source] = checked[i]; });
    let queryset = safeFilter(this.options.queryset.all(), lookups);
    const pk = instancePk(instance);
    if (instance && pk !== undefined && pk !== null) queryset = queryset.exclude({ pk });
    if (await queryset.exists()) {
      throw new ValidationError(formatMessage(gettext(this.message), { field_names: this.options.fields.join(', ') }), 'unique');
    }
  }
}

type DatePeriod = 'date' | 'month' | 'year';

/**
 * The half-open range `[start, end)` of the day, month or year `value` falls in: dates
 * (`'YYYY-MM-DD'`) give date strings; datetimes give instants, the period taken in `zone`
 * (the date field's time zone, as the original extracts `__day`/`__month`/`__year` in the
 * current time zone; null: UTC). Null when `value` is neither.
 */
function periodRange(value: unknown, period: DatePeriod, zone: string | null): [unknown, unknown] | null {
  let year: number, month: number, day: number;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    ({ year, month, day } = toZonedParts(value, zone ?? 'UTC').parts);
  } else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    [year, month, day] = value.slice(0, 10).split('-').map(Number);
  } else {
    return null;
  }
  const start = period === 'date' ? [year, month, day] : period === 'month' ? [year, month, 1] : [year, 1, 1];
  const startDate = new Date(Date.UTC(start[0], start[1] - 1, start[2]));
  startDate.setUTCFullYear(start[0]);
  const endDate = new Date(startDate.getTime());
  if (period === 'date') endDate.setUTCDate(endDate.getUTCDate() + 1);
  else if (period === 'month') endDate.setUTCMonth(endDate.getUTCMonth() + 1);
  else endDate.setUTCFullYear(endDate.getUTCFullYear() + 1);
  if (!(value instanceof Date)) return [isoDate(startDate), isoDate(endDate)];
  return [fromZonedParts(midnight(startDate), zone ?? 'UTC'), fromZonedParts(midnight(endDate), zone ?? 'UTC')];
}

function isoDate(date: Date): string {
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-` +
    String(date.getUTCDate()).padStart(2, '0');
}

function midnight(date: Date): DateTimeParts {
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour: 0, minute: 0, second: 0, microsecond: 0 };
}

/** Base of the unique-for-date/month/year validators. */
abstract class BaseUniqueForValidator implements ValidatorObject {
  readonly requiresContext = true;
  readonly missingMessage = 'This field is required.';
  protected abstract readonly period: DatePeriod;
  abstract readonly message: string;

  constructor(readonly options: { queryset: ValidatorQuerySet; field: string; dateField: string; message?: string | null }) {}

  /** Both the field and the date field must be present. */
  enforceRequiredFields(attrs: Record<string, unknown>): void {
    const missing: Record<string, string> = {};
    for (const name of [this.options.field, this.options.dateField]) if (!(name in attrs)) missing[name] = gettext(this.missingMessage);
    if (Object.keys(missing).length) throw new ValidationError(missing, 'required');
  }

  /** Throw `ValidationError` when another row has the value in the same period. */
  async validate(value: unknown, context?: unknown): Promise<void> {
    const attrs = value as Record<string, unknown>;
    const serializer = context as SerializerLike;
    this.enforceRequiredFields(attrs);
    const fieldSource = serializer.fields.get(this.options.field)?.sourceAttrs.at(-1) ?? this.options.field;
    const dateSource = serializer.fields.get(this.options.dateField)?.sourceAttrs.at(-1) ?? this.options.dateField;
    const dateField = serializer.fields.get(this.options.dateField) as (BoundFieldLike & { defaultTimezone?: () => string | null }) | undefined;
    const zone = typeof dateField?.defaultTimezone === 'function' ? dateField.defaultTimezone() : null;
    const range = periodRange(attrs[this.options.dateField], this.period, zone);
    if (!range) return;
    let queryset = safeFilter(this.options.queryset.all(), { [fieldSource]: attrs[this.options.field] })
      .filter({ [`${dateSource}__gte`]: range[0], [`${dateSource}__lt`]: range[1] });
    const pk = instancePk(serializer.instance);
    if (serializer.instance && pk !== undefined && pk !== null) queryset = queryset.exclude({ pk });
    if (await queryset.exists()) {
      const message = formatMessage(gettext(this.options.message ?? this.message), { date_field: this.options.dateField });
      throw new ValidationError({ [this.options.field]: message }, 'unique');
    }
  }
}

/** The field must be unique among rows with the same `dateField` day. */
export class UniqueForDateValidator extends BaseUniqueForValidator {
  protected readonly period = 'date';
  readonly message = 'This field must be unique for the "{date_field}" date.';
}

/** The field must be unique among rows with the same `dateField` month. */
export class UniqueForMonthValidator extends BaseUniqueForValidator {
  protected readonly period = 'month';
  readonly message = 'This field must be unique for the "{date_field}" month.';
}

/** The field must be unique among rows with the same `dateField` year. */
export class UniqueForYearValidator extends BaseUniqueForValidator {
  protected readonly period = 'year';
  readonly message = 'This field must be unique for the "{date_field}" year.';
}
