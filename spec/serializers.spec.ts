/**
 * Plain serializers: declared fields and inheritance, validation hooks, errors, save(),
 * many=True (ListSerializer) and nested serializers, without a database.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ValidationError } from '../lib/exceptions';
import { overrideSettings } from '../lib/core/conf';
import {
  BooleanField, CharField, ChoiceField, DateTimeField, HiddenField, CurrentUserDefault, IntegerField, ListField, SerializerMethodField,
  ReadOnlyField,
} from '../lib/fields';
import { ListSerializer, Serializer, type DeclaredFields } from '../lib/serializers';

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

class CommentSerializer extends Serializer {
  static fields: DeclaredFields = {
    email: new CharField({ maxLength: 20 }),
    content: new CharField({ maxLength: 200 }),
    rating: new IntegerField({ required: false, default: 3 }),
  };

  validateContent(value: string): string {
    if (value.includes('spam')) throw new ValidationError('No spam.');
    return value.toUpperCase();
  }

  override validate(attrs: Record<string, unknown>): Record<string, unknown> {
    if (String(attrs.email).toUpperCase() === attrs.content) throw new ValidationError('Email and content must differ.');
    return attrs;
  }

  override create(validatedData: unknown): unknown {
    return { id: 1, ...(validatedData as object) };
  }

  override update(instance: unknown, validatedData: unknown): unknown {
    return { ...(instance as object), ...(validatedData as object) };
  }
}

const test = suite('serializers :: Serializer');

test('declared fields :: order, inheritance, override and removal with null', () => {
  class Child extends CommentSerializer {
    static override fields: DeclaredFields = { content: null, extra: new BooleanField({ required: false }), email: new CharField() };
  }
  assert.equal([...new CommentSerializer().fields.keys()], ['email', 'content', 'rating']);
  // As DRF 3.14: a redeclared inherited field keeps its place; new fields come last.
  assert.equal([...new Child().fields.keys()], ['email', 'rating', 'extra']);
  class Grandchild extends Child {
    static override fields: DeclaredFields = { more: new CharField(), rating: new CharField(), email: null };
  }
  assert.equal([...new Grandchild().fields.keys()], ['rating', 'extra', 'more']);
  assert.is(new Grandchild().fields.get('rating')?.constructor, CharField);
  assert.is(new Child().fields.get('email')?.constructor, CharField);
  assert.is((new CommentSerializer().fields.get('email') as CharField).maxLength, 20);
  // Each instance binds its own copies; the class's fields stay unbound.
  const a = new CommentSerializer();
  const b = new CommentSerializer();
  assert.is.not(a.fields.get('email'), b.fields.get('email'));
  assert.is(CommentSerializer.fields.email?.parent, null);
  assert.is(a.fields.get('email')?.parent, a);
});

test('isValid :: validated data, validate<Field> hooks and defaults', async () => {
  const s = new CommentSerializer({ data: { email: 'a@b.com', content: 'hello' } });
  assert.is(await s.isValid(), true);
  assert.equal(s.validatedData, { email: 'a@b.com', content: 'HELLO', rating: 3 });
  assert.equal(plain(s.errors), {});
});

test('errors :: per field lists, hook errors, non_field_errors', async () => {
  const s = new CommentSerializer({ data: { email: 'x'.repeat(21), content: 'spam here', rating: 'x' } });
  assert.is(await s.isValid(), false);
  assert.equal(plain(s.errors), {
    email: ['Ensure this field has no more than 20 characters.'],
    content: ['No spam.'],
    rating: ['A valid integer is required.'],
  });
  const same = new CommentSerializer({ data: { email: 'same', content: 'same' } });
  assert.is(await same.isValid(), false);
  assert.equal(plain(same.errors), { non_field_errors: ['Email and content must differ.'] });
  const missing = new CommentSerializer({ data: {} });
  await missing.isValid();
  assert.equal(plain(missing.errors), { email: ['This field is required.'], content: ['This field is required.'] });
  assert.equal((missing.errors.email as Array<{ code: string }>)[0].code, 'required');
});

test('errors :: NON_FIELD_ERRORS_KEY setting and non-object input', async () => {
  await overrideSettings({ API_FRAMEWORK: { NON_FIELD_ERRORS_KEY: 'errors' } }, async () => {
    const s = new CommentSerializer({ data: ['not', 'a', 'dict'] });
    assert.is(await s.isValid(), false);
    assert.equal(plain(s.errors), { errors: ['Invalid data. Expected a dictionary, but got list.'] });
  });
  const s = new CommentSerializer({ data: 'text' });
  await s.isValid();
  assert.equal(plain(s.errors), { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] });
});

test('isValid :: raiseException throws a ValidationError with the errors', async () => {
  const s = new CommentSerializer({ data: { email: 'a' } });
  try {
    await s.isValid({ raiseException: true });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ValidationError);
    assert.equal(plain((error as ValidationError).detail), { content: ['This field is required.'] });
    assert.equal((error as ValidationError).getCodes(), { content: ['required'] });
  }
});

test('partial :: missing fields are skipped, defaults not applied', async () => {
  const s = new CommentSerializer({ instance: { email: 'a', content: 'b', rating: 1 }, data: { content: 'new' }, partial: true });
  assert.is(await s.isValid(), true);
  assert.equal(s.validatedData, { content: 'NEW' });
  assert.equal(await s.save(), { email: 'a', content: 'NEW', rating: 1 });
});

test('save :: create with extra values, update, and the original assertions', async () => {
  const s = new CommentSerializer({ data: { email: 'a', content: 'b' } });
  assert.throws(() => s.data, /you must call `.isValid\(\)` before attempting to access the serialized `.data` representation\.\nYou should either call `.isValid\(\)` first, or access `.initialData` instead\./);
  await assert.not.throws(async () => undefined);
  let failed = '';
  try { await s.save(); } catch (error) { failed = String(error); }
  assert.match(failed, /You must call `.isValid\(\)` before calling `.save\(\)`/);
  await s.isValid();
  assert.equal(await s.save({ owner: 'alice' }), { id: 1, email: 'a', content: 'B', rating: 3, owner: 'alice' });
  assert.equal(plain(s.data), { email: 'a', content: 'B', rating: 3 });
  const bad = new CommentSerializer({ data: {} });
  await bad.isValid();
  failed = '';
  try { await bad.save(); } catch (error) { failed = String(error); }
  assert.match(failed, /You cannot call `.save\(\)` on a serializer with invalid data./);
  const none = new CommentSerializer();
  failed = '';
  try { await none.isValid(); } catch (error) { failed = String(error); }
  assert.match(failed, /Cannot call `.isValid\(\)` as no `data` option/);
});

test('assertions :: developer-facing messages name this API (isValid, validatedData, save({ owner }))', async () => {
  const unvalidated = new CommentSerializer({ data: { email: 'a', content: 'b' } });
  assert.throws(() => unvalidated.errors, /You must call `.isValid\(\)` before accessing `.errors`\./);
  assert.throws(() => unvalidated.validatedData, /You must call `.isValid\(\)` before accessing `.validatedData`\./);
  await unvalidated.isValid();
  let failed = '';
  try { await unvalidated.save({ commit: false }); } catch (error) { failed = String(error); }
  assert.match(failed, "inspect 'serializer.validatedData' instead");
  assert.match(failed, "For example: 'serializer.save({ owner: request.user })'.");
  void unvalidated.data;
  failed = '';
  try { await unvalidated.save(); } catch (error) { failed = String(error); }
  assert.match(failed, "You cannot call `.save()` after accessing `serializer.data`. If you need to access data before committing to the database then inspect 'serializer.validatedData' instead.");
});

test('data :: representation of an instance, initial values, invalid data echoed', async () => {
  const s = new CommentSerializer({ email: 'e', content: 'c', rating: 5 });
  assert.equal(plain(s.data), { email: 'e', content: 'c', rating: 5 });
  assert.is((s.data as { serializer?: unknown }).serializer, s);
  // Read again: the same representation, still marked (not enumerated); a copy marks its own.
  assert.is(s.data, s.data);
  assert.equal(Object.keys(s.data), ['email', 'content', 'rating']);
  const copied = s.copy();
  assert.is((copied.data as { serializer?: unknown }).serializer, copied);
  const many = new CommentSerializer([{ email: 'e', content: 'c', rating: 5 }], { many: true });
  assert.is(many.data, many.data);
  assert.is((many.data as { serializer?: unknown }).serializer, many);
  assert.equal(plain(many.data), [{ email: 'e', content: 'c', rating: 5 }]);
  assert.equal(plain(new CommentSerializer().data), { email: '', content: '', rating: null });
  const invalid = new CommentSerializer({ data: { email: 'x', content: 'spam' } });
  await invalid.isValid();
  assert.equal(plain(invalid.data), { email: 'x', content: 'spam' });
});

test('source, SerializerMethodField, writeOnly and HiddenField', async () => {
  class UserSerializer extends Serializer {
    static fields = {
      name: new CharField({ source: 'profile.name' }),
      greeting: new SerializerMethodField(),
      upper: new SerializerMethodField({ methodName: 'shout' }),
      password: new CharField({ writeOnly: true }),
      owner: new HiddenField({ default: new CurrentUserDefault() }),
      everything: new ReadOnlyField({ source: '*' }),
    };

    getGreeting(obj: { profile: { name: string } }): string {
      return `hi ${obj.profile.name}`;
    }

    shout(obj: { profile: { name: string } }): string {
      return obj.profile.name.toUpperCase();
    }
  }
  const s = new UserSerializer({ profile: { name: 'ann' }, password: 'secret' });
  assert.equal(plain(s.data), { name: 'ann', greeting: 'hi ann', upper: 'ANN', everything: { profile: { name: 'ann' }, password: 'secret' } });
  const input = new UserSerializer({ data: { name: 'bob', password: 'pw', owner: 'mallory' }, context: { request: { user: 'alice' } } });
  assert.is(await input.isValid(), true);
  assert.equal(input.validatedData, { profile: { name: 'bob' }, password: 'pw', owner: 'alice' });
});

const many = suite('serializers :: ListSerializer');

many('many=True builds a ListSerializer; data is a list', async () => {
  const s = new CommentSerializer([{ email: 'a', content: 'b', rating: 1 }, { email: 'c', content: 'd', rating: 2 }], { many: true });
  assert.instance(s, ListSerializer);
  assert.equal(plain(s.data), [{ email: 'a', content: 'b', rating: 1 }, { email: 'c', content: 'd', rating: 2 }]);
  const typed = CommentSerializer.many([{ email: 'x', content: 'y', rating: 0 }]);
  assert.equal(plain(typed.data), [{ email: 'x', content: 'y', rating: 0 }]);
});

many('validation :: errors per item, bulk create', async () => {
  const s = new CommentSerializer({ data: [{ email: 'a', content: 'b' }, { email: 'c' }], many: true });
  assert.is(await s.isValid(), false);
  assert.equal(plain(s.errors), [{}, { content: ['This field is required.'] }]);
  const ok = new CommentSerializer({ data: [{ email: 'a', content: 'b' }, { email: 'c', content: 'd' }], many: true });
  assert.is(await ok.isValid(), true);
  assert.equal(await ok.save({ owner: 1 }), [
    { id: 1, email: 'a', content: 'B', rating: 3, owner: 1 }, { id: 1, email: 'c', content: 'D', rating: 3, owner: 1 }]);
});

many('validation :: not a list, allowEmpty, maxLength, minLength', async () => {
  const check = async (options: Record<string, unknown>, data: unknown, expected: unknown): Promise<void> => {
    const s = new CommentSerializer({ data, many: true, ...options });
    assert.is(await s.isValid(), false);
    assert.equal(plain(s.errors), expected);
  };
  await check({}, { a: 1 }, { non_field_errors: ['Expected a list of items but got type "dict".'] });
  await check({ allowEmpty: false }, [], { non_field_errors: ['This list may not be empty.'] });
  await check({ maxLength: 1 }, [{ email: 'a', content: 'b' }, { email: 'a', content: 'b' }], { non_field_errors: ['Ensure this field has no more than 1 elements.'] });
  await check({ minLength: 2 }, [{ email: 'a', content: 'b' }], { non_field_errors: ['Ensure this field has at least 2 elements.'] });
  await check({}, null, { non_field_errors: ['No data provided'] });
  const update = new CommentSerializer([], { many: true, data: [] });
  await update.isValid();
  let message = '';
  try { await update.save(); } catch (error) { message = String(error); }
  assert.match(message, /Serializers with `many: true` do not support multiple update by default/);
});

const nested = suite('serializers :: nested');

class TrackSerializer extends Serializer {
  static fields = { order: new IntegerField(), title: new CharField({ maxLength: 10 }) };
}

class AlbumSerializer extends Serializer {
  static fields = {
    name: new CharField(),
    artist: new (class ArtistSerializer extends Serializer {
      static fields = { name: new CharField(), label: new CharField({ required: false }) };
    })(),
    tracks: new TrackSerializer({ many: true }),
    tags: new ListField({ child: new CharField(), required: false }),
  };

  override create(validatedData: unknown): unknown {
    return validatedData;
  }
}

nested('read :: nested objects and lists at any depth', () => {
  const album = { name: 'A', artist: { name: 'B', label: 'L' }, tracks: [{ order: 1, title: 'x' }, { order: 2, title: 'y' }], tags: ['t'] };
  assert.equal(plain(new AlbumSerializer(album).data), album);
});

nested('write :: validated nested data; errors nested by field and index', async () => {
  const ok = new AlbumSerializer({ data: { name: 'A', artist: { name: 'B' }, tracks: [{ order: '1', title: 'x' }] } });
  assert.is(await ok.isValid(), true);
  assert.equal(await ok.save(), { name: 'A', artist: { name: 'B' }, tracks: [{ order: 1, title: 'x' }] });
  const bad = new AlbumSerializer({ data: { name: 'A', artist: {}, tracks: [{ order: 1, title: 'x' }, { order: 'z', title: 'way too long title' }], tags: ['ok', ''] } });
  assert.is(await bad.isValid(), false);
  assert.equal(plain(bad.errors), {
    artist: { name: ['This field is required.'] },
    tracks: [{}, { order: ['A valid integer is required.'], title: ['Ensure this field has no more than 10 characters.'] }],
    tags: { 1: ['This field may not be blank.'] },
  });
  const error = new ValidationError(bad.errors as never);
  const full = plain(error.getFullDetails());
  assert.equal(full, {
    artist: { name: [{ message: 'This field is required.', code: 'required' }] },
    tracks: [{}, { order: [{ message: 'A valid integer is required.', code: 'invalid' }],
      title: [{ message: 'Ensure this field has no more than 10 characters.', code: 'max_length' }] }],
    tags: { 1: [{ message: 'This field may not be blank.', code: 'blank' }] },
  });
  const wrongType = new AlbumSerializer({ data: { name: 'A', artist: 'B', tracks: {} } });
  await wrongType.isValid();
  assert.equal(plain(wrongType.errors), {
    artist: { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
    tracks: { non_field_errors: ['Expected a list of items but got type "dict".'] },
  });
  const nulls = new AlbumSerializer({ data: { name: 'A', artist: null, tracks: [] } });
  await nulls.isValid();
  assert.equal(plain(nulls.errors), { artist: ['This field may not be null.'] });
});

const compiled = suite('serializers :: compiled representation');

compiled('rows of any kind read as the generic reader does: objects, Maps, class instances, getters, callables', () => {
  class Person {
    address = { city: 'Nice' };
    constructor(readonly first: string) {}
    get display(): string { return `<${this.first}>`; }
    greet(): string { return `hi ${this.first}`; }
  }
  class PersonSerializer extends Serializer {
    static fields = {
      first: new CharField(),
      display: new CharField(),
      greet: new CharField(),
      city: new CharField({ source: 'address.city' }),
    };
  }
  const rows: unknown[] = [
    { first: 'ann', display: 'A', greet(this: { first: string }) { return `yo ${this.first}`; }, address: { city: 'Oslo' } },
    new Map<string, unknown>([['first', 'bob'], ['display', 'B'], ['greet', 'g'], ['address', new Map([['city', 'Rome']])]]),
    new Person('cy'),
    { first: 'dee', display: 'D', greet: 'hey', address: { city: 'Bonn' } },
  ];
  assert.equal(PersonSerializer.many(rows).data, [
    { first: 'ann', display: 'A', greet: 'yo ann', city: 'Oslo' },
    { first: 'bob', display: 'B', greet: 'g', city: 'Rome' },
    { first: 'cy', display: '<cy>', greet: 'hi cy', city: 'Nice' },
    { first: 'dee', display: 'D', greet: 'hey', city: 'Bonn' },
  ]);
  // A Map answers its entries, never its own properties.
  class SizeSerializer extends Serializer {
    static fields = { size: new CharField() };
  }
  assert.equal(SizeSerializer.many([{ size: 'L' }, new Map([['size', 'S'], ['other', 'x']])]).data, [{ size: 'L' }, { size: 'S' }]);
});

compiled('missing values per row: skipped field, default, allowNull, undefined and null; missing required fails', () => {
  class RowSerializer extends Serializer {
    static fields = {
      a: new CharField(),
      b: new CharField({ required: false }),
      c: new IntegerField({ default: 7 }),
      d: new CharField({ allowNull: true }),
    };
  }
  const data = RowSerializer.many([
    { a: '1', b: 'x', c: 1, d: 'q' },
    { a: '2' },
    { a: '3', b: undefined, c: null, d: null },
  ]).data as Array<Record<string, unknown>>;
  assert.equal(data, [{ a: '1', b: 'x', c: 1, d: 'q' }, { a: '2', c: 7, d: null }, { a: '3', b: null, c: null, d: null }]);
  assert.equal(data.map((row) => Object.keys(row)), [['a', 'b', 'c', 'd'], ['a', 'c', 'd'], ['a', 'b', 'c', 'd']]);
  assert.throws(() => RowSerializer.many([{ a: '1' }, { b: 'no a' }]).data,
    (error: Error) => error.message.startsWith('Got AttributeError when attempting to get a value for field `a` on serializer `RowSerializer`.')
      && error.message.endsWith("Original exception text was: 'dict' object has no attribute 'a'."));
});

compiled('conversions equal each field type\'s toRepresentation(), fast path or not', () => {
  class Upper extends CharField {
    override toRepresentation(value: unknown): string { return String(value).toUpperCase(); }
  }
  class ConvSerializer extends Serializer {
    static fields = {
      text: new CharField(),
      upper: new Upper(),
      num: new IntegerField(),
      flag: new BooleanField(),
      maybe: new BooleanField({ allowNull: true }),
      kind: new ChoiceField({ choices: [[1, 'One'], [2, 'Two']] }),
      status: new ChoiceField({ choices: ['draft', 'live'] }),
      when: new DateTimeField(),
      day: new DateTimeField({ format: '%Y/%m/%d' }),
      raw: new DateTimeField({ format: null }),
    };
  }
  const when = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6));
  const rows = [
    { text: 12, upper: 'abc', num: '42', flag: 'yes', maybe: 'null', kind: '1', status: 'other', when, day: when, raw: '' },
    { text: 'x', upper: 1.5, num: 3.9, flag: 0, maybe: true, kind: 2, status: 'live', when: '2024-01-01T00:00:00Z', day: when, raw: when },
    { text: true, upper: 'q', num: -2.5, flag: false, maybe: null, kind: 3, status: '', when: new Date(Date.UTC(2024, 5, 1)), day: null, raw: null },
  ];
  const data = ConvSerializer.many(rows).data;
  assert.equal(data, [
    { text: '12', upper: 'ABC', num: 42, flag: true, maybe: null, kind: 1, status: 'other', when: '2024-01-02T03:04:05.006000Z',
      day: '2024/01/02', raw: null },
    { text: 'x', upper: '1.5', num: 3, flag: false, maybe: true, kind: 2, status: 'live', when: '2024-01-01T00:00:00Z',
      day: '2024/01/02', raw: when },
    { text: 'True', upper: 'Q', num: -2, flag: false, maybe: null, kind: 3, status: '', when: '2024-06-01T00:00:00Z', day: null, raw: null },
  ]);
  // Every value equals what the field's own method answers.
  const serializer = new ConvSerializer();
  for (const row of rows) {
    const expected: Record<string, unknown> = {};
    for (const field of serializer.readableFields) {
      const value = (row as Record<string, unknown>)[field.fieldName];
      expected[field.fieldName] = value === null ? null : field.toRepresentation(value);
    }
    assert.equal(serializer.toRepresentation(row), expected);
  }
});

compiled('settings are read when the serializer is built: time zone and DATETIME_FORMAT overrides', () => {
  class WhenSerializer extends Serializer {
    static fields = { when: new DateTimeField() };
  }
  const row = { when: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) };
  // Represented once before the overrides: the class's plan must not outlive a setting change.
  assert.equal(new WhenSerializer(row).data, { when: '2024-01-02T03:04:05Z' });
  let restore = overrideSettings.enter({ USE_TZ: true, TIME_ZONE: 'Europe/Paris' });
  try {
    assert.equal(WhenSerializer.many([row]).data, [{ when: '2024-01-02T04:04:05+01:00' }]);
  } finally {
    restore();
  }
  restore = overrideSettings.enter({ API_FRAMEWORK: { DATETIME_FORMAT: '%d.%m.%Y %H:%M' } });
  try {
    assert.equal(new WhenSerializer(row).data, { when: '02.01.2024 03:04' });
  } finally {
    restore();
  }
  assert.equal(new WhenSerializer(row).data, { when: '2024-01-02T03:04:05Z' });
});

compiled('the plan is per class: untouched instances share it and bind no field; changed fields get their own', () => {
  class Upper extends CharField {
    override toRepresentation(value: unknown): string { return String(value).toUpperCase(); }
  }
  class ProfileSerializer extends Serializer {
    static fields = { name: new CharField(), city: new CharField(), secret: new CharField() };

    constructor(instance?: unknown, options?: { context?: Record<string, unknown> }) {
      super(instance, options);
      if (this.context.hideSecret) this.fields.delete('secret');
    }
  }
  const row = { name: 'ann', city: 'oslo', secret: 's3' };
  const full = { name: 'ann', city: 'oslo', secret: 's3' };
  assert.equal(new ProfileSerializer(row).data, full);
  const untouched = new ProfileSerializer(row);
  assert.equal(untouched.data, full);
  assert.is((untouched as unknown as { boundFields: unknown }).boundFields, undefined);
  assert.equal(new ProfileSerializer(row, { context: { hideSecret: true } }).data, { name: 'ann', city: 'oslo' });
  const writeOnly = new ProfileSerializer(row);
  (writeOnly.fields.get('city') as CharField).writeOnly = true;
  assert.equal(writeOnly.data, { name: 'ann', secret: 's3' });
  const replaced = new ProfileSerializer(row);
  replaced.fields.set('name', new Upper());
  assert.equal(replaced.data, { name: 'ANN', city: 'oslo', secret: 's3' });
  const renamedSource = new ProfileSerializer(row);
  renamedSource.fields.set('city', new CharField({ source: 'name' }));
  assert.equal(renamedSource.data, { name: 'ann', city: 'ann', secret: 's3' });
  // Touched but unchanged fields still answer the same; the class's plan is unchanged by all this.
  const touched = new ProfileSerializer(row);
  void touched.fields;
  assert.equal(touched.data, full);
  assert.equal(ProfileSerializer.many([row, { name: 'bo', city: 'rome', secret: '' }]).data,
    [full, { name: 'bo', city: 'rome', secret: '' }]);
  assert.equal(ProfileSerializer.many([row], { context: { hideSecret: true } }).data, [{ name: 'ann', city: 'oslo' }]);
});

compiled('the class plan is compiled from the class fields also when the first serializer changed its own', () => {
  class CardSerializer extends Serializer {
    static fields = { name: new CharField(), city: new CharField(), secret: new CharField() };

    constructor(instance?: unknown, options?: { context?: Record<string, unknown> }) {
      super(instance, options);
      if (this.context.hideSecret) this.fields.delete('secret');
    }
  }
  const row = { name: 'ann', city: 'oslo', secret: 's3' };
  // The very first serializer of the class has changed fields: it answers by them...
  assert.equal(new CardSerializer(row, { context: { hideSecret: true } }).data, { name: 'ann', city: 'oslo' });
  // ...and the class's plan, compiled then from the class's fields, serves untouched ones
  // without binding their fields.
  const untouched = new CardSerializer(row);
  assert.equal(untouched.data, row);
  assert.is((untouched as unknown as { boundFields: unknown }).boundFields, undefined);
  assert.equal(CardSerializer.many([row], { context: { hideSecret: true } }).data, [{ name: 'ann', city: 'oslo' }]);
  assert.equal(CardSerializer.many([row]).data, [row]);
});

compiled('choices :: a field whose choices change (new or grown) is represented by its current choices', () => {
  class StatusSerializer extends Serializer {
    static fields = { status: new ChoiceField({ choices: ['draft', 'live'] }) };
  }
  const rows: Array<[string, (field: ChoiceField) => void, unknown]> = [
    ['string choices', () => undefined, '1'],
    ['numeric choices set on the bound field', (field) => { field.choices = [[1, 'One']]; }, 1],
    ['string choices again', () => undefined, '1'],
    ['the choices map grown in place', (field) => { field.choiceStringsToValues.set('1', 1); }, 1],
  ];
  for (const [label, change, expected] of rows) {
    const serializer = new StatusSerializer({ status: '1' });
    change(serializer.fields.get('status') as ChoiceField);
    assert.equal(serializer.data, { status: expected }, label);
  }
});

compiled('re-entrant use and unusual field names', () => {
  interface Node { name: string; children: Node[] }
  class TreeSerializer extends Serializer {
    static fields = { name: new CharField(), children: new SerializerMethodField() };

    getChildren(node: Node): unknown[] {
      return node.children.map((child) => this.toRepresentation(child));
    }
  }
  const tree: Node = { name: 'root', children: [{ name: 'a', children: [{ name: 'b', children: [] }] }, { name: 'c', children: [] }] };
  assert.equal(new TreeSerializer(tree).data, tree);
  class OddSerializer extends Serializer {
    static fields = {
      'first-name': new CharField({ source: 'first' }),
      0: new IntegerField({ source: 'n' }),
      constructor: new ReadOnlyField({ source: 'k' }),
    };
  }
  const data = OddSerializer.many([{ first: 'ann', n: '5', k: 'kk' }]).data as Array<Record<string, unknown>>;
  assert.equal(data, [{ 'first-name': 'ann', 0: 5, constructor: 'kk' }]);
  assert.equal(Object.keys(data[0]), ['0', 'first-name', 'constructor']);
});

test.run();
many.run();
nested.run();
compiled.run();
