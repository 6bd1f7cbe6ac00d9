/**
 * Generic views: `GenericAPIView` adds querysets, serializers, object lookup, filtering and
 * pagination to `APIView`, and the concrete classes below combine it with the model mixins.
 * Each takes the model type `M` (and optionally the serializer type `S`), so `getObject()`
 * resolves to an `M`, `getQueryset()` is a `QuerySet<M>` and `performDestroy()` receives an
 * `M`; without them a view works on `Model` and any serializer, as before.
 *
 * @example
 * class SnippetList extends ListCreateAPIView<Snippet> {
 *   override queryset = Snippet.objects.all();
 *   override serializerClass = SnippetSerializer;
 * }
 */
import assert from 'node:assert';
import { NotFound } from './exceptions';
import { ObjectDoesNotExist, ValueError } from './core/db/errors';
import type { Model } from 'sequelize-typescript';
import type { Q, Lookups } from './core/db/q';
import type { AnyModelClass } from './core/db/fieldInfo';
import { QuerySet } from './core/db/queryset';
import type { FilterView } from './filters';
import type { BasePagination, Paginatable } from './pagination';
import type { Request } from './request';
import type { Response } from './response';
import { apiSettings } from './settings';
import { APIView, declareViewAttributes, objectPermissionsChecking } from './views';
import { representationColumns, representationJoins } from './utils/representationJoins';
import { deferredReadCount } from './core/db/deferredAttributes';
import './checks';
import {
  CreateModelMixin,
  DestroyModelMixin,
  ListModelMixin,
  RetrieveModelMixin,
  UpdateModelMixin,
} from './mixins';

/** What generic views need of a queryset. `QuerySet<M>` satisfies it. */
export interface GenericQuerySet<M> {
  readonly model: AnyModelClass;
  all(): GenericQuerySet<M>;
  filter(lookups: Lookups | Q): GenericQuerySet<M>;
  get(lookups?: Lookups | Q): Promise<M>;
  count(): Promise<number>;
  slice(start: number, end?: number): GenericQuerySet<M>;
  fetch(): Promise<M[]>;
  orderBy(...fields: string[]): GenericQuerySet<M>;
}

/** Options a generic view passes when it builds a serializer. */
export interface SerializerOptions {
  instance?: unknown;
  data?: unknown;
  many?: boolean;
  partial?: boolean;
  context?: Record<string, unknown>;
}

/** The options of `getSerializer(instance, options)`: all but the instance. */
export type InstanceSerializerOptions = Omit<SerializerOptions, 'instance'>;

/** The options of `getSerializer(instances, { many: true })`. */
export type ManySerializerOptions = InstanceSerializerOptions & { many: true };

/** What generic views and mixins need of a serializer instance. */
export interface GenericSerializer {
  isValid(options?: { raiseException?: boolean }): Promise<boolean>;
  save(extra?: Record<string, unknown>): Promise<unknown>;
  getData(): Promise<unknown>;
  readonly instance?: unknown;
}

/** A serializer class, as `serializerClass` holds it: its instances are `S`. */
export type GenericSerializerClass<S extends GenericSerializer = GenericSerializer> = new (options: SerializerOptions) => S;

/** A filter backend, as `filterBackends` lists it (see lib/filters.ts): it narrows any queryset to its own type. */
export interface GenericFilterBackend {
  filterQueryset<QS extends GenericQuerySet<unknown>>(request: GenericAPIView['request'], queryset: QS, view: FilterView): QS | Promise<QS>;
}

/** A filter backend class. */
export type GenericFilterBackendClass = new () => object;

/** A pagination class. */
export type PaginationClass = new () => BasePagination;

/** The `orderingFields` a view allows (`OrderingFilter`): names, `[name, label]` pairs or `'__all__'`. */
export type OrderingFields = NonNullable<FilterView['orderingFields']>;

function isFilterBackend(value: object): value is GenericFilterBackend {
  return typeof (value as { filterQueryset?: unknown }).filterQueryset === 'function';
}

/**
 * Fetch the object matching `lookups` or raise `NotFound`; a lookup value of the wrong type
 * (`/snippets/abc/` for an integer pk) is a 404 too, not a 500.
 */
export function getObjectOr404<M>(queryset: GenericQuerySet<M>, lookups: Lookups): Promise<M> {
  // Not `async`: the lookup's promise and one reaction for its errors.
  try {
    return queryset.get(lookups).then(undefined, notFoundFor);
  } catch (error) {
    return notFoundFor(error);
  }
}

/** A failed lookup as `getObjectOr404()` reports it: a missing object or a malformed value is `NotFound`. */
function notFoundFor(error: unknown): never {
  if (error instanceof ObjectDoesNotExist || error instanceof ValueError || error instanceof TypeError) {
    throw new NotFound();
  }
  if (error instanceof Error && error.name === 'ValidationError') throw new NotFound();
  throw error;
}

/**
 * `queryset` through `backends` from `from` on (what `filterQueryset()` does): at once while
 * every backend answers at once, else a promise.
 */
function filterThroughBackends<M extends Model>(view: GenericAPIView<M>, queryset: QuerySet<M>, backends: readonly GenericFilterBackendClass[], from: number): QuerySet<M> | Promise<QuerySet<M>> {
  let result = queryset;
  for (let index = from; index < backends.length; index++) {
    const backendClass = backends[index];
    const backend = new backendClass();
    if (!isFilterBackend(backend)) {
      throw new TypeError(`${backendClass.name} is not a filter backend: it has no filterQueryset() method.`);
    }
    const answer: QuerySet<M> | Promise<QuerySet<M>> = backend.filterQueryset(view.request, result, view);
    if (answer instanceof QuerySet) result = answer;
    else return Promise.resolve(answer).then((filtered) => filterThroughBackends(view, filtered, backends, index + 1));
  }
  return result;
}

/**
 * `view.filterQueryset(queryset)`, without a promise while it is the library's and every
 * backend answers at once (the generic views' own lookups and lists call this).
 */
export function filteredQueryset<M extends Model>(view: GenericAPIView<M>, queryset: QuerySet<M>): QuerySet<M> | Promise<QuerySet<M>> {
  if (view.filterQueryset !== GenericAPIView.prototype.filterQueryset) return view.filterQueryset(queryset);
  return filterThroughBackends(view, queryset, view.getFilterBackends(), 0);
}

/** A single argument of `getSerializer()` is its options when it is a plain object, else the instance. */
function isOptionsObject(value: unknown): value is SerializerOptions {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Base class for all other generic views. `M` is the model the view works on (`getObject()`
 * resolves to one), `S` the serializer type `getSerializer()` builds.
 */
export class GenericAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends APIView {
  // You'll need to either set these attributes, or override `getQueryset()` / `getSerializerClass()`.
  // A queryset is immutable and lazy: `getQueryset()` hands each request a fresh `.all()` of it.
  queryset?: QuerySet<M> | null = undefined;
  serializerClass?: GenericSerializerClass<S> | null = undefined;

  /** The model field used for object lookup (`pk` by default). */
  lookupField = 'pk';
  /** The URL keyword argument holding the lookup value; defaults to `lookupField`. */
  lookupUrlKwarg: string | null = null;

  /** The filter backend classes; `undefined` means `DEFAULT_FILTER_BACKENDS`. */
  filterBackends?: GenericFilterBackendClass[] | null = undefined;
  /** The pagination class; `undefined` means `DEFAULT_PAGINATION_CLASS`, `null` turns it off. */
  paginationClass?: PaginationClass | null = undefined;

  // What the filter backends read, typed as they read it (`FilterView`, lib/filters.ts); unset
  // until a subclass sets them.
  /** `SearchFilter`'s fields: `['title', '=language', 'owner__username']` (`^` starts-with, `=` exact, `@` full text, `$` regex). */
  searchFields?: FilterView['searchFields'];
  /** `OrderingFilter`'s allowed orderings; unset means the serializer's readable model fields. */
  orderingFields?: FilterView['orderingFields'];
  /** The default ordering applied by `OrderingFilter` when the request names none. */
  ordering?: FilterView['ordering'];
  /** `FieldFilterBackend`'s fields: `['language', 'owner__username']` (`?language=python`). */
  filtersetFields?: FilterView['filtersetFields'];

  #paginator: BasePagination | null | undefined = undefined;

  /**
   * The list of items for this view: by default a fresh copy of `queryset` for every request.
   * Override it to depend on the request (e.g. only the user's own objects).
   */
  getQueryset(): QuerySet<M> {
    // The message is built only when the check fails (this runs on every request).
    if (this.queryset === null || this.queryset === undefined) {
      assert.fail(`'${this.constructor.name}' should either include a \`queryset\` attribute, or override the \`getQueryset()\` method.`);
    }
    return this.queryset.all();
  }

  /**
   * The object the view displays: looked up by `lookupField` in the filtered queryset, with
   * the object permissions checked. Override for lookups on several fields. For `retrieve()`,
   * the to-one relations the serializer reads (`owner.username`) are joined into the same
   * SELECT (`selectRelated()`; see lib/utils/representationJoins.ts), and when the serializer
   * reads plain columns only, only those columns are loaded: the object permissions are checked
   * on that object, and should they read any other attribute, on the whole object looked up
   * again (lib/core/db/deferredAttributes.ts).
   */
  async getObject(): Promise<M> {
    const filtered = filteredQueryset(this, this.getQueryset());
    let queryset = filtered instanceof Promise ? await filtered : filtered;
    let whole: QuerySet<M> | null = null;
    if (queryset instanceof QuerySet) {
      const joins = representationJoins(this, queryset.model);
      if (joins.length) queryset = queryset.selectRelated(...joins);
      // Only this method's own lookup, for the library's serializer building: no other code
      // of the view sees the object before the serializer.
      const columns = representationColumns(this, queryset.model);
      if (columns && this.getObject === GenericAPIView.prototype.getObject && this.getSerializer === GenericAPIView.prototype.getSerializer) {
        whole = queryset as QuerySet<M>;
        queryset = queryset.deferExcept(columns);
      }
    }
    const lookupUrlKwarg = this.lookupUrlKwarg || this.lookupField;
    // The message is built only when the check fails (this runs on every request).
    if (!(lookupUrlKwarg in this.kwargs)) {
      assert.fail(
        `Expected view ${this.constructor.name} to be called with a URL keyword argument named "${lookupUrlKwarg}". ` +
          'Fix your URL conf, or set the `.lookupField` attribute on the view correctly.',
      );
    }
    const lookups = { [this.lookupField]: this.kwargs[lookupUrlKwarg] };
    const obj = await getObjectOr404(queryset, lookups);
    if (whole === null) {
      // May raise a permission denied
      const checking = objectPermissionsChecking(this, this.request, obj);
      if (checking) await checking;
      return obj;
    }
    const readsBefore = deferredReadCount();
    try {
      const checking = objectPermissionsChecking(this, this.request, obj);
      if (checking) await checking;
    } catch (error) {
      if (deferredReadCount() === readsBefore) throw error;
    }
    if (deferredReadCount() === readsBefore) return obj;
    // A permission read an attribute that was not loaded: decide on the whole object.
    const wholeObj = await getObjectOr404(whole, lookups);
    await this.checkObjectPermissions(this.request, wholeObj);
    return wholeObj;
  }

  /**
   * A serializer instance for validating input and serializing output, with the context set:
   * `getSerializer({ data })`, `getSerializer(instance, { data, partial })`, or for a list
   * `getSerializer(page, { many: true })` (a list serializer: typed by what every serializer
   * class promises, as `serializerClass` may set `Meta.listSerializerClass`).
   */
  getSerializer(instances: readonly M[], options: ManySerializerOptions): GenericSerializer;
  getSerializer(options: SerializerOptions & { many: true }): GenericSerializer;
  getSerializer(instance: M | null | undefined, options?: InstanceSerializerOptions): S;
  getSerializer(options?: SerializerOptions): S;
  getSerializer(...args: [SerializerOptions?] | [M | readonly M[] | null | undefined, InstanceSerializerOptions?]): S | GenericSerializer {
    const [first, second] = args;
    // The common `getSerializer(instance)`: one options object.
    if (args.length === 1 && first !== undefined && !isOptionsObject(first)) {
      return new (this.getSerializerClass())({ instance: first, context: this.getSerializerContext() });
    }
    let options: SerializerOptions;
    if (args.length >= 2) options = { instance: first, ...second };
    else if (first === undefined) options = {};
    else options = isOptionsObject(first) ? first : { instance: first };
    const serializerClass = this.getSerializerClass();
    return new serializerClass({ ...options, context: options.context ?? this.getSerializerContext() });
  }

  /**
   * The serializer class: `serializerClass` by default. Override to vary it per request
   * or action (e.g. a different serializer for admins).
   */
  getSerializerClass(): GenericSerializerClass<S> {
    // The message is built only when the check fails (this runs on every request).
    if (this.serializerClass === null || this.serializerClass === undefined) {
      assert.fail(`'${this.constructor.name}' should either include a \`serializerClass\` attribute, or override the \`getSerializerClass()\` method.`);
    }
    return this.serializerClass;
  }

  /** Extra context given to the serializer: the request, the format suffix and this view. */
  getSerializerContext(): Record<string, unknown> {
    return { request: this.request, format: this.formatKwarg, view: this };
  }

  /** The filter backend classes in use: `filterBackends`, else `DEFAULT_FILTER_BACKENDS`. */
  getFilterBackends(): GenericFilterBackendClass[] {
    if (this.filterBackends !== undefined) return this.filterBackends ?? [];
    return (apiSettings.DEFAULT_FILTER_BACKENDS as GenericFilterBackendClass[] | null) ?? [];
  }

  /**
   * Run the queryset through every filter backend in turn. Called for lists and also for
   * object lookups, so a filtered-out object is a 404.
   */
  async filterQueryset(queryset: QuerySet<M>): Promise<QuerySet<M>> {
    return filterThroughBackends(this, queryset, this.getFilterBackends(), 0);
  }

  /** The paginator instance of this view (created once per view instance), or null. */
  get paginator(): BasePagination | null {
    if (this.#paginator === undefined) {
      const paginationClass = this.paginationClass !== undefined
        ? this.paginationClass
        : (apiSettings.DEFAULT_PAGINATION_CLASS as PaginationClass | null);
      this.#paginator = paginationClass ? new paginationClass() : null;
    }
    return this.#paginator;
  }

  /** A single page of results, or `null` when pagination is off. */
  async paginateQueryset<T>(queryset: Paginatable<T>): Promise<T[] | null> {
    const paginator = this.paginator;
    if (paginator === null) return null;
    return paginator.paginateQueryset(queryset, this.request, this);
  }

  /** The paginated response for the serialized page. */
  getPaginatedResponse(data: unknown): Response {
    const paginator = this.paginator;
    assert(paginator !== null, 'getPaginatedResponse() called on a view without pagination.');
    return paginator.getPaginatedResponse(data);
  }
}

declareViewAttributes(GenericAPIView, ['searchFields', 'orderingFields', 'ordering', 'filtersetFields']);

// Concrete view classes that provide method handlers by composing the mixins with GenericAPIView.
// Each mixin application is its own constant: TypeScript keeps `GenericAPIView`'s type
// parameters through one mixin call at a time, so `ListCreateAPIView<M, S>` can pass them on.
// The interface merged with each class types the mixins' hooks by `M` and `S`.

const CreateBase = CreateModelMixin(GenericAPIView);
const ListBase = ListModelMixin(GenericAPIView);
const RetrieveBase = RetrieveModelMixin(GenericAPIView);
const DestroyBase = DestroyModelMixin(GenericAPIView);
const UpdateBase = UpdateModelMixin(GenericAPIView);
const ListCreateBase = ListModelMixin(CreateBase);
const RetrieveUpdateBase = RetrieveModelMixin(UpdateBase);
const RetrieveDestroyBase = RetrieveModelMixin(DestroyBase);
const UpdateDestroyBase = UpdateModelMixin(DestroyBase);
const RetrieveUpdateDestroyBase = RetrieveModelMixin(UpdateDestroyBase);

/** Concrete view for creating a model instance. */
export class CreateAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends CreateBase<M, S> {
  /** POST: create. */
  async post(request: Request): Promise<Response> {
    return this.create(request);
  }
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with the class, whose type parameters it must repeat
export interface CreateAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> {
  /** Save the new instance; override to add values from the request (e.g. the owner). */
  performCreate(serializer: S): Promise<void>;
}

/** Concrete view for listing a queryset. */
export class ListAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends ListBase<M, S> {
  /** GET: list. */
  async get(request: Request): Promise<Response> {
    return this.list(request);
  }
}

/** Concrete view for retrieving a model instance. */
export class RetrieveAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends RetrieveBase<M, S> {
  /** GET: retrieve. */
  async get(request: Request): Promise<Response> {
    return this.retrieve(request);
  }
}

/** Concrete view for deleting a model instance. */
export class DestroyAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends DestroyBase<M, S> {
  /** DELETE: destroy. */
  async delete(request: Request): Promise<Response> {
    return this.destroy(request);
  }
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with the class, whose type parameters it must repeat
export interface DestroyAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> {
  /** Delete the instance; override for soft deletes or side effects. */
  performDestroy(instance: M): Promise<void>;
}

/** Concrete view for updating a model instance. */
export class UpdateAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends UpdateBase<M, S> {
  /** PUT: full update. */
  async put(request: Request): Promise<Response> {
    return this.update(request);
  }

  /** PATCH: partial update. */
  async patch(request: Request): Promise<Response> {
    return this.partialUpdate(request);
  }
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with the class, whose type parameters it must repeat
export interface UpdateAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> {
  /** Save the updated instance; override to add values from the request. */
  performUpdate(serializer: S): Promise<void>;
}

/** Concrete view for listing a queryset or creating a model instance. */
export class ListCreateAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends ListCreateBase<M, S> {
  /** GET: list. */
  async get(request: Request): Promise<Response> {
    return this.list(request);
  }

  /** POST: create. */
  async post(request: Request): Promise<Response> {
    return this.create(request);
  }
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with the class, whose type parameters it must repeat
export interface ListCreateAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> {
  /** Save the new instance; override to add values from the request (e.g. the owner). */
  performCreate(serializer: S): Promise<void>;
}

/** Concrete view for retrieving or updating a model instance. */
export class RetrieveUpdateAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends RetrieveUpdateBase<M, S> {
  /** GET: retrieve. */
  async get(request: Request): Promise<Response> {
    return this.retrieve(request);
  }

  /** PUT: full update. */
  async put(request: Request): Promise<Response> {
    return this.update(request);
  }

  /** PATCH: partial update. */
  async patch(request: Request): Promise<Response> {
    return this.partialUpdate(request);
  }
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with the class, whose type parameters it must repeat
export interface RetrieveUpdateAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> {
  /** Save the updated instance; override to add values from the request. */
  performUpdate(serializer: S): Promise<void>;
}

/** Concrete view for retrieving or deleting a model instance. */
export class RetrieveDestroyAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> extends RetrieveDestroyBase<M, S> {
  /** GET: retrieve. */
  async get(request: Request): Promise<Response> {
    return this.retrieve(request);
  }

  /** DELETE: destroy. */
  async delete(request: Request): Promise<Response> {
    return this.destroy(request);
  }
}
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with the class, whose type parameters it must repeat
export interface RetrieveDestroyAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> {
  /** Delete the instance; override for soft deletes or side effects. */
  performDestroy(instance: M): Promise<void>;
}

/** Concrete view for retrieving, updating or deleting a model instance. */
export class RetrieveUpdateDestroyAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer>
  extends RetrieveUpdateDestroyBase<M, S> {
  /** GET: retrieve. */
  async get(request: Request): Promise<Response> {
    return this.retrieve(request);
  }

  /** PUT: full update. */
  async put(request: Request): Promise<Response> {
    return this.update(request);
  }

  /** PATCH: partial update. */
  async patch(request: Request): Promise<Response> {
    return this.partialUpdate(request);
  }

  /** DELETE: destroy. */
  async delete(request: Request): Promise<Response> {
    return this.destroy(request);
  }
}
export interface RetrieveUpdateDestroyAPIView<M extends Model = Model, S extends GenericSerializer = GenericSerializer> {
  /** Save the updated instance; override to add values from the request. */
  performUpdate(serializer: S): Promise<void>;
  /** Delete the instance; override for soft deletes or side effects. */
  performDestroy(instance: M): Promise<void>;
}
