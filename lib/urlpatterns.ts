/**
 * Provides `formatSuffixPatterns()`: adds a format-suffixed twin (`/snippets.json`) to every
 * URL pattern, so the suffix selects the renderer through the FORMAT_SUFFIX_KWARG argument.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `formatSuffixPatterns(urlpatterns, { suffixRequired, allowed })` registers the path
 *   converter `drf_format_suffix[_<allowed>]`.
 */
import {
  RoutePattern,
  URLPattern,
  URLResolver,
  include,
  path,
  rePath,
  registerConverter,
  type PathConverter,
  type UrlPattern,
} from './core/urls';
import { apiSettings } from './settings';

/** Options of `formatSuffixPatterns()`. */
export interface FormatSuffixOptions {
  /** Only the suffixed patterns are kept (default: both the plain and the suffixed ones). */
  suffixRequired?: boolean;
  /** The suffixes accepted, e.g. `['json', 'api']` (default: any `[a-z0-9]+`). */
  allowed?: readonly string[] | null;
}

/** The path converter matching `.json` or `.json/` in `path()` routes. */
class FormatSuffixConverter implements PathConverter {
  constructor(readonly regex: string) {}

  /** The format without the dot and slash. */
  toPython(value: string): unknown {
    return value.replace(/^[./]+|[./]+$/g, '');
  }

  /** The format as a suffix. */
  toUrl(value: unknown): string {
    return `.${String(value)}/`;
  }
}

// A path() route gets a route suffix (the converter), an rePath() regex a regex suffix.
function isRoutePattern(pattern: UrlPattern): boolean {
  return pattern.pattern instanceof RoutePattern;
}

function stripEnd(text: string): string {
  return text.replace(/\$+$/, '').replace(/\/+$/, '');
}

function formatConverter(allowed: readonly string[] | null | undefined): string {
  let suffixPattern: string;
  if (allowed && allowed.length) {
    const allowedPattern = allowed.length === 1 ? allowed[0] : `(?:${allowed.join('|')})`;
    suffixPattern = `\\.${allowedPattern}/?`;
  } else {
    suffixPattern = '\\.[a-z0-9]+/?';
  }
  let name = 'drf_format_suffix';
  if (allowed && allowed.length) name += `_${allowed.join('_')}`;
  registerConverter(new FormatSuffixConverter(suffixPattern), name);
  return name;
}

function applySuffixPatterns(
  urlpatterns: readonly UrlPattern[],
  suffixPattern: string,
  suffixRequired: boolean,
  suffixRoute: string,
): UrlPattern[] {
  const ret: UrlPattern[] = [];
  for (const urlpattern of urlpatterns) {
    if (urlpattern instanceof URLResolver) {
      // Set of included URL patterns: add the suffixes inside, keep the namespaces.
      const patterns = applySuffixPatterns(urlpattern.urlPatterns, suffixPattern, suffixRequired, suffixRoute);
      const target = include(
        { urlpatterns: patterns, appName: urlpattern.appName ?? undefined },
        { namespace: urlpattern.namespace ?? undefined },
      );
      const options = { kwargs: urlpattern.defaultKwargs };
      const route = urlpattern.pattern.describe;
      ret.push(isRoutePattern(urlpattern) ? path(route, target, options) : rePath(route, target, options));
    } else if (urlpattern instanceof URLPattern) {
      // Add in both the existing and the new pattern.
      if (!suffixRequired) ret.push(urlpattern);
      const options = { kwargs: urlpattern.defaultKwargs, name: urlpattern.name ?? undefined };
      const view = urlpattern.callback;
      if (isRoutePattern(urlpattern)) {
        ret.push(path(stripEnd(urlpattern.route) + suffixRoute, view, options));
      } else {
        ret.push(rePath(stripEnd(urlpattern.route) + suffixPattern, view, options));
      }
    }
  }
  return ret;
}

/**
 * Supplement existing urlpatterns with corresponding patterns that also include a
 * `.format` suffix (recursing into includes). Retains URL names.
 *
 * @example
 * export const urlpatterns = formatSuffixPatterns([
 *   path('snippets/', snippetList),
 *   path('snippets/<int:pk>/', snippetDetail),
 * ], { allowed: ['json', 'html'] });
 */
export function formatSuffixPatterns(urlpatterns: readonly UrlPattern[], options: FormatSuffixOptions = {}): UrlPattern[] {
  const suffixKwarg = apiSettings.FORMAT_SUFFIX_KWARG;
  const allowed = options.allowed;
  let suffixPattern: string;
  if (allowed && allowed.length) {
    const allowedPattern = allowed.length === 1 ? allowed[0] : `(${allowed.join('|')})`;
    suffixPattern = `\\.(?P<${suffixKwarg}>${allowedPattern})/?$`;
  } else {
    suffixPattern = `\\.(?P<${suffixKwarg}>[a-z0-9]+)/?$`;
  }
  const converterName = formatConverter(allowed);
  const suffixRoute = `<${converterName}:${suffixKwarg}>`;
  return applySuffixPatterns(urlpatterns, suffixPattern, options.suffixRequired ?? false, suffixRoute);
}
