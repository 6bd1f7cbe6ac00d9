/**
 * The compiled output side of a serializer: what `Serializer.toRepresentation()` runs for
 * every row. Compiled once per serializer class (and field set) from the readable fields of
 * one instance, then shared by every instance whose readable fields match it; an instance
 * hands in its own bound fields only for the values that need them (generic conversions and
 * reads), so representing through a fast-path-only plan binds no field at all:
 *
 * - each field's `source` path is split once, and read straight from Sequelize `dataValues`
 *   (or plain objects), one segment after another, with a per-segment cache of the model
 *   class last seen, so custom getters are looked up once per class, not per row;
 * - common field types whose `toRepresentation()` is not overridden (CharField, IntegerField,
 *   BooleanField, ChoiceField with string choices, ReadOnlyField, DateTimeField in UTC with
 *   ISO 8601 output) convert values inline; their settings are resolved when the plan is built;
 * - anything unusual on a row (a missing attribute, a callable, a custom getter, a `Map`, a
 *   field overriding `getAttribute()`) falls back to the field's own methods for that value,
 *   so the output, errors and `SkipField` handling are exactly the generic ones;
 * - rows are built as object literals by a constructor generated from the field names
 *   (developer-declared, never user input; keys are JSON-quoted), giving every row object
 *   the same shape in field order. A row with a skipped field is built key by key instead.
 */
import {
  BooleanField, CharField, ChoiceField, classHasCustomGetter, DateTimeField, Field, IntegerField, ReadOnlyField,
  SkipField, utcIsoString,
} from '../fields';
import { HyperlinkedRelatedField, PKOnlyObject, RelatedField } from '../relations';
import { reverse } from '../reverse';
import { apiSettings, ISO_8601 } from '../settings';

/** How a value read for a field becomes its representation. */
const enum Convert {
  /** `field.toRepresentation(value)`, after the `PKOnlyObject`/null check. */
  Generic,
  /** The value itself (ReadOnlyField). */
  Identity,
  /** Strings as they are (CharField and subclasses; ChoiceField whose choices are strings). */
  Text,
  /** Integral numbers as they are (IntegerField). */
  Integer,
  /** Booleans as they are (BooleanField). */
  Boolean,
  /** Dates as UTC ISO 8601 text (DateTimeField, ISO output, UTC zone). */
  UtcIso,
  /**
   * A hyperlink (HyperlinkedRelatedField and HyperlinkedIdentityField of the library's own):
   * the URL the field already answered for the request and lookup value, else generic.
   */
  Link,
}

/** Marks "read the generic way" (fast read not possible) and "leave the field out". */
const MISS: unique symbol = Symbol('miss');
const SKIP: unique symbol = Symbol('skip');

/** One readable field, compiled. */
interface Entry {
  readonly name: string;
  /** The field's `source` path, split. */
  readonly sourceAttrs: readonly string[];
  /** The `source` path; null when the field reads through its own `getAttribute()`. */
  readonly attrs: readonly string[] | null;
  /** Per path segment: the model class whose `dataValues` may be read directly for it. */
  readonly directClasses: unknown[];
  readonly convert: Convert;
  /** For `Convert.Link`: the field compiled (its options and URL memo). */
  readonly link: HyperlinkedRelatedField | null;
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/** What a plan reads a field from when a value needs it: the serializer being represented. */
export interface PlanFields {
  /** The serializer's bound readable fields, in the plan's order. */
  readonly readableFields: readonly Field[];
  /** The serializer's context (`request`, `format`): what hyperlinks depend on. */
  readonly context: Record<string, unknown>;
}

/** A serializer's readable fields compiled for fast, repeated `represent()` calls. */
export class RepresentationPlan {
  private readonly entries: Entry[];
  /** Scratch space for one row's values; a re-entrant call (a method field representing
   * another object with the same serializer) gets its own. */
  private readonly values: unknown[];
  private busy = false;
  private readonly build: RowBuilder | null;

  /** Compile `fields` (the readable, bound fields of one serializer, in output order). */
  constructor(fields: readonly Field[]) {
    this.entries = fields.map(compileEntry);
    this.values = new Array<unknown>(fields.length);
    this.build = rowBuilder(this.entries.map((entry) => entry.name));
  }

  /**
   * True when `fields` compile to this very plan (same names, paths, readers and
   * conversions), so a serializer whose fields were changed after construction can still
   * share a class's plan when the change made no difference, and gets its own otherwise.
   */
  matches(fields: readonly Field[]): boolean {
    const entries = this.entries;
    if (fields.length !== entries.length) return false;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      const field = fields[i];
      if (entry.name !== field.fieldName || entry.convert !== converterOf(field)) return false;
      if (entry.link !== null && !sameLink(entry.link, field as HyperlinkedRelatedField)) return false;
      const direct = readsDirectly(field);
      if ((entry.attrs === null) === direct) return false;
      const attrs = field.sourceAttrs;
      if (entry.sourceAttrs.length !== attrs.length) return false;
      for (let j = 0; j < attrs.length; j++) if (entry.sourceAttrs[j] !== attrs[j]) return false;
    }
    return true;
  }

  /**
   * The representation of one object: field name -> primitive value, in field order. `owner`
   * gives the bound fields for values the fast path cannot produce (read on demand).
   */
  represent(instance: unknown, owner: PlanFields): Record<string, unknown> {
    if (this.busy) return this.representInto(instance, owner, new Array<unknown>(this.entries.length));
    this.busy = true;
    try {
      return this.representInto(instance, owner, this.values);
    } finally {
      this.busy = false;
    }
  }

  private representInto(instance: unknown, owner: PlanFields, values: unknown[]): Record<string, unknown> {
    const entries = this.entries;
    const count = entries.length;
    let skipped = false;
    for (let i = 0; i < count; i++) {
      const entry = entries[i];
      let value: unknown = entry.attrs === null ? MISS : readPath(entry, instance);
      if (value === MISS) value = readGeneric(owner.readableFields[i], instance);
      if (value === SKIP) {
        skipped = true;
        values[i] = SKIP;
        continue;
      }
      values[i] = value === null || value === undefined ? null : convert(entry, value, owner, i);
    }
    if (this.build !== null && !skipped) return this.build(values);
    const ret: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) if (values[i] !== SKIP) ret[entries[i].name] = values[i];
    return ret;
  }
}

function compileEntry(field: Field): Entry {
  const direct = readsDirectly(field);
  const convert = converterOf(field);
  return {
    name: field.fieldName,
    sourceAttrs: [...field.sourceAttrs],
    attrs: direct ? [...field.sourceAttrs] : null,
    directClasses: field.sourceAttrs.map(() => null),
    convert,
    // An unbound copy: same options and URL memo, no reference to the serializer it came from.
    link: convert === Convert.Link ? (field as HyperlinkedRelatedField).copy() : null,
  };
}

/**
 * True when the field's value is what its `source` path reads the generic way: the generic
 * `getAttribute()`, or a relational field's for the whole object (`source: '*'`, which reads
 * the object itself the same way).
 */
function readsDirectly(field: Field): boolean {
  if (field.getAttribute === Field.prototype.getAttribute) return true;
  return field.getAttribute === RelatedField.prototype.getAttribute && field.source === '*' && field.sourceAttrs.length === 0;
}

/**
 * True when two hyperlinked fields (both `Convert.Link`: the library's methods) build the same
 * URLs: the same options.
 */
function sameLink(a: HyperlinkedRelatedField, b: HyperlinkedRelatedField): boolean {
  return a.viewName === b.viewName && a.lookupField === b.lookupField && a.lookupUrlKwarg === b.lookupUrlKwarg && a.format === b.format;
}

/** The inline conversion for `field`, when its `toRepresentation()` is a known, cheap one. */
function converterOf(field: Field): Convert {
  const method = field.toRepresentation;
  if (method === HyperlinkedRelatedField.prototype.toRepresentation && field instanceof HyperlinkedRelatedField
    && field.reverse === reverse && field.getUrl === HyperlinkedRelatedField.prototype.getUrl) return Convert.Link;
  if (method === ReadOnlyField.prototype.toRepresentation) return Convert.Identity;
  if (method === CharField.prototype.toRepresentation) return Convert.Text;
  if (method === IntegerField.prototype.toRepresentation && field instanceof IntegerField && !field.localize) return Convert.Integer;
  if (method === BooleanField.prototype.toRepresentation) return Convert.Boolean;
  if (method === ChoiceField.prototype.toRepresentation && field instanceof ChoiceField) {
    // A string value `s` is represented as the choice whose text is `s`, else as `s` itself:
    // when every choice is a string, that is `s` either way.
    return choicesAreStrings(field.choiceStringsToValues) ? Convert.Text : Convert.Generic;
  }
  if (method === DateTimeField.prototype.toRepresentation && field instanceof DateTimeField) {
    const format = field.format !== undefined ? field.format : apiSettings.DATETIME_FORMAT;
    if (format !== null && format.toLowerCase() === ISO_8601 && field.defaultTimezone() === 'UTC') return Convert.UtcIso;
  }
  return Convert.Generic;
}

/** Per choices map (shared by a field's copies): its size when checked, and whether every choice is a string. */
const stringChoices = new WeakMap<ReadonlyMap<string, unknown>, { size: number; strings: boolean }>();

/** True when every choice value is its own text (plans are compiled per request for written serializers). */
function choicesAreStrings(choices: ReadonlyMap<string, unknown>): boolean {
  const known = stringChoices.get(choices);
  if (known !== undefined && known.size === choices.size) return known.strings;
  let strings = true;
  for (const [text, value] of choices) {
    if (text !== value) {
      strings = false;
      break;
    }
  }
  stringChoices.set(choices, { size: choices.size, strings });
  return strings;
}

/**
 * Read the source path the fast way: `dataValues` of model instances without a custom getter
 * for the segment, own data of plain objects. Returns MISS whenever the generic reader might
 * answer differently (missing or undefined values, callables, other kinds of objects).
 */
function readPath(entry: Entry, instance: unknown): unknown {
  const attrs = entry.attrs as readonly string[];
  let current = instance;
  for (let i = 0; i < attrs.length; i++) {
    if (current === null || typeof current !== 'object') return MISS;
    const attr = attrs[i];
    const dataValues = (current as { dataValues?: unknown }).dataValues;
    let value: unknown;
    if (dataValues !== null && typeof dataValues === 'object') {
      const cls = current.constructor;
      if (cls !== entry.directClasses[i]) {
        if (classHasCustomGetter(cls, attr)) return MISS;
        entry.directClasses[i] = cls;
      }
      value = (dataValues as Record<string, unknown>)[attr];
    } else {
      if (current.constructor !== Object) return MISS;
      value = (current as Record<string, unknown>)[attr];
    }
    if (value === undefined || typeof value === 'function') return MISS;
    current = value;
  }
  return current;
}

/** The field's own `getAttribute()`; SKIP when it asks to leave the field out. */
function readGeneric(field: Field, instance: unknown): unknown {
  try {
    return field.getAttribute(instance);
  } catch (error) {
    if (error instanceof SkipField) return SKIP;
    throw error;
  }
}

function convert(entry: Entry, value: unknown, owner: PlanFields, index: number): unknown {
  switch (entry.convert) {
    case Convert.Identity:
      if (value instanceof PKOnlyObject && (value.pk === null || value.pk === undefined)) return null;
      return value;
    case Convert.Text:
      if (typeof value === 'string') return value;
      break;
    case Convert.Integer:
      if (typeof value === 'number') return Math.trunc(value);
      break;
    case Convert.Boolean:
      if (value === true || value === false) return value;
      break;
    case Convert.UtcIso:
      if (value instanceof Date) {
        const text = utcIsoString(value);
        if (text !== null) return text;
      }
      break;
    case Convert.Link: {
      if (value instanceof PKOnlyObject && (value.pk === null || value.pk === undefined)) return null;
      const url = (entry.link as HyperlinkedRelatedField).knownUrl(value, owner.context);
      if (url !== undefined) return url;
      break;
    }
    default:
      if (value instanceof PKOnlyObject && (value.pk === null || value.pk === undefined)) return null;
  }
  return owner.readableFields[index].toRepresentation(value);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Row builders by field-name list: one generated function per distinct list of names. */
const rowBuilders = new Map<string, RowBuilder | null>();
/** Beyond this many distinct lists (serializers built on the fly), the builders are dropped. */
const MAX_ROW_BUILDERS = 1000;

/**
 * A function building a row object from the values in field order, as one object literal
 * (shared by every plan with the same names). Null when a name cannot be a plain literal
 * key (`__proto__` would set the prototype).
 */
function rowBuilder(names: readonly string[]): RowBuilder | null {
  const key = JSON.stringify(names);
  let builder = rowBuilders.get(key);
  if (builder === undefined) {
    if (rowBuilders.size >= MAX_ROW_BUILDERS) rowBuilders.clear();
    builder = compileRowBuilder(names);
    rowBuilders.set(key, builder);
  }
  return builder;
}

function compileRowBuilder(names: readonly string[]): RowBuilder | null {
  if (!names.length || names.includes('__proto__') || new Set(names).size !== names.length) return null;
  const props = names.map((name, i) => `${IDENTIFIER.test(name) ? name : JSON.stringify(name)}: values[${i}]`);
  return new Function('values', `return { ${props.join(', ')} };`) as RowBuilder;
}
