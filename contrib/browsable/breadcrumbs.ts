/**
 * Breadcrumbs for the browsable API: every prefix of the request path that resolves to an
 * API view, named by that view (`Api Root / Snippet List / Snippet Instance`).
 */
import { escapeUriPath } from '../../lib/core/encoding';
import type { HttpRequest } from '../../lib/core/http';
import { resolve, type ViewFunction } from '../../lib/core/urls';
import { APIView } from '../../lib/views';

/** One breadcrumb: the view's name and its URL. */
export interface Breadcrumb {
  name: string;
  url: string;
}

function viewNameOf(view: ViewFunction): string | null {
  const cls = view.viewClass as (new () => unknown) | undefined;
  if (typeof cls !== 'function' || !(cls.prototype instanceof APIView || cls === APIView)) return null;
  const instance = new cls() as APIView;
  Object.assign(instance, view.viewInitkwargs ?? {});
  return instance.getViewName();
}

/** Keep the `format` query parameter on breadcrumb links, as the original does. */
function preserveFormat(url: string, request: HttpRequest | null): string {
  const format = request?.query.get('format');
  return format ? `${url}?format=${encodeURIComponent(format)}` : url;
}

/**
 * Given a (decoded) URL path, return the list of `{name, url}` crumbs for it, root first; the
 * URLs are percent-encoded again (`escapeUriPath()`). Prefixes that
 * do not resolve, or resolve to something other than an API view, are skipped; the same view
 * twice in a row (an optional trailing slash) is listed once.
 */
export function getBreadcrumbs(urlPath: string, request: HttpRequest | null = null): Breadcrumb[] {
  const crumbs: Breadcrumb[] = [];
  const seen: ViewFunction[] = [];
  let url = urlPath;
  for (;;) {
    if (url !== '') {
      let view: ViewFunction | null = null;
      try {
        view = resolve(url).func;
      } catch {
        view = null;
      }
      if (view && (seen.length === 0 || seen[seen.length - 1] !== view)) {
        const name = viewNameOf(view);
        if (name !== null) {
          crumbs.unshift({ name, url: preserveFormat(escapeUriPath(url), request) });
          seen.push(view);
        }
      }
    }
    if (url === '') return crumbs;
    url = url.endsWith('/') ? url.replace(/\/+$/, '') : url.slice(0, url.lastIndexOf('/') + 1);
  }
}
