/**
 * Python's `repr()` and `str()` of JSON-ish values, the one copy the framework quotes values
 * with wherever the original's messages do (`"{input}" is not a valid choice.`,
 * `Invalid HTTP_HOST header: 'x'.`, `Field 'id' expected a number but got 'abc'.`, the
 * `NoReverseMatch` text, serializer reprs, the DEBUG pages).
 *
 * Strings are quoted as CPython does: single quotes unless the text holds a single quote and
 * no double quote; backslashes, the chosen quote, `\t`, `\n`, `\r` and every other
 * non-printable character are escaped (`\x..`, `\u....`, `\U........`). `null`/`undefined`
 * are `None`, booleans `True`/`False`, arrays lists, plain objects dicts.
 */

const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

function escapeCharacter(ch: string): string {
  if (ch === ' ') return ch;
  switch (ch) {
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
  }
  if (!NON_PRINTABLE.test(ch)) return ch;
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** Python's `repr()` of a string: `'text'`, or `"it's"` when only single quotes occur. */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let body = '';
  for (const ch of text) {
    if (ch === '\\') body += '\\\\';
    else if (ch === quote) body += `\\${quote}`;
    else body += escapeCharacter(ch);
  }
  return quote + body + quote;
}

/** Python's `repr()` of a JSON-ish value (`None`, `True`, `'text'`, `[1, 'a']`, `{'k': 2}`). */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'nan';
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
    return String(value);
  }
  if (typeof value === 'string') return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${pythonStringRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}

/** Python's `repr()` of a tuple: `('a',)`, `(1, 2)`. */
export function pythonTupleRepr(values: readonly unknown[]): string {
  return values.length === 1 ? `(${pythonRepr(values[0])},)` : `(${values.map(pythonRepr).join(', ')})`;
}

/** Python's `str()`: a string as it is, anything else as its `repr()`. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}
