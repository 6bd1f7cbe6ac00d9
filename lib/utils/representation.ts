/**
 * User-friendly representations of serializers and their fields, as the original's
 * `utils/representation.py`: `String(serializer)` lists each field with the options it was
 * declared (or generated) with, nested serializers indented below their field:
 *
 *     SnippetSerializer():
 *         id = IntegerField(label='ID', read_only=True)
 *         title = CharField(allow_blank=True, max_length=100, required=False)
 *
 * It is how to check what a `ModelSerializer` generated. The layout is the original's, option
 * names included (`max_length`, Python's spelling of the values: `True`, `None`, `'text'`), so
 * it reads like the original's documentation.
 */
import { setFieldRepr, type Field } from '../fields';
import { pythonStringRepr } from '../core/pythonRepr';
import {
  ChoiceField, DateTimeField, DecimalField, DictField, DurationField, FilePathField, FloatField, HiddenField,
  IntegerField, JSONField, ListField, MinMaxValueField, ReadOnlyField, RegexField, SerializerMethodField, SlugField,
  TemporalField, UUIDField, CharField,
} from '../fields';
import {
  HyperlinkedIdentityField, HyperlinkedRelatedField, ManyRelatedField, RelatedField, SlugRelatedField,
} from '../relations';

type Kwargs = Record<string, unknown>;
type OwnOptions = (field: Field) => Array<[string, unknown, unknown]>;

/** A Python tuple, for `repr()` (`('a', 'A')`). */
class Tuple {
  constructor(readonly items: readonly unknown[]) {}
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
}

function isQuerySetLike(value: unknown): value is { model: { name: string }; state?: unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { filter?: unknown }).filter === 'function'
    && typeof (value as { model?: { name?: unknown } }).model?.name === 'string';
}

/** Python's `repr()` of an option value, as the original's `smart_repr`. */
export function smartRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return pythonStringRepr(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Tuple) {
    return value.items.length === 1 ? `(${smartRepr(value.items[0])},)` : `(${value.items.map(smartRepr).join(', ')})`;
  }
  if (Array.isArray(value)) return `[${value.map(smartRepr).join(', ')}]`;
  if (value instanceof RegExp) return `re.compile(${pythonStringRepr(value.source)})`;
  if (typeof value === 'function') return `<function ${value.name || 'anonymous'}>`;
  if (isQuerySetLike(value)) return `${value.model.name}.objects.all()`;
  if (isFieldLike(value)) return fieldRepr(value);
  const ctor = (value as object).constructor;
  if (!ctor || ctor === Object) {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonStringRepr(k)}: ${smartRepr(v)}`).join(', ')}}`;
  }
  // The original's validators and defaults: `<UniqueValidator(queryset=User.objects.all())>`,
  // `<UniqueTogetherValidator(queryset=..., fields=('a', 'b'))>`, `CurrentUserDefault()`.
  const options = (value as { options?: { queryset?: unknown; fields?: readonly unknown[] } }).options;
  if (options && isQuerySetLike(options.queryset)) {
    const fields = options.fields ? `, fields=${smartRepr(new Tuple(options.fields))}` : '';
    return `<${ctor.name}(queryset=${smartRepr(options.queryset)}${fields})>`;
  }
  if (ctor.name.endsWith('Default')) return `${ctor.name}()`;
  if (typeof (value as { toString?: unknown }).toString === 'function' && (value as object).toString !== Object.prototype.toString) {
    const text = String(value);
    if (!text.startsWith('[object ')) return text;
  }
  return `<${ctor.name} object>`;
}

function isFieldLike(value: unknown): value is Field {
  return value !== null && typeof value === 'object' && typeof (value as { fieldName?: unknown }).fieldName === 'string'
    && typeof (value as { runValidation?: unknown }).runValidation === 'function';
}

/** Choices as declared: plain values stay values, `[value, label]` pairs print as tuples. */
function choicesRepr(choices: unknown): unknown {
  if (!Array.isArray(choices)) return choices;
  return choices.map((choice) => (Array.isArray(choice)
    ? new Tuple(choice.map((part) => (Array.isArray(part) ? choicesRepr(part) : part))) : choice));
}

let ownOptionsTable: Array<[abstract new (...args: never[]) => Field, OwnOptions]> | null = null;

/** Per field class: the options its constructor keeps for itself, as [name, value, default]. */
function ownOptions(): Array<[abstract new (...args: never[]) => Field, OwnOptions]> {
  ownOptionsTable ??= [
    [CharField, (f) => {
      const c = f as CharField;
      return [['allowBlank', c.allowBlank, false], ['trimWhitespace', c.trimWhitespace, true], ['maxLength', c.maxLength, null],
        ['minLength', c.minLength, null]];
    }],
    [RegexField, (f) => [['regex', (f as RegexField).regex, undefined]]],
    [SlugField, (f) => [['allowUnicode', (f as SlugField).allowUnicode, false]]],
    [UUIDField, (f) => [['format', (f as UUIDField).uuidFormat, 'hex_verbose']]],
    [MinMaxValueField, (f) => {
      const m = f as MinMaxValueField;
      return [['maxValue', m.maxValue, null], ['minValue', m.minValue, null]];
    }],
    [IntegerField, (f) => [['localize', (f as IntegerField).localize, false]]],
    [FloatField, (f) => [['localize', (f as FloatField).localize, false]]],
    [DecimalField, (f) => {
      const d = f as DecimalField;
      return [['maxDigits', d.maxDigits, undefined], ['decimalPlaces', d.decimalPlaces, undefined],
        ['coerceToString', d.coerceToString, undefined], ['localize', d.localize, false], ['rounding', d.rounding, 'ROUND_HALF_EVEN']];
    }],
    [TemporalField, (f) => {
      const t = f as TemporalField;
      return [['format', t.format, undefined], ['inputFormats', t.inputFormats, undefined]];
    }],
    [DateTimeField, (f) => [['defaultTimezone', (f as DateTimeField).timezone, undefined]]],
    [DurationField, () => []],
    [FilePathField, (f) => {
      const p = f as FilePathField;
      return [['path', p.path, undefined], ['match', p.match, null], ['recursive', p.recursive, false],
        ['allowFiles', p.allowFiles, true], ['allowFolders', p.allowFolders, false]];
    }],
    [ChoiceField, (f) => {
      const c = f as ChoiceField;
      if (f instanceof FilePathField) return [['allowBlank', c.allowBlank, false]];
      return [['choices', choicesRepr(c.declaredChoices), undefined], ['allowBlank', c.allowBlank, false],
        ['htmlCutoff', c.htmlCutoff, null]];
    }],
    [ListField, (f) => {
      const l = f as ListField;
      return [['child', l.child, undefined], ['allowEmpty', l.allowEmpty, true], ['maxLength', l.maxLength, null],
        ['minLength', l.minLength, null]];
    }],
    [DictField, (f) => [['child', (f as DictField).child, undefined], ['allowEmpty', (f as DictField).allowEmpty, true]]],
    [JSONField, (f) => [['binary', (f as JSONField).binary, false]]],
    [SerializerMethodField, (f) => [['methodName', (f as SerializerMethodField).methodName, null]]],
    [RelatedField, (f) => {
      const r = f as RelatedField;
      return [['queryset', r.queryset, null], ['htmlCutoff', r.htmlCutoff, null]];
    }],
    [SlugRelatedField, (f) => [['slugField', (f as SlugRelatedField).slugField, undefined]]],
    [HyperlinkedRelatedField, (f) => {
      const h = f as HyperlinkedRelatedField;
      return [['viewName', h.viewName, undefined], ['lookupField', h.lookupField, 'pk'],
        ['lookupUrlKwarg', h.lookupUrlKwarg, h.lookupField], ['format', h.format, null]];
    }],
  ];
  return ownOptionsTable;
}

/** Options a class sets for itself and the original does not list (`ReadOnlyField`'s `read_only`). */
function impliedOptions(field: Field): readonly string[] {
  if (field instanceof ReadOnlyField) return ['readOnly'];
  if (field instanceof SerializerMethodField) return ['readOnly', 'source'];
  if (field instanceof HiddenField) return ['writeOnly'];
  if (field instanceof HyperlinkedIdentityField) return ['readOnly', 'source'];
  return [];
}

/** The options `field` was declared (or generated) with, by this API's names. */
export function fieldKwargs(field: Field): Kwargs {
  const kwargs: Kwargs = {};
  const implied = impliedOptions(field);
  // A serializer lists what it was constructed with (`context`, `partial`, ...), not the instance.
  const serializerOptions = (field as { serializerOptions?: Record<string, unknown> }).serializerOptions;
  const declared = serializerOptions
    ? Object.fromEntries(Object.entries(serializerOptions).filter(([name]) => name !== 'instance' && name !== 'child'))
    : field.declaredOptions;
  for (const [name, value] of Object.entries(declared)) {
    if (value !== undefined && !implied.includes(name)) kwargs[name] = value;
  }
  for (const [cls, own] of ownOptions()) {
    if (!(field instanceof cls)) continue;
    for (const [name, value, fallback] of own(field)) {
      if (value === undefined || value === fallback) delete kwargs[name];
      else kwargs[name] = value;
    }
  }
  return kwargs;
}

/** One field as the original's `field_repr`: `CharField(max_length=100, required=False)`. */
export function fieldRepr(field: Field, forceMany: Field | null = null): string {
  const kwargs = { ...fieldKwargs(field) };
  if (forceMany) {
    kwargs.many = true;
    delete kwargs.child;
  }
  const pairs = Object.entries(kwargs).map(([name, value]): [string, unknown] => [snakeCase(name), value])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const args = pairs.map(([name, value]) => `${name}=${smartRepr(value)}`).join(', ');
  return `${(forceMany ?? field).constructor.name}(${args})`;
}

type SerializerLike = Field & { fields: Iterable<[string, Field]> };

function hasFields(field: unknown): field is SerializerLike {
  return field !== null && typeof field === 'object' && typeof (field as { getFields?: unknown }).getFields === 'function'
    && 'fields' in field;
}

function hasChild(field: unknown): field is Field & { child: Field } {
  return field !== null && typeof field === 'object' && (field as { child?: unknown }).child !== undefined
    && !(field instanceof ListField) && !(field instanceof DictField);
}

/** A serializer with its fields, as the original's `serializer_repr`. */
export function serializerRepr(serializer: Field, indent: number, forceMany: SerializerLike | null = null): string {
  let ret = `${fieldRepr(serializer, forceMany)}:`;
  const indentStr = '    '.repeat(indent);
  const fields = (forceMany ?? (serializer as SerializerLike)).fields;
  for (const [name, field] of fields) {
    ret += `\n${indentStr}${name} = `;
    if (hasFields(field)) ret += serializerRepr(field, indent + 1);
    else if (hasChild(field)) ret += listRepr(field, indent + 1);
    else if (field instanceof ManyRelatedField) ret += fieldRepr(field.childRelation, field.childRelation);
    else ret += fieldRepr(field);
  }
  const validators = serializer.getValidators();
  if (validators.length) {
    ret += `\n${indentStr}class Meta:`;
    ret += `\n${indentStr}    validators = ${smartRepr(validators)}`;
  }
  return ret;
}

/** A list serializer, as the original's `list_repr`. */
export function listRepr(serializer: Field & { child: Field }, indent: number): string {
  const child = serializer.child;
  if (hasFields(child)) return serializerRepr(serializer, indent, child);
  return fieldRepr(serializer);
}

/** What `String(field)` answers: serializers with their fields, other fields with their options. */
export function reprOf(field: Field): string {
  if (hasFields(field)) return serializerRepr(field, 1);
  if (hasChild(field)) return listRepr(field, 1);
  if (field instanceof ManyRelatedField) return fieldRepr(field.childRelation, field.childRelation);
  return fieldRepr(field);
}

setFieldRepr(reprOf);
