/**
 * Generic views: `GenericAPIView` adds querysets, serializers, object lookup, filtering and
 * pagination to `APIView`, and the concrete classes below combine it with the model mixins.
 *
 * @example
 * class SnippetList extends ListCreateAPIView<Snippet> {
 *   queryset = Snippet.objects.all();
 *   serializerClass = SnippetSerializer;
 * }
 */
import assert from 'node:assert';
import { NotFound } from './exceptions';
import { ObjectDoesNotExist, ValueError } from './core/db/errors';
import type { Q, Lookups } from './core/db/q';
import type { AnyModelClass } from './core/db/fieldInfo';
import type { BasePagination, Paginatable } from './pagination';
import type { Request } from './request';
import type { Response } from './response';
import { apiSettings } from './settings';
import { APIView } from './views';
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

/** What generic views and mixins need of a serializer instance. */
export interface GenericSerializer {
  isValid(options?: { raiseException?: boolean }): Promise<boolean>;
  save(extra?: Record<string, unknown>): Promise<unknown>;
  getData(): Promise<unknown>;
  readonly instance?: unknown;
}

/** A serializer class, as `serializerClass` holds it. */
export type GenericSerializerClass = new (options: SerializerOptions) => GenericSerializer;

/** A filter backend, as `filterBackends` lists it (see lib/filters.ts). */
export interface GenericFilterBackend {
  filterQueryset(
    request: GenericAPIView['request'],
    queryset: GenericQuerySet<unknown>,
    view: GenericAPIView,
  ): GenericQuerySet<unknown> | Promise<GenericQuerySet<unknown>>;
}

/** A filter backend class. */
export type GenericFilterBackendClass = new () => object;

/** A pagination class. */
export type PaginationClass = new () => BasePagination;

function isFilterBackend(value: object): value is GenericFilterBackend {
  return typeof (value as { filterQueryset?: unknown }).filterQueryset === 'function';
}

/**
 * Fetch the object matching `lookups` or raise `NotFound`; a lookup value of the wrong type
 * (`/snippets/abc/` for an integer pk) is a 404 too, not a 500.
 */
export async function getObjectOr404<M>(queryset: GenericQuerySet<M>, lookups: Lookups): Promise<M> {
  try {
    return await queryset.get(lookups);
  } catch (error) {
    if (error instanceof ObjectDoesNotExist || error instanceof ValueError || error instanceof TypeError) {
      throw new NotFound();
    }
    if (error instanceof Error && error.name === 'ValidationError') throw new NotFound();
    throw error;
  }
}

/** Base class for all other generic views. */
export class GenericAPIView extends APIView {
  // You'll need to either set these attributes, or override `getQueryset()` / `getSerializerClass()`.
  // A queryset is immutable and lazy: `getQueryset()` hands each request a fresh `.all()` of it.
  queryset?: GenericQuerySet<unknown> | null = undefined;
  serializerClass?: GenericSerializerClass | null = undefined;

  /** The model field used for object lookup (`pk` by default). */
  lookupField = 'pk';
  /** The URL keyword argument holding the lookup value; defaults to `lookupField`. */
  lookupUrlKwarg: string | null = null;

  /** The filter backend classes; `undefined` means `DEFAULT_FILTER_BACKENDS`. */
  filterBackends?: GenericFilterBackendClass[] | null = undefined;
  /** The pagination class; `undefined` means `DEFAULT_PAGINATION_CLASS`, `null` turns it off. */
  paginationClass?: PaginationClass | null = undefined;

  #paginator: BasePagination | null | undefined = undefined;

  /**
   * The list of items for this view: by default a fresh copy of `queryset` for every request.
   * Override it to depend on the request (e.g. only the user's own objects).
   */
  getQueryset(): GenericQuerySet<unknown> {
    assert(
      this.queryset !== null && this.queryset !== undefined,
      `'${this.constructor.name}' should either include a \`queryset\` attribute, or override the \`getQueryset()\` method.`,
    );
    return this.queryset.all();
  }

  /**
   * The object the view displays: looked up by `lookupField` in the filtered queryset, with
   * the object permissions checked. Override for lookups on several fields.
   */
  async getObject(): Promise<unknown> {
    const queryset = await this.filterQueryset(this.getQueryset());
    const lookupUrlKwarg = this.lookupUrlKwarg || this.lookupField;
    assert(
      lookupUrlKwarg in this.kwargs,
      `Expected view ${this.constructor.name} to be called with a URL keyword argument named "${lookupUrlKwarg}". ` +
        'Fix your URL conf, or set the `.lookupField` attribute on the view correctly.',
    );
    const obj = await getObjectOr404(queryset, { [this.lookupField]: this.kwargs[lookupUrlKwarg] });
    // May raise a permission denied
    await this.checkObjectPermissions(this.request, obj);
    return obj;
  }

  /** A serializer instance for validating input and serializing output, with the context set. */
  getSerializer(options: SerializerOptions = {}): GenericSerializer {
    const serializerClass = this.getSerializerClass();
    return new serializerClass({ ...options, context: options.context ?? this.getSerializerContext() });
  }

  /**
   * The serializer class: `serializerClass` by default. Override to vary it per request
   * or action (e.g. a different serializer for admins).
   */
  getSerializerClass(): GenericSerializerClass {
    assert(
      this.serializerClass !== null && this.serializerClass !== undefined,
      `'${this.constructor.name}' should either include a \`serializerClass\` attribute, or override the ` +
        '`getSerializerClass()` method.',
    );
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
  async filterQueryset(queryset: GenericQuerySet<unknown>): Promise<GenericQuerySet<unknown>> {
    let result = queryset;
    for (const backendClass of this.getFilterBackends()) {
      const backend = new backendClass();
      if (!isFilterBackend(backend)) {
        throw new TypeError(`${backendClass.name} is not a filter backend: it has no filterQueryset() method.`);
      }
      result = await backend.filterQueryset(this.request, result, this);
    }
    return result;
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

// Concrete view classes that provide method handlers by composing the mixins with GenericAPIView.

/** Concrete view for creating a model instance. */
export class CreateAPIView extends CreateModelMixin(GenericAPIView) {
  /** POST: create. */
  async post(request: Request): Promise<Response> {
    return this.create(request);
  }
}

/** Concrete view for listing a queryset. */
export class ListAPIView extends ListModelMixin(GenericAPIView) {
  /** GET: list. */
  async get(request: Request): Promise<Response> {
    return this.list(request);
  }
}

/** Concrete view for retrieving a model instance. */
export class RetrieveAPIView extends RetrieveModelMixin(GenericAPIView) {
  /** GET: retrieve. */
  async get(request: Request): Promise<Response> {
    return this.retrieve(request);
  }
}

/** Concrete view for deleting a model instance. */
export class DestroyAPIView extends DestroyModelMixin(GenericAPIView) {
  /** DELETE: destroy. */
  async delete(request: Request): Promise<Response> {
    return this.destroy(request);
  }
}

/** Concrete view for updating a model instance. */
export class UpdateAPIView extends UpdateModelMixin(GenericAPIView) {
  /** PUT: full update. */
  async put(request: Request): Promise<Response> {
    return this.update(request);
  }

  /** PATCH: partial update. */
  async patch(request: Request): Promise<Response> {
    return this.partialUpdate(request);
  }
}

/** Concrete view for listing a queryset or creating a model instance. */
export class ListCreateAPIView extends ListModelMixin(CreateModelMixin(GenericAPIView)) {
  /** GET: list. */
  async get(request: Request): Promise<Response> {
    return this.list(request);
  }

  /** POST: create. */
  async post(request: Request): Promise<Response> {
    return this.create(request);
  }
}

/** Concrete view for retrieving or updating a model instance. */
export class RetrieveUpdateAPIView extends RetrieveModelMixin(UpdateModelMixin(GenericAPIView)) {
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

/** Concrete view for retrieving or deleting a model instance. */
export class RetrieveDestroyAPIView extends RetrieveModelMixin(DestroyModelMixin(GenericAPIView)) {
  /** GET: retrieve. */
  async get(request: Request): Promise<Response> {
    return this.retrieve(request);
  }

  /** DELETE: destroy. */
  async delete(request: Request): Promise<Response> {
    return this.destroy(request);
  }
}

/** Concrete view for retrieving, updating or deleting a model instance. */
export class RetrieveUpdateDestroyAPIView extends RetrieveModelMixin(
  UpdateModelMixin(DestroyModelMixin(GenericAPIView)),
) {
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
