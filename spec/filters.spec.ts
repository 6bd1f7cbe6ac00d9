import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase, captureQueries } from '../lib/core/db/testing';
import { APIRequestFactory } from '../lib/test';
import { Request } from '../lib/request';
import { ValidationError } from '../lib/exceptions';
import { FieldFilterBackend, OrderingFilter, SearchFilter, searchSmartSplit } from '../lib/filters';
import { GNote, GOwner, NoteSerializer } from './models/generics/models';
import { getVendor } from '../lib/core/db';
import { ImproperlyConfigured } from '../lib/core/conf';

const factory = new APIRequestFactory();
const req = async (url: string) => new Request(await factory.get(url));
const ids = async (qs: { fetch(): Promise<unknown[]> }) => ((await qs.fetch()) as GNote[]).map((n) => n.id);

const test = suite('filters');
useTestDatabase(test, { models: [GOwner, GNote] });
test.before(async () => {
  const ann = await GOwner.objects.create({ username: 'ann', password: 'zzz' });
  const bob = await GOwner.objects.create({ username: 'bob', password: 'aaa' });
  await GNote.objects.create({ title: 'Hello world', language: 'python', rank: 3, owner_id: ann.id });
  await GNote.objects.create({ title: 'world peace', language: 'js', rank: 1, owner_id: bob.id });
  await GNote.objects.create({ title: 'Hello, there', language: 'js', rank: 2, owner_id: bob.id, done: true });
});

test('search :: smart split keeps quoted phrases', () => {
  assert.equal(searchSmartSplit('a b,c  "d e" \'f,g\''), ['a', 'b', 'c', 'd e', 'f,g']);
  assert.equal(searchSmartSplit('  '), []);
});

test('search :: every term must match some field; prefixes', async () => {
  const view = { searchFields: ['title', 'owner__username'] };
  const f = new SearchFilter();
  assert.equal(await ids(f.filterQueryset(await req('/?search=hello'), GNote.objects.orderBy('id'), view)), [1, 3]);
  assert.equal(await ids(f.filterQueryset(await req('/?search=world bob'), GNote.objects.orderBy('id'), view)), [2]);
  assert.equal(await ids(f.filterQueryset(await req('/?search="hello world"'), GNote.objects.orderBy('id'), view)), [1]);
  assert.equal(await ids(f.filterQueryset(await req('/?search=WORLD'), GNote.objects.orderBy('id'), { searchFields: ['^title'] })), [2]);
  assert.equal(await ids(f.filterQueryset(await req('/?search=JS'), GNote.objects.orderBy('id'), { searchFields: ['=language'] })), [2, 3]);
  assert.equal(await ids(f.filterQueryset(await req('/?search=j'), GNote.objects.orderBy('id'), { searchFields: ['=language'] })), []);
  assert.equal(await ids(f.filterQueryset(await req('/?search=peace'), GNote.objects.orderBy('id'), { searchFields: ['@title'] })), [2]);
  assert.equal(await ids(f.filterQueryset(await req('/'), GNote.objects.orderBy('id'), view)), [1, 2, 3]);
});

test('search :: across a to-many relation (the distinct() path) each row comes back once', async () => {
  const f = new SearchFilter();
  const owners = async (url: string): Promise<string[]> => {
    const rows = await f.filterQueryset(await req(url), GOwner.objects.orderBy('id'), { searchFields: ['notes__title'] }).fetch();
    return rows.map((row) => row.username);
  };
  // bob has two notes matching "e"; he is listed once.
  assert.equal(await owners('/?search=e'), ['ann', 'bob']);
  assert.equal(await owners('/?search=peace'), ['bob']);
});

test('search :: $ prefix is a case-insensitive regex (MySQL) or a configuration error (SQLite)', async () => {
  const f = new SearchFilter();
  class RegexView { searchFields = ['$title']; }
  if (getVendor() === 'sqlite') {
    try {
      f.filterQueryset(await req('/?search=^w'), GNote.objects.orderBy('id'), new RegexView());
      assert.unreachable('expected ImproperlyConfigured');
    } catch (error) {
      assert.instance(error, ImproperlyConfigured);
      assert.match((error as Error).message, /Search field '\$title' on RegexView uses a regex lookup, which the SQLite backend does not support/);
    }
    // No search term: nothing is filtered, so nothing fails.
    assert.equal(await ids(f.filterQueryset(await req('/'), GNote.objects.orderBy('id'), new RegexView())), [1, 2, 3]);
    return;
  }
  assert.equal(await ids(f.filterQueryset(await req('/?search=^W'), GNote.objects.orderBy('id'), new RegexView())), [2]);
  assert.equal(await ids(f.filterQueryset(await req('/?search=o,.t'), GNote.objects.orderBy('id'), new RegexView())), [3]);
  assert.equal(await ids(f.filterQueryset(await req('/?search=' + encodeURIComponent('^hello\\W')), GNote.objects.orderBy('id'), new RegexView())), [1, 3]);
});

test('ordering :: allowed fields, several, descending; invalid ignored', async () => {
  const view = { orderingFields: ['rank', 'title', 'owner__username'], ordering: 'id' };
  const f = new OrderingFilter();
  assert.equal(await ids(f.filterQueryset(await req('/?ordering=-rank'), GNote.objects.all(), view)), [1, 3, 2]);
  assert.equal(await ids(f.filterQueryset(await req('/?ordering=owner__username,-rank'), GNote.objects.all(), view)), [1, 3, 2]);
  assert.equal(await ids(f.filterQueryset(await req('/?ordering=bogus'), GNote.objects.all(), { ...view, ordering: '-id' })), [3, 2, 1]);
  const all = { orderingFields: '__all__' as const };
  assert.equal(await ids(f.filterQueryset(await req('/?ordering=-rank'), GNote.objects.all(), all)), [1, 3, 2]);
  assert.equal(f.getOrdering(await req('/?ordering=owner__username'), GNote.objects.all(), all), null);
});

test('ordering :: hostile input never reaches SQL', async () => {
  const view = { orderingFields: ['rank'], ordering: 'id' };
  const f = new OrderingFilter();
  for (const hostile of ['owner__password', 'password', 'id;DROP TABLE generics_note', '(select 1)', 'rank desc, id']) {
    const sql = await captureQueries(async () => {
      const rows = await ids(f.filterQueryset(await req(`/?ordering=${encodeURIComponent(hostile)}`), GNote.objects.all(), view));
      assert.equal(rows, [1, 2, 3]);
    });
    assert.ok(sql.length > 0);
    for (const statement of sql) {
      assert.not.match(statement, 'DROP');
      assert.not.match(statement, 'select 1');
      assert.not.match(statement, 'password');
    }
  }
});

test('ordering :: default valid fields come from the serializer (write-only excluded)', async () => {
  const f = new OrderingFilter();
  const view = { serializerClass: NoteSerializer };
  assert.equal(f.getValidFields(GNote.objects.all(), view).map(([name]) => name), ['id', 'title', 'rank']);
  assert.equal(f.getOrdering(await req('/?ordering=owner__password'), GNote.objects.all(), view), null);
  assert.throws(() => f.getValidFields(GNote.objects.all(), {}), /Cannot use OrderingFilter/);
});

test('field filter :: exact matches on declared fields; bad values are 400', async () => {
  const view = { filtersetFields: ['language', 'owner__username', 'rank', 'done'] };
  const f = new FieldFilterBackend();
  assert.equal(await ids(f.filterQueryset(await req('/?language=js&owner__username=bob'), GNote.objects.orderBy('id'), view)), [2, 3]);
  assert.equal(await ids(f.filterQueryset(await req('/?done=true&title=nope'), GNote.objects.orderBy('id'), view)), [3]);
  assert.equal(await ids(f.filterQueryset(await req('/?rank='), GNote.objects.orderBy('id'), view)), [1, 2, 3]);
  try {
    f.filterQueryset(await req('/?rank=abc&language=ruby'), GNote.objects.all(), view);
    assert.unreachable('bad values accepted');
  } catch (error) {
    assert.instance(error, ValidationError);
    assert.equal(JSON.parse(JSON.stringify((error as ValidationError).detail)), {
      language: ['Select a valid choice. ruby is not one of the available choices.'],
      rank: ['Enter a number.'],
    });
  }
});

test('field filter :: standard lookups on declared fields, values bound', async () => {
  const view = { filtersetFields: ['id', 'title', 'language', 'owner__username', 'rank'] };
  const f = new FieldFilterBackend();
  const rows: Array<[string, number[]]> = [
    ['/?id__gte=2', [2, 3]],
    ['/?id__gt=2', [3]],
    ['/?id__lt=2', [1]],
    ['/?id__lte=2', [1, 2]],
    ['/?id__exact=2', [2]],
    ['/?id__in=1,3', [1, 3]],
    ['/?id__range=2,3', [2, 3]],
    ['/?title__icontains=WORLD', [1, 2]],
    ['/?title__contains=world', [1, 2]],
    ['/?title__startswith=Hello', [1, 3]],
    ['/?title__iexact=WORLD%20PEACE', [2]],
    ['/?owner__username__in=ann', [1]],
    ['/?owner__username__isnull=false', [1, 2, 3]],
    ['/?rank__gte=2&language=js', [3]],
    ["/?title__icontains=%27%20OR%201=1%20--", []],
  ];
  for (const [url, expected] of rows) {
    assert.equal(await ids(f.filterQueryset(await req(url), GNote.objects.orderBy('id'), view)), expected, url);
  }
});

test('field filter :: unsupported lookups and bad lookup values are 400 naming the parameter', async () => {
  const view = { filtersetFields: ['id', 'language'] };
  const f = new FieldFilterBackend();
  const cases: Array<[string, Record<string, string[]>]> = [
    ['/?id__regex=1', { id__regex: ["Unsupported lookup 'regex'. Use one of: exact, iexact, contains, icontains, in, gt, gte, lt, lte, isnull, range, startswith."] }],
    ['/?id__gte=abc', { id__gte: ['Enter a number.'] }],
    ['/?id__in=1,x', { id__in: ['Enter a number.'] }],
    ['/?id__range=1', { id__range: ['Enter a list of two values: the lower and upper bound.'] }],
    ['/?id__isnull=maybe', { id__isnull: ['Select a valid choice. maybe is not one of the available choices.'] }],
    ['/?language__in=js,ruby', { language__in: ['Select a valid choice. ruby is not one of the available choices.'] }],
  ];
  for (const [url, expected] of cases) {
    try {
      f.filterQueryset(await req(url), GNote.objects.all(), view);
      assert.unreachable(`${url} accepted`);
    } catch (error) {
      assert.instance(error, ValidationError, url);
      assert.equal(JSON.parse(JSON.stringify((error as ValidationError).detail)), expected, url);
    }
  }
});

test.run();
