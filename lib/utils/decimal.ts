/**
 * Exact decimal numbers as strings, the way Python's `decimal` module reads and rounds them:
 * `DecimalField` validates digits and places on the parsed tuple and quantizes to a fixed
 * number of places without ever going through a binary float.
 */

/** Python's `Decimal.as_tuple()`: sign (1 = negative), coefficient digits, exponent. */
export interface DecimalTuple {
  sign: 0 | 1;
  /** Coefficient digits without leading zeros (`'0'` for zero). */
  digits: string;
  exponent: number;
}

const DECIMAL_RE = /^([+-])?(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;

/** Parse a decimal literal (no NaN or infinities); null when it is not one. */
export function getDecimal(text: string): DecimalTuple | null {
  const m = DECIMAL_RE.exec(text.replace(/_/g, (match, offset: number, whole: string) =>
    /\d/.test(whole[offset - 1] ?? '') && /\d/.test(whole[offset + 1] ?? '') ? '' : match));
  if (!m) return null;
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? m[4] ?? '';
  const exponent = Number(m[5] ?? 0) - fracPart.length;
  const digits = (intPart + fracPart).replace(/^0+/, '') || '0';
  return { sign: m[1] === '-' ? 1 : 0, digits, exponent };
}

/** Python's rounding modes. */
export type Rounding = 'ROUND_CEILING' | 'ROUND_DOWN' | 'ROUND_FLOOR' | 'ROUND_HALF_DOWN' | 'ROUND_HALF_EVEN'
  | 'ROUND_HALF_UP' | 'ROUND_UP' | 'ROUND_05UP';

function incrementDigits(digits: string): string {
  const chars = digits.split('');
  let i = chars.length - 1;
  while (i >= 0) {
    if (chars[i] === '9') {
      chars[i] = '0';
      i--;
    } else {
      chars[i] = String(Number(chars[i]) + 1);
      return chars.join('');
    }
  }
  return `1${chars.join('')}`;
}

function shouldRoundUp(kept: string, dropped: string, negative: boolean, rounding: Rounding): boolean {
  if (!/[1-9]/.test(dropped)) return false;
  const first = Number(dropped[0]);
  const restNonZero = /[1-9]/.test(dropped.slice(1));
  const lastKept = kept.length ? Number(kept[kept.length - 1]) : 0;
  switch (rounding) {
    case 'ROUND_UP': return true;
    case 'ROUND_DOWN': return false;
    case 'ROUND_CEILING': return !negative;
    case 'ROUND_FLOOR': return negative;
    case 'ROUND_HALF_UP': return first >= 5;
    case 'ROUND_HALF_DOWN': return first > 5 || (first === 5 && restNonZero);
    case 'ROUND_05UP': return lastKept === 0 || lastKept === 5;
    default: return first > 5 || (first === 5 && (restNonZero || lastKept % 2 === 1));
  }
}

/**
 * The value in fixed-point notation (`'{:f}'` in Python), rounded to `places` decimal places
 * with `rounding` when places is not null.
 */
export function quantizeDecimal(value: DecimalTuple, places: number | null, rounding: Rounding = 'ROUND_HALF_EVEN'): string {
  let digits = value.digits;
  let exponent = value.exponent;
  if (places !== null) {
    const target = -places;
    if (exponent < target) {
      const drop = target - exponent;
      const padded = digits.padStart(drop + 1, '0');
      let kept = padded.slice(0, padded.length - drop);
      const dropped = padded.slice(padded.length - drop);
      if (shouldRoundUp(kept, dropped, value.sign === 1, rounding)) kept = incrementDigits(kept);
      digits = kept.replace(/^0+/, '') || '0';
      exponent = target;
    } else if (exponent > target) {
      digits = digits === '0' ? '0' : digits + '0'.repeat(exponent - target);
      exponent = target;
    }
  }
  let text: string;
  if (exponent >= 0) {
    text = digits === '0' ? '0' : digits + '0'.repeat(exponent);
  } else {
    const places2 = -exponent;
    const padded = digits.padStart(places2 + 1, '0');
    text = `${padded.slice(0, padded.length - places2)}.${padded.slice(padded.length - places2)}`;
  }
  return (value.sign === 1 ? '-' : '') + text;
}
