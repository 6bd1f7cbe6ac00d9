/**
 * The types a serializer's declarations imply, for type inference only (nothing here exists at
 * run time): `Infer<typeof BookSerializer>` is the representation `serializer.data` holds, and
 * `InferValidated<typeof BookSerializer>` the `validatedData` that `isValid()` produces.
 *
 * Declared fields (`static fields`) give their own value types (see `fieldTypes.ts`); the
 * names of a `ModelSerializer`'s `Meta.fields` that are not declared take the model's attribute
 * types: a `Date` column is an ISO string out and a `Date` in, a relation is its primary key out
 * (a URL with `HyperlinkedModelSerializer`) and the related object in. Model attributes are
 * optional in validated data (a column with a default or `blank` may be left out; the model
 * type cannot tell which), declared fields follow their `required`/`default` options.
 *
 * A serializer whose `Meta.fields` is typed as plain `string[]` (annotated with
 * `ModelSerializerMeta`) or whose `static fields` is annotated `DeclaredFields` keeps the loose
 * `Record<string, unknown>`: declare `Meta` with `serializers.meta({...})` to get exact types.
 */
import type { Model } from 'sequelize-typescript';
import type { BaseModel } from './core/db';
import type {
  FieldInput, FieldOutput, IsOptionalInput, IsOptionalOutput, IsReadOnlyField, IsWriteOnlyField,
} from './fieldTypes';
import type { SerializerMethodField } from './fields';
import type { PkOf } from './relations';

/** Flatten an intersection of object types into one object type (for readable, comparable types). */
export type Simplify<T> = T extends infer O ? { [K in keyof O]: O[K] } : never;

type IsAny<T> = 0 extends 1 & T ? true : false;

/** The attributes `BaseModel` (Sequelize's `Model`) declares as `any` that a model may redeclare with a type. */
type RedeclarableAttribute = 'id' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'version';

/**
 * The attribute names of model instance type `M`: its declared columns, relations and
 * properties, without the methods and the ORM's own members (`dataValues`, `save`...).
 */
export type ModelAttributeName<M> = {
  [K in keyof M]-?: K extends RedeclarableAttribute ? IsAny<M[K]> extends true ? never : K
    : K extends keyof BaseModel ? never
      : M[K] extends (...args: never[]) => unknown ? never : K;
}[keyof M] & string;

/** A model class, as `Meta.model` holds it. */
export type ModelClass = abstract new (...args: never[]) => Model;

/** The names a `ModelSerializer`'s `Meta` may list: the model's attributes, the declared fields, `url`. */
export type MetaFieldName<C extends ModelClass, D> = ModelAttributeName<InstanceType<C>> | (keyof D & string) | 'url';

/** The `static fields` of serializer class `C` (`{}` without). */
type DeclaredOf<C> = C extends { fields: infer D } ? D extends object ? D : object : object;

/** True when `T` has a string index signature (a loosely typed map). */
type HasIndex<T> = string extends keyof T ? true : false;

type WithoutNull<D> = { [K in keyof D as D[K] extends null | undefined ? never : K]: D[K] };

/** `extra_info` -> `extraInfo`, as `fields.camelCase` does at run time. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** The serializer method a `SerializerMethodField` named `K` calls: `methodName`, else `get<FieldName>`. */
type MethodNameOf<K, O> = O extends { methodName: infer N extends string } ? N : K extends string ? `get${Capitalize<CamelCase<K>>}` : never;

/** A `SerializerMethodField`'s value: what its method on serializer instance `S` returns (awaited). */
type MethodValue<S, K, O> = MethodNameOf<K, O> extends infer N
  ? N extends keyof S ? S[N] extends (...args: never[]) => infer R ? Awaited<R> : unknown : unknown
  : unknown;

/** The representation of declared field `F` named `K` of serializer instance `S`. */
type DeclaredFieldOutput<F, K, S> = F extends SerializerMethodField<infer O> ? MethodValue<S, K, O> : FieldOutput<F>;

/** The representation of declared fields `D` of serializer instance `S`. */
type DeclaredOutput<D, S> = Simplify<
  { [K in keyof D as IsWriteOnlyField<D[K]> extends true ? never : IsOptionalOutput<D[K]> extends true ? never : K]: DeclaredFieldOutput<D[K], K, S> }
  & { [K in keyof D as IsWriteOnlyField<D[K]> extends true ? never : IsOptionalOutput<D[K]> extends true ? K : never]?: DeclaredFieldOutput<D[K], K, S> }
>;

/** The validated data of declared fields `D`. */
type DeclaredInput<D> = Simplify<
  { [K in keyof D as IsReadOnlyField<D[K]> extends true ? never : IsOptionalInput<D[K]> extends true ? never : K]: FieldInput<D[K]> }
  & { [K in keyof D as IsReadOnlyField<D[K]> extends true ? never : IsOptionalInput<D[K]> extends true ? K : never]?: FieldInput<D[K]> }
>;

/** A model instance type (a relation's target). */
type AnyModel = BaseModel;

/** How a model attribute's value is represented: dates as ISO text, relations by pk (or URL). */
type ModelOutputValue<V, Url extends boolean> =
  V extends Date ? string
    : V extends AnyModel ? Url extends true ? string : PkOf<V>
      : V extends ReadonlyArray<infer E> ? E extends AnyModel ? Array<Url extends true ? string : PkOf<E>> : V
        : V;

/** A model attribute's validated value: dates as `Date`, relations as the related objects. */
type ModelInputValue<V> = V;

/** The instances serializer class `C` builds. */
type InstanceOf<C> = C extends abstract new (...args: never[]) => infer S ? S : never;

/** The `Meta` of serializer class `C`. */
type MetaOf<C> = C extends { Meta: infer Meta } ? Meta : undefined;

/** The model instance type of `Meta`. */
type ModelOfMeta<Meta> = Meta extends { model: abstract new (...args: never[]) => infer M } ? M : never;

/** The names `Meta.fields` (or `Meta.exclude` against the model) selects; `string` when unknown. */
type SelectedNames<Meta, M> =
  Meta extends { fields: infer F } ? F extends '__all__' ? ModelAttributeName<M>
    : F extends readonly (infer N)[] ? N : Meta extends { exclude: readonly (infer E)[] } ? Exclude<ModelAttributeName<M>, E> : string
    : Meta extends { exclude: readonly (infer E)[] } ? Exclude<ModelAttributeName<M>, E> : string;

/** `Meta.readOnlyFields` names, and `extraKwargs` names with `readOnly: true`; plus the auto `id`. */
type ReadOnlyNames<Meta> =
  | 'id'
  | (Meta extends { readOnlyFields: readonly (infer R)[] } ? R : never)
  | (Meta extends { extraKwargs: infer X } ? { [K in keyof X]: X[K] extends { readOnly: true } ? K : never }[keyof X] : never);

/** `extraKwargs` names with `writeOnly: true`. */
type WriteOnlyNames<Meta> =
  Meta extends { extraKwargs: infer X } ? { [K in keyof X]: X[K] extends { writeOnly: true } ? K : never }[keyof X] : never;

/** `extraKwargs` names with `allowNull: true`. */
type NullableNames<Meta> =
  Meta extends { extraKwargs: infer X } ? { [K in keyof X]: X[K] extends { allowNull: true } ? K : never }[keyof X] : never;

type OrNull<V, K, Meta> = K extends NullableNames<Meta> ? V | null : V;

/** The generated (not declared) part of a model serializer's representation. */
type GeneratedOutput<Meta, M, Names, Url extends boolean> = {
  [K in Names & string as K extends WriteOnlyNames<Meta> ? never : K]:
  K extends keyof M ? OrNull<ModelOutputValue<Exclude<M[K], undefined>, Url>, K, Meta> : K extends 'url' ? string : unknown;
};

/** The generated (not declared) part of a model serializer's validated data: optional, see the module header. */
type GeneratedInput<Meta, M, Names> = {
  [K in Names & string as K extends ReadOnlyNames<Meta> | 'url' ? never : K]?:
  K extends keyof M ? OrNull<ModelInputValue<Exclude<M[K], undefined>>, K, Meta> : unknown;
};

/** Marks a serializer class whose relations are hyperlinks (`HyperlinkedModelSerializer`). */
export interface HyperlinkedMarker {
  readonly '~hyperlinked'?: true;
}

type IsHyperlinked<C> = C extends { readonly '~hyperlinked'?: infer H } ? H extends true ? true : false : false;

type ModelRepresentation<C, Meta, D, Mode extends InferMode> =
  SelectedNames<Meta, ModelOfMeta<Meta>> extends infer Names
    ? string extends Names ? Record<string, unknown>
      : Mode extends 'output'
        ? Simplify<GeneratedOutput<Meta, ModelOfMeta<Meta>, Exclude<Names, keyof D>, IsHyperlinked<C>> & DeclaredOutput<Pick<D, Names & keyof D>, InstanceOf<C>>>
        : Simplify<GeneratedInput<Meta, ModelOfMeta<Meta>, Exclude<Names, keyof D>> & DeclaredInput<Pick<D, Names & keyof D>>>
    : never;

/** `'output'`: the representation (`data`); `'input'`: the validated data. */
export type InferMode = 'output' | 'input';

/**
 * The representation (`Mode` `'output'`, the default) or validated data (`'input'`) of
 * serializer class `C`, from its declared fields and `Meta`:
 * `serializers.Infer<typeof BookSerializer>`.
 */
export type Infer<C, Mode extends InferMode = 'output'> =
  WithoutNull<DeclaredOf<C>> extends infer D
    ? HasIndex<D> extends true ? Record<string, unknown>
      : MetaOf<C> extends { model: ModelClass } ? ModelRepresentation<C, MetaOf<C>, D, Mode>
        : Mode extends 'output' ? DeclaredOutput<D, InstanceOf<C>> : DeclaredInput<D>
    : never;

/** The validated data of serializer class `C`: `serializers.InferValidated<typeof BookSerializer>`. */
export type InferValidated<C> = Infer<C, 'input'>;

/**
 * The validated data of a `ModelSerializer<M>` whose `Meta` is not known at the instance level:
 * the model's attributes, each optional, values as in `InferValidated`. `Record<string, unknown>`
 * for an untyped `ModelSerializer`.
 */
export type ModelValidatedData<M> = BaseModel extends M ? Record<string, unknown>
  : Simplify<{ [K in ModelAttributeName<M>]?: ModelInputValue<Exclude<M[K], undefined>> }>;

/** The validation errors of serializer class `C`: per writable field, and `non_field_errors`. */
export type SerializerErrors<C> = { readonly [K in keyof InferValidated<C> | 'non_field_errors']?: unknown };

/**
 * A serializer instance of class `C` with its exact types: `validatedData`, `data`, `getData()`
 * and `errors` as `InferValidated<C>`, `Infer<C>` and `SerializerErrors<C>` (the instance type
 * alone cannot know its class's `static fields` and `Meta`). What typed code that receives a
 * serializer of a known class declares: `serializer: serializers.SerializerOf<typeof BookSerializer>`.
 */
export type SerializerOf<C extends abstract new (...args: never[]) => object> =
  Omit<InstanceOf<C>, 'validatedData' | 'data' | 'getData' | 'errors'> & {
    readonly validatedData: InferValidated<C>;
    readonly data: Infer<C>;
    readonly errors: SerializerErrors<C>;
    getData(): Promise<Infer<C>>;
  };
