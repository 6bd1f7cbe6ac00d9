/**
 * ViewSets are essentially just a type of class based view that doesn't provide any method
 * handlers such as `get()`, `post()`... but instead has actions such as `list()`, `retrieve()`,
 * `create()`... The HTTP methods are bound to actions only when the view is built:
 *
 * @example
 * const view = SnippetViewSet.asView({ get: 'list', post: 'create' });
 * // or let a router do it: router.register('snippets', SnippetViewSet)
 *
 * Extra routes come from the `@action` decorator (or `defineAction()` without decorators):
 *
 * @example
 * class SnippetViewSet extends ModelViewSet<Snippet> {
 *   @action({ detail: true, rendererClasses: [StaticHTMLRenderer] })
 *   async highlight(request: Request) { const snippet = await this.getObject(); ... }
 *
 *   @actionMapping('highlight', 'delete')       // DELETE on the same URL
 *   async unhighlight(request: Request) { ... }
 * }
 */
import { NoReverseMatch, type ViewFunction } from './core/urls';
import type { Model } from 'sequelize-typescript';
import { GenericAPIView, type GenericSerializer } from './generics';
import {
  CreateModelMixin,
  DestroyModelMixin,
  ListModelMixin,
  RetrieveModelMixin,
  UpdateModelMixin,
} from './mixins';
import { reverse } from './reverse';
import { APIView, declareViewAttributes, HTTP_METHOD_NAMES, type HttpMethodName, type ViewOptions } from './views';

export type { HttpMethodName };

/** Options of `@action()` / `defineAction()`; other keys override view attributes for the action. */
export interface ActionOptions {
  /** Required: true for `/prefix/<pk>/path/` routes, false for `/prefix/path/`. */
  detail: boolean;
  /** HTTP methods answered (default `['get']`). */
  methods?: readonly string[];
  /** The URL segment (default: the method name). */
  urlPath?: string;
  /** The route name suffix: `<basename>-<urlName>` (default: the method name, dashed). */
  urlName?: string;
  /** The view name shown in the browsable API (default: the method name, prettified). */
  name?: string;
  /** A name suffix, exclusive with `name`. */
  suffix?: string;
  /** The view description shown in the browsable API. */
  description?: string | null;
  /** Any view attribute, such as `permissionClasses`, `rendererClasses`, `serializerClass`. */
  [policy: string]: unknown;
}

/**
 * Maps HTTP methods to viewset method names for one action. `mapping.delete('unhighlight')`
 * routes DELETE on the action's URL to the viewset's `unhighlight` method.
 */
export class MethodMapper {
  readonly #methods = new Map<string, string>();

  constructor(readonly actionName: string, methods: readonly string[]) {
    for (const method of methods) this.#methods.set(method.toLowerCase(), actionName);
  }

  #map(method: HttpMethodName, methodName: string): string {
    const existing = this.#methods.get(method);
    if (existing !== undefined) throw new Error(`Method '${method}' has already been mapped to '.${existing}'.`);
    if (methodName === this.actionName) {
      throw new Error(
        'Method mapping does not behave like the property decorator. You cannot use the same method name for each mapping declaration.',
      );
    }
    this.#methods.set(method, methodName);
    return methodName;
  }

  /** Route GET to `methodName`. */
  get(methodName: string): string {
    return this.#map('get', methodName);
  }

  /** Route POST to `methodName`. */
  post(methodName: string): string {
    return this.#map('post', methodName);
  }

  /** Route PUT to `methodName`. */
  put(methodName: string): string {
    return this.#map('put', methodName);
  }

  /** Route PATCH to `methodName`. */
  patch(methodName: string): string {
    return this.#map('patch', methodName);
  }

  /** Route DELETE to `methodName`. */
  delete(methodName: string): string {
    return this.#map('delete', methodName);
  }

  /** Route HEAD to `methodName`. */
  head(methodName: string): string {
    return this.#map('head', methodName);
  }

  /** Route OPTIONS to `methodName`. */
  options(methodName: string): string {
    return this.#map('options', methodName);
  }

  /** Route TRACE to `methodName`. */
  trace(methodName: string): string {
    return this.#map('trace', methodName);
  }

  /** The method -> viewset method name table. */
  toRecord(): Record<string, string> {
    return Object.fromEntries(this.#methods);
  }

  /** A copy (subclasses extend a copy, never their parent's table). */
  clone(): MethodMapper {
    const copy = new MethodMapper(this.actionName, []);
    for (const [method, name] of this.#methods) copy.#methods.set(method, name);
    return copy;
  }
}

/** A registered extra action, as routers and `getExtraActions()` see it. */
export interface ExtraAction {
  /** The viewset method name (`highlight`). */
  readonly name: string;
  readonly detail: boolean;
  readonly urlPath: string;
  readonly urlName: string;
  /** Method -> viewset method name; extend with `mapping.delete('other')`. */
  readonly mapping: MethodMapper;
  /** View attributes applied to the view instance when the action's route is built. */
  readonly kwargs: Readonly<Record<string, unknown>>;
}

interface ClassActions {
  actions: Map<string, ExtraAction>;
  mappings: Array<[actionName: string, method: HttpMethodName, methodName: string]>;
}

const registry = new WeakMap<object, ClassActions>();
let registryVersion = 0;
const resolved = new WeakMap<object, { version: number; actions: ExtraAction[] }>();

function ownActions(cls: object): ClassActions {
  let entry = registry.get(cls);
  if (!entry) {
    entry = { actions: new Map(), mappings: [] };
    registry.set(cls, entry);
  }
  return entry;
}

/** `highlight_code` or `highlightCode` -> `Highlight code` (the original's `pretty_name`). */
export function prettyName(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : '';
}

/**
 * Register `methodName` of `viewset` as a routable action: the non-decorator form of `@action`.
 * Returns the action so further methods can be mapped (`.mapping.delete('unhighlight')`).
 */
export function defineAction(viewset: abstract new (...args: never[]) => object, methodName: string, options: ActionOptions): ExtraAction {
  const { detail, methods, urlPath, urlName, ...kwargs } = options;
  if (detail === undefined || detail === null) throw new TypeError("@action() missing required argument: 'detail'");
  if ('name' in kwargs && 'suffix' in kwargs) throw new TypeError('`name` and `suffix` are mutually exclusive arguments.');
  if (!('name' in kwargs) && !('suffix' in kwargs)) kwargs.name = prettyName(methodName);
  kwargs.description = options.description ?? null;
  const action: ExtraAction = {
    name: methodName,
    detail,
    urlPath: urlPath || methodName,
    urlName: urlName || methodName.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/_/g, '-').toLowerCase(),
    mapping: new MethodMapper(methodName, (methods ?? ['get']).map((m) => m.toLowerCase())),
    kwargs,
  };
  ownActions(viewset).actions.set(methodName, action);
  registryVersion += 1;
  return action;
}

/**
 * Route another HTTP method of an existing action to `methodName` (the original's
 * `@highlight.mapping.delete`): the non-decorator form of `@actionMapping`.
 */
export function defineActionMapping(
  viewset: abstract new (...args: never[]) => object,
  actionName: string,
  method: HttpMethodName,
  methodName: string,
): void {
  if (!HTTP_METHOD_NAMES.includes(method)) throw new TypeError(`Unknown HTTP method '${method}'.`);
  ownActions(viewset).mappings.push([actionName, method, methodName]);
  registryVersion += 1;
}

type MethodDecorator = (target: object, propertyKey: string, descriptor?: PropertyDescriptor) => void;

/** Mark a viewset method as a routable action (sugar over `defineAction`). */
export function action(options: ActionOptions): MethodDecorator {
  if (options.detail === undefined || options.detail === null) throw new TypeError("@action() missing required argument: 'detail'");
  return (target, propertyKey) => {
    defineAction(target.constructor as abstract new (...args: never[]) => object, propertyKey, options);
  };
}

/** Route `method` of the action `actionName` to the decorated method (sugar over `defineActionMapping`). */
export function actionMapping(actionName: string, method: HttpMethodName): MethodDecorator {
  return (target, propertyKey) => {
    defineActionMapping(target.constructor as abstract new (...args: never[]) => object, actionName, method, propertyKey);
  };
}

/** The extra actions of a viewset class, inherited ones included (computed once per class). */
export function extraActionsOf(viewset: object): ExtraAction[] {
  const cached = resolved.get(viewset);
  if (cached && cached.version === registryVersion) return cached.actions;
  const chain: object[] = [];
  for (let cls: object | null = viewset; cls && cls !== Function.prototype; cls = Object.getPrototypeOf(cls) as object | null) {
    chain.unshift(cls);
  }
  const actions = new Map<string, ExtraAction>();
  for (const cls of chain) {
    const entry = registry.get(cls);
    if (!entry) continue;
    for (const [name, item] of entry.actions) actions.set(name, { ...item, mapping: item.mapping.clone() });
    for (const [actionName, method, methodName] of entry.mappings) {
      const item = actions.get(actionName);
      if (!item) throw new Error(`Cannot map '${method}' of '${actionName}': no @action named '${actionName}' is defined.`);
      item.mapping[method](methodName);
    }
  }
  const result = [...actions.values()];
  resolved.set(viewset, { version: registryVersion, actions: result });
  return result;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type APIViewConstructor = new (...args: any[]) => APIView;

/** What `ViewSetMixin` adds to a view instance. */
export interface ViewSetMixinMembers {
  /** The action of the current request (`list`, `retrieve`, `highlight`...; `metadata` for OPTIONS). */
  action: string | null;
  /** The method -> action table this view was built with. */
  actionMap: Record<string, string>;
  /** The router basename, used to reverse the viewset's own routes. */
  basename: string | null;
  /** The pattern a router gives the lookup value in detail URLs (default `[^/.]+`). */
  lookupValueRegex?: string;
  /** The URL of one of this viewset's routes: `reverseAction('highlight', { kwargs: { pk: 1 } })`. */
  reverseAction(urlName: string, options?: { args?: Array<string | number>; kwargs?: Record<string, unknown> }): string;
  /** View names mapped to URLs of the extra actions of the same kind (detail or list) as this route. */
  getExtraActionUrlMap(): Map<string, string>;
}

/** What `ViewSetMixin` adds to a view class (its static side). */
export interface ViewSetMixinStatics {
  /**
   * Build the view function for `actions` (`{ get: 'list', post: 'create' }`); `initkwargs`
   * are typed by the class's attributes.
   */
  asView<V extends APIView>(this: new () => V, actions?: Record<string, string> | null, initkwargs?: ViewOptions<V>): ViewFunction;
  /** The viewset's extra actions (methods registered with `@action` / `defineAction`). */
  getExtraActions(): ExtraAction[];
}

/**
 * The constructor `ViewSetMixin` returns. Written out (rather than inferred from the class
 * expression) so declaration files can name it: the base's protected members cannot appear in
 * an anonymous class type of a `.d.ts`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ViewSetMixinConstructor<TBase> = ViewSetMixinStatics & TBase & (new (...args: any[]) => ViewSetMixinMembers);

/** The original `ViewSetMixin.as_view()`'s words for a bad initkwarg, naming this API. */
function viewSetInitkwargMessage(className: string, key: string, kind: 'method' | 'unknown'): string {
  return kind === 'method'
    ? `You tried to pass in the ${key} method name as an option of ${className}.asView(). Don't do that.`
    : `${className}.asView() received an invalid option '${key}'`;
}

/**
 * This is the magic. Overrides `asView()` so that it takes the `actions` that bind HTTP
 * methods to the viewset's actions, e.g. `asView({ get: 'list', post: 'create' })`.
 */
export function ViewSetMixin<TBase extends APIViewConstructor>(Base: TBase): ViewSetMixinConstructor<TBase> {
  const viewSet = class ViewSetMixin extends Base {
    /** The action of the current request (`list`, `retrieve`, `highlight`...; `metadata` for OPTIONS). */
    action: string | null = null;
    /** The method -> action table this view was built with. */
    actionMap: Record<string, string> = {};
    /** The router basename, used to reverse the viewset's own routes. */
    basename: string | null = null;

    /**
     * Build the view function for `actions`; `initkwargs` set attributes of every instance
     * (the router passes `basename`, `detail`, `suffix` and the actions' overrides).
     */
    static asView(actions?: Record<string, string> | null, initkwargs: Record<string, unknown> = {}): ViewFunction {
      if (!actions || !Object.keys(actions).length) {
        throw new TypeError(
          "The `actions` argument must be provided when calling `.asView()` on a ViewSet. For example `.asView({ get: 'list' })`",
        );
      }
      APIView.checkInitkwargs(this, initkwargs, viewSetInitkwargMessage);
      if ('name' in initkwargs && 'suffix' in initkwargs) {
        throw new TypeError(`${this.name}() received both \`name\` and \`suffix\`, which are mutually exclusive arguments.`);
      }
      const actionMap: Record<string, string> = { ...actions };
      if ('get' in actionMap && !('head' in actionMap)) actionMap.head = actionMap.get;
      const className = this.name;
      const view = APIView.makeView(this, initkwargs, (self: ViewSetMixin) => {
        self.actionMap = actionMap;
        // Bind methods to actions: this is the bit that's different to a standard view.
        const methods = Object.keys(actionMap);
        for (let i = 0; i < methods.length; i++) {
          const method = methods[i];
          const actionName = actionMap[method];
          const handler: unknown = Reflect.get(self, actionName);
          if (typeof handler !== 'function') {
            throw new TypeError(`${className} has no action method '${actionName}' (mapped from ${method.toUpperCase()}).`);
          }
          // A strict-mode assignment, as Object.assign() makes it (no object per binding).
          (self as unknown as Record<string, unknown>)[method] = handler;
        }
      });
      view.actions = actionMap;
      return view;
    }

    /** Set `action` from the request method, then wrap the request as usual. */
    override initializeRequest(...args: Parameters<APIView['initializeRequest']>): ReturnType<APIView['initializeRequest']> {
      const request = super.initializeRequest(...args);
      const method = args[0].method.toLowerCase();
      // OPTIONS is always answered by the base view: its action is the implicit 'metadata'.
      this.action = method === 'options' ? 'metadata' : this.actionMap[method] ?? null;
      return request;
    }

    /** The URL of one of this viewset's routes: `reverseAction('highlight', { kwargs: { pk: 1 } })`. */
    reverseAction(urlName: string, options: { args?: Array<string | number>; kwargs?: Record<string, unknown> } = {}): string {
      let name = `${this.basename}-${urlName}`;
      const namespace = this.request?.httpRequest.resolverMatch?.namespace;
      if (namespace) name = `${namespace}:${name}`;
      return reverse(name, { ...options, request: this.request ?? null });
    }

    /** The viewset's extra actions (methods registered with `@action` / `defineAction`). */
    static getExtraActions(): ExtraAction[] {
      return extraActionsOf(this);
    }

    /**
     * A map of view names to URLs of the extra actions of the same kind (detail or list) as
     * this route; empty when `detail` was not given (outside a router).
     */
    getExtraActionUrlMap(): Map<string, string> {
      const urls = new Map<string, string>();
      if (this.detail === undefined || this.detail === null) return urls;
      const cls = this.constructor as new () => ViewSetMixin;
      for (const extra of extraActionsOf(cls)) {
        if (extra.detail !== this.detail) continue;
        let name = `${this.basename}-${extra.urlName}`;
        const namespace = this.request?.httpRequest.resolverMatch?.namespace;
        if (namespace) name = `${namespace}:${name}`;
        try {
          const url = reverse(name, { args: this.args, kwargs: this.kwargs, request: this.request });
          const view = new cls();
          Object.assign(view, extra.kwargs);
          urls.set(view.getViewName(), url);
        } catch (error) {
          // The URL needs more arguments than this request has: leave it out.
          if (!(error instanceof NoReverseMatch)) throw error;
        }
      }
      return urls;
    }
  };
  declareViewAttributes(viewSet, ['lookupValueRegex']);
  return viewSet;
}

// Each mixin application is its own constant: TypeScript keeps `GenericAPIView`'s type
// parameters through one mixin call at a time, so the view sets can pass `M` and `S` on. The
// interface merged with `ModelViewSet` types the mixins' hooks by `M` and `S`.

const ViewSetBase = ViewSetMixin(APIView);
const GenericViewSetBase = ViewSetMixin(GenericAPIView);

/** The base ViewSet class: no actions by default. */
export class ViewSet extends ViewSetBase {}

/**
 * The GenericViewSet class does not provide any actions by default, but includes the base set
 * of generic view behaviour, such as `getObject()` and `getQueryset()`.
 */
export class GenericViewSet<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends GenericViewSetBase<M, S> {}

const ListViewSetBase = ListModelMixin(GenericViewSet);
const ReadOnlyModelViewSetBase = RetrieveModelMixin(ListViewSetBase);
const DestroyListViewSetBase = DestroyModelMixin(ListViewSetBase);
const UpdateDestroyListViewSetBase = UpdateModelMixin(DestroyListViewSetBase);
const RetrieveUpdateDestroyListViewSetBase = RetrieveModelMixin(UpdateDestroyListViewSetBase);
const ModelViewSetBase = CreateModelMixin(RetrieveUpdateDestroyListViewSetBase);

/** A viewset that provides default `list()` and `retrieve()` actions. */
export class ReadOnlyModelViewSet<M extends Model = Model, S extends GenericSerializer = GenericSerializer>
  extends ReadOnlyModelViewSetBase<M, S> {}

/**
 * A viewset that provides default `create()`, `retrieve()`, `update()`, `partialUpdate()`,
 * `destroy()` and `list()` actions.
 */
export class ModelViewSet<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends ModelViewSetBase<M, S> {}
export interface ModelViewSet<M extends Model = Model, S extends GenericSerializer = GenericSerializer> {
  /** Save the new instance; override to add values from the request (e.g. the owner). */
  performCreate(serializer: S): Promise<void>;
  /** Save the updated instance; override to add values from the request. */
  performUpdate(serializer: S): Promise<void>;
  /** Delete the instance; override for soft deletes or side effects. */
  performDestroy(instance: M): Promise<void>;
}
