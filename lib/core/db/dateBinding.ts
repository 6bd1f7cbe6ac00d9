/**
 * DATE values bound as Sequelize binds them, without moment. Sequelize's `format()` turns a
 * `Date` for a DATE column into text through moment (`moment(date).utcOffset(timezone)`, then
 * `format()`), which costs tens of microseconds per value; the compiled writes (compiledInsert.ts,
 * compiledUpdate.ts) bind the same text built directly, for the cases whose text is fixed:
 *
 * - the connection's time zone is a fixed offset (`+00:00`, the framework's; `-05:30`): a named
 *   zone (`Europe/Paris`) goes through moment-timezone's rules, left to Sequelize;
 * - the column type's conversion is Sequelize's MySQL DATE (`YYYY-MM-DD HH:mm:ss`, with `.SSS`
 *   when it has a precision). SQLite's DATE already writes its text without moment (the
 *   framework's Django-shaped `formatDbDatetime()`, connection.ts);
 * - the value is a valid `Date` whose year, at that offset, has four digits.
 *
 * Anything else (and a connection with `typeValidation`) goes through `format()` as before.
 */
import { DataTypes } from 'sequelize';
import { fixedOffsetMilliseconds } from './fixedOffset';

/** Builds the bound text of a `Date`, or null when Sequelize must (see the module comment). */
export type DateBinder = (date: Date) => string | null;

interface DateTypeInternals {
  _stringify?: unknown;
  _length?: unknown;
}

/** Sequelize's own DATE conversions, per dialect class. */
const dialectTypes = DataTypes as unknown as { mysql: { DATE: { prototype: DateTypeInternals } } };
const MYSQL_STRINGIFY = dialectTypes.mysql.DATE.prototype._stringify;

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function pad3(value: number): string {
  return value < 10 ? `00${value}` : value < 100 ? `0${value}` : String(value);
}

/**
 * The binder for values of a column of `type` on a connection in `timezone`, or null when
 * every value goes through Sequelize (a type or zone this module does not reproduce).
 */
export function dateBinderFor(type: unknown, timezone: string | undefined): DateBinder | null {
  if (!(type instanceof DataTypes.DATE)) return null;
  const offsetMs = fixedOffsetMilliseconds(timezone);
  if (offsetMs === null) return null;
  const internals = type as unknown as DateTypeInternals;
  if (internals._stringify !== MYSQL_STRINGIFY) return null;
  const withMilliseconds = Boolean(internals._length);
  return (date: Date): string | null => {
    const time = date.getTime();
    if (!Number.isFinite(time)) return null;
    const local = new Date(time + offsetMs);
    const year = local.getUTCFullYear();
    if (year < 1000 || year > 9999) return null;
    let text = `${year}-${pad2(local.getUTCMonth() + 1)}-${pad2(local.getUTCDate())} ${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}:${pad2(local.getUTCSeconds())}`;
    if (withMilliseconds) text += `.${pad3(local.getUTCMilliseconds())}`;
    return text;
  };
}
