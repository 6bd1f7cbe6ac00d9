/**
 * `patchVaryHeaders(response, ['Cookie'])`: the host framework's `patch_vary_headers`, the one
 * copy the session, CSRF and locale middleware and the API views add to `Vary` with.
 */
import type { HttpResponse } from './response';

/** The original's `cc_delim_re`: the separator of a comma-separated header value. */
const VARY_SEPARATOR = /\s*,\s*/;

/**
 * Add header names to the response's `Vary` header, Django 3.2's way: the names already
 * there keep their order, new ones are appended unless present already (compared without
 * case), and a `*` anywhere (already there or new) makes the header `*` alone. `newHeaders`
 * may be one comma-separated string, as `APIView.headers.Vary` holds it.
 */
export function patchVaryHeaders(response: HttpResponse, newHeaders: string | readonly string[]): void {
  const current = response.getHeader('Vary');
  if (current === undefined && typeof newHeaders === 'string' && !newHeaders.includes(',')) {
    // The common case: one header name and nothing to merge with.
    response.setHeader('Vary', newHeaders);
    return;
  }
  // The merge depends on the two values only: the pairs that come back (`Accept` + `Cookie`)
  // are merged once.
  const added = typeof newHeaders === 'string' ? newHeaders : newHeaders.length === 1 ? newHeaders[0] : null;
  if (added === null) {
    response.setHeader('Vary', mergeVary(current, newHeaders));
    return;
  }
  const key = current === undefined ? `-${added}` : `${current.length}:${current}${added}`;
  let merged = mergedVary.get(key);
  if (merged === undefined) {
    merged = mergeVary(current, added);
    if (mergedVary.size >= MAX_MERGED) mergedVary.clear();
    mergedVary.set(key, merged);
  }
  response.setHeader('Vary', merged);
}

/** The most (current, added) pairs whose merge is remembered. */
const MAX_MERGED = 256;
const mergedVary = new Map<string, string>();

/** The `Vary` value `current` patched with `newHeaders`. */
function mergeVary(current: string | undefined, newHeaders: string | readonly string[]): string {
  const vary = current === undefined ? [] : current.split(VARY_SEPARATOR).filter(Boolean);
  const seen = new Set(vary.map((header) => header.toLowerCase()));
  const additional = typeof newHeaders === 'string' ? newHeaders.split(VARY_SEPARATOR) : newHeaders;
  for (const header of additional) {
    const key = header.toLowerCase();
    if (!header || seen.has(key)) continue;
    seen.add(key);
    vary.push(header);
  }
  return seen.has('*') ? '*' : vary.join(', ');
}
