/**
 * `AutoSchema.mapField()` / `mapSerializer()`: every field type's JSON Schema 2020-12, one row
 * per field (formats, decimals as patterned strings, enums, null as a type array, readOnly /
 * writeOnly, limits, nested and `many` serializers as `$ref`s, related fields, lists and dicts),
 * and the request/response sides of one serializer.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BooleanField, CharField, ChoiceField, DateField, DateTimeField, DecimalField, DictField, DurationField, EmailField, Field,
  FileField, FloatField, HiddenField, ImageField, IntegerField, IPAddressField, JSONField, ListField, MultipleChoiceField,
  ReadOnlyField, RegexField, SerializerMethodField, SlugField, TimeField, URLField, UUIDField,
} from '../../lib/fields';
import { HyperlinkedIdentityField, HyperlinkedRelatedField, PrimaryKeyRelatedField, StringRelatedField } from '../../lib/relations';
import { Serializer } from '../../lib/serializers';
import { AutoSchema, nullable } from '../../lib/schemas';
import { overrideSettings } from '../../lib/core/conf';
import { MaxLengthValidator, MinValueValidator, RegexValidator } from '../../lib/validators';

const test = suite('schemas: field mapping');

class TagSerializer extends Serializer {
  static fields = { name: new CharField({ maxLength: 20 }) };
}

class EverythingSerializer extends Serializer {
  static fields = {
    flag: new BooleanField(),
    text: new CharField({ maxLength: 10, minLength: 2 }),
    blankable: new CharField({ allowBlank: true, required: false }),
    blankEmail: new EmailField({ allowBlank: true }),
    email: new EmailField(),
    slug: new SlugField(),
    regex: new RegexField({ regex: '^[a-z]+$' }),
    link: new URLField(),
    uuid: new UUIDField(),
    uuidHex: new UUIDField({ format: 'hex' }),
    ip: new IPAddressField(),
    ip4: new IPAddressField({ protocol: 'ipv4' }),
    ip6: new IPAddressField({ protocol: 'IPv6' as 'ipv6' }),
    count: new IntegerField({ minValue: 1, maxValue: 10 }),
    big: new IntegerField({ maxValue: 2 ** 40 }),
    ratio: new FloatField({ minValue: 0 }),
    price: new DecimalField({ maxDigits: 5, decimalPlaces: 2 }),
    amount: new DecimalField({ maxDigits: 4, decimalPlaces: 0, coerceToString: false }),
    when: new DateTimeField(),
    day: new DateField(),
    time: new TimeField(),
    span: new DurationField(),
    choice: new ChoiceField({ choices: [['a', 'A'], ['b', 'B']] }),
    level: new ChoiceField({ choices: [1, 2, 3], allowNull: true }),
    blankChoice: new ChoiceField({ choices: ['x'], allowBlank: true }),
    multi: new MultipleChoiceField({ choices: ['x', 'y'], allowEmpty: false }),
    upload: new FileField(),
    image: new ImageField({ required: false }),
    tags: new ListField({ child: new CharField({ maxLength: 3 }), maxLength: 4 }),
    anything: new ListField({ allowEmpty: false }),
    scores: new DictField({ child: new IntegerField() }),
    blob: new JSONField(),
    computed: new SerializerMethodField(),
    shown: new ReadOnlyField(),
    secret: new CharField({ writeOnly: true }),
    maybe: new CharField({ allowNull: true, required: false, helpText: 'Optional text.' }),
    defaulted: new IntegerField({ default: 3 }),
    hidden: new HiddenField({ default: 'h' }),
    nested: new TagSerializer(),
    nestedMany: new TagSerializer({ many: true }),
    nestedNull: new TagSerializer({ allowNull: true, required: false }),
    owner: new PrimaryKeyRelatedField({ readOnly: true }),
    byUrl: new HyperlinkedRelatedField({ viewName: 'x-detail', readOnly: true }),
    self: new HyperlinkedIdentityField({ viewName: 'x-detail' }),
    label: new StringRelatedField(),
    validated: new CharField({ validators: [new MaxLengthValidator(7), new RegexValidator(/^v/)] }),
    atLeast: new IntegerField({ validators: [new MinValueValidator(5)] }),
    raw: new Field({ required: false }),
  };

  getComputed(): string {
    return 'c';
  }
}

function schemaOf(direction: 'request' | 'response' = 'response'): { properties: Record<string, unknown>; required?: string[] } {
  const inspector = new AutoSchema();
  return inspector.mapSerializer(new EverythingSerializer(), direction) as { properties: Record<string, unknown>; required?: string[] };
}

const TAG = { $ref: '#/components/schemas/Tag' };

const RESPONSE_ROWS: Array<[string, unknown]> = [
  ['flag', { type: 'boolean' }],
  ['text', { type: 'string', maxLength: 10, minLength: 2 }],
  ['blankable', { type: 'string' }],
  ['blankEmail', { type: 'string', anyOf: [{ format: 'email' }, { const: '' }] }],
  ['email', { type: 'string', format: 'email' }],
  ['slug', { type: 'string', pattern: '^[-a-zA-Z0-9_]+$' }],
  ['regex', { type: 'string', pattern: '^[a-z]+$' }],
  ['link', { type: 'string', format: 'uri' }],
  ['uuid', { type: 'string', format: 'uuid' }],
  ['uuidHex', { type: 'string', pattern: '^[0-9a-f]{32}$' }],
  ['ip', { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] }],
  ['ip4', { type: 'string', format: 'ipv4' }],
  ['ip6', { type: 'string', format: 'ipv6' }],
  ['count', { type: 'integer', maximum: 10, minimum: 1 }],
  ['big', { type: 'integer', maximum: 2 ** 40, format: 'int64' }],
  ['ratio', { type: 'number', minimum: 0 }],
  ['price', { type: 'string', format: 'decimal', pattern: '^-?\\d{0,3}(?:\\.\\d{0,2})?$' }],
  ['amount', { type: 'number', exclusiveMaximum: 10000, exclusiveMinimum: -10000 }],
  ['when', { type: 'string', format: 'date-time' }],
  ['day', { type: 'string', format: 'date' }],
  ['time', { type: 'string', format: 'time' }],
  ['span', { type: 'string', pattern: '^-?(\\d+ )?\\d{2}:\\d{2}:\\d{2}(\\.\\d{6})?$' }],
  ['choice', { enum: ['a', 'b'], type: 'string' }],
  ['level', { enum: [1, 2, 3, null], type: ['integer', 'null'] }],
  ['blankChoice', { enum: ['x', ''], type: 'string' }],
  ['multi', { type: 'array', items: { enum: ['x', 'y'], type: 'string' }, uniqueItems: true, minItems: 1 }],
  ['upload', { type: 'string', format: 'uri' }],
  ['image', { type: 'string', format: 'uri' }],
  ['tags', { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 4 }],
  ['anything', { type: 'array', items: {}, minItems: 1 }],
  ['scores', { type: 'object', additionalProperties: { type: 'integer' } }],
  ['blob', {}],
  ['computed', { readOnly: true }],
  ['shown', { readOnly: true }],
  ['maybe', { type: ['string', 'null'], description: 'Optional text.' }],
  ['defaulted', { type: 'integer', default: 3 }],
  ['nested', TAG],
  ['nestedMany', { type: 'array', items: TAG }],
  ['nestedNull', { oneOf: [TAG, { type: 'null' }] }],
  ['owner', { type: 'integer', readOnly: true }],
  ['byUrl', { type: 'string', format: 'uri', readOnly: true }],
  ['self', { type: 'string', format: 'uri', readOnly: true }],
  ['label', { type: 'string', readOnly: true }],
  ['validated', { type: 'string', maxLength: 7, pattern: '^v' }],
  ['atLeast', { type: 'integer', minimum: 5 }],
  ['raw', {}],
];

test('response :: every field type, one row each (hidden and write-only fields left out)', () => {
  const { properties, required } = schemaOf('response');
  assert.equal(Object.keys(properties), RESPONSE_ROWS.map(([name]) => name));
  for (const [name, expected] of RESPONSE_ROWS) assert.equal(properties[name], expected, name);
  assert.not.ok('secret' in properties);
  assert.not.ok('hidden' in properties);
  assert.equal(required, RESPONSE_ROWS.map(([name]) => name).filter((name) => !['blankable', 'image', 'maybe', 'nestedNull', 'raw'].includes(name)));
});

test('request :: writable fields, write-only marked, files as binary, non-blank strings, nested request components', () => {
  const { properties, required } = schemaOf('request');
  for (const name of ['computed', 'shown', 'owner', 'byUrl', 'self', 'label', 'hidden']) assert.not.ok(name in properties, name);
  assert.equal(properties.secret, { type: 'string', minLength: 1, writeOnly: true });
  assert.equal(properties.upload, { type: 'string', format: 'binary' });
  assert.equal(properties.text, { type: 'string', maxLength: 10, minLength: 2 });
  assert.equal(properties.email, { type: 'string', format: 'email', minLength: 1 });
  assert.equal(properties.blankable, { type: 'string' });
  assert.equal(properties.nested, { $ref: '#/components/schemas/TagRequest' });
  assert.equal(properties.nestedMany, { type: 'array', items: { $ref: '#/components/schemas/TagRequest' } });
  assert.equal(properties.span, { type: 'string', description: 'A duration: `[DD] [HH:[MM:]]ss[.uuuuuu]` or ISO 8601 (`P1DT2H`).' });
  assert.equal(properties.blankEmail, { type: 'string', anyOf: [{ format: 'email' }, { const: '' }] });
  assert.ok(required);
  assert.ok(required.includes('secret') && required.includes('upload') && required.includes('nested'));
  assert.not.ok(required.includes('defaulted') || required.includes('maybe') || required.includes('image'));
  const partial = new AutoSchema().mapSerializer(new EverythingSerializer(), 'request', true);
  assert.is(partial.required, undefined);
});

test('components :: nested serializers registered once per side; sides shared when equal', () => {
  const inspector = new AutoSchema();
  assert.equal(inspector.getReference(new TagSerializer(), 'request'), { $ref: '#/components/schemas/TagRequest' });
  assert.equal(inspector.getReference(new EverythingSerializer(), 'response'), { $ref: '#/components/schemas/Everything' });
  const names = Object.keys(inspector.getComponents('/x/', 'DELETE'));
  assert.equal(names, ['Tag', 'TagRequest', 'Everything']);
  // A serializer whose sides are the same schema has one component.
  class PlainSerializer extends Serializer {
    static fields = { note: new CharField({ required: false, allowBlank: true }) };
  }
  const plain = new AutoSchema();
  assert.equal(plain.getReference(new PlainSerializer(), 'request', true), { $ref: '#/components/schemas/Plain' });
  class Serializer_ extends Serializer {}
  Object.defineProperty(Serializer_, 'name', { value: 'Serializer' });
  assert.throws(() => plain.getComponentName(new Serializer_()), /"Serializer" is an invalid class name for schema generation/);
  assert.is(new AutoSchema({ componentName: 'Thing' }).getComponentName(new TagSerializer()), 'Thing');
});

test('decimals :: numbers when COERCE_DECIMAL_TO_STRING is off', async () => {
  await overrideSettings({ API_FRAMEWORK: { COERCE_DECIMAL_TO_STRING: false } }, () => {
    const field = new DecimalField({ maxDigits: 6, decimalPlaces: 3, maxValue: 50 });
    assert.equal(new AutoSchema().mapField(field), { type: 'number', multipleOf: 0.001, exclusiveMaximum: 1000, exclusiveMinimum: -1000, maximum: 50 });
  });
});

test('nullable :: type arrays, enums with null, refs as oneOf', () => {
  assert.equal(nullable({ type: 'string', format: 'date' }), { type: ['string', 'null'], format: 'date' });
  assert.equal(nullable({ enum: ['a'], type: 'string' }), { enum: ['a', null], type: ['string', 'null'] });
  assert.equal(nullable({ $ref: '#/components/schemas/Tag' }), { oneOf: [{ $ref: '#/components/schemas/Tag' }, { type: 'null' }] });
  assert.equal(nullable({}), {});
});

test.run();
