/**
 * The compile-time names of a model's queries: which keys `filter()`, `exclude()`, `get()`,
 * `create()`, `update()`, `orderBy()` and `values()` accept for a model `M`, derived from the
 * attributes the model class declares (`declare title: string`, `declare owner?: User`,
 * `declare groups?: Group[]`). A typo (`filter({ autor_id })`, `orderBy('-pricee')`,
 * `create({ titel })`) fails to compile; values are checked where the attribute type says
 * enough (`id__in` takes an array, `__isnull` a boolean, equality the attribute's type).
 *
 *     Book.objects.filter({ title__icontains: 'dune', author__name: 'Herbert', id__in: [1, 2] }).orderBy('-title');
 *
 * What the types know:
 * - fields: the model's own non-function attributes (not `BaseModel`'s): `title`, `owner_id`;
 * - relations: attributes typed as a model (`owner?: User`, to-one) or a list of models
 *   (`groups?: Group[]`, to-many), followed with `__` up to two levels (`owner__username`,
 *   `owner__groups__name`);
 * - `pk`, and the lookups of `LOOKUPS` after any of them (`title__icontains`, `pk__in`).
 *
 * Reverse relations that the model does not declare as an attribute (Django's `related_name`
 * accessors such as `User.snippets`) are not known to the types; declare them
 * (`declare snippets?: Snippet[];`, no decorator needed) or use a `Q`.
 *
 * For a model whose attributes the types cannot see (`QuerySet<Model>` in code generic over
 * models) every key is accepted: `DynamicLookups`. Code that builds lookups from strings at
 * run time (filter backends: `{ [`${field}__icontains`]: term }`) wraps them in a `Q`, the
 * explicit, run-time-checked form: `qs.filter(new Q(lookups))` (unknown names raise
 * `FieldError` there, as in Django); orderings known at run time go through
 * `qs.orderByNames(terms)`. For anything else (`values(name)` with a run-time name), widen the
 * QuerySet: every typed QuerySet is a `QuerySet<BaseModel>`, which takes any name
 * (`const rows = await (qs as QuerySet<BaseModel>).values(name)`; an upcast, no `unknown`).
 */
import type { Model } from 'sequelize-typescript';
import type { BaseModel } from './models';
import type { Subquery } from './lookups';

/** Lookups built at run time from strings: names are checked when the query runs (`FieldError`). */
export type DynamicLookups = Record<string, unknown>;

type IsAny<T> = 0 extends 1 & T ? true : false;

/** The value of a primary key: the type of the model's own `id` attribute, else a number or a string. */
export type PkValue<M> = M extends { id: infer I } ? (IsAny<I> extends true ? number | string : NonNullable<I>) : number | string;

type Callable = (...args: never[]) => unknown;

/** Members Sequelize's `Model` declares as `any` that a model redeclares as its own columns (`declare id: number`). */
type RedeclarableMember = 'id' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'version';

/** Whether the member `K` of `M` is one of the model's attributes (not a method, not a `BaseModel` member left as declared there). */
type IsAttribute<M, K extends keyof M> = K extends keyof BaseModel
  ? K extends RedeclarableMember ? (IsAny<M[K]> extends true ? false : true) : false
  : NonNullable<M[K]> extends Callable ? false : true;

/** The names of `M`'s attributes: neither methods nor `BaseModel`'s own members. */
type AttributeName<M> = { [K in keyof M]-?: IsAttribute<M, K> extends true ? K : never }[keyof M] & string;

/** The model a relation attribute leads to (`User` for `owner?: User`, `Group` for `groups?: Group[]`), else never. */
type RelatedModel<V> = NonNullable<V> extends ReadonlyArray<infer R> ? (R extends Model ? R : never) : NonNullable<V> extends Model ? NonNullable<V> : never;

/** `M`'s relation attributes: to-one (`owner`) and to-many (`groups`). */
export type RelationName<M> = { [K in AttributeName<M>]: [RelatedModel<M[K]>] extends [never] ? never : K }[AttributeName<M>];

/** `M`'s to-one relation attributes (`owner`), the ones `orderBy()` may follow. */
export type ToOneRelationName<M> = { [K in RelationName<M>]: NonNullable<M[K]> extends ReadonlyArray<unknown> ? never : K }[RelationName<M>];

/** `M`'s concrete columns by attribute name (`title`, `owner_id`): attributes that are not relations. */
export type FieldName<M> = Exclude<AttributeName<M>, RelationName<M>>;

type TextLookup = 'iexact' | 'contains' | 'icontains' | 'startswith' | 'istartswith' | 'endswith' | 'iendswith' | 'regex' | 'iregex';

/** What a column of type `V` compares with: dates also take their ISO text, as Django does. */
type Comparable<V> = V extends Date ? Date | string : V;

/** What a relation compares with: a related instance or its primary key. */
type RelationValue<R> = R | PkValue<R>;

/** A column's attribute type (`pk`: the primary key's). */
type ColumnType<M, K> = K extends 'pk' ? PkValue<M> : K extends keyof M ? NonNullable<M[K]> : never;

type Column<M> = FieldName<M> | 'pk';

/**
 * The lookups on `M`'s own columns and relations, one mapped type per family of lookups (each
 * value read straight from the attribute's type, no parsing of keys):
 * `title`, `title__exact`, `title__icontains`, `id__in`, `created__gte`, `owner__isnull`.
 */
type OwnLookups<M> = { [K in Column<M> as K | `${K}__exact`]?: Comparable<ColumnType<M, K>> | null } & {
  [K in Column<M> as `${K}__${TextLookup}`]?: string;
} & { [K in Column<M> as `${K}__${'gt' | 'gte' | 'lt' | 'lte'}`]?: Comparable<ColumnType<M, K>> } & {
  [K in Column<M> as `${K}__in`]?: ReadonlyArray<Comparable<ColumnType<M, K>>> | Subquery;
} & { [K in Column<M> | RelationName<M> as `${K}__isnull`]?: boolean } & {
  [K in Column<M> as `${K}__range`]?: readonly [Comparable<ColumnType<M, K>>, Comparable<ColumnType<M, K>>];
} & { [R in RelationName<M> as R | `${R}__exact`]?: RelationValue<RelatedModel<M[R]>> | null } & {
  [R in RelationName<M> as `${R}__in`]?: ReadonlyArray<RelationValue<RelatedModel<M[R]>>> | Subquery;
};

/** Every key of `L` behind the prefix `P__` (`username` -> `owner__username`), values kept. */
type Prefixed<L, P extends string> = { [K in keyof L as `${P}__${K & string}`]: L[K] };

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;

/** The lookups across `M`'s relations: the related model's lookups (and, while `Deep`, theirs) behind `<relation>__`. */
type RelatedLookups<M, Deep extends boolean> = UnionToIntersection<
  { [R in RelationName<M>]: Prefixed<Deep extends true ? OwnLookups<RelatedModel<M[R]>> & RelatedLookups<RelatedModel<M[R]>, false> : OwnLookups<RelatedModel<M[R]>>, R> }[RelationName<M>]
>;

/** Every lookup `filter()` accepts for `M`, with its value type: own columns, then up to two relations deep (`owner__groups__name`). */
type TypedLookups<M> = OwnLookups<M> & ([RelationName<M>] extends [never] ? unknown : RelatedLookups<M, true>);

/** True when the types can see no attribute of `M` (a base class: `Model`, `BaseModel`). */
type Opaque<M> = [AttributeName<M>] extends [never] ? true : false;

/**
 * The lookups `filter()`/`exclude()`/`get()` accept for `M`: `{ title__icontains: 'x', owner__username: 'ann', id__in: [1, 2] }`.
 * Any key for a model whose attributes are unknown (`DynamicLookups`).
 */
export type FieldLookups<M> = Opaque<M> extends true ? DynamicLookups : TypedLookups<M>;

/** The column values `create()`/`bulkCreate()` accept for `M` (attribute names; relations through their `<name>_id` column). */
export type FieldValues<M> = Opaque<M> extends true ? DynamicLookups : { [K in FieldName<M>]?: Comparable<M[K]> | null };

/** The values `update()` accepts for `M`: columns, and to-one relations by instance or primary key. */
export type UpdateValues<M> = Opaque<M> extends true
  ? DynamicLookups
  : FieldValues<M> & { [K in ToOneRelationName<M>]?: RelationValue<RelatedModel<M[K]>> | null };

/** A path `orderBy()` accepts: a field, `pk`, a to-one relation (its key), or a field across one (`owner__username`). */
export type OrderingPath<M> = 'pk' | FieldName<M> | ToOneRelationName<M> | { [R in ToOneRelationName<M>]: `${R}__${FieldName<RelatedModel<M[R]>> | 'pk'}` }[ToOneRelationName<M>];

/** An `orderBy()` term for `M`: a path, descending with a leading `-` (`'-created'`). */
export type OrderingTerm<M> = Opaque<M> extends true ? string : OrderingPath<M> | `-${OrderingPath<M>}`;

/** A name `values()`/`valuesList()` accepts for `M`: its own fields and `pk`. */
export type ValueName<M> = Opaque<M> extends true ? string : FieldName<M> | 'pk';

/** What a QuerySet's methods take, by method family (`QueryShapeOf<M>` for a model). */
export interface QueryShape {
  /** `filter()`, `exclude()`, `get()`, `getOrCreate()`. */
  lookups: DynamicLookups;
  /** `create()`, `bulkCreate()`, `getOrCreate()` defaults. */
  values: DynamicLookups;
  /** `update()`. */
  updates: DynamicLookups;
  /** `orderBy()`. */
  ordering: string;
  /** `values()`, `valuesList()`. */
  valueNames: string;
}

/** The typed `QueryShape` of a model whose attributes the types see. */
export interface TypedQueryShape<M> extends QueryShape {
  lookups: FieldLookups<M>;
  values: FieldValues<M>;
  updates: UpdateValues<M>;
  ordering: OrderingTerm<M>;
  valueNames: ValueName<M>;
}

/**
 * The key and value types of `M`'s queries, bundled as `QuerySet`'s second type parameter
 * (always left to its default): `TypedQueryShape<M>`, or the untyped `QueryShape` for a model
 * whose attributes are unknown (`Model`, `BaseModel`). Every typed shape extends the untyped
 * one, so `QuerySet<Snippet>` stays assignable to `QuerySet<BaseModel>` (code generic over
 * models) while `Snippet`'s own calls are checked.
 */
export type QueryShapeOf<M> = Opaque<M> extends true ? QueryShape : TypedQueryShape<M>;
