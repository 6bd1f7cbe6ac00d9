/**
 * Reversing regular expressions: the host framework's `regex_helper.normalize`, for the
 * shapes URL patterns use.
 */
import type { TemplatePart } from './patterns';

/**
 * Turn a regex into reversal templates, the way the host framework's `normalize` does for
 * the common shapes: literals, escapes, named/unnamed groups, optional parts (left out) and
 * alternatives (the first is used). Returns [] when the regex can't be reversed.
 */
export function normalizeRegex(source: string): Array<{ parts: TemplatePart[]; params: string[] }> {
  const parts: TemplatePart[] = [];
  const params: string[] = [];
  let positional = 0;
  let i = 0;
  const push = (text: string): void => {
    if (typeof parts[parts.length - 1] === 'string') parts[parts.length - 1] += text;
    else parts.push(text);
  };
  const skipGroup = (start: number): number => {
    let depth = 0;
    for (let j = start; j < source.length; j++) {
      const ch = source[j];
      if (ch === '\\') j++;
      else if (ch === '[') {
        j++;
        while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      } else if (ch === '(') depth++;
      else if (ch === ')') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return source.length;
  };
  const quantifierAt = (j: number): { zero: boolean; next: number } => {
    const ch = source[j];
    if (ch === '?' || ch === '*') return { zero: true, next: j + 1 + (source[j + 1] === '?' ? 1 : 0) };
    if (ch === '+') return { zero: false, next: j + 1 + (source[j + 1] === '?' ? 1 : 0) };
    if (ch === '{') {
      const end = source.indexOf('}', j);
      const min = Number(source.slice(j + 1, end).split(',')[0]);
      return { zero: min === 0, next: end + 1 };
    }
    return { zero: false, next: j };
  };
  while (i < source.length) {
    const ch = source[i];
    if (ch === '$' || ch === '^') {
      i++;
    } else if (ch === '\\') {
      const next = source[i + 1];
      if (/[dDwWsSbB]/.test(next)) return [];
      const q = quantifierAt(i + 2);
      if (!q.zero) push(next);
      i = q.next;
    } else if (ch === '(') {
      const end = skipGroup(i);
      const q = quantifierAt(end);
      const named = /^\(\?<([A-Za-z_]\w*)>/.exec(source.slice(i));
      if (q.zero) {
        i = q.next;
        continue;
      }
      if (named) {
        parts.push({ param: named[1] });
        params.push(named[1]);
      } else if (source.startsWith('(?:', i)) {
        const inner = normalizeRegex(source.slice(i + 3, end - 1).split('|')[0]);
        if (!inner.length || inner[0].params.length) return [];
        for (const part of inner[0].parts) if (typeof part === 'string') push(part);
      } else if (source[i + 1] === '?') {
        return [];
      } else {
        const name = `_${positional++}`;
        parts.push({ param: name });
        params.push(name);
      }
      i = q.next;
    } else if (ch === '[' || ch === '.') {
      return [];
    } else if (ch === '|') {
      break;
    } else {
      const q = quantifierAt(i + 1);
      if (!q.zero) push(ch);
      i = q.next;
    }
  }
  return [{ parts, params }];
}
