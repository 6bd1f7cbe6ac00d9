/**
 * Date, time and duration parsing and formatting for the serializer fields, with the host
 * framework's semantics: `parseDatetime`/`parseDate`/`parseTime`/`parseDuration` accept what
 * Django's `dateparse` accepts, `strftime`/`strptime` understand the usual `%` directives,
 * and `isoformat` prints like Python's `datetime.isoformat()`.
 *
 * JavaScript has one instant type (`Date`, millisecond precision). Dates travel as
 * `'YYYY-MM-DD'` strings, times as `'hh:mm:ss[.uuuuuu]'` strings and durations as a whole
 * number of microseconds, which is also how the host framework stores durations in SQLite
 * and MySQL.
 */

/** Broken-down wall-clock time. `microsecond` is 0..999999. */
export interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}

const DATE_RE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const TIME_RE = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,6})\d{0,6})?)?/;
const DATETIME_RE = /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,6})\d{0,6})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const STANDARD_DURATION_RE = /^(?:(-?\d+) (?:days?, )?)?(-?)(?:(\d+):(?=\d+:\d+))?(?:(\d+):)?(\d+)(?:[.,](\d{1,6})\d{0,6})?$/;
const ISO_DURATION_RE = /^([-+]?)P(?:(\d+(?:.\d+)?)D)?(?:T(?:(\d+(?:.\d+)?)H)?(?:(\d+(?:.\d+)?)M)?(?:(\d+(?:.\d+)?)S)?)?$/;
const POSTGRES_DURATION_RE = /^(?:(-?\d+) (?:days? ?))?(?:([-+])?(\d+):(\d\d):(\d\d)(?:\.(\d{1,6}))?)?$/;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
  'October', 'November', 'December'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Thrown when a well-formed value names an impossible date or time (month 13, 25 o'clock). */
export class DateValueError extends Error {
  override name = 'DateValueError';
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

function micro(text: string | undefined): number {
  return text ? Number(text.padEnd(6, '0')) : 0;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function checkParts(parts: DateTimeParts): DateTimeParts {
  if (parts.month < 1 || parts.month > 12) throw new DateValueError('month must be in 1..12');
  if (parts.day < 1 || parts.day > daysInMonth(parts.year, parts.month)) {
    throw new DateValueError('day is out of range for month');
  }
  if (parts.year < 1) throw new DateValueError('year is out of range');
  if (parts.hour > 23) throw new DateValueError('hour must be in 0..23');
  if (parts.minute > 59) throw new DateValueError('minute must be in 0..59');
  if (parts.second > 59) throw new DateValueError('second must be in 0..59');
  return parts;
}

/** A parsed datetime: wall-clock parts plus an offset in minutes (null when naive). */
export interface ParsedDateTime {
  parts: DateTimeParts;
  offsetMinutes: number | null;
}

/** Parse an ISO 8601 datetime as Django does; null when not well formed. */
export function parseDatetime(value: string): ParsedDateTime | null {
  const m = DATETIME_RE.exec(value);
  if (!m) return null;
  const parts = checkParts({
    year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4]),
    minute: Number(m[5]), second: m[6] ? Number(m[6]) : 0, microsecond: micro(m[7]),
  });
  const tz = m[8];
  let offsetMinutes: number | null = null;
  if (tz === 'Z') {
    offsetMinutes = 0;
  } else if (tz !== undefined) {
    const minutes = tz.length > 3 ? Number(tz.slice(-2)) : 0;
    offsetMinutes = 60 * Number(tz.slice(1, 3)) + minutes;
    if (tz[0] === '-') offsetMinutes = -offsetMinutes;
    // Python's fixed-offset tzinfo must lie strictly within a day (`-24:00` is refused).
    if (Math.abs(offsetMinutes) >= 1440) throw new DateValueError('offset must be strictly between -24:00 and 24:00');
  }
  return { parts, offsetMinutes };
}

/** Parse `YYYY-MM-DD`; null when not well formed. Returns the normalised `YYYY-MM-DD`. */
export function parseDate(value: string): string | null {
  const m = DATE_RE.exec(value);
  if (!m) return null;
  const parts = checkParts({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: 0, minute: 0, second: 0, microsecond: 0 });
  return formatDate(parts);
}

/** Parse `hh:mm[:ss[.uuuuuu]]`; null when not well formed. Returns `hh:mm:ss[.uuuuuu]`. */
export function parseTime(value: string): string | null {
  const m = TIME_RE.exec(value);
  if (!m) return null;
  const parts = checkParts({
    year: 2000, month: 1, day: 1, hour: Number(m[1]), minute: Number(m[2]),
    second: m[3] ? Number(m[3]) : 0, microsecond: micro(m[4]),
  });
  return formatTime(parts);
}

/** Parse a duration (`[DD] [[HH:]MM:]ss[.uuuuuu]`, ISO 8601, PostgreSQL); microseconds, or null. */
export function parseDuration(value: string): number | null {
  let m = STANDARD_DURATION_RE.exec(value);
  if (m) {
    const sign = m[2] === '-' ? -1 : 1;
    const days = m[1] ? Number(m[1]) : 0;
    const us = (Number(m[3] ?? 0) * 3600 + Number(m[4] ?? 0) * 60 + Number(m[5])) * 1e6 + micro(m[6]);
    return days * 86400e6 + sign * us;
  }
  m = ISO_DURATION_RE.exec(value);
  if (m) {
    const sign = m[1] === '-' ? -1 : 1;
    const f = (text: string | undefined): number => (text ? parseFloat(text.replace(',', '.')) : 0);
    const seconds = f(m[2]) * 86400 + f(m[3]) * 3600 + f(m[4]) * 60 + f(m[5]);
    return sign * Math.round(seconds * 1e6);
  }
  m = POSTGRES_DURATION_RE.exec(value);
  if (m && value !== '') {
    const sign = m[2] === '-' ? -1 : 1;
    const days = m[1] ? Number(m[1]) : 0;
    const us = (Number(m[3] ?? 0) * 3600 + Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0)) * 1e6 + micro(m[6]);
    return days * 86400e6 + sign * us;
  }
  return null;
}

/** Format microseconds like Django's `duration_string`: `[D ]HH:MM:SS[.uuuuuu]`. */
export function durationString(totalMicroseconds: number): string {
  // Python's timedelta normalises to days (possibly negative) + non-negative seconds.
  let days = Math.floor(totalMicroseconds / 86400e6);
  let rest = totalMicroseconds - days * 86400e6;
  if (rest >= 86400e6) { days += 1; rest -= 86400e6; }
  const hours = Math.floor(rest / 3600e6);
  rest -= hours * 3600e6;
  const minutes = Math.floor(rest / 60e6);
  rest -= minutes * 60e6;
  const seconds = Math.floor(rest / 1e6);
  const microseconds = Math.round(rest - seconds * 1e6);
  let text = `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  if (days) text = `${days} ${text}`;
  if (microseconds) text += `.${pad(microseconds, 6)}`;
  return text;
}

/**
 * Format microseconds as Python's `str(timedelta)`: `1 day, 0:00:00`, `4 days, 0:00:00`,
 * `0:00:01`, `-1 day, 23:59:59`, `0:00:00.000005` (the original's limit messages).
 */
export function timedeltaString(totalMicroseconds: number): string {
  const days = Math.floor(totalMicroseconds / 86400e6);
  let rest = totalMicroseconds - days * 86400e6;
  const hours = Math.floor(rest / 3600e6);
  rest -= hours * 3600e6;
  const minutes = Math.floor(rest / 60e6);
  rest -= minutes * 60e6;
  const seconds = Math.floor(rest / 1e6);
  const microseconds = Math.round(rest - seconds * 1e6);
  let text = `${hours}:${pad(minutes)}:${pad(seconds)}`;
  if (microseconds) text += `.${pad(microseconds, 6)}`;
  if (days) text = `${days} ${Math.abs(days) === 1 ? 'day' : 'days'}, ${text}`;
  return text;
}

/** `YYYY-MM-DD`. */
export function formatDate(parts: Pick<DateTimeParts, 'year' | 'month' | 'day'>): string {
  return `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)}`;
}

/** `hh:mm:ss` plus `.uuuuuu` when there are microseconds (Python's `time.isoformat()`). */
export function formatTime(parts: Pick<DateTimeParts, 'hour' | 'minute' | 'second' | 'microsecond'>): string {
  const base = `${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}`;
  return parts.microsecond ? `${base}.${pad(parts.microsecond, 6)}` : base;
}

/** `+HH:MM` for an offset in minutes. */
export function formatOffset(offsetMinutes: number, colon = true): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(abs / 60))}${colon ? ':' : ''}${pad(abs % 60)}`;
}

const formatterCache = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatterCache.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatterCache.set(timeZone, formatter);
  }
  return formatter;
}

/** The offset of `timeZone` from UTC at instant `ms`, in minutes. */
export function timeZoneOffset(ms: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  const values: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(values.year, values.month - 1, values.day, values.hour, values.minute, values.second);
  return Math.round((asUtc - (ms - (((ms % 1000) + 1000) % 1000))) / 60000);
}

/** Wall-clock parts of instant `date` in `timeZone`, and the offset used. */
export function toZonedParts(date: Date, timeZone: string): { parts: DateTimeParts; offsetMinutes: number } {
  const ms = date.getTime();
  const offsetMinutes = timeZoneOffset(ms, timeZone);
  const shifted = new Date(ms + offsetMinutes * 60000);
  return {
    offsetMinutes,
    parts: {
      year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate(),
      hour: shifted.getUTCHours(), minute: shifted.getUTCMinutes(), second: shifted.getUTCSeconds(),
      microsecond: shifted.getUTCMilliseconds() * 1000,
    },
  };
}

/** The instant for wall-clock `parts` in `timeZone` (or at a fixed offset in minutes). */
export function fromZonedParts(parts: DateTimeParts, zone: string | number): Date {
  const local = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second,
    Math.floor(parts.microsecond / 1000));
  const fixedUtc = new Date(local);
  fixedUtc.setUTCFullYear(parts.year);
  const base = fixedUtc.getTime();
  if (typeof zone === 'number') return new Date(base - zone * 60000);
  let guess = base - timeZoneOffset(base, zone) * 60000;
  guess = base - timeZoneOffset(guess, zone) * 60000;
  return new Date(guess);
}

/**
 * Every instant whose wall-clock time in `timeZone` is `parts`: one as a rule, none for a
 * time skipped by a daylight-saving change (`02:30` on a spring-forward night), two for a
 * repeated one (`01:30` on a fall-back night).
 */
export function wallTimeInstants(parts: DateTimeParts, timeZone: string): number[] {
  const local = fromZonedParts(parts, 0).getTime();
  // The offsets in force a day either side cover any single transition around this time.
  const offsets = new Set([timeZoneOffset(local - 86400000, timeZone), timeZoneOffset(local, timeZone),
    timeZoneOffset(local + 86400000, timeZone)]);
  const instants = new Set<number>();
  for (const offset of offsets) {
    const instant = local - offset * 60000;
    if (timeZoneOffset(instant, timeZone) === offset) instants.add(instant);
  }
  return [...instants].sort((a, b) => a - b);
}

/** Python's `datetime.isoformat()` for an aware datetime: offset `+00:00` written as `Z`. */
export function isoformatDatetime(parts: DateTimeParts, offsetMinutes: number | null): string {
  const text = `${formatDate(parts)}T${formatTime(parts)}`;
  if (offsetMinutes === null) return text;
  return offsetMinutes === 0 ? `${text}Z` : text + formatOffset(offsetMinutes);
}

function weekday(parts: DateTimeParts): number {
  // Monday = 0, as Python's weekday().
  return (new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay() + 6) % 7;
}

/** Python's `strftime` for the common directives. */
export function strftime(parts: DateTimeParts, format: string, offsetMinutes: number | null = null): string {
  return format.replace(/%([a-zA-Z%])/g, (whole, directive: string) => {
    switch (directive) {
      case 'Y': return pad(parts.year, 4);
      case 'y': return pad(parts.year % 100);
      case 'm': return pad(parts.month);
      case 'd': return pad(parts.day);
      case 'H': return pad(parts.hour);
      case 'I': return pad(parts.hour % 12 === 0 ? 12 : parts.hour % 12);
      case 'M': return pad(parts.minute);
      case 'S': return pad(parts.second);
      case 'f': return pad(parts.microsecond, 6);
      case 'p': return parts.hour < 12 ? 'AM' : 'PM';
      case 'b': return MONTHS[parts.month - 1].slice(0, 3);
      case 'B': return MONTHS[parts.month - 1];
      case 'a': return WEEKDAYS[weekday(parts)].slice(0, 3);
      case 'A': return WEEKDAYS[weekday(parts)];
      case 'j': {
        const start = Date.UTC(parts.year, 0, 1);
        return pad(Math.floor((Date.UTC(parts.year, parts.month - 1, parts.day) - start) / 86400000) + 1, 3);
      }
      case 'z': return offsetMinutes === null ? '' : formatOffset(offsetMinutes, false);
      case 'Z': return offsetMinutes === null ? '' : offsetMinutes === 0 ? 'UTC' : `UTC${formatOffset(offsetMinutes)}`;
      case '%': return '%';
      default: return whole;
    }
  });
}

const STRPTIME_PATTERNS: Record<string, string> = {
  Y: '(\\d{4})', y: '(\\d{2})', m: '(\\d{1,2})', d: '(\\d{1,2})', H: '(\\d{1,2})', I: '(\\d{1,2})',
  M: '(\\d{1,2})', S: '(\\d{1,2})', f: '(\\d{1,6})', p: '(AM|PM|am|pm)', b: '([A-Za-z]{3})',
  B: '([A-Za-z]+)', a: '([A-Za-z]{3})', A: '([A-Za-z]+)', z: '([+-]\\d{2}:?\\d{2}|Z)', j: '(\\d{1,3})',
};

const strptimeCache = new Map<string, { re: RegExp; directives: string[] }>();

/**
 * Python's `datetime.strptime(value, format)`: the whole string must match.
 * Throws `DateValueError` when it does not.
 */
export function strptime(value: string, format: string): ParsedDateTime {
  let compiled = strptimeCache.get(format);
  if (!compiled) {
    const directives: string[] = [];
    let source = '';
    for (let i = 0; i < format.length; i++) {
      const ch = format[i];
      if (ch === '%' && i + 1 < format.length) {
        const d = format[++i];
        if (d === '%') { source += '%'; continue; }
        const pattern = STRPTIME_PATTERNS[d];
        if (!pattern) throw new DateValueError(`'${d}' is a bad directive in format '${format}'`);
        directives.push(d);
        source += pattern;
      } else if (/\s/.test(ch)) {
        source += '\\s+';
      } else {
        source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
    }
    compiled = { re: new RegExp(`^${source}$`), directives };
    strptimeCache.set(format, compiled);
  }
  const m = compiled.re.exec(value);
  if (!m) throw new DateValueError(`time data '${value}' does not match format '${format}'`);
  const parts: DateTimeParts = { year: 1900, month: 1, day: 1, hour: 0, minute: 0, second: 0, microsecond: 0 };
  let pm: boolean | null = null;
  let offsetMinutes: number | null = null;
  compiled.directives.forEach((d, index) => {
    const text = m[index + 1];
    switch (d) {
      case 'Y': parts.year = Number(text); break;
      case 'y': { const y = Number(text); parts.year = y < 69 ? 2000 + y : 1900 + y; break; }
      case 'm': parts.month = Number(text); break;
      case 'd': parts.day = Number(text); break;
      case 'H': case 'I': parts.hour = Number(text); break;
      case 'M': parts.minute = Number(text); break;
      case 'S': parts.second = Number(text); break;
      case 'f': parts.microsecond = micro(text); break;
      case 'p': pm = text.toUpperCase() === 'PM'; break;
      case 'b': case 'B': {
        const index = MONTHS.findIndex((name) => (d === 'b' ? name.slice(0, 3) : name).toLowerCase() === text.toLowerCase());
        if (index < 0) throw new DateValueError(`time data '${value}' does not match format '${format}'`);
        parts.month = index + 1;
        break;
      }
      case 'z': {
        if (text === 'Z') { offsetMinutes = 0; break; }
        const digits = text.replace(':', '');
        offsetMinutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5));
        if (digits[0] === '-') offsetMinutes = -offsetMinutes;
        break;
      }
      default: break;
    }
  });
  if (pm !== null && compiled.directives.includes('I')) {
    if (parts.hour > 12 || parts.hour < 1) throw new DateValueError(`time data '${value}' does not match format '${format}'`);
    parts.hour = (parts.hour % 12) + (pm ? 12 : 0);
  }
  return { parts: checkParts(parts), offsetMinutes };
}

/** Humanise input formats for error messages, as the original does (ISO_8601 spelled out). */
export function humanizeFormats(formats: readonly string[], iso: string): string {
  const mapping: Array<[string, string]> = [
    ['%Y', 'YYYY'], ['%y', 'YY'], ['%m', 'MM'], ['%b', '[Jan-Dec]'], ['%B', '[January-December]'],
    ['%d', 'DD'], ['%H', 'hh'], ['%I', 'hh'], ['%M', 'mm'], ['%S', 'ss'], ['%f', 'uuuuuu'],
    ['%a', '[Mon-Sun]'], ['%A', '[Monday-Sunday]'], ['%p', '[AM|PM]'], ['%z', '[+HHMM|-HHMM]'],
  ];
  let text = formats.join(', ').split('iso-8601').join(iso);
  for (const [key, val] of mapping) text = text.split(key).join(val);
  return text;
}
