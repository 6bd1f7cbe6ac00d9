/**
 * Routers provide a convenient and consistent way of automatically determining the URL conf
 * for your API. They are used by simply instantiating a Router class, and then registering all
 * the required ViewSets with that router.
 *
 * @example
 * const router = new DefaultRouter();
 * router.register('users', UserViewSet, { basename: 'user' });
 * router.register('snippets', SnippetViewSet);
 * export const urlpatterns = router.urls;
 */
import { ImproperlyConfigured } from './core/conf';
import { NoReverseMatch, rePath, type UrlPattern, type ViewFunction } from './core/urls';
import type { Request } from './request';
import { Response } from './response';
import { reverse } from './reverse';
import { formatSuffixPatterns } from './urlpatterns';
import { APIView, type Kwargs } from './views';
import { extraActionsOf, type ExtraAction } from './viewsets';

/** A fixed route: the URL template, its method -> action table, its name template. */
export interface Route {
  readonly kind: 'route';
  readonly url: string;
  readonly mapping: Readonly<Record<string, string>>;
  readonly name: string;
  readonly detail: boolean;
  readonly initkwargs: Readonly<Record<string, unknown>>;
}

/** A placeholder expanded into one route per extra action (`@action`) of the viewset. */
export interface DynamicRoute {
  readonly kind: 'dynamic';
  readonly url: string;
  readonly name: string;
  readonly detail: boolean;
  readonly initkwargs: Readonly<Record<string, unknown>>;
}

/** A viewset class as routers see it. */
export interface RoutableViewSet {
  /** A probe instance: routers read its `queryset` and lookup attributes. */
  new (): object;
  readonly name: string;
  readonly prototype: object;
  asView(actions: Record<string, string>, initkwargs?: Record<string, unknown>): ViewFunction;
}

/** A string attribute of a viewset instance, or undefined when it is not a string. */
function stringAttribute(probe: object, name: string): string | undefined {
  const value: unknown = Reflect.get(probe, name);
  return typeof value === 'string' ? value : undefined;
}

/** One registration: `register(prefix, viewset, { basename })`. */
export interface Registration {
  readonly prefix: string;
  readonly viewset: RoutableViewSet;
  readonly basename: string;
}

/** Build a fixed route record. */
export function route(url: string, mapping: Record<string, string>, name: string, detail: boolean, initkwargs: Record<string, unknown> = {}): Route {
  return { kind: 'route', url, mapping, name, detail, initkwargs };
}

/** Build a dynamic route record. */
export function dynamicRoute(url: string, name: string, detail: boolean, initkwargs: Record<string, unknown> = {}): DynamicRoute {
  return { kind: 'dynamic', url, name, detail, initkwargs };
}

function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => (key in values ? values[key] : match));
}

function protoAttribute(viewset: RoutableViewSet, key: string): unknown {
  const probe = viewset.prototype as Record<string, unknown>;
  if (key in probe) return probe[key];
  return undefined;
}

/** The base of routers: a registry of viewsets and the cached `urls`. */
export abstract class BaseRouter {
  readonly registry: Registration[] = [];
  #urls: UrlPattern[] | null = null;

  /**
   * Register a viewset under a URL prefix. `basename` names the routes
   * (`<basename>-list`); by default it comes from the viewset's queryset model.
   */
  register(prefix: string, viewset: RoutableViewSet, options: { basename?: string } = {}): void {
    const basename = options.basename ?? this.getDefaultBasename(viewset);
    if (this.isAlreadyRegistered(basename)) {
      throw new ImproperlyConfigured(
        `Router with basename "${basename}" is already registered. Please provide a unique basename for viewset "${viewset.name}"`,
      );
    }
    this.registry.push({ prefix, viewset, basename });
    // Invalidate the urls cache.
    this.#urls = null;
  }

  /** True when a registration already uses `basename`. */
  isAlreadyRegistered(basename: string): boolean {
    return this.registry.some((entry) => entry.basename === basename);
  }

  /** The basename to use when `register()` is given none. */
  abstract getDefaultBasename(viewset: RoutableViewSet): string;

  /** The URL patterns of every registered viewset. */
  abstract getUrls(): UrlPattern[];

  /** The URL patterns (built once, rebuilt after a new registration). */
  get urls(): UrlPattern[] {
    if (this.#urls === null) this.#urls = this.getUrls();
    return this.#urls;
  }
}

/** Options of `SimpleRouter` / `DefaultRouter`. */
export interface RouterOptions {
  /** Add a trailing slash to every route (default true); a string sets the trailing pattern (e.g. `/?`). */
  trailingSlash?: boolean | string;
}

/**
 * The router of list, detail and extra-action routes:
 * `^prefix/$`, `^prefix/url_path/$`, `^prefix/<lookup>/$`, `^prefix/<lookup>/url_path/$`.
 */
export class SimpleRouter extends BaseRouter {
  routes: ReadonlyArray<Route | DynamicRoute> = [
    // List route.
    route('^{prefix}{trailing_slash}$', { get: 'list', post: 'create' }, '{basename}-list', false, { suffix: 'List' }),
    // Dynamically generated list routes, from @action({ detail: false }).
    dynamicRoute('^{prefix}/{url_path}{trailing_slash}$', '{basename}-{url_name}', false),
    // Detail route.
    route(
      '^{prefix}/{lookup}{trailing_slash}$',
      { get: 'retrieve', put: 'update', patch: 'partialUpdate', delete: 'destroy' },
      '{basename}-detail',
      true,
      { suffix: 'Instance' },
    ),
    // Dynamically generated detail routes, from @action({ detail: true }).
    dynamicRoute('^{prefix}/{lookup}/{url_path}{trailing_slash}$', '{basename}-{url_name}', true),
  ];

  /** The trailing part of every route: `/`, `` or a custom pattern. */
  readonly trailingSlash: string;

  constructor(options: RouterOptions = {}) {
    super();
    const trailing = options.trailingSlash ?? true;
    this.trailingSlash = typeof trailing === 'string' ? trailing : trailing ? '/' : '';
  }

  /** The basename from the viewset's queryset model (`Snippet` -> `snippet`). */
  getDefaultBasename(viewset: RoutableViewSet): string {
    const probe = new viewset();
    const queryset: unknown = 'queryset' in probe ? probe.queryset : undefined;
    const model = (queryset as { model?: { name?: string } } | null | undefined)?.model;
    if (!queryset || !model?.name) {
      throw new ImproperlyConfigured(
        '`basename` argument not specified, and could not automatically determine the name from the viewset, ' +
          'as it does not have a `.queryset` attribute.',
      );
    }
    return model.name.toLowerCase();
  }

  /** The routes of `viewset`: `routes` with the dynamic ones expanded for its extra actions. */
  getRoutes(viewset: RoutableViewSet): Route[] {
    const knownActions = new Set(
      this.routes.flatMap((item) => (item.kind === 'route' ? Object.values(item.mapping) : [])),
    );
    const extraActions = extraActionsOf(viewset);
    const notAllowed = extraActions.filter((item) => knownActions.has(item.name)).map((item) => item.name);
    if (notAllowed.length) {
      throw new ImproperlyConfigured(
        `Cannot use the @action decorator on the following methods, as they are existing routes: ${notAllowed.join(', ')}`,
      );
    }
    const result: Route[] = [];
    for (const item of this.routes) {
      if (item.kind === 'dynamic') {
        for (const extra of extraActions) if (extra.detail === item.detail) result.push(this.getDynamicRoute(item, extra));
      } else {
        result.push(item);
      }
    }
    return result;
  }

  /** Expand a dynamic route for one extra action. */
  protected getDynamicRoute(item: DynamicRoute, extra: ExtraAction): Route {
    return route(
      item.url.replace('{url_path}', () => extra.urlPath),
      extra.mapping.toRecord(),
      item.name.replace('{url_name}', extra.urlName),
      item.detail,
      { ...item.initkwargs, ...extra.kwargs },
    );
  }

  /** Keep only the mappings whose action the viewset implements. */
  getMethodMap(viewset: RoutableViewSet, methodMap: Readonly<Record<string, string>>): Record<string, string> {
    const bound: Record<string, string> = {};
    for (const [method, actionName] of Object.entries(methodMap)) {
      if (typeof protoAttribute(viewset, actionName) === 'function') bound[method] = actionName;
    }
    return bound;
  }

  /**
   * The part of the URL regex matching one instance: `(?P<pk>[^/.]+)` by default, from the
   * viewset's `lookupField`, `lookupUrlKwarg` and `lookupValueRegex`. The default value
   * regex stops at `/` and `.`, so format suffixes (`.json`) still work.
   */
  getLookupRegex(viewset: RoutableViewSet, lookupPrefix = ''): string {
    const probe = new viewset();
    const lookupField = stringAttribute(probe, 'lookupField') ?? 'pk';
    const lookupUrlKwarg = stringAttribute(probe, 'lookupUrlKwarg') || lookupField;
    const lookupValue = stringAttribute(probe, 'lookupValueRegex') ?? '[^/.]+';
    return `(?P<${lookupPrefix}${lookupUrlKwarg}>${lookupValue})`;
  }

  /** The URL patterns of every registered viewset. */
  getUrls(): UrlPattern[] {
    const result: UrlPattern[] = [];
    for (const { prefix, viewset, basename } of this.registry) {
      const lookup = this.getLookupRegex(viewset);
      for (const item of this.getRoutes(viewset)) {
        // Only actions which actually exist on the viewset are bound.
        const mapping = this.getMethodMap(viewset, item.mapping);
        if (!Object.keys(mapping).length) continue;
        let regex = fillTemplate(item.url, { prefix, lookup, trailing_slash: this.trailingSlash });
        // Without a prefix the router is probably mounted by an include(): no leading slash.
        if (!prefix && regex.startsWith('^/')) regex = `^${regex.slice(2)}`;
        const initkwargs = { ...item.initkwargs, basename, detail: item.detail };
        const view = viewset.asView(mapping, initkwargs);
        result.push(rePath(regex, view, { name: item.name.replace('{basename}', basename) }));
      }
    }
    return result;
  }
}

/**
 * The default basic root view for DefaultRouter: a `{"prefix": "absolute url"}` object of
 * every list route, reversed in the namespace the router was included under.
 */
export class APIRootView extends APIView {
  /** The API root is not part of generated schemas (as in the original). */
  override schema = null;
  /** Model permissions do not apply to the root view. */
  ignoreModelPermissions = true;
  /** prefix -> list route name. */
  apiRootDict: Record<string, string> = {};

  /** GET: the list routes as absolute URLs. */
  async get(request: Request, kwargs: Kwargs, ...args: string[]): Promise<Response> {
    const result: Record<string, string> = {};
    const namespace = request.httpRequest.resolverMatch?.namespace;
    const dict = this.apiRootDict;
    const keys = Object.keys(dict);
    const format = typeof kwargs.format === 'string' ? kwargs.format : null;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const urlName = dict[key];
      const name = namespace ? `${namespace}:${urlName}` : urlName;
      try {
        result[key] = reverse(name, { args, kwargs, request, format });
      } catch (error) {
        // Don't bail out if eg. no list routes exist, only detail routes.
        if (!(error instanceof NoReverseMatch)) throw error;
      }
    }
    return new Response(result);
  }
}

/** Options of `DefaultRouter`. */
export interface DefaultRouterOptions extends RouterOptions {
  /** Renderers of the API root view (default: `DEFAULT_RENDERER_CLASSES`). */
  rootRenderers?: APIView['rendererClasses'];
}

/**
 * The default router extends SimpleRouter with a default API root view and `.json`-style
 * format suffix patterns.
 */
export class DefaultRouter extends SimpleRouter {
  includeRootView = true;
  includeFormatSuffixes = true;
  rootViewName = 'api-root';
  /** The root view class; override to customise the root. */
  APIRootView: typeof APIRootView = APIRootView;
  readonly rootRenderers: APIView['rendererClasses'] | undefined;

  constructor(options: DefaultRouterOptions = {}) {
    super(options);
    this.rootRenderers = options.rootRenderers;
  }

  /** The root view function listing every registered prefix. */
  getApiRootView(_apiUrls?: UrlPattern[]): ViewFunction {
    const listName = this.routes[0].name;
    const apiRootDict: Record<string, string> = {};
    for (const { prefix, basename } of this.registry) apiRootDict[prefix] = listName.replace('{basename}', basename);
    const initkwargs: Record<string, unknown> = { apiRootDict };
    // Without explicit root renderers the view reads DEFAULT_RENDERER_CLASSES per request.
    if (this.rootRenderers) initkwargs.rendererClasses = this.rootRenderers;
    return this.APIRootView.asView(initkwargs);
  }

  /** The viewset routes, plus the root view and format suffix patterns. */
  override getUrls(): UrlPattern[] {
    let urls = super.getUrls();
    if (this.includeRootView) urls.push(rePath('^$', this.getApiRootView(urls), { name: this.rootViewName }));
    if (this.includeFormatSuffixes) urls = formatSuffixPatterns(urls);
    return urls;
  }
}
