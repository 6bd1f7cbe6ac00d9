/**
 * Compiled patterns: `RoutePattern` for `path()` routes (`snippets/<int:pk>/`) and
 * `RegexPattern` for `rePath()` regular expressions. Each matches a path prefix and gives the
 * templates `reverse()` builds URLs from; each compiles its regular expression once, when it
 * is declared.
 */
import { ImproperlyConfigured } from '../conf';
import { getConverter, type PathConverter } from './converters';
import { normalizeRegex } from './regexHelper';

/** A part of a reversal template: literal text or a parameter. */
export type TemplatePart = string | { param: string };

/** One way to reverse a pattern: the template, its parameter names and the regex source it must match. */
export interface ReverseTemplate {
  parts: TemplatePart[];
  params: string[];
  /** Regex source (no leading `^`) that a built URL must match. */
  source: string;
}

/** What a pattern matched: the rest of the path and the view arguments. */
export interface PatternMatch {
  rest: string;
  args: string[];
  kwargs: Record<string, unknown>;
}

const PARAM_RE = /<(?:([^>:]+):)?([^>]+)>/g;
const IDENTIFIER_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Translate Python regex syntax (`(?P<name>`, `(?P=name)`, `\Z`) to JavaScript's. */
function pythonToJsRegex(source: string): string {
  return source.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>').replace(/\\Z/g, '$');
}

/** Write JavaScript named groups the Python way (`(?P<name>`), as error messages show patterns. */
export function jsToPythonRegex(source: string): string {
  return source.replace(/\(\?<(?![=!])/g, '(?P<');
}

/** A compiled route or regular expression: matches a path prefix and reverses to templates. */
export abstract class Pattern {
  /** The route as written. */
  abstract readonly describe: string;
  /** Converters of the named parameters. */
  abstract readonly converters: Record<string, PathConverter>;
  /** Match the start (or, for endpoints, all) of `path`. */
  abstract match(path: string): PatternMatch | null;
  /** Reversal templates (no leading `^` in `source`). */
  abstract templates(): ReverseTemplate[];
}

/** A `path()` route: `snippets/<int:pk>/`. */
export class RoutePattern extends Pattern {
  readonly describe: string;
  readonly converters: Record<string, PathConverter> = {};
  private readonly regex: RegExp | null;
  private readonly literal: string | null;
  private readonly source: string;
  private readonly parts: TemplatePart[] = [];
  private readonly params: string[] = [];

  constructor(route: string, private readonly isEndpoint: boolean) {
    super();
    this.describe = route;
    let source = '';
    let last = 0;
    for (const match of route.matchAll(PARAM_RE)) {
      const [whole, rawConverter, param] = match;
      if (!IDENTIFIER_RE.test(param)) {
        throw new ImproperlyConfigured(`URL route '${route}' uses parameter name '${param}' which isn't a valid Python identifier.`);
      }
      const converterName = rawConverter ?? 'str';
      const converter = getConverter(converterName);
      if (!converter) throw new ImproperlyConfigured(`URL route '${route}' uses invalid converter '${converterName}'.`);
      const literal = route.slice(last, match.index);
      if (literal) this.parts.push(literal);
      this.parts.push({ param });
      this.params.push(param);
      source += `${escapeRegex(literal)}(?<${param}>${converter.regex})`;
      this.converters[param] = converter;
      last = (match.index ?? 0) + whole.length;
    }
    const tail = route.slice(last);
    if (tail) this.parts.push(tail);
    source += escapeRegex(tail);
    this.source = isEndpoint ? `${source}$` : source;
    this.literal = this.params.length === 0 ? route : null;
    this.regex = this.literal === null ? new RegExp(`^${this.source}`) : null;
  }

  /** Match the route's literal text or regex, converting each parameter; null when it does not match. */
  match(path: string): PatternMatch | null {
    if (this.literal !== null) {
      if (this.isEndpoint ? path === this.literal : path.startsWith(this.literal)) {
        return { rest: path.slice(this.literal.length), args: [], kwargs: {} };
      }
      return null;
    }
    const match = this.regex!.exec(path);
    if (!match) return null;
    const kwargs: Record<string, unknown> = {};
    const groups = match.groups ?? {};
    for (const param of this.params) {
      try {
        kwargs[param] = this.converters[param].toPython(groups[param]);
      } catch {
        return null;
      }
    }
    return { rest: path.slice(match[0].length), args: [], kwargs };
  }

  /** The route's one template. */
  templates(): ReverseTemplate[] {
    return [{ parts: this.parts, params: this.params, source: this.source }];
  }
}

/** An `rePath()` regular expression: `^snippets/(?P<pk>[0-9]+)/$`. */
export class RegexPattern extends Pattern {
  readonly describe: string;
  readonly converters: Record<string, PathConverter> = {};
  private readonly regex: RegExp;
  private readonly source: string;
  private readonly hasNamedGroups: boolean;

  constructor(regex: string | RegExp) {
    super();
    const raw = typeof regex === 'string' ? regex : regex.source;
    this.describe = jsToPythonRegex(raw);
    let source = pythonToJsRegex(raw);
    if (source.startsWith('^')) source = source.slice(1);
    this.source = source;
    try {
      // Endpoints ending in `$` must match the whole remaining path; others match a prefix.
      this.regex = new RegExp(`^(?:${source})`);
    } catch (error) {
      throw new ImproperlyConfigured(`"${raw}" is not a valid regular expression: ${(error as Error).message}`);
    }
    this.hasNamedGroups = /\(\?<(?![=!])/.test(source);
  }

  /** Match the regex: named groups become kwargs, unnamed ones args (only when there are no named ones). */
  match(path: string): PatternMatch | null {
    const match = this.regex.exec(path);
    if (!match) return null;
    const kwargs: Record<string, unknown> = {};
    if (match.groups) for (const [key, value] of Object.entries(match.groups)) if (value !== undefined) kwargs[key] = value;
    const args = this.hasNamedGroups ? [] : match.slice(1).map((value) => value ?? '');
    return { rest: path.slice(match[0].length), args, kwargs };
  }

  /** The templates the regex can be reversed to ([] when it cannot). */
  templates(): ReverseTemplate[] {
    return normalizeRegex(this.source).map((t) => ({ ...t, source: this.source }));
  }
}
