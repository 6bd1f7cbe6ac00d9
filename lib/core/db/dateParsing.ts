/**
 * MySQL DATETIME text read into a `Date` as Sequelize's MySQL DATE parser reads it, without
 * its per-value time zone lookup and the engine's general date-string parser. Sequelize answers
 * `new Date(`${text} ${timezone}`)` for a fixed-offset zone (`+00:00`, the framework's); this
 * builds the same instant from the digits, for text of the form MySQL writes (`YYYY-MM-DD
 * HH:MM:SS`, with up to six fraction digits, of which the first three count, as the engine's
 * parser truncates them) naming a real date with a four-digit year. Anything else (a zero
 * date, a named zone) is left to Sequelize's parser: `parse()` answers undefined.
 */
import { fixedOffsetMilliseconds } from './fixedOffset';

const DATETIME_TEXT = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?$/;

/** Reads DATETIME text; undefined when Sequelize's parser must (see the module comment). */
export type DateTimeReader = (text: string) => Date | undefined;

/** The reader for a connection in `timezone`, or null when it is a named zone (or none). */
export function dateTimeReaderFor(timezone: unknown): DateTimeReader | null {
  const offsetMs = fixedOffsetMilliseconds(timezone);
  if (offsetMs === null) return null;
  return (text: string): Date | undefined => {
    const parts = DATETIME_TEXT.exec(text);
    if (!parts) return undefined;
    const year = Number(parts[1]);
    const month = Number(parts[2]);
    const day = Number(parts[3]);
    const hours = Number(parts[4]);
    const minutes = Number(parts[5]);
    const seconds = Number(parts[6]);
    if (year < 1000 || month < 1 || month > 12 || day < 1 || hours > 23 || minutes > 59 || seconds > 59) return undefined;
    const fraction = parts[7];
    const milliseconds = fraction === undefined ? 0 : Number(fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0'));
    const local = Date.UTC(year, month - 1, day, hours, minutes, seconds, milliseconds);
    // A day past the month's end (02-30) is no date: left to the engine's parser, as before.
    if (new Date(local).getUTCDate() !== day) return undefined;
    return new Date(local - offsetMs);
  };
}
