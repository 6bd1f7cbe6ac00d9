/** Small text helpers of the admin. */

/** Upper-case the first letter (the host framework's `capfirst`). */
export function capitalize(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}
