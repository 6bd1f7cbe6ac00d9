/**
 * The browsable API's HTML forms (contrib/browsable/forms.ts), one field type at a time, as
 * the original's HTMLFormRenderer chooses its controls: text/email/url/number/date/time
 * inputs, textarea style, checkbox, selects with groups, blank and cutoff, multi-selects,
 * related fields, lists and nested serializers, file inputs, hidden and read-only fields left
 * out, help text, errors, and every value escaped.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderSerializerForm } from '../../contrib/browsable/forms';
import { overrideSettings } from '../../lib/core/conf';
import { ValidationError } from '../../lib/exceptions';
import {
  BooleanField, CharField, ChoiceField, DateField, DateTimeField, DecimalField, DictField, EmailField, FileField, FloatField,
  HiddenField, IntegerField, JSONField, ListField, MultipleChoiceField, ReadOnlyField, TimeField, URLField, type Field,
} from '../../lib/fields';
import { ManyRelatedField, RelatedField } from '../../lib/relations';
import { Serializer } from '../../lib/serializers';

const test = suite('browsable forms');

/** A form of one serializer holding `fields`, bound to `instance` or to submitted `data`. */
async function form(fields: Record<string, Field | Serializer>, init: { instance?: unknown; data?: unknown } = {}): Promise<string> {
  class FormSerializer extends Serializer {
    static fields = fields;
  }
  if (init.data !== undefined) {
    const serializer = new FormSerializer({ data: init.data });
    await serializer.isValid();
    return renderSerializerForm(serializer);
  }
  return renderSerializerForm(init.instance !== undefined ? new FormSerializer(init.instance) : new FormSerializer());
}

/** The widget of the control named `name` (the element after its label). */
function widget(html: string, name: string): string {
  const start = html.indexOf(`name="${name}"`);
  assert.ok(start >= 0, `no control named ${name} in ${html}`);
  const open = html.lastIndexOf('<', start);
  const tag = html.slice(open + 1, html.indexOf(' ', open));
  const end = tag === 'input' ? html.indexOf('>', start) + 1 : html.indexOf(`</${tag}>`, start) + tag.length + 3;
  return html.slice(open, end);
}

const HOSTILE = '"><script>alert(1)</script>&amp;';
const ESCAPED = '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;';

test('inputs :: type by field class, the value escaped', async () => {
  const html = await form({
    title: new CharField(),
    email: new EmailField(),
    site: new URLField(),
    count: new IntegerField(),
    ratio: new FloatField(),
    price: new DecimalField({ maxDigits: 5, decimalPlaces: 2 }),
    day: new DateField(),
    at: new TimeField(),
  }, { instance: { title: HOSTILE, email: 'a@example.com', site: 'http://x.test/?a=1&b=2', count: 3, ratio: 0.5, price: '1.50', day: '2024-02-29', at: '10:30:00' } });
  assert.is(widget(html, 'title'), `<input type="text" class="form-control" id="id_title" name="title" value="${ESCAPED}">`);
  assert.match(widget(html, 'email'), /^<input type="email" [^>]*value="a@example\.com">$/);
  assert.match(widget(html, 'site'), /^<input type="url" [^>]*value="http:\/\/x\.test\/\?a=1&amp;b=2">$/);
  assert.match(widget(html, 'count'), /^<input type="number" [^>]*value="3">$/);
  assert.match(widget(html, 'ratio'), /^<input type="number" [^>]*value="0.5" step="any">$/);
  // The original's default style has no entry for DecimalField: a text input.
  assert.match(widget(html, 'price'), /^<input type="text" [^>]*value="1.50">$/);
  assert.match(widget(html, 'day'), /^<input type="date" [^>]*value="2024-02-29">$/);
  assert.match(widget(html, 'at'), /^<input type="time" [^>]*value="10:30:00">$/);
  assert.not.ok(html.includes('<script>'));
});

test('inputs :: datetime-local drops the trailing Z; style input_type and placeholder win', async () => {
  const html = await form({
    when: new DateTimeField(),
    secret: new CharField({ style: { input_type: 'password', placeholder: 'your "secret"' } }),
  }, { instance: { when: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), secret: 'x' } });
  assert.match(widget(html, 'when'), /^<input type="datetime-local" [^>]*value="2024-01-02T03:04:05">$/);
  assert.match(widget(html, 'secret'), /^<input type="password" [^>]*value="x" placeholder="your &quot;secret&quot;">$/);
});

test('inputs :: an unbound form has empty values; null shows as empty', async () => {
  const empty = await form({ title: new CharField(), count: new IntegerField({ allowNull: true }) });
  assert.match(widget(empty, 'title'), /value=""/);
  const nulls = await form({ title: new CharField({ allowNull: true }), count: new IntegerField({ allowNull: true }) }, { instance: { title: null, count: null } });
  assert.match(widget(nulls, 'title'), /value=""/);
  assert.match(widget(nulls, 'count'), /value=""/);
});

test('textarea :: base_template textarea.html (rows from the style), JSONField indented', async () => {
  const html = await form({
    code: new CharField({ style: { base_template: 'textarea.html', rows: 10 } }),
    notes: new CharField({ style: { base_template: 'textarea.html' } }),
    meta: new JSONField(),
  }, { instance: { code: `</textarea>${HOSTILE}`, notes: 'n', meta: { b: [1, 2], a: 'é' } } });
  assert.is(widget(html, 'code'), `<textarea class="form-control" rows="10" id="id_code" name="code">&lt;/textarea&gt;${ESCAPED}</textarea>`);
  assert.match(widget(html, 'notes'), /^<textarea [^>]*>n<\/textarea>$/);
  // The original dumps with sort_keys=True, indent=4 and ASCII escapes.
  assert.ok(widget(html, 'meta').includes('{\n    &quot;a&quot;: &quot;\\u00e9&quot;,\n    &quot;b&quot;: [\n        1,\n        2\n    ]\n}'), widget(html, 'meta'));
});

test('checkbox :: BooleanField, checked when true', async () => {
  const on = await form({ flag: new BooleanField() }, { instance: { flag: true } });
  assert.is(widget(on, 'flag'), '<input type="checkbox" id="id_flag" name="flag" value="true" checked>');
  const off = await form({ flag: new BooleanField() }, { instance: { flag: false } });
  assert.is(widget(off, 'flag'), '<input type="checkbox" id="id_flag" name="flag" value="true">');
});

test('select :: ChoiceField options, grouped choices, selected value, escaped labels', async () => {
  const choices: Array<[unknown, unknown]> = [
    ['py', 'Python'],
    ['Compiled', [['c', 'C'], ['rs', 'Rust <2>']]],
    ['x"y', 'Quote'],
  ];
  const html = await form({ lang: new ChoiceField({ choices: choices as never }) }, { instance: { lang: 'rs' } });
  assert.is(widget(html, 'lang'),
    '<select class="form-control" id="id_lang" name="lang"><option value="py">Python</option>' +
    '<optgroup label="Compiled"><option value="c">C</option><option value="rs" selected>Rust &lt;2&gt;</option></optgroup>' +
    '<option value="x&quot;y">Quote</option></select>');
});

test('select :: allowBlank / allowNull add the blank option, selected when there is no value', async () => {
  const blank = await form({ lang: new ChoiceField({ choices: ['a', 'b'], allowBlank: true }) }, { instance: { lang: '' } });
  assert.match(widget(blank, 'lang'), /^<select [^>]*><option value="" selected>--------<\/option><option value="a">a<\/option>/);
  const nullable = await form({ lang: new ChoiceField({ choices: ['a', 'b'], allowNull: true }) }, { instance: { lang: 'b' } });
  assert.match(widget(nullable, 'lang'), /<option value="">--------<\/option><option value="a">a<\/option><option value="b" selected>b<\/option>/);
  const required = await form({ lang: new ChoiceField({ choices: ['a', 'b'] }) });
  assert.not.ok(widget(required, 'lang').includes('--------'));
});

test('select :: htmlCutoff and its text on a ChoiceField; integer values match their spelling', async () => {
  const choices = Array.from({ length: 5 }, (_, i) => [i + 1, `n${i + 1}`] as [number, string]);
  const cut = await form({ n: new ChoiceField({ choices, htmlCutoff: 2, htmlCutoffText: 'Over {count}!' }) }, { instance: { n: 2 } });
  assert.is(widget(cut, 'n'),
    '<select class="form-control" id="id_n" name="n"><option value="1">n1</option><option value="2" selected>n2</option>' +
    '<option value="n/a" disabled>Over 2!</option></select>');
  // Without htmlCutoff a ChoiceField lists everything (HTML_SELECT_CUTOFF is for relations).
  await overrideSettings({ API_FRAMEWORK: { HTML_SELECT_CUTOFF: 1 } }, async () => {
    const all = await form({ n: new ChoiceField({ choices }) });
    assert.is((widget(all, 'n').match(/<option /g) ?? []).length, 5);
  });
});

test('multi-select :: MultipleChoiceField selects every current value; no choices is a disabled select', async () => {
  const html = await form({ tags: new MultipleChoiceField({ choices: ['a', 'b', 'c'] }) }, { instance: { tags: ['a', 'c'] } });
  assert.is(widget(html, 'tags'),
    '<select multiple class="form-control" id="id_tags" name="tags"><option value="a" selected>a</option>' +
    '<option value="b">b</option><option value="c" selected>c</option></select>');
  const none = await form({ tags: new MultipleChoiceField({ choices: [] }) });
  assert.is(widget(none, 'tags'), '<select multiple disabled class="form-control" id="id_tags" name="tags"><option>No items to select.</option></select>');
});

/** A relation over an in-memory list: `{ id, name }` rows shown by name. */
class NamedRelatedField extends RelatedField {
  static rows = [{ id: 1, name: 'alice' }, { id: 2, name: 'bob <b>' }, { id: 3, name: 'carol' }];

  override getQueryset(): never {
    throw new Error('not used');
  }

  override async getChoices(cutoff: number | null = null): Promise<Map<unknown, string>> {
    const rows = cutoff ? NamedRelatedField.rows.slice(0, cutoff) : NamedRelatedField.rows;
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  override toRepresentation(value: unknown): unknown {
    return (value as { id: number }).id;
  }
}

test('related :: select of related objects; many is a multi-select; HTML_SELECT_CUTOFF and its text', async () => {
  const html = await form({ owner: new NamedRelatedField({ allowNull: true }) }, { instance: { owner: { id: 2 } } });
  assert.is(widget(html, 'owner'),
    '<select class="form-control" id="id_owner" name="owner"><option value="">--------</option><option value="1">alice</option>' +
    '<option value="2" selected>bob &lt;b&gt;</option><option value="3">carol</option></select>');
  const many = new NamedRelatedField({ many: true });
  assert.instance(many, ManyRelatedField);
  const manyHtml = await form({ owners: many }, { instance: { owners: [{ id: 1 }, { id: 3 }] } });
  assert.match(widget(manyHtml, 'owners'), /^<select multiple [^>]*><option value="1" selected>alice<\/option><option value="2">bob &lt;b&gt;<\/option><option value="3" selected>carol<\/option><\/select>$/);
  await overrideSettings({ API_FRAMEWORK: { HTML_SELECT_CUTOFF: 2, HTML_SELECT_CUTOFF_TEXT: 'Only {count} shown' } }, async () => {
    const cut = await form({ owner: new NamedRelatedField() });
    assert.match(widget(cut, 'owner'), /<option value="2">bob &lt;b&gt;<\/option><option value="n\/a" disabled>Only 2 shown<\/option><\/select>$/);
  });
});

test('lists, dicts and nested serializers :: lists unsupported, nested fields in a fieldset', async () => {
  class Address extends Serializer {
    static fields = { street: new CharField(), city: new CharField({ readOnly: true }) };
  }
  class Tag extends Serializer {
    static fields = { name: new CharField() };
  }
  const html = await form({
    scores: new ListField({ child: new IntegerField() }),
    extra: new DictField(),
    address: new Address(),
    tags: new Tag({ many: true }),
  }, { instance: { scores: [1], extra: {}, address: { street: 'Main <1>', city: 'X' }, tags: [] } });
  assert.match(html, /<label class="control-label" for="id_scores">Scores<\/label><div class="controls"><p class="help-block">Lists are not currently supported in HTML input\.<\/p>/);
  assert.match(html, /Dictionaries are not currently supported in HTML input\./);
  assert.match(html, /<fieldset><legend>Address<\/legend><div class="form-group"><label class="control-label" for="id_address\.street">Street<\/label>/);
  assert.match(widget(html, 'address.street'), /value="Main &lt;1&gt;"/);
  assert.not.ok(html.includes('address.city'), 'read-only nested fields are left out');
  assert.match(html, /<fieldset><legend>Tags<\/legend><p class="help-block">Lists are not currently supported in HTML input\.<\/p><\/fieldset>/);
});

test('file, hidden and read-only :: file input without a value; hidden and read-only fields omitted', async () => {
  const html = await form({
    upload: new FileField({ required: false }),
    owner: new HiddenField({ default: 'me' }),
    created: new ReadOnlyField(),
    title: new CharField({ readOnly: true }),
    body: new CharField(),
  }, { instance: { upload: '/media/x.txt', created: 'now', title: 't', body: 'b' } });
  assert.is(widget(html, 'upload'), '<input type="file" class="form-control" id="id_upload" name="upload">');
  for (const name of ['owner', 'created', 'title']) assert.not.ok(html.includes(`name="${name}"`), name);
  assert.is((html.match(/class="form-group/g) ?? []).length, 2);
});

test('labels, help text and errors :: label from the field name or label, help and messages escaped, no required marks', async () => {
  const html = await form({
    full_name: new CharField({ helpText: 'Your <b>name</b>.', maxLength: 3 }),
    nick: new CharField({ label: 'Nick "name"', required: false }),
  }, { data: { full_name: '<too long>', nick: 'ok' } });
  assert.match(html, /<div class="form-group has-error"><label class="control-label" for="id_full_name">Full name<\/label>/);
  assert.ok(widget(html, 'full_name').includes('value="&lt;too long&gt;"'), 'the submitted value refills the form, escaped');
  assert.match(html, /<ul class="errorlist"><li>Ensure this field has no more than 3 characters\.<\/li><\/ul><span class="help-block">Your &lt;b&gt;name&lt;\/b&gt;\.<\/span>/);
  assert.match(html, /<div class="form-group"><label class="control-label" for="id_nick">Nick &quot;name&quot;<\/label>/);
  assert.not.match(html, /required|\*/, 'the original marks no field as required (its forms are novalidate)');
});

test('non-field errors :: shown above the fields, escaped', async () => {
  class Pair extends Serializer {
    static fields = { a: new CharField() };
    override validate(): never {
      throw new ValidationError('Bad <pair>.');
    }
  }
  const serializer = new Pair({ data: { a: 'x' } });
  await serializer.isValid();
  const html = await renderSerializerForm(serializer);
  assert.ok(html.startsWith('<div class="alert alert-danger">Bad &lt;pair&gt;.</div>'), html);
});

test('renderSerializerForm :: a list serializer is refused; idPrefix keeps ids apart', async () => {
  class One extends Serializer {
    static fields = { a: new CharField() };
  }
  const refused = await renderSerializerForm(new One({ many: true }) as never).then(() => null, (error: unknown) => error);
  assert.instance(refused, TypeError);
  assert.match(String(refused), /Only a Serializer/);
  assert.match(await renderSerializerForm(new One(), 'put-'), /id="put-id_a"/);
});

test.run();
