/**
 * Basic building blocks for generic class based views: each mixin adds one action
 * (`list`, `create`, `retrieve`, `update`/`partialUpdate`, `destroy`) without binding it to an
 * HTTP method yet, so they compose freely. Concrete views (lib/generics.ts) and viewsets
 * (lib/viewsets.ts) bind them to `get`, `post`, ... or to router actions.
 *
 * Each mixin is a typed mixin function over `GenericAPIView`; it keeps the base's type
 * parameters, one call at a time:
 *
 * @example
 * const CreateBase = CreateModelMixin(GenericAPIView);
 * class SnippetList extends ListModelMixin(CreateBase)<Snippet> { ... }
 */
import type { Model } from 'sequelize-typescript';
import { filteredQueryset, GenericAPIView, type GenericSerializer } from './generics';
import type { Request } from './request';
import type { Kwargs } from './views';
import { Response } from './response';
import { BaseSerializer } from './serializers';
import { isThenable } from './utils/pendingValues';
import { apiSettings } from './settings';
import { QuerySet } from './core/db';
import { LimitOffsetPagination, PageNumberPagination } from './pagination';
import type { BasePagination } from './pagination/base';
import { plainReadPaths } from './utils/plainRead';
import { joinRepresentationRelations, loadRepresentationColumnsOnly } from './utils/representationJoins';

/**
 * A constructor of generic views. TypeScript requires mixin bases to take `any[]` (TS2545);
 * the instances stay fully typed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type GenericViewConstructor<T extends GenericAPIView = GenericAPIView> = new (...args: any[]) => T;

/**
 * The constructor a mixin function returns: the base's constructor plus the mixin's members.
 * Mixins state their members as interfaces (below), so declaration files name them instead of
 * the anonymous class (whose base's protected members cannot be written in a `.d.ts`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type MixinConstructor<TMembers> = new (...args: any[]) => TMembers;

/**
 * What `CreateModelMixin` adds to a view (`S`: the view's serializer type; the concrete views
 * and view sets state it, a mixin application alone has the default).
 */
export interface CreateModelMixinMembers<S extends GenericSerializer = GenericSerializer> {
  /** Validate the request data, save a new instance and answer 201 with its representation. */
  create(request: Request): Promise<Response>;
  /** Save the new instance; override to add values from the request (e.g. the owner). */
  performCreate(serializer: S): Promise<void>;
  /** The `Location` header of a 201: the new object's URL, when its representation has one. */
  getSuccessHeaders(data: unknown): Record<string, string>;
}

/** What `ListModelMixin` adds to a view. */
export interface ListModelMixinMembers {
  /**
   * Whether `list()` may read plain rows instead of model instances when the serializer
   * reads only columns; override to return false when your code needs the instances.
   */
  plainRowsAllowed(): boolean;
  /** Answer the filtered (and paginated) list. */
  list(request: Request): Promise<Response>;
}

/** What `RetrieveModelMixin` adds to a view. */
export interface RetrieveModelMixinMembers {
  /**
   * Whether `retrieve()` may load only the columns its serializer reads when they are plain
   * columns (see `GenericAPIView.getObject()`); override to return false when your code reads
   * other attributes of the object outside the object permission checks.
   */
  deferredLoadingAllowed(): boolean;
  /** Answer the representation of the looked-up object. */
  retrieve(request: Request): Promise<Response>;
}

/** What `UpdateModelMixin` adds to a view (`S`: the view's serializer type). */
export interface UpdateModelMixinMembers<S extends GenericSerializer = GenericSerializer> {
  /** Validate the request data against the looked-up object, save it and answer 200. */
  update(request: Request, kwargs?: Kwargs, options?: UpdateOptions): Promise<Response>;
  /** Save the updated instance; override to add values from the request. */
  performUpdate(serializer: S): Promise<void>;
  /** PATCH: `update()` with `partial` set. */
  partialUpdate(request: Request): Promise<Response>;
}

/** What `DestroyModelMixin` adds to a view (`M`: the view's model type). */
export interface DestroyModelMixinMembers<M extends Model = Model> {
  /** Delete the looked-up object and answer 204. */
  destroy(request: Request): Promise<Response>;
  /** Delete the instance; override for soft deletes or side effects. */
  performDestroy(instance: M): Promise<void>;
}

/** Options of `update()`: `partial` allows leaving out required fields (PATCH). */
export interface UpdateOptions {
  partial?: boolean;
}

interface Destroyable {
  destroy(): Promise<unknown>;
}

/**
 * The serializer's representation: at once while `getData()` is the library's and has
 * nothing to load or await (`dataNow()`), else the promise of `getData()`.
 */
function representationOf(serializer: GenericSerializer): unknown {
  if (serializer instanceof BaseSerializer && serializer.getData === BaseSerializer.prototype.getData) return serializer.dataNow();
  return serializer.getData();
}

function isDestroyable(value: unknown): value is Destroyable {
  return typeof value === 'object' && value !== null && typeof (value as Destroyable).destroy === 'function';
}

/** Create a model instance: `create()` validates `request.data`, saves and answers 201. */
export function CreateModelMixin<TBase extends GenericViewConstructor>(Base: TBase): TBase & MixinConstructor<CreateModelMixinMembers> {
  return class CreateModelMixin extends Base {
    /** Validate the request data, save a new instance and answer 201 with its representation. */
    async create(request: Request): Promise<Response> {
      const serializer = this.getSerializer({ data: request.data });
      await serializer.isValid({ raiseException: true });
      await this.performCreate(serializer);
      const pending = representationOf(serializer);
      const data = isThenable(pending) ? await pending : pending;
      return new Response(data, { status: 201, headers: this.getSuccessHeaders(data) });
    }

    /** Save the new instance; override to add values from the request (e.g. the owner). */
    async performCreate(serializer: GenericSerializer): Promise<void> {
      await serializer.save();
    }

    /** The `Location` header of a 201: the new object's URL, when its representation has one. */
    getSuccessHeaders(data: unknown): Record<string, string> {
      const urlField = apiSettings.URL_FIELD_NAME;
      if (typeof data === 'object' && data !== null && urlField in data) {
        const url = (data as Record<string, unknown>)[urlField];
        if (url !== null && url !== undefined) return { Location: String(url) };
      }
      return {};
    }
  };
}

/** List a queryset: filtered, then paginated when pagination is on. */
export function ListModelMixin<TBase extends GenericViewConstructor>(Base: TBase): TBase & MixinConstructor<ListModelMixinMembers> {
  return class ListModelMixin extends Base {
    /**
     * Whether `list()` may read plain rows instead of model instances when the serializer
     * reads only columns (see `lib/utils/plainRead`). Override to return false when code of
     * your own (a custom paginator, renderer) needs the instances.
     */
    plainRowsAllowed(): boolean {
      return true;
    }

    /** Answer the filtered (and paginated) list. */
    async list(_request: Request): Promise<Response> {
      const filtered = filteredQueryset(this, this.getQueryset());
      let queryset = filtered instanceof Promise ? await filtered : filtered;
      if (queryset instanceof QuerySet && this.plainRowsAllowed() && paginatesBySlicing(this.paginator)) {
        const paths = plainReadPaths(this.getSerializer([], { many: true }), queryset.model);
        if (paths) queryset = queryset.readOnlyRows(paths);
      }
      // Without pagination (the library's paginateQueryset() and no paginator), no asynchronous step.
      const paging = this.paginator === null && this.paginateQueryset === GenericAPIView.prototype.paginateQueryset ? null : this.paginateQueryset(queryset);
      const page = paging === null ? null : await paging;
      if (page !== null) {
        const serializer = this.getSerializer(page, { many: true });
        return this.getPaginatedResponse(await serializer.getData());
      }
      const serializer = this.getSerializer(await queryset.fetch(), { many: true });
      const data = representationOf(serializer);
      return new Response(isThenable(data) ? await data : data);
    }
  };
}

/** True for no pagination and for the library's page-number and limit/offset pagination (they only slice). */
function paginatesBySlicing(paginator: BasePagination | null): boolean {
  return paginator === null || paginator instanceof PageNumberPagination || paginator instanceof LimitOffsetPagination;
}

/** Retrieve a model instance. */
export function RetrieveModelMixin<TBase extends GenericViewConstructor>(Base: TBase): TBase & MixinConstructor<RetrieveModelMixinMembers> {
  return class RetrieveModelMixin extends Base {
    /**
     * Whether `retrieve()` may load only the columns its serializer reads when they are plain
     * columns (see `GenericAPIView.getObject()`). Override to return false when code of your
     * own (a renderer, a response hook) reads other attributes of the object.
     */
    deferredLoadingAllowed(): boolean {
      return true;
    }

    /** Answer the representation of the looked-up object. */
    async retrieve(_request: Request): Promise<Response> {
      // getObject() joins the to-one relations the representation reads (one statement), and
      // loads only the columns it reads when they are all it reads.
      joinRepresentationRelations(this);
      if (this.deferredLoadingAllowed()) loadRepresentationColumnsOnly(this);
      const instance = await this.getObject();
      const serializer = this.getSerializer(instance);
      const data = representationOf(serializer);
      return new Response(isThenable(data) ? await data : data);
    }
  };
}

/** Update a model instance (PUT replaces, PATCH updates only the given fields). */
export function UpdateModelMixin<TBase extends GenericViewConstructor>(Base: TBase): TBase & MixinConstructor<UpdateModelMixinMembers> {
  return class UpdateModelMixin extends Base {
    /** Validate the request data against the looked-up object, save it and answer 200. */
    async update(request: Request, _kwargs: Kwargs = {}, options: UpdateOptions = {}): Promise<Response> {
      const partial = typeof options === 'object' && options !== null && options.partial === true;
      const instance = await this.getObject();
      const serializer = this.getSerializer(instance, { data: request.data, partial });
      await serializer.isValid({ raiseException: true });
      await this.performUpdate(serializer);
      // A prefetched relation may have changed: forget it so the representation is fresh.
      const cached = instance as { prefetchedObjectsCache?: unknown; _prefetchedObjectsCache?: unknown };
      if (cached.prefetchedObjectsCache) cached.prefetchedObjectsCache = {};
      if (cached._prefetchedObjectsCache) cached._prefetchedObjectsCache = {};
      return new Response(await serializer.getData());
    }

    /** Save the updated instance; override to add values from the request. */
    async performUpdate(serializer: GenericSerializer): Promise<void> {
      await serializer.save();
    }

    /** PATCH: `update()` with `partial` set. */
    async partialUpdate(request: Request): Promise<Response> {
      return this.update(request, this.kwargs, { partial: true });
    }
  };
}

/** Destroy a model instance. */
export function DestroyModelMixin<TBase extends GenericViewConstructor>(Base: TBase): TBase & MixinConstructor<DestroyModelMixinMembers> {
  return class DestroyModelMixin extends Base {
    /** Delete the looked-up object and answer 204. */
    async destroy(_request: Request): Promise<Response> {
      const instance = await this.getObject();
      await this.performDestroy(instance);
      return new Response(null, { status: 204 });
    }

    /** Delete the instance; override for soft deletes or side effects. */
    async performDestroy(instance: Model): Promise<void> {
      if (!isDestroyable(instance)) throw new TypeError('performDestroy() needs a model instance with destroy().');
      await instance.destroy();
    }
  };
}
