/**
 * Locale-aware number formats, after the host framework's `django.utils.formats` and
 * `numberformat`: with `USE_L10N` the active language's decimal and thousand separators
 * (`lib/core/locale/numberFormats.ts`), otherwise the settings of the same name. Fields with
 * `localize` read input through `sanitizeSeparators()` and write through `numberFormat()`.
 */
import { settings } from './conf';
import { getLanguage } from './i18n';
import { localeNumberFormats, type LocaleNumberFormat } from './locale/numberFormats';

/** The number format settings a locale may override. */
export type NumberFormatName = keyof LocaleNumberFormat;

/**
 * The value of `name` for the active language when `USE_L10N` is on (its exact code, then the
 * generic one: `de-ch`, `de`), else, or when the locale leaves it out, the setting.
 */
export function getNumberFormat<K extends NumberFormatName>(name: K): NonNullable<LocaleNumberFormat[K]> {
  if (settings.USE_L10N) {
    const language = getLanguage().toLowerCase();
    for (const code of [language, language.split('-')[0]]) {
      const value = localeNumberFormats[code]?.[name];
      if (value !== undefined) return value as NonNullable<LocaleNumberFormat[K]>;
    }
  }
  return settings[name] as NonNullable<LocaleNumberFormat[K]>;
}

/**
 * Input in the active format -> the plain spelling (`'1 000,5'` -> `'1000.5'` in `pl` with
 * `USE_THOUSAND_SEPARATOR`), as the host framework's `sanitize_separators`. Non-strings pass.
 */
export function sanitizeSeparators(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const parts: string[] = [];
  let rest = value;
  const decimalSeparator = getNumberFormat('DECIMAL_SEPARATOR');
  const at = rest.indexOf(decimalSeparator);
  if (at >= 0) {
    parts.push(rest.slice(at + decimalSeparator.length));
    rest = rest.slice(0, at);
  }
  if (settings.USE_THOUSAND_SEPARATOR) {
    const thousand = getNumberFormat('THOUSAND_SEPARATOR');
    const suspectDecimal = thousand === '.' && rest.split('.').length === 2 && rest.split('.')[1].length !== 3;
    if (!suspectDecimal) {
      for (const separator of new Set([thousand, thousand.normalize('NFKD')])) rest = rest.split(separator).join('');
    }
  }
  parts.push(rest);
  return parts.reverse().join('.');
}

/**
 * A plain number spelling (`'-1234.50'`, as `Decimal`'s `{:f}` or Python's `str()` of a float)
 * in the active format: the decimal separator, and thousands grouped when `USE_L10N` and
 * `USE_THOUSAND_SEPARATOR` are on, as the host framework's `number_format`.
 */
export function numberFormat(plain: string): string {
  let text = plain;
  let sign = '';
  if (text.startsWith('-')) {
    sign = '-';
    text = text.slice(1);
  }
  const point = text.indexOf('.');
  let intPart = point >= 0 ? text.slice(0, point) : text;
  const decPart = point >= 0 ? text.slice(point + 1) : '';
  const grouping = getNumberFormat('NUMBER_GROUPING');
  const useGrouping = settings.USE_L10N && settings.USE_THOUSAND_SEPARATOR && grouping !== 0;
  if (useGrouping) {
    const intervals = Array.isArray(grouping) ? [...(grouping as readonly number[])] : [grouping as number, 0];
    const thousand = getNumberFormat('THOUSAND_SEPARATOR');
    let active = intervals.shift() as number;
    let grouped = '';
    let count = 0;
    for (const digit of [...intPart].reverse()) {
      if (count && count === active) {
        if (intervals.length) active = (intervals.shift() as number) || active;
        grouped += [...thousand].reverse().join('');
        count = 0;
      }
      grouped += digit;
      count += 1;
    }
    intPart = [...grouped].reverse().join('');
  }
  return sign + intPart + (decPart ? getNumberFormat('DECIMAL_SEPARATOR') + decPart : '');
}
