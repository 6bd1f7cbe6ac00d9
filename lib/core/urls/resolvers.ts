/**
 * Resolvers: `URLPattern` (a pattern bound to a view), `URLResolver` (patterns mounted under a
 * prefix, with the reverse tables built on first use), the `ResolverMatch` they produce, and
 * the root resolver of a URL conf with `resolve()`.
 */
import { settings, onSettingChanged, ImproperlyConfigured } from '../conf';
import { importModule } from '../modules';
import { buildUrl, candidatesOf, combineCandidates, noReverseMatchMessage, type ReverseCandidate } from './candidates';
import { NoReverseMatch, Resolver404 } from './exceptions';
import { isBuiltinConverter } from './converters';
import { RegexPattern, RoutePattern, type Pattern } from './patterns';
import { clearResolveMemo, memoisedMatch, memoriseMatch } from './resolveMemo';
import { clearReverseMemo } from './reverseMemo';
import type { ErrorHandler, UrlConfModule, ViewFunction } from './types';

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
    const view = urlName ?? (func.name || 'view');
    if (appNames.length === 0 && namespaces.length === 0) {
      // A pattern outside any namespace (most of them): nothing to join.
      this.appName = '';
      this.namespace = '';
      this.viewName = view;
    } else {
      this.appName = appNames.filter(Boolean).join(':');
      this.namespace = namespaces.filter(Boolean).join(':');
      this.viewName = [...namespaces.filter(Boolean), view].join(':');
    }
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

  /** The pattern as the original's repr shows it, for debugging. */
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

/** What `reverse()` looks up: a URL name or a view function. */
export type ReverseKey = string | ViewFunction;

/** An instance namespace: the candidates leading to it and its resolver. */
export interface NamespaceEntry {
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
          for (const candidate of combineCandidates(own, subs)) add(key, candidate);
        }
        for (const [ns, entry] of pattern.namespaceDict()) {
          if (!namespaces.has(ns)) namespaces.set(ns, { prefix: combineCandidates(own, entry.prefix), resolver: entry.resolver });
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
    if (args.length && Object.keys(kwargs).length) throw new Error("Don't mix `args` and `kwargs` in call to reverse()!");
    const possibilities = combineCandidates(prefix, this.reverseDict().get(key) ?? []);
    for (const candidate of possibilities) {
      const url = buildUrl(candidate, args, kwargs);
      if (url !== null) return url;
    }
    const view = typeof key === 'function' ? key.name || 'view' : key;
    throw new NoReverseMatch(noReverseMatchMessage(view, args, kwargs, possibilities));
  }
}

/** An element of `urlpatterns`. */
export type UrlPattern = URLPattern | URLResolver;

// ---------------------------------------------------------------------------------------------
// The root resolver and resolve()
// ---------------------------------------------------------------------------------------------

const resolvers = new Map<string, URLResolver>();
const objectResolvers = new WeakMap<UrlConfModule, URLResolver>();

onSettingChanged((key) => {
  if (key === 'ROOT_URLCONF') resolvers.clear();
});

/** Forget the cached resolvers and memoised resolutions and reverses (after URL confs were edited in place). */
export function clearUrlCaches(): void {
  resolvers.clear();
  plainConfs = new WeakMap();
  clearResolveMemo();
  clearReverseMemo();
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

/** Per root resolver: whether its URL conf is the framework's patterns and converters only. */
let plainConfs = new WeakMap<URLResolver, boolean>();

onSettingChanged(() => {
  plainConfs = new WeakMap();
});

/** A `RoutePattern` with the framework's converters only, or a `RegexPattern` (not subclasses). */
function isPlainPattern(pattern: Pattern): boolean {
  const proto: unknown = Object.getPrototypeOf(pattern);
  if (proto !== RoutePattern.prototype && proto !== RegexPattern.prototype) return false;
  for (const name in pattern.converters) if (!isBuiltinConverter(pattern.converters[name])) return false;
  return true;
}

/**
 * True when every pattern reachable from `resolver` is a plain `URLPattern`/`URLResolver` with a
 * plain pattern: then a path resolves the same way every time and its match may be memoised.
 * An include that fails to load counts as not plain (resolving reports the error as before).
 */
function isPlainConf(resolver: URLResolver): boolean {
  if (Object.getPrototypeOf(resolver) !== URLResolver.prototype || !isPlainPattern(resolver.pattern)) return false;
  let patterns: UrlPattern[];
  try {
    patterns = resolver.urlPatterns;
  } catch {
    return false;
  }
  for (const pattern of patterns) {
    if (pattern instanceof URLResolver) {
      if (!isPlainConf(pattern)) return false;
    } else if (Object.getPrototypeOf(pattern) !== URLPattern.prototype || !isPlainPattern(pattern.pattern)) {
      return false;
    }
  }
  return true;
}

function memoisable(resolver: URLResolver): boolean {
  let plain = plainConfs.get(resolver);
  if (plain === undefined) {
    plain = isPlainConf(resolver);
    plainConfs.set(resolver, plain);
  }
  return plain;
}

/** A copy of a memoised match with its own `args` and `kwargs`. */
function copyMatch(match: ResolverMatch): ResolverMatch {
  return new ResolverMatch(
    match.func, match.args.slice(), { ...match.kwargs }, match.urlName, match.appNames, match.namespaces, match.route, match.tried,
  );
}

/**
 * Find the view for `path` (e.g. `/snippets/1/`); throws `Resolver404`. A path resolved before
 * is answered from the memo (`resolveMemo.ts`) when the URL conf allows it.
 */
export function resolve(pathname: string, urlconf?: string | UrlConfModule): ResolverMatch {
  const resolver = getResolver(urlconf);
  const known = memoisedMatch(resolver, pathname);
  if (known !== undefined) return copyMatch(known);
  const tried: string[][] = [];
  const match = resolver.resolve(pathname, tried);
  if (!match) throw new Resolver404(pathname, tried);
  if (memoisable(resolver)) {
    memoriseMatch(resolver, pathname, new ResolverMatch(
      match.func, match.args.slice(), { ...match.kwargs }, match.urlName, match.appNames.slice(), match.namespaces.slice(), match.route, match.tried.slice(),
    ));
  }
  return match;
}
