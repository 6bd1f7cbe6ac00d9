/**
 * URL configuration: `path('snippets/<int:pk>/', view, { name: 'snippet-detail' })`,
 * `rePath`, `include(..., { namespace })`, `reverse()` and `resolve()`.
 *
 *     export const urlpatterns = [
 *       path('', apiRoot, { name: 'api-root' }),
 *       path('snippets/<int:pk>/', snippetDetail, { name: 'snippet-detail' }),
 *       path('quickstart/', include(quickstartUrls, { namespace: 'quickstart' })),
 *     ];
 *
 * Every pattern compiles its regular expression once, when it is declared.
 */
import { settings, onSettingChanged, ImproperlyConfigured } from './conf';
import { importModule } from './modules';
import { Http404 } from './exceptions';
import type { HttpRequest, HttpResponse } from './http';

/** A view: called with the request, the keyword arguments and the positional arguments. */
export type ViewFunction = ((
  request: HttpRequest,
  kwargs: Record<string, unknown>,
  ...args: string[]
) => Promise<HttpResponse> | HttpResponse) & {
  csrfExempt?: boolean;
  viewClass?: unknown;
  viewInitkwargs?: Record<string, unknown>;
  actions?: Record<string, string>;
};

/** An error view a URL conf may export as `handler400`, `handler403`, `handler404`, `handler500`. */
export type ErrorHandler = (request: HttpRequest, error?: unknown) => Promise<HttpResponse> | HttpResponse;

/** A module (or object) that can serve as URL conf. */
export interface UrlConfModule {
  urlpatterns: UrlPattern[];
  appName?: string;
  app_name?: string;
  handler400?: ErrorHandler | string;
  handler403?: ErrorHandler | string;
  handler404?: ErrorHandler | string;
  handler500?: ErrorHandler | string;
}

/** Raised by `resolve()` when no pattern matches: a 404. */
export class Resolver404 extends Http404 {
  override name = 'Resolver404';
  /** The patterns tried (their route strings), for DEBUG pages. */
  readonly tried: string[][];
  readonly path: string;

  constructor(path: string, tried: string[][] = []) {
    super(`Resolver404: ${path}`);
    this.path = path;
    this.tried = tried;
  }
}

/** Raised by `reverse()` when no pattern produces a URL for the name and arguments. */
export class NoReverseMatch extends Error {
  override name = 'NoReverseMatch';
}

// ---------------------------------------------------------------------------------------------
// Converters
// ---------------------------------------------------------------------------------------------

/**
 * Turns a path segment into a value and back. `toPython` throws to reject a segment (the
 * next pattern is tried); `toUrl` throws to reject a value when reversing.
 */
export interface PathConverter {
  regex: string;
  toPython(value: string): unknown;
  toUrl(value: unknown): string;
}

/** `<int:pk>`: a non-negative integer. */
export class IntConverter implements PathConverter {
  regex = '[0-9]+';
  /** The number. */
  toPython(value: string): unknown {
    return Number(value);
  }
  /** The number as text. */
  toUrl(value: unknown): string {
    return String(value);
  }
}

/** `<str:name>` (the default): any non-empty segment without `/`. */
export class StringConverter implements PathConverter {
  regex = '[^/]+';
  /** The segment itself. */
  toPython(value: string): unknown {
    return value;
  }
  /** The value as text. */
  toUrl(value: unknown): string {
    return String(value);
  }
}

/** `<slug:slug>`: letters, digits, hyphens and underscores. */
export class SlugConverter extends StringConverter {
  override regex = '[-a-zA-Z0-9_]+';
}

/** `<path:rest>`: any non-empty string, `/` included. */
export class PathSegmentsConverter extends StringConverter {
  override regex = '.+';
}

/** `<uuid:id>`: a lower-case, hyphenated UUID. */
export class UUIDConverter extends StringConverter {
  override regex = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
}

const converters = new Map<string, PathConverter>([
  ['int', new IntConverter()],
  ['str', new StringConverter()],
  ['slug', new SlugConverter()],
  ['path', new PathSegmentsConverter()],
  ['uuid', new UUIDConverter()],
]);

/** Make `<typeName:param>` available in `path()` routes declared afterwards. */
export function registerConverter(converter: PathConverter | (new () => PathConverter), typeName: string): void {
  converters.set(typeName, typeof converter === 'function' ? new converter() : converter);
}

// ---------------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------------

/** A part of a reversal template: literal text or a parameter. */
type TemplatePart = string | { param: string };

/** One way to build a URL: its template, parameter names, converters and regex source. */
interface ReverseCandidate {
  parts: TemplatePart[];
  params: string[];
  converters: Record<string, PathConverter>;
  defaults: Record<string, unknown>;
  /** Regex source (no leading `^`) that a built URL must match. */
  source: string;
  /** Human-readable pattern for error messages. */
  describe: string;
}

interface MatchResult {
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

function jsToPythonRegex(source: string): string {
  return source.replace(/\(\?<(?![=!])/g, '(?P<');
}

/** A compiled route or regular expression: matches a path prefix and reverses to templates. */
abstract class Pattern {
  /** The route as written. */
  abstract readonly describe: string;
  /** Converters of the named parameters. */
  abstract readonly converters: Record<string, PathConverter>;
  /** Match the start (or, for endpoints, all) of `path`. */
  abstract match(path: string): MatchResult | null;
  /** Reversal templates (no leading `^` in `source`). */
  abstract templates(): Array<{ parts: TemplatePart[]; params: string[]; source: string }>;
}

/** A `path()` route: `snippets/<int:pk>/`. */
class RoutePattern extends Pattern {
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
      const converter = converters.get(converterName);
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

  match(path: string): MatchResult | null {
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

  templates(): Array<{ parts: TemplatePart[]; params: string[]; source: string }> {
    return [{ parts: this.parts, params: this.params, source: this.source }];
  }
}

/** An `rePath()` regular expression: `^snippets/(?P<pk>[0-9]+)/$`. */
class RegexPattern extends Pattern {
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

  match(path: string): MatchResult | null {
    const match = this.regex.exec(path);
    if (!match) return null;
    const kwargs: Record<string, unknown> = {};
    if (match.groups) for (const [key, value] of Object.entries(match.groups)) if (value !== undefined) kwargs[key] = value;
    const args = this.hasNamedGroups ? [] : match.slice(1).map((value) => value ?? '');
    return { rest: path.slice(match[0].length), args, kwargs };
  }

  templates(): Array<{ parts: TemplatePart[]; params: string[]; source: string }> {
    return normalizeRegex(this.source).map((t) => ({ ...t, source: this.source }));
  }
}

/**
 * Turn a regex into reversal templates, the way the host framework's `normalize` does for
 * the common shapes: literals, escapes, named/unnamed groups, optional parts (left out) and
 * alternatives (the first is used). Returns [] when the regex can't be reversed.
 */
function normalizeRegex(source: string): Array<{ parts: TemplatePart[]; params: string[] }> {
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

// ---------------------------------------------------------------------------------------------
// URL patterns and resolvers
// ---------------------------------------------------------------------------------------------

/** The match of a URL: the view and its arguments, the route, the namespaces. */
export class ResolverMatch {
  /** `appName` joined with ':' (e.g. 'quickstart'). */
  readonly appName: string;
  /** Instance namespaces joined with ':'. */
  readonly namespace: string;
  /** `namespace:urlName`, or the view's name when the pattern has none. */
  readonly viewName: string;

  constructor(
    readonly func: ViewFunction,
    readonly args: string[],
    readonly kwargs: Record<string, unknown>,
    readonly urlName: string | null,
    readonly appNames: string[],
    readonly namespaces: string[],
    readonly route: string,
    readonly tried: string[][] = [],
  ) {
    this.appName = appNames.filter(Boolean).join(':');
    this.namespace = namespaces.filter(Boolean).join(':');
    const view = urlName ?? (func.name || 'view');
    this.viewName = [...namespaces.filter(Boolean), view].join(':');
  }
}

/** An endpoint: a pattern bound to a view, optionally named. */
export class URLPattern {
  readonly pattern: Pattern;

  constructor(
    pattern: Pattern,
    readonly callback: ViewFunction,
    readonly defaultKwargs: Record<string, unknown>,
    readonly name: string | null,
  ) {
    this.pattern = pattern;
  }

  /** The route or regex as written. */
  get route(): string {
    return this.pattern.describe;
  }

  /** Match the whole remaining path. */
  resolve(path: string): ResolverMatch | null {
    const match = this.pattern.match(path);
    if (!match) return null;
    const kwargs = { ...match.kwargs, ...this.defaultKwargs };
    return new ResolverMatch(this.callback, match.args, kwargs, this.name, [], [], this.pattern.describe);
  }

  toString(): string {
    return `<URLPattern '${this.pattern.describe}'${this.name ? ` [name='${this.name}']` : ''}>`;
  }
}

/** What `include()` returns: patterns to mount under a prefix, with their namespaces. */
export interface IncludeTarget {
  readonly kind: 'include';
  readonly urlconf: UrlConfModule | string;
  readonly appName: string | null;
  readonly namespace: string | null;
}

type ReverseKey = string | ViewFunction;

interface NamespaceEntry {
  prefix: ReverseCandidate[];
  resolver: URLResolver;
}

/**
 * A list of patterns mounted under a prefix (the root resolver's prefix is `/`), with the
 * reverse tables built on first use.
 */
export class URLResolver {
  private loaded: UrlConfModule | null = null;
  private reverseTable: Map<ReverseKey, ReverseCandidate[]> | null = null;
  private namespaceTable: Map<string, NamespaceEntry> | null = null;
  private appTable: Map<string, string[]> | null = null;

  constructor(
    readonly pattern: Pattern,
    private readonly urlconf: UrlConfModule | string,
    readonly defaultKwargs: Record<string, unknown> = {},
    readonly appName: string | null = null,
    readonly namespace: string | null = null,
  ) {}

  /** The URL conf module (imported on first use when named by a dotted path). */
  get urlconfModule(): UrlConfModule {
    if (!this.loaded) {
      if (typeof this.urlconf === 'string') {
        const mod = importModule(this.urlconf) as Partial<UrlConfModule>;
        if (!Array.isArray(mod.urlpatterns)) {
          throw new ImproperlyConfigured(
            `The included URLconf '${this.urlconf}' does not appear to have any patterns in it. If you see the 'urlpatterns' variable with valid patterns in the file then the issue is probably caused by a circular import.`,
          );
        }
        this.loaded = mod as UrlConfModule;
      } else {
        this.loaded = this.urlconf;
      }
    }
    return this.loaded;
  }

  /** The patterns of the URL conf. */
  get urlPatterns(): UrlPattern[] {
    return this.urlconfModule.urlpatterns;
  }

  /** Match `path` (relative to this resolver's parent) or return null with the tried routes. */
  resolve(path: string, tried: string[][] = []): ResolverMatch | null {
    const match = this.pattern.match(path);
    if (!match) return null;
    for (const pattern of this.urlPatterns) {
      const sub = pattern instanceof URLResolver ? pattern.resolve(match.rest, tried) : pattern.resolve(match.rest);
      if (sub) {
        // Positional arguments are only used when there are no keyword arguments.
        const kwargs = { ...match.kwargs, ...this.defaultKwargs, ...sub.kwargs };
        const args = Object.keys(kwargs).length === 0 ? [...match.args, ...sub.args] : sub.args;
        const own = this.pattern.describe === '^/' ? '' : this.pattern.describe;
        return new ResolverMatch(
          sub.func,
          args,
          kwargs,
          sub.urlName,
          this.appName ? [this.appName, ...sub.appNames] : sub.appNames,
          this.namespace ? [this.namespace, ...sub.namespaces] : sub.namespaces,
          own + sub.route,
          tried,
        );
      }
      tried.push([pattern instanceof URLResolver ? pattern.pattern.describe : pattern.route]);
    }
    return null;
  }

  /** The handler for an error status from the URL conf (`handler404` ...), or null. */
  resolveErrorHandler(status: 400 | 403 | 404 | 500): ErrorHandler | null {
    const value = this.urlconfModule[`handler${status}`];
    if (!value) return null;
    if (typeof value === 'function') return value;
    const dot = value.lastIndexOf('.');
    const mod = importModule(value.slice(0, dot));
    const handler = mod[value.slice(dot + 1)];
    if (typeof handler !== 'function') {
      throw new ImproperlyConfigured(`The custom handler${status} view '${value}' could not be imported.`);
    }
    return handler as ErrorHandler;
  }

  private populate(): void {
    const reverse = new Map<ReverseKey, ReverseCandidate[]>();
    const namespaces = new Map<string, NamespaceEntry>();
    const appsTable = new Map<string, string[]>();
    const add = (key: ReverseKey, candidate: ReverseCandidate): void => {
      const list = reverse.get(key);
      if (list) list.push(candidate);
      else reverse.set(key, [candidate]);
    };
    // Later patterns lose to earlier ones: iterate in order and append.
    for (const pattern of this.urlPatterns) {
      const own = candidatesOf(pattern.pattern, pattern instanceof URLPattern ? pattern.defaultKwargs : pattern.defaultKwargs);
      if (pattern instanceof URLPattern) {
        for (const candidate of own) {
          add(pattern.callback, candidate);
          if (pattern.name) add(pattern.name, candidate);
        }
      } else if (pattern.namespace) {
        if (!namespaces.has(pattern.namespace)) namespaces.set(pattern.namespace, { prefix: own, resolver: pattern });
        const appName = pattern.appName ?? pattern.namespace;
        const list = appsTable.get(appName) ?? [];
        if (!list.includes(pattern.namespace)) list.push(pattern.namespace);
        appsTable.set(appName, list);
      } else {
        for (const [key, subs] of pattern.reverseDict()) {
          for (const candidate of combine(own, subs)) add(key, candidate);
        }
        for (const [ns, entry] of pattern.namespaceDict()) {
          if (!namespaces.has(ns)) namespaces.set(ns, { prefix: combine(own, entry.prefix), resolver: entry.resolver });
        }
        for (const [app, list] of pattern.appDict()) {
          const mine = appsTable.get(app) ?? [];
          for (const ns of list) if (!mine.includes(ns)) mine.push(ns);
          appsTable.set(app, mine);
        }
      }
    }
    this.reverseTable = reverse;
    this.namespaceTable = namespaces;
    this.appTable = appsTable;
  }

  /** Reversal candidates by URL name or view function. */
  reverseDict(): Map<ReverseKey, ReverseCandidate[]> {
    if (!this.reverseTable) this.populate();
    return this.reverseTable!;
  }

  /** Instance namespaces reachable from here. */
  namespaceDict(): Map<string, NamespaceEntry> {
    if (!this.namespaceTable) this.populate();
    return this.namespaceTable!;
  }

  /** Application namespaces and their instance namespaces. */
  appDict(): Map<string, string[]> {
    if (!this.appTable) this.populate();
    return this.appTable!;
  }

  /**
   * Build the URL (relative to this resolver, no leading `/`) for `key` with `args` or
   * `kwargs`, trying candidates in declaration order; `prefix` candidates come from the
   * namespaces walked to get here.
   */
  reverseWithPrefix(key: ReverseKey, prefix: ReverseCandidate[], args: unknown[], kwargs: Record<string, unknown>): string {
    if (args.length && Object.keys(kwargs).length) throw new Error("Don't mix *args and **kwargs in call to reverse()!");
    const possibilities = combine(prefix, this.reverseDict().get(key) ?? []);
    for (const candidate of possibilities) {
      const url = tryCandidate(candidate, args, kwargs);
      if (url !== null) return url;
    }
    const view = typeof key === 'function' ? key.name || 'view' : key;
    if (possibilities.length) {
      let argMessage = 'no arguments';
      if (args.length) argMessage = `arguments '${pyTuple(args)}'`;
      else if (Object.keys(kwargs).length) argMessage = `keyword arguments '${pyDict(kwargs)}'`;
      const patterns = `[${possibilities.map((p) => pyString(p.describe)).join(', ')}]`;
      throw new NoReverseMatch(`Reverse for '${view}' with ${argMessage} not found. ${possibilities.length} pattern(s) tried: ${patterns}`);
    }
    throw new NoReverseMatch(`Reverse for '${view}' not found. '${view}' is not a valid view function or pattern name.`);
  }
}

/** An element of `urlpatterns`. */
export type UrlPattern = URLPattern | URLResolver;

function candidatesOf(pattern: Pattern, defaults: Record<string, unknown>): ReverseCandidate[] {
  return pattern.templates().map((t) => ({
    parts: t.parts,
    params: t.params,
    converters: pattern.converters,
    defaults,
    source: t.source,
    describe: jsToPythonRegex(t.source),
  }));
}

function combine(prefixes: ReverseCandidate[], subs: ReverseCandidate[]): ReverseCandidate[] {
  if (!prefixes.length) return subs;
  const out: ReverseCandidate[] = [];
  for (const prefix of prefixes) {
    for (const sub of subs) {
      out.push({
        parts: [...prefix.parts, ...sub.parts],
        params: [...prefix.params, ...sub.params],
        converters: { ...prefix.converters, ...sub.converters },
        defaults: { ...prefix.defaults, ...sub.defaults },
        source: prefix.source + sub.source,
        describe: prefix.describe + sub.describe,
      });
    }
  }
  return out;
}

const compiledSources = new Map<string, RegExp>();

function candidateRegex(source: string): RegExp {
  let regex = compiledSources.get(source);
  if (!regex) {
    // Anchor the whole candidate; `$` inside (from prefixes) stays harmless at the end.
    regex = new RegExp(`^(?:${source})`);
    compiledSources.set(source, regex);
  }
  return regex;
}

const SAFE_CHARS: Record<string, string> = {
  '%21': '!', '%24': '$', '%26': '&', '%27': "'", '%28': '(', '%29': ')', '%2A': '*', '%2B': '+',
  '%2C': ',', '%3B': ';', '%3D': '=', '%2F': '/', '%7E': '~', '%3A': ':', '%40': '@',
};

function quoteUrl(text: string): string {
  return encodeURIComponent(text).replace(/%(21|24|26|27|28|29|2A|2B|2C|3B|3D|2F|7E|3A|40)/g, (m) => SAFE_CHARS[m]);
}

function tryCandidate(candidate: ReverseCandidate, args: unknown[], kwargs: Record<string, unknown>): string | null {
  let subs: Record<string, unknown>;
  if (args.length) {
    if (args.length !== candidate.params.length) return null;
    subs = {};
    candidate.params.forEach((param, index) => (subs[param] = args[index]));
  } else {
    const given = new Set(Object.keys(kwargs));
    const params = new Set(candidate.params);
    for (const key of given) if (!params.has(key) && !(key in candidate.defaults)) return null;
    for (const key of params) if (!given.has(key) && !(key in candidate.defaults)) return null;
    for (const [key, value] of Object.entries(candidate.defaults)) {
      if (key in kwargs && kwargs[key] !== value) return null;
    }
    subs = kwargs;
  }
  const text: Record<string, string> = {};
  for (const param of candidate.params) {
    const value = param in subs ? subs[param] : candidate.defaults[param];
    const converter = candidate.converters[param];
    try {
      text[param] = converter ? converter.toUrl(value) : String(value);
    } catch {
      return null;
    }
  }
  const url = candidate.parts.map((part) => (typeof part === 'string' ? part : text[part.param])).join('');
  const match = candidateRegex(candidate.source).exec(url);
  if (!match || match[0].length !== url.length) return null;
  const quoted = quoteUrl(url);
  return quoted;
}

function pyString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function pyValue(value: unknown): string {
  if (typeof value === 'string') return pyString(value);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

function pyTuple(values: unknown[]): string {
  return values.length === 1 ? `(${pyValue(values[0])},)` : `(${values.map(pyValue).join(', ')})`;
}

function pyDict(values: Record<string, unknown>): string {
  return `{${Object.entries(values).map(([k, v]) => `${pyString(k)}: ${pyValue(v)}`).join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------
// Declaring patterns
// ---------------------------------------------------------------------------------------------

/** Options of `path()` / `rePath()`. */
export interface PatternOptions {
  /** The URL name used by `reverse()`. */
  name?: string;
  /** Extra keyword arguments passed to the view. */
  kwargs?: Record<string, unknown>;
}

function isIncludeTarget(value: unknown): value is IncludeTarget {
  return typeof value === 'object' && value !== null && (value as IncludeTarget).kind === 'include';
}

function makePattern(pattern: Pattern, view: ViewFunction | IncludeTarget, options: PatternOptions): UrlPattern {
  if (isIncludeTarget(view)) {
    return new URLResolver(pattern, view.urlconf, options.kwargs ?? {}, view.appName, view.namespace);
  }
  if (typeof view !== 'function') {
    throw new TypeError('view must be a callable or a list/tuple in the case of include().');
  }
  return new URLPattern(pattern, view, options.kwargs ?? {}, options.name ?? null);
}

/** A route with `<converter:name>` parameters, bound to a view or an `include()`. */
export function path(route: string, view: ViewFunction | IncludeTarget, options: PatternOptions = {}): UrlPattern {
  return makePattern(new RoutePattern(route, !isIncludeTarget(view)), view, options);
}

/** A regular-expression route (named groups become kwargs, unnamed ones args). */
export function rePath(regex: string | RegExp, view: ViewFunction | IncludeTarget, options: PatternOptions = {}): UrlPattern {
  return makePattern(new RegexPattern(regex), view, options);
}

/**
 * Mount other patterns: a list, a module-like `{ urlpatterns, appName }` or a dotted module
 * path. The application namespace defaults to `namespace`.
 */
export function include(
  target: UrlPattern[] | UrlConfModule | string,
  options: { namespace?: string; appName?: string } = {},
): IncludeTarget {
  const urlconf: UrlConfModule | string = Array.isArray(target) ? { urlpatterns: target } : target;
  let moduleAppName: string | undefined;
  if (typeof urlconf !== 'string') moduleAppName = urlconf.appName ?? urlconf.app_name;
  else {
    const mod = importModule(urlconf) as Partial<UrlConfModule>;
    moduleAppName = mod.appName ?? mod.app_name;
  }
  const appName = options.appName ?? moduleAppName ?? options.namespace ?? null;
  const namespace = options.namespace ?? appName;
  return { kind: 'include', urlconf, appName, namespace };
}

// ---------------------------------------------------------------------------------------------
// The root resolver, resolve() and reverse()
// ---------------------------------------------------------------------------------------------

const resolvers = new Map<string, URLResolver>();
const objectResolvers = new WeakMap<UrlConfModule, URLResolver>();

onSettingChanged((key) => {
  if (key === 'ROOT_URLCONF') resolvers.clear();
});

/** Forget the cached resolvers (after URL confs were edited in place). */
export function clearUrlCaches(): void {
  resolvers.clear();
}

/** The root resolver for `urlconf` (default: `settings.ROOT_URLCONF`), built once. */
export function getResolver(urlconf?: string | UrlConfModule): URLResolver {
  const conf = urlconf ?? settings.ROOT_URLCONF;
  if (typeof conf !== 'string') {
    let resolver = objectResolvers.get(conf);
    if (!resolver) {
      resolver = new URLResolver(new RegexPattern('^/'), conf);
      objectResolvers.set(conf, resolver);
    }
    return resolver;
  }
  if (!conf) throw new ImproperlyConfigured('The ROOT_URLCONF setting is not set.');
  let resolver = resolvers.get(conf);
  if (!resolver) {
    resolver = new URLResolver(new RegexPattern('^/'), conf);
    resolvers.set(conf, resolver);
  }
  return resolver;
}

/** Find the view for `path` (e.g. `/snippets/1/`); throws `Resolver404`. */
export function resolve(pathname: string, urlconf?: string | UrlConfModule): ResolverMatch {
  const tried: string[][] = [];
  const match = getResolver(urlconf).resolve(pathname, tried);
  if (!match) throw new Resolver404(pathname, tried);
  return match;
}

/** Options of `reverse()`. */
export interface ReverseOptions {
  args?: unknown[];
  kwargs?: Record<string, unknown>;
  /** When given, the result is absolute (`http://host/path`) and its namespace is preferred. */
  request?: HttpRequest | null;
  /** The instance namespace to prefer for application namespaces. */
  currentApp?: string | null;
  urlconf?: string | UrlConfModule;
}

/**
 * The URL of a named pattern (`'snippet-detail'`, `'quickstart:user-list'`) or of a view
 * function. Throws `NoReverseMatch`.
 */
export function reverse(viewName: string | ViewFunction, options: ReverseOptions = {}): string {
  let resolver = getResolver(options.urlconf);
  const args = options.args ?? [];
  const kwargs = options.kwargs ?? {};
  let prefix: ReverseCandidate[] = [];
  let key: ReverseKey = viewName;
  if (typeof viewName === 'string') {
    const segments = viewName.split(':');
    key = segments.pop()!;
    const currentApp = options.currentApp ?? options.request?.resolverMatch?.namespace ?? null;
    let currentPath: string[] | null = currentApp ? currentApp.split(':').reverse() : null;
    const resolved: string[] = [];
    for (let ns of segments) {
      const currentNs = currentPath?.length ? currentPath.pop()! : null;
      const appList = resolver.appDict().get(ns);
      if (appList) {
        if (currentNs && appList.includes(currentNs)) ns = currentNs;
        else if (!appList.includes(ns)) ns = appList[0];
      }
      if (ns !== currentNs) currentPath = null;
      const entry = resolver.namespaceDict().get(ns);
      if (!entry) {
        if (resolved.length) throw new NoReverseMatch(`'${ns}' is not a registered namespace inside '${resolved.join(':')}'`);
        throw new NoReverseMatch(`'${ns}' is not a registered namespace`);
      }
      resolved.push(ns);
      prefix = combine(prefix, entry.prefix);
      resolver = entry.resolver;
    }
  }
  let url = `/${resolver.reverseWithPrefix(key, prefix, args, kwargs)}`;
  if (url.startsWith('//')) url = `/%2F${url.slice(2)}`;
  return options.request ? options.request.buildAbsoluteUri(url) : url;
}
