/**
 * `patchVaryHeaders(response, ['Cookie'])`: add header names to a response's `Vary` header,
 * keeping the ones already there (case-insensitively) and their order.
 */
import type { HttpResponse } from '../../lib/core/http';

/** Add `headers` to the `Vary` header of `response`, without duplicates; `*` stays alone. */
export function patchVaryHeaders(response: HttpResponse, headers: readonly string[]): void {
  const current = (response.getHeader('Vary') ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const seen = new Set(current.map((h) => h.toLowerCase()));
  for (const header of headers) {
    if (!seen.has(header.toLowerCase())) {
      current.push(header);
      seen.add(header.toLowerCase());
    }
  }
  response.setHeader('Vary', seen.has('*') ? '*' : current.join(', '));
}
