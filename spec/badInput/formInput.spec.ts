/**
 * Nested form input (`lib/utils/html.ts`): lists spelled `tags[0]=a&tags[1]=b`, objects spelled
 * `nested.flag=true` and lists of objects `items[0]name=a`, fed to ListField, DictField and
 * nested serializers as the form and multipart parsers deliver them (a `QueryDict`). Malformed
 * keys are ignored as in the original; nothing well-formed is lost.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QueryDict } from '../../lib/core/http';
import { BooleanField, CharField, DictField, IntegerField, ListField } from '../../lib/fields';
import { Serializer, type DeclaredFields } from '../../lib/serializers';
import { MultiValueDict, htmlHas, isHtmlInput, parseHtmlDict, parseHtmlList } from '../../lib/utils/html';

const test = suite('badInput formInput');

class ChildSerializer extends Serializer {
  static fields: DeclaredFields = { name: new CharField(), flag: new BooleanField({ required: false }) };
}

class FormSerializer extends Serializer {
  static fields: DeclaredFields = {
    tags: new ListField({ child: new CharField(), required: false }),
    scores: new ListField({ child: new IntegerField(), required: false }),
    meta: new DictField({ child: new CharField(), required: false }),
    nested: new ChildSerializer({ required: false }),
    items: new ChildSerializer({ many: true, required: false }),
  };
}

function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

async function validate(query: string, partial = false): Promise<{ ok: boolean; data: unknown }> {
  const serializer = new FormSerializer({ data: QueryDict.parse(query), partial });
  const ok = await serializer.isValid();
  return { ok, data: plain(ok ? serializer.validatedData : serializer.errors) };
}

test('parseHtmlList :: indexes sorted, gaps closed, nested keys grouped', () => {
  const data = QueryDict.parse('x[2]=c&x[0]=a&x[10]=k&y[0]=other&x[1]name=n&x[1]flag=on&x[]=no&x[a]=no&xx[0]=no');
  const list = parseHtmlList(data, 'x');
  assert.ok(list);
  assert.is(list!.length, 4);
  assert.equal([list![0], list![2], list![3]], ['a', 'c', 'k']);
  const item = list![1] as MultiValueDict;
  assert.instance(item, MultiValueDict);
  assert.equal([...item.keys()], ['name', 'flag']);
  assert.is(item.get('name'), 'n');
  assert.equal(item.getList('flag'), ['on']);
  assert.is(item.get('missing'), undefined);
  assert.equal(item.getList('missing'), []);
});

test('parseHtmlList :: the default when nothing matches; a bare index list without a prefix', () => {
  const data = QueryDict.parse('a=1&b[x]=2');
  assert.is(parseHtmlList(data, 'b'), null);
  assert.equal(parseHtmlList(data, 'b', []), []);
  assert.equal(parseHtmlList(QueryDict.parse('[1]=b&[0]=a'), ''), ['a', 'b']);
  // Regular expression characters in the prefix are literal.
  assert.equal(parseHtmlList(QueryDict.parse('a.b[0]=1&aXb[0]=2'), 'a.b'), ['1']);
});

test('parseHtmlDict :: dotted keys under the prefix, every value kept', () => {
  const data = QueryDict.parse('meta.a=1&meta.a=2&meta.b=3&meta=x&metab.c=no&meta.=no&other.a=no');
  const dict = parseHtmlDict(data, 'meta');
  assert.equal([...dict.keys()], ['a', 'b']);
  assert.equal(dict.getList('a'), ['1', '2']);
  assert.is(dict.get('a'), '2');
  assert.equal([...parseHtmlDict(data, 'none').keys()], []);
});

test('html helpers :: isHtmlInput and htmlHas', () => {
  const data = QueryDict.parse('a=1&b=');
  assert.ok(isHtmlInput(data));
  assert.ok(isHtmlInput(new MultiValueDict()));
  for (const value of [null, undefined, 'a=1', 1, {}, { getList: 'no' }, []]) assert.not.ok(isHtmlInput(value), String(value));
  assert.ok(htmlHas(data, 'b'), 'a blank value was sent');
  assert.not.ok(htmlHas(data, 'c'));
});

test('ListField :: indexed, out of order, repeated and sparse form lists', async () => {
  assert.equal(await validate('tags[0]=a&tags[1]=b'), { ok: true, data: { tags: ['a', 'b'], meta: {} } });
  assert.equal(await validate('tags[1]=b&tags[0]=a'), { ok: true, data: { tags: ['a', 'b'], meta: {} } });
  assert.equal(await validate('tags=a&tags=b'), { ok: true, data: { tags: ['a', 'b'], meta: {} } });
  assert.equal(await validate('tags[0]=a&tags[2]=c'), { ok: true, data: { tags: ['a', 'c'], meta: {} } });
  // A huge index is an ordinary sort key, not an array length.
  assert.equal(await validate('tags[99999999999999999999]=z&tags[a]=1'), { ok: true, data: { tags: ['z'], meta: {} } });
});

test('ListField :: malformed keys are not list items', async () => {
  assert.equal(await validate('tags[x]=a&tags[-1]=b&tags[]=c'), { ok: true, data: { meta: {} } });
});

test('ListField :: item errors keyed by index', async () => {
  assert.equal(await validate('scores[0]=1&scores[1]=zz'), { ok: false, data: { scores: { 1: ['A valid integer is required.'] } } });
  assert.equal(await validate('scores[0]=4&scores[1]=5'), { ok: true, data: { scores: [4, 5], meta: {} } });
});

test('ListField :: partial updates keep an indexed list (the original drops it)', async () => {
  assert.equal(await validate('tags[0]=a', true), { ok: true, data: { tags: ['a'], meta: {} } });
  assert.equal(await validate('', true), { ok: true, data: { meta: {} } });
});

test('DictField :: dotted form keys become the dictionary', async () => {
  // The original parses the already-parsed dictionary a second time and answers {} here.
  assert.equal(await validate('meta.a=1&meta.b=2'), { ok: true, data: { meta: { a: '1', b: '2' } } });
  assert.equal(await validate('meta.a=1&meta.a=2'), { ok: true, data: { meta: { a: '2' } } });
});

test('DictField :: a child error is keyed by the dictionary key', async () => {
  class Counts extends Serializer {
    static fields: DeclaredFields = { counts: new DictField({ child: new IntegerField() }) };
  }
  const serializer = new Counts({ data: QueryDict.parse('counts.a=1&counts.b=x') });
  assert.not.ok(await serializer.isValid());
  assert.equal(plain(serializer.errors), { counts: { b: ['A valid integer is required.'] } });
  const good = new Counts({ data: QueryDict.parse('counts.a=1&counts.b=2') });
  assert.ok(await good.isValid());
  assert.equal(plain(good.validatedData), { counts: { a: 1, b: 2 } });
});

test('ListField of DictField :: items[0]key=value', async () => {
  class Rows extends Serializer {
    static fields: DeclaredFields = { rows: new ListField({ child: new DictField({ child: new CharField() }) }) };
  }
  const serializer = new Rows({ data: QueryDict.parse('rows[0]a=1&rows[1]b=2&rows[0]c=3') });
  assert.ok(await serializer.isValid(), JSON.stringify(serializer.errors));
  assert.equal(plain(serializer.validatedData), { rows: [{ a: '1', c: '3' }, { b: '2' }] });
});

test('nested serializer :: dotted keys, missing required child field', async () => {
  assert.equal(await validate('nested.name=n&nested.flag=true'), { ok: true, data: { meta: {}, nested: { name: 'n', flag: true } } });
  assert.equal(await validate('nested.flag=true'), { ok: false, data: { nested: { name: ['This field is required.'] } } });
  assert.equal(await validate('nested.name=x', true), { ok: true, data: { meta: {}, nested: { name: 'x' } } });
});

test('many nested serializers :: items[0]name=a, errors per item', async () => {
  assert.equal(await validate('items[0]name=a&items[1]name=b&items[1]flag=on'), {
    ok: true,
    data: { meta: {}, items: [{ name: 'a', flag: false }, { name: 'b', flag: true }] },
  });
  assert.equal(await validate('items[0]name=a&items[1]flag=on'), { ok: false, data: { items: [{}, { name: ['This field is required.'] }] } });
  // `items[0].name` is not the form syntax: the key is `.name`, so `name` is missing.
  assert.equal(await validate('items[0].name=a'), { ok: false, data: { items: [{ name: ['This field is required.'] }] } });
});

test.run();
