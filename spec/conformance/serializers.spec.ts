/**
 * Serializer behaviours checked against the original (DRF 3.14 run on the same inputs):
 * `data: null` -> `non_field_errors: ["No data provided"]`, repeated form keys under a
 * nested serializer, async `SerializerMethodField` methods, and many-to-many values listed
 * in the related model's ordering on create/update as on later reads.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QueryDict } from '../../lib/core/http';
import { CharField, IntegerField, ListField, MultipleChoiceField, SerializerMethodField } from '../../lib/fields';
import { ModelSerializer, Serializer, type DeclaredFields } from '../../lib/serializers';
import { useTestDatabase } from '../../lib/core/db/testing';
import { User } from '../../contrib/auth/models';
import { SArticle, STag, serializerModels } from '../models/serializers/models';

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

class Inner extends Serializer {
  static fields: DeclaredFields = {
    example: new MultipleChoiceField({ choices: [1, 2, 3] }),
    lst: new ListField({ child: new IntegerField(), required: false }),
  };
}

class Outer extends Serializer {
  static fields: DeclaredFields = { nested: new Inner(), name: new CharField({ required: false }) };
}

class OptionalNested extends Serializer {
  static fields: DeclaredFields = { nested: new Inner({ required: false, allowNull: true }) };
}

const noData = suite('conformance :: serializer data null');

noData('top-level data null :: non_field_errors "No data provided" (code null)', async () => {
  const serializer = new Outer({ data: null });
  assert.is(await serializer.isValid(), false);
  assert.equal(plain(serializer.errors), { non_field_errors: ['No data provided'] });
  const codes = (serializer.errors as Record<string, Array<{ code: string }>>).non_field_errors.map((e) => e.code);
  assert.equal(codes, ['null']);
});

noData('top-level data null :: raiseException carries the same detail', async () => {
  try {
    await new Outer({ data: null }).isValid({ raiseException: true });
    assert.unreachable('should raise');
  } catch (error) {
    assert.equal(plain((error as { detail: unknown }).detail), { non_field_errors: ['No data provided'] });
  }
});

noData('many=True data null :: non_field_errors "No data provided"', async () => {
  const serializer = new Outer({ data: null, many: true });
  assert.is(await serializer.isValid(), false);
  assert.equal(plain(serializer.errors), { non_field_errors: ['No data provided'] });
});

noData('nested allowNull :: null is a valid nested value', async () => {
  const serializer = new OptionalNested({ data: { nested: null } });
  assert.is(await serializer.isValid(), true);
  assert.equal(plain(serializer.validatedData), { nested: null });
});

noData('nested not nullable :: the field-level null message', async () => {
  const serializer = new Outer({ data: { nested: null } });
  assert.is(await serializer.isValid(), false);
  assert.equal(plain(serializer.errors), { nested: ['This field may not be null.'] });
});

noData.run();

const form = suite('conformance :: nested form input');

form('repeated keys under a nested serializer :: every value kept', async () => {
  const data = QueryDict.parse('nested.example=1&nested.example=2&nested.lst=3&nested.lst=4&name=a');
  const serializer = new Outer({ data });
  assert.is(await serializer.isValid(), true, JSON.stringify(serializer.errors));
  const validated = serializer.validatedData as { nested: { example: Set<number>; lst: number[] }; name: string };
  assert.equal([...validated.nested.example], [1, 2]);
  assert.equal(validated.nested.lst, [3, 4]);
  assert.is(validated.name, 'a');
});

form('single keys under a nested serializer :: one-item list and set', async () => {
  const serializer = new Outer({ data: QueryDict.parse('nested.example=1&nested.lst=3&name=a') });
  assert.is(await serializer.isValid(), true, JSON.stringify(serializer.errors));
  const validated = serializer.validatedData as { nested: { example: Set<number>; lst: number[] } };
  assert.equal([...validated.nested.example], [1]);
  assert.equal(validated.nested.lst, [3]);
});

form('invalid choice among repeated keys :: the nested error names it', async () => {
  const serializer = new Outer({ data: QueryDict.parse('nested.example=1&nested.example=9') });
  assert.is(await serializer.isValid(), false);
  assert.equal(plain(serializer.errors), { nested: { example: ['"9" is not a valid choice.'] } });
});

form.run();

const methods = suite('conformance :: async SerializerMethodField');

class Tagged extends Serializer {
  static fields: DeclaredFields = {
    name: new CharField(),
    tags: new SerializerMethodField(),
    size: new SerializerMethodField(),
  };

  async getTags(obj: { name: string }): Promise<string[]> {
    await new Promise((resolve) => setImmediate(resolve));
    return [obj.name.toUpperCase()];
  }

  getSize(obj: { name: string }): number {
    return obj.name.length;
  }
}

class Wrapper extends Serializer {
  static fields: DeclaredFields = { item: new Tagged(), label: new SerializerMethodField() };

  getLabel(): Promise<string> {
    return Promise.resolve('wrapped');
  }
}

methods('getData() :: async method values awaited in place', async () => {
  const data = await new Tagged({ name: 'ab' }).getData();
  assert.equal(plain(data), { name: 'ab', tags: ['AB'], size: 2 });
});

methods('getData() many=True :: every row awaited', async () => {
  const data = await new Tagged([{ name: 'a' }, { name: 'bc' }], { many: true }).getData();
  assert.equal(plain(data), [{ name: 'a', tags: ['A'], size: 1 }, { name: 'bc', tags: ['BC'], size: 2 }]);
});

methods('getData() nested :: async values of nested serializers awaited too', async () => {
  const data = await new Wrapper({ item: { name: 'x' } }).getData();
  assert.equal(plain(data), { item: { name: 'x', tags: ['X'], size: 1 }, label: 'wrapped' });
});

methods('getData() :: a rejected method rejects getData()', async () => {
  class Failing extends Serializer {
    static fields: DeclaredFields = { broken: new SerializerMethodField() };
    getBroken(): Promise<never> {
      return Promise.reject(new Error('lookup failed'));
    }
  }
  try {
    await new Failing({ instance: { id: 1 } }).getData();
    assert.unreachable('should reject');
  } catch (error) {
    assert.is((error as Error).message, 'lookup failed');
  }
});

methods('sync .data :: an async method fails loudly naming getData()', () => {
  const serializer = new Tagged({ name: 'ab' });
  assert.throws(() => serializer.data, (error: Error) => /tags.*getData\(\)/s.test(error.message));
});

methods.run();

const manyToMany = suite('conformance :: many-to-many order');
useTestDatabase(manyToMany, { models: serializerModels });

class TaggedArticle extends ModelSerializer {
  static Meta = { model: SArticle, fields: ['id', 'title', 'owner', 'tags'] };
}

let ownerId = 0;
const tagIds: number[] = [];
manyToMany.before(async () => {
  ownerId = (await User.objects.create({ username: 'm2m-owner', password: '!' })).id;
  for (const name of ['a', 'b', 'c']) tagIds.push((await STag.objects.create({ name })).id);
});

async function readBack(id: number): Promise<unknown> {
  return (plain(await new TaggedArticle(await SArticle.objects.get({ id })).getData()) as { tags: unknown }).tags;
}

manyToMany('create :: response lists tags as a later GET does (the related ordering), not input order', async () => {
  const reversed = [...tagIds].reverse();
  const s = new TaggedArticle({ data: { title: 'm2m create', owner: ownerId, tags: reversed } });
  assert.is(await s.isValid(), true, JSON.stringify(s.errors));
  const article = await s.save() as SArticle;
  const created = (plain(await s.getData()) as { tags: unknown }).tags;
  assert.equal(created, tagIds);
  assert.equal(created, await readBack(article.id));
});

manyToMany('update (PUT) :: same order as the read-back', async () => {
  const article = await SArticle.objects.create({ title: 'm2m put', owner_id: ownerId });
  const s = new TaggedArticle(article, { data: { title: 'm2m put', owner: ownerId, tags: [tagIds[2], tagIds[0]] } });
  assert.is(await s.isValid(), true, JSON.stringify(s.errors));
  await s.save();
  const updated = (plain(await s.getData()) as { tags: unknown }).tags;
  assert.equal(updated, [tagIds[0], tagIds[2]]);
  assert.equal(updated, await readBack(article.id));
});

manyToMany.run();
