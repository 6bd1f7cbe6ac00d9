/**
 * The value types of serializer fields, for type inference only (nothing here exists at run
 * time). Each field class states what it represents and what validation yields:
 * `CharField` is `string` both ways, `DateTimeField` is `string` out and `Date` in. The
 * options a field was declared with refine that: `allowNull: true` adds `null`, `many: true`
 * (relations) makes an array, and `readOnly`/`writeOnly`/`required`/`default` decide whether
 * the field appears in a serializer's representation or validated data (see `serializers.Infer`).
 *
 * @example
 * type Title = FieldOutput<CharField<{ allowNull: true }>>;   // string | null
 */
import type { Field } from './fields';

/** What a field declares at the type level: representation type, validated type, options. */
export interface FieldTypes<TOutput, TInput, TOptions> {
  output: TOutput;
  input: TInput;
  options: TOptions;
}

/** The options of a field declared without any (`new CharField()`). */
export type NoOptions = Record<never, never>;

/** The options field `F` was declared with (`new CharField({ maxLength: 5 })`: `{ maxLength: number }`). */
export type FieldOptionsOf<F> = F extends { readonly '~types'?: FieldTypes<unknown, unknown, infer O> } ? O : never;

/** The representation type field `F`'s class declares. */
type OutputOf<F> = F extends { readonly '~types'?: FieldTypes<infer V, unknown, unknown> } ? V : never;

/** The validated type field `F`'s class declares. */
type InputOf<F> = F extends { readonly '~types'?: FieldTypes<unknown, infer V, unknown> } ? V : never;

/** `V[]` when the field was declared with `many: true` (relations), else `V`. */
type Many<F, V> = FieldOptionsOf<F> extends { many: true } ? V[] : V;

/** `V | null` when the field was declared with `allowNull: true`. */
type Nullable<F, V> = FieldOptionsOf<F> extends { allowNull: true } ? V | null : V;

/** The representation (output) type of field `F`. */
export type FieldOutput<F> = Nullable<F, Many<F, OutputOf<F>>>;

/** The validated (input) type of field `F`. */
export type FieldInput<F> = Nullable<F, Many<F, InputOf<F>>>;

/** True when the field is only used for output (`readOnly`, or read-only by its class). */
export type IsReadOnlyField<F> = FieldOptionsOf<F> extends { readOnly: true } ? true : false;

/** True when the field is left out of the representation (`writeOnly`, `HiddenField`). */
export type IsWriteOnlyField<F> = FieldOptionsOf<F> extends { writeOnly: true } ? true : false;

/** True when input may leave the field out: `required: false`, or a `default`. */
export type IsOptionalInput<F> = FieldOptionsOf<F> extends { required: false } ? true
  : FieldOptionsOf<F> extends { default: unknown } ? true : false;

/** True when the representation may leave the field out: `required: false` with no default and no `allowNull`. */
export type IsOptionalOutput<F> = FieldOptionsOf<F> extends { required: false }
  ? FieldOptionsOf<F> extends { default: unknown } ? false : FieldOptionsOf<F> extends { allowNull: true } ? false : true
  : false;

/** The value of one choice: `'a'` for `'a'`, `1` for `[1, 'One']`. */
type ChoiceItemValue<C> = C extends readonly [infer V, ...unknown[]] ? V : C extends readonly (infer V)[] ? V : C;

/** The value type of a `ChoiceField` declared with `choices`. */
export type ChoiceValue<O> = O extends { choices: Iterable<infer C> } ? ChoiceItemValue<C> : unknown;

/** The representation type of the `child` of a list or dict field (`unknown` without one). */
export type ChildOutput<O> = O extends { child: infer C } ? C extends Field ? FieldOutput<C> : unknown : unknown;

/** The validated type of the `child` of a list or dict field (`unknown` without one). */
export type ChildInput<O> = O extends { child: infer C } ? C extends Field ? FieldInput<C> : unknown : unknown;

/** The value a `default` option puts in the validated data (a function's result, or the value). */
export type DefaultValue<O> = O extends { default: infer D }
  ? D extends (...args: never[]) => infer R ? R : D extends { call(field: never): infer R } ? R : D
  : unknown;

/** `string` for fields declared with `localize: true` (their representation is then localized text). */
export type Localized<O, V> = O extends { localize: true } ? string : V;

