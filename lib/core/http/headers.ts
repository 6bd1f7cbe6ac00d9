/**
 * Reading request headers: the Content-Type's media type and parameters, and the names of
 * headers in `META` (`HTTP_X_FORWARDED_FOR`, `CONTENT_TYPE`).
 */

/** The media type (lower case) and parameters of a Content-Type header value. */
export function splitContentType(value: string): { type: string; params: Record<string, string> } {
  const [type, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    let val = part.slice(eq + 1).trim();
    if (val.length >= 2 && val.startsWith('"') && val.endsWith('"')) val = val.slice(1, -1);
    if (key) params[key] = val;
  }
  return { type: type.trim().toLowerCase(), params };
}

// Header names repeat from request to request: their META keys are computed once (bounded,
// so a client inventing names cannot grow it without limit).
const metaKeys = new Map<string, string>();
const MAX_META_KEYS = 1000;

/** The META key of a (lower-case) header name: `HTTP_X_FORWARDED_FOR`, `CONTENT_TYPE`. */
export function metaKey(name: string): string {
  let key = metaKeys.get(name);
  if (key === undefined) {
    const upper = name.toUpperCase().replace(/-/g, '_');
    key = upper === 'CONTENT_TYPE' || upper === 'CONTENT_LENGTH' ? upper : `HTTP_${upper}`;
    if (metaKeys.size < MAX_META_KEYS) metaKeys.set(name, key);
  }
  return key;
}

/** The lower-case header name a META key stands for (`HTTP_ACCEPT` -> `accept`), or null. */
export function headerNameFor(key: string): string | null {
  if (key === 'CONTENT_TYPE' || key === 'CONTENT_LENGTH') return key.toLowerCase().replace('_', '-');
  if (!key.startsWith('HTTP_') || key === 'HTTP_CONTENT_TYPE' || key === 'HTTP_CONTENT_LENGTH') return null;
  return key.slice(5).toLowerCase().replace(/_/g, '-');
}
