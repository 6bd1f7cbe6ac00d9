/**
 * A connection time zone written as a fixed offset (`+00:00`, the framework's; `-05:30`), as
 * Sequelize's `timezone` option takes it: the offset in milliseconds, or null for a named zone
 * (`Europe/Paris`, whose offsets moment-timezone's rules give) or none.
 */
const FIXED_OFFSET = /^([+-])(\d\d):(\d\d)$/;

/** The offset of `timezone` from UTC in milliseconds, or null when it is not a fixed offset. */
export function fixedOffsetMilliseconds(timezone: unknown): number | null {
  const zone = typeof timezone === 'string' ? FIXED_OFFSET.exec(timezone) : null;
  if (!zone) return null;
  return (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000;
}
