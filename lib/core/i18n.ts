/**
 * Internationalisation, after Django's `django.utils.translation`: message catalogs, the
 * active language per request (carried by the host layer's async context, the way Django keeps
 * it per thread), `gettext`/`ngettext`, and choosing the language from `Accept-Language`.
 *
 * Messages are translated when they are produced (an exception is built, a field error is
 * raised), so `gettext()` reads the language active in the current async context; the
 * `LocaleMiddleware` activates the request's language around the whole view. With
 * `USE_I18N = false` every message stays in English.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * `gettext(msgid)` translates into the language active in the current async context;
 * `ngettext(singular, plural, n)`; `gettextLazy(msgid)` (a `LazyString`, translated on
 * `toString`/`toJSON`); `format(msg, params)` fills `%(name)s`/`%(name)d` and `{name}`
 * placeholders — translate first, then format: `format(gettext('Method "{method}" not allowed.'), { method })`.
 * A message built before any request (a field's limit message, at import time) must stay lazy:
 * `lazyFormat(msg, params)` from `lib/validators.ts` translates and formats on each `toString()`.
 * `runWithLanguage(lang, fn)`, `activate(lang)`/`deactivate()`, `getLanguage()` (default
 * `LANGUAGE_CODE`), `getLanguageFromRequest(request)` (cookie `LANGUAGE_COOKIE_NAME` (default
 * `django_language`), Accept-Language with q-values, then `LANGUAGE_CODE`), settings `LANGUAGES`
 * (codes or `[code, name]` pairs; default en, de, fr, es) and `USE_I18N` (false: English only).
 * Catalogs: `lib/core/locale/<lang>.json` (English msgid -> translation; plural messages keyed by
 * the singular, value = list of forms); apps add their own with `registerCatalog(lang, entries)`.
 * A message not in the catalogs stays English, so always pass DRF's exact English text.
 * `LocaleMiddleware` (settings `MIDDLEWARE`: `'lib.core.localeMiddleware.LocaleMiddleware'`,
 * after the session middleware) runs the rest of the chain in the request's language, sets
 * `request.languageCode`, `Content-Language` and `Vary: Accept-Language`.
 */
import { currentContext, runInContext, type LanguageCell } from './asyncContext';
import { settings } from './conf';
import { pythonStringRepr } from './pythonRepr';
import { builtinCatalogs, type Catalog } from './locale';

export type { Catalog } from './locale';

/** The languages offered when the `LANGUAGES` setting is not set. */
export const DEFAULT_LANGUAGES: ReadonlyArray<readonly [string, string]> = [
  ['en', 'English'],
  ['de', 'German'],
  ['fr', 'French'],
  ['es', 'Spanish'],
];

/** Cookie that, when present and supported, wins over `Accept-Language` (as Django's). */
export const DEFAULT_LANGUAGE_COOKIE_NAME = 'django_language';

// The process's language, used outside any `runWithLanguage()`.
const globalState: LanguageCell = { language: null };
const catalogs = new Map<string, Catalog>();

for (const [language, catalog] of Object.entries(builtinCatalogs)) registerCatalog(language, catalog);

/**
 * Add translations for `language` (merged over existing ones). Apps and projects call it to
 * translate their own messages.
 */
export function registerCatalog(language: string, entries: Catalog): void {
  const code = toLanguage(language);
  const current = catalogs.get(code) ?? {};
  catalogs.set(code, { ...current, ...entries });
}

/** Normalise a language or locale name: `en_US` / `en-US` -> `en-us`. */
export function toLanguage(name: string): string {
  return name.trim().replace(/_/g, '-').toLowerCase();
}

function i18nEnabled(): boolean {
  return settings.USE_I18N !== false;
}

/** The supported language codes from the `LANGUAGES` setting (codes or `[code, name]` pairs). */
export function getSupportedLanguages(): string[] {
  const configured = settings.LANGUAGES;
  const list: unknown[] = Array.isArray(configured) ? configured : DEFAULT_LANGUAGES.map((entry) => entry[0]);
  return list
    .map((entry) => (Array.isArray(entry) ? entry[0] : entry))
    .filter((code): code is string => typeof code === 'string')
    .map(toLanguage);
}

/**
 * Return the supported language to use for `code`: itself, its generic form (`de-at` ->
 * `de`), or a supported regional variant of it (`de` -> `de-at`); null when none fits.
 */
export function getSupportedLanguageVariant(code: string): string | null {
  const supported = getSupportedLanguages();
  const wanted = toLanguage(code);
  if (!wanted || !/^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/.test(wanted)) return null;
  const generic = wanted.split('-')[0];
  for (const candidate of [wanted, generic]) {
    if (supported.includes(candidate)) return candidate;
  }
  return supported.find((lang) => lang.startsWith(`${generic}-`)) ?? null;
}

/** Make `language` the active language of the current async context (or the process). */
export function activate(language: string): void {
  (currentContext()?.language ?? globalState).language = toLanguage(language);
}

/** Undo `activate()`: the current context falls back to `LANGUAGE_CODE`. */
export function deactivate(): void {
  (currentContext()?.language ?? globalState).language = null;
}

/** Run `fn` (and everything it awaits) with `language` active; restores the outer one after. */
export function runWithLanguage<T>(language: string, fn: () => T): T {
  // The database values (the current transaction) stay those of the caller.
  return runInContext({ language: { language: toLanguage(language) }, values: currentContext()?.values ?? null }, fn);
}

/** The active language code (`settings.LANGUAGE_CODE` when none was activated). */
export function getLanguage(): string {
  const active = currentContext()?.language?.language ?? globalState.language;
  return active ?? toLanguage(settings.LANGUAGE_CODE || 'en-us');
}

function lookup(msgid: string): string | string[] | undefined {
  if (!i18nEnabled()) return undefined;
  const language = getLanguage();
  const exact = catalogs.get(language)?.[msgid];
  if (exact !== undefined) return exact;
  const generic = language.split('-')[0];
  return generic === language ? undefined : catalogs.get(generic)?.[msgid];
}

/** Translate `msgid` into the active language; unknown messages come back unchanged. */
export function gettext(msgid: string): string {
  const found = lookup(msgid);
  return typeof found === 'string' ? found : Array.isArray(found) ? (found[0] ?? msgid) : msgid;
}

// Plural form index by language (gettext's Plural-Forms); the default is English's rule.
const PLURAL_RULES: Record<string, (n: number) => number> = {
  fr: (n) => (n > 1 ? 1 : 0),
  pt: (n) => (n > 1 ? 1 : 0),
};

/** Translate a message with a count: `singular` when `n` is 1 (per the language's rule), else `plural`. */
export function ngettext(singular: string, plural: string, n: number): string {
  const language = getLanguage().split('-')[0];
  const index = (PLURAL_RULES[language] ?? ((count: number) => (count === 1 ? 0 : 1)))(n);
  const found = lookup(singular);
  if (Array.isArray(found)) return found[Math.min(index, found.length - 1)] ?? (n === 1 ? singular : plural);
  if (typeof found === 'string' && index === 0) return found;
  return n === 1 ? singular : plural;
}

/**
 * A message translated each time it is turned into a string, for messages defined at import
 * time but shown per request (Django's `gettext_lazy`).
 */
export class LazyString {
  constructor(readonly msgid: string) {}

  /** The message in the active language. */
  toString(): string {
    return gettext(this.msgid);
  }

  /** JSON output is the translated text. */
  toJSON(): string {
    return this.toString();
  }
}

/** Return a `LazyString` for `msgid`. */
export function gettextLazy(msgid: string): LazyString {
  return new LazyString(msgid);
}

function pythonValue(value: unknown, conversion: string): string {
  if (conversion === 'd' || conversion === 'i') {
    const number = Number(value);
    return Number.isFinite(number) ? String(Math.trunc(number)) : String(value);
  }
  if (conversion === 'r' && typeof value === 'string') return pythonStringRepr(value);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/**
 * Fill a message's placeholders from `params`: Python's `%(name)s` / `%(name)d` style (used
 * by the host framework's messages) and `{name}` / `{name:X}` style (used by the API
 * framework's). Placeholders without a value are left as they are; `%%`, `{{` and `}}` are
 * the escapes.
 */
export function format(message: string, params: Record<string, unknown> = {}): string {
  return message.replace(
    /%\((\w+)\)([sdirf])|%%|\{(\w+)(?::([^{}]*))?\}|\{\{|\}\}/g,
    (match, pyName: string | undefined, conversion: string | undefined, name: string | undefined, spec: string | undefined) => {
      if (match === '%%') return '%';
      if (match === '{{') return '{';
      if (match === '}}') return '}';
      const key = pyName ?? name ?? '';
      if (!Object.prototype.hasOwnProperty.call(params, key)) return match;
      const value = params[key];
      if (pyName !== undefined) return pythonValue(value, conversion ?? 's');
      if (spec === 'X' || spec === 'x') {
        const hex = Number(value).toString(16);
        return spec === 'X' ? hex.toUpperCase() : hex;
      }
      if (spec && /^0?\d+d$/.test(spec)) {
        const width = Number.parseInt(spec, 10);
        return String(Math.trunc(Number(value))).padStart(width, spec.startsWith('0') ? '0' : ' ');
      }
      return pythonValue(value, 's');
    },
  );
}

interface AcceptEntry {
  language: string;
  quality: number;
}

/**
 * Parse an `Accept-Language` header (RFC 9110 §12.5.4) into `[language, q]` pairs, best first;
 * malformed headers give an empty list, as Django's parser does.
 */
export function parseAcceptLanguage(header: string): Array<[string, number]> {
  const entries: AcceptEntry[] = [];
  if (header.length > 500) return [];
  for (const part of header.split(',')) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const match = /^([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?))?$/.exec(trimmed);
    if (!match) return [];
    entries.push({ language: match[1].toLowerCase(), quality: match[2] === undefined ? 1 : Number(match[2]) });
  }
  return entries
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => [entry.language, entry.quality]);
}

/** The parts of a request the language choice looks at. */
export interface LanguageRequest {
  headers: Record<string, string | string[] | undefined>;
  cookies?: Record<string, string>;
}

/**
 * Choose the language for a request: the language cookie (`LANGUAGE_COOKIE_NAME`) when it
 * names a supported language, else the best supported `Accept-Language` entry, else
 * `LANGUAGE_CODE` (or its supported variant).
 */
export function getLanguageFromRequest(request: LanguageRequest): string {
  const fallback = toLanguage(settings.LANGUAGE_CODE || 'en-us');
  if (!i18nEnabled()) return fallback;
  const cookieName = typeof settings.LANGUAGE_COOKIE_NAME === 'string' ? settings.LANGUAGE_COOKIE_NAME : DEFAULT_LANGUAGE_COOKIE_NAME;
  const cookie = request.cookies?.[cookieName];
  if (cookie) {
    const fromCookie = getSupportedLanguageVariant(cookie);
    if (fromCookie) return fromCookie;
  }
  const raw = request.headers['accept-language'];
  const header = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  for (const [language, quality] of parseAcceptLanguage(header)) {
    if (language === '*') break;
    if (quality <= 0) continue;
    const supported = getSupportedLanguageVariant(language);
    if (supported) return supported;
  }
  return getSupportedLanguageVariant(fallback) ?? fallback;
}
