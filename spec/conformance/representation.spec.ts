/**
 * `String(serializer)` and `String(field)` as the original's `repr()` prints them (checked
 * against DRF 3.14: `repr(FeatureSerializer())` of the reference project, the tutorial's
 * ModelSerializers). Deliberate difference: a queryset option prints as
 * `Snippet.objects.all()` (the original evaluates the query), validators without their module.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BooleanField, CharField, ChoiceField, CurrentUserDefault, DateTimeField, DecimalField, EmailField, HiddenField, IntegerField,
  ListField, ReadOnlyField, SerializerMethodField,
} from '../../lib/fields';
import { Serializer, type DeclaredFields } from '../../lib/serializers';
import { useTestDatabase } from '../../lib/core/db/testing';
import { Snippet } from '../../demo/snippets/models';
import { SnippetSerializer, UserSerializer } from '../../demo/snippets/serializers';

class NestedSerializer extends Serializer {
  static fields: DeclaredFields = { flag: new BooleanField(), note: new CharField() };
}

class FeatureSerializer extends Serializer {
  static fields: DeclaredFields = {
    name: new CharField({ maxLength: 5 }),
    count: new IntegerField({ minValue: 1 }),
    price: new DecimalField({ maxDigits: 5, decimalPlaces: 2 }),
    email: new EmailField(),
    choice: new ChoiceField({ choices: ['a', 'b'] }),
    tags: new ListField({ child: new CharField({ maxLength: 3 }) }),
    when: new DateTimeField({ required: false }),
    nested: new NestedSerializer({ required: false }),
  };
}

const FEATURE_FIELDS = `
    name = CharField(max_length=5)
    count = IntegerField(min_value=1)
    price = DecimalField(decimal_places=2, max_digits=5)
    email = EmailField()
    choice = ChoiceField(choices=['a', 'b'])
    tags = ListField(child=CharField(max_length=3))
    when = DateTimeField(required=False)
    nested = NestedSerializer(required=False):
        flag = BooleanField()
        note = CharField()`;

const test = suite('conformance :: serializer repr');
// The demo's model is bound for this suite only (it cascades from users).
useTestDatabase(test, { models: [Snippet] });

test('Serializer :: the original repr of the reference FeatureSerializer, byte for byte', () => {
  assert.is(String(new FeatureSerializer()), `FeatureSerializer():${FEATURE_FIELDS}`);
});

test('many=True :: the child class with many=True', () => {
  assert.is(String(new FeatureSerializer({ many: true })), `FeatureSerializer(many=True):${FEATURE_FIELDS}`);
});

test('ModelSerializer :: generated fields and their options, as the original generates them', () => {
  const lines = String(new SnippetSerializer()).split('\n');
  assert.equal(lines.slice(0, 5), [
    'SnippetSerializer():',
    "    id = IntegerField(label='ID', read_only=True)",
    '    title = CharField(allow_blank=True, max_length=100, required=False)',
    "    code = CharField(style={'base_template': 'textarea.html'})",
    '    linenos = BooleanField(required=False)',
  ]);
  assert.ok(lines[5].startsWith("    language = ChoiceField(choices=[('abap', 'ABAP'), ('abnf', 'ABNF'), "), lines[5]);
  assert.ok(lines[5].endsWith("], required=False)"), lines[5]);
  assert.ok(lines[6].startsWith("    style = ChoiceField(choices=[('abap', 'abap'), "), lines[6]);
  assert.is(lines[7], "    owner = ReadOnlyField(source='owner.username')");
  assert.is(String(new UserSerializer()), [
    'UserSerializer():',
    "    id = IntegerField(label='ID', read_only=True)",
    "    username = CharField(help_text='Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.', max_length=150, " +
      'validators=[<UnicodeUsernameValidator object>, <UniqueValidator(queryset=User.objects.all())>])',
    '    snippets = PrimaryKeyRelatedField(many=True, queryset=Snippet.objects.all())',
  ].join('\n'));
});

test('fields :: String(field) lists the declared options, sorted, in Python spelling', () => {
  const rows: Array<[unknown, string]> = [
    [new CharField({ maxLength: 5, allowBlank: true, helpText: "it's" }), 'CharField(allow_blank=True, help_text="it\'s", max_length=5)'],
    [new ReadOnlyField({ source: 'owner.username' }), "ReadOnlyField(source='owner.username')"],
    [new SerializerMethodField(), 'SerializerMethodField()'],
    [new SerializerMethodField({ methodName: 'getThing' }), "SerializerMethodField(method_name='getThing')"],
    [new HiddenField({ default: new CurrentUserDefault() }), 'HiddenField(default=CurrentUserDefault())'],
    [new IntegerField({ required: false, allowNull: true, default: null }), 'IntegerField(allow_null=True, default=None, required=False)'],
    [new ChoiceField({ choices: [[1, 'One'], [2, 'Two']] }), "ChoiceField(choices=[(1, 'One'), (2, 'Two')])"],
  ];
  for (const [field, expected] of rows) assert.is(String(field), expected);
});

test.run();
