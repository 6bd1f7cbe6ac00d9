import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase, captureDataQueries, withRollback } from '../../../lib/core/db/testing';
import { Q, Manager, QuerySet, FieldError, ValueError, ObjectDoesNotExist, MultipleObjectsReturned, QuerySetError, NotSupportedError, getVendor, postSave, preSave, postDelete } from '../../../lib/core/db';
import { LibAuthor, LibAuthorManager, LibBook, LibTag } from './library/models';
import { useTestApps, rejects } from './helpers';

const test = suite('core/db/queryset');
useTestApps(test);
useTestDatabase(test);

let ann: LibAuthor;
let bob: LibAuthor;
let cyd: LibAuthor;

test.before(async () => {
  ann = await LibAuthor.objects.create({ name: 'Ann Lee', email: 'ann@example.com' });
  bob = await LibAuthor.objects.create({ name: 'bob', email: 'BOB@example.com' });
  cyd = await LibAuthor.objects.create({ name: 'cyd' });
  const sci = await LibTag.objects.create({ name: 'science' });
  const fun = await LibTag.objects.create({ name: 'fun' });
  const b1 = await LibBook.objects.create({ title: 'Alpha 100%', author_id: ann.id, price: '10.50' });
  const b2 = await LibBook.objects.create({ title: 'beta_one', author_id: ann.id, editor_id: bob.id, price: '5.00', in_print: false });
  const b3 = await LibBook.objects.create({ title: 'gamma', author_id: bob.id, editor_id: ann.id });
  await b1.$add('tags', [sci, fun]);
  await b2.$add('tags', sci);
  void b3;
});

const titles = async (qs: { fetch(): Promise<LibBook[]> }): Promise<string[]> => (await qs.fetch()).map((b) => b.title);

test('filter :: exact, in, comparisons, isnull, range', async () => {
  assert.equal(await titles(LibBook.objects.filter({ title: 'gamma' })), ['gamma']);
  assert.equal(await titles(LibBook.objects.filter({ id__in: [1, 3] })), ['Alpha 100%', 'gamma']);
  assert.equal(await titles(LibBook.objects.filter({ id__in: [] })), []);
  assert.equal(await titles(LibBook.objects.filter({ id__gt: 1, id__lte: 3 })), ['beta_one', 'gamma']);
  assert.equal(await titles(LibBook.objects.filter({ editor_id__isnull: true })), ['Alpha 100%']);
  assert.equal(await titles(LibBook.objects.filter({ editor__isnull: false })), ['beta_one', 'gamma']);
  assert.equal(await titles(LibBook.objects.filter({ id__range: [2, 3] })), ['beta_one', 'gamma']);
  // Text values (from a URL) are converted as Django does; they go through a Q, as run-time lookups do.
  assert.equal(await titles(LibBook.objects.filter(new Q({ in_print: 'false' }))), ['beta_one']);
  assert.equal(await titles(LibBook.objects.filter(new Q({ pk: '2' }))), ['beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ author: ann })), ['Alpha 100%', 'beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ created__lte: new Date(Date.now() + 60000) })), ['Alpha 100%', 'beta_one', 'gamma']);
  assert.equal(await titles(LibBook.objects.filter({ created__gt: new Date(Date.now() + 60000) })), []);
});

test('filter :: text lookups are case-(in)sensitive and escape % and _', async () => {
  assert.equal(await titles(LibBook.objects.filter({ title__contains: 'alpha' })), []);
  assert.equal(await titles(LibBook.objects.filter({ title__icontains: 'ALPHA' })), ['Alpha 100%']);
  assert.equal(await titles(LibBook.objects.filter({ title__contains: '100%' })), ['Alpha 100%']);
  assert.equal(await titles(LibBook.objects.filter({ title__icontains: '0%' })), ['Alpha 100%']);
  assert.equal(await titles(LibBook.objects.filter({ title__icontains: '_' })), ['beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ title__contains: '%' })), ['Alpha 100%']);
  assert.equal(await titles(LibBook.objects.filter({ title__startswith: 'b' })), ['beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ title__startswith: 'B' })), []);
  assert.equal(await titles(LibBook.objects.filter({ title__istartswith: 'B' })), ['beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ title__endswith: 'MA' })), []);
  assert.equal(await titles(LibBook.objects.filter({ title__iendswith: 'MA' })), ['gamma']);
  assert.equal(await titles(LibBook.objects.filter({ title__iexact: 'GAMMA' })), ['gamma']);
  assert.equal(await titles(LibBook.objects.filter({ title__contains: "'; DROP TABLE library_book; --" })), []);
  assert.is(await LibBook.objects.count(), 3);
});

test('filter :: regex / iregex (MySQL REGEXP; SQLite refuses with NotSupportedError)', async () => {
  if (getVendor() === 'sqlite') {
    const error = await rejects(() => LibBook.objects.filter({ title__regex: '^b' }).fetch(), NotSupportedError);
    assert.match(error.message, /'regex' lookup is not supported by the SQLite backend/);
    await rejects(() => LibBook.objects.filter({ author__name__iregex: 'ann' }).count(), NotSupportedError);
    // Building the queryset is lazy: only running it fails.
    LibBook.objects.filter({ title__iregex: 'x' });
    return;
  }
  assert.equal(await titles(LibBook.objects.filter({ title__regex: '^[a-b]' }).orderBy('id')), ['beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ title__iregex: '^[a-b]' }).orderBy('id')), ['Alpha 100%', 'beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ title__regex: 'ALPHA' })), []);
  assert.equal(await titles(LibBook.objects.filter({ title__regex: '\\d+%$' })), ['Alpha 100%']);
  assert.equal(await titles(LibBook.objects.filter({ title__regex: 'a_o' })), ['beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ title__regex: '^a%' })), []);
  assert.equal(await titles(LibBook.objects.filter({ title__regex: "'; DROP TABLE library_book; --" })), []);
  assert.equal(await titles(LibBook.objects.filter({ author__name__iregex: '^ANN' }).orderBy('id')), ['Alpha 100%', 'beta_one']);
  assert.equal(await titles(LibBook.objects.exclude({ title__iregex: 'A' }).orderBy('id')), []);
  assert.is(await LibBook.objects.count(), 3);
});

test('filter :: across relations (belongsTo, reverse hasMany, belongsToMany)', async () => {
  assert.equal(await titles(LibBook.objects.filter({ author__name__icontains: 'ann' })), ['Alpha 100%', 'beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ editor__name: 'bob' })), ['beta_one']);
  assert.equal(await titles(LibBook.objects.filter({ tags__name: 'science' })), ['Alpha 100%', 'beta_one']);
  const names = async (qs: { fetch(): Promise<LibAuthor[]> }): Promise<string[]> => (await qs.fetch()).map((a) => a.name);
  assert.equal(await names(LibAuthor.objects.filter({ books__title__icontains: 'a' })), ['Ann Lee', 'bob']);
  assert.equal(await names(LibAuthor.objects.filter({ books__tags__name: 'fun' })), ['Ann Lee']);
  assert.equal(await names(LibAuthor.objects.filter({ books__isnull: true })), ['cyd']);
  assert.equal(await names(LibAuthor.objects.filter({ edited__title: 'gamma' })), ['Ann Lee']);
  // Multi-valued relations never duplicate rows.
  assert.is(await LibAuthor.objects.filter({ books__title__icontains: 'a' }).count(), 2);
  const tagNames = (await LibTag.objects.filter(new Q({ libbook__title: 'beta_one' })).fetch()).map((t) => t.name);
  assert.equal(tagNames, ['science']);
  assert.equal(await titles(LibBook.objects.filter({ author__in: LibAuthor.objects.filter({ name__startswith: 'b' }) })), ['gamma']);
});

test('exclude :: keeps NULLs like Django and negates relation lookups', async () => {
  assert.equal(await titles(LibBook.objects.exclude({ editor__name: 'bob' })), ['Alpha 100%', 'gamma']);
  assert.equal(await titles(LibBook.objects.exclude({ editor_id: bob.id })), ['Alpha 100%', 'gamma']);
  assert.equal(await titles(LibBook.objects.exclude({ tags__name: 'science' })), ['gamma']);
});

test('Q :: OR, AND, NOT combinations', async () => {
  assert.equal(await titles(LibBook.objects.filter(Q.or({ title: 'gamma' }, { tags__name: 'fun' }))), ['Alpha 100%', 'gamma']);
  assert.equal(await titles(LibBook.objects.filter(new Q({ author__name: 'Ann Lee' }).and(new Q({ in_print: true }).not()))), ['beta_one']);
  // SearchFilter shape: every term matches at least one field.
  const search = Q.and(
    Q.or({ title__icontains: 'a' }, { author__name__icontains: 'a' }),
    Q.or({ title__icontains: 'bet' }, { author__name__icontains: 'bet' }),
  );
  assert.equal(await titles(LibBook.objects.filter(search)), ['beta_one']);
  assert.equal(await titles(LibBook.objects.filter(new Q()).filter({ id: 3 })), ['gamma']);
  assert.equal(await titles(LibBook.objects.filter(Q.or({ id: 1 }, new Q())).orderBy('id')), ['Alpha 100%', 'beta_one', 'gamma']);
});

test('orderBy :: default, explicit, related, reverse', async () => {
  assert.equal((await LibAuthor.objects.fetch()).map((a) => a.name), ['Ann Lee', 'cyd', 'bob'].sort((a, b) => (a < b ? -1 : 1)));
  assert.equal(LibAuthor.objects.getOrdering(), ['name']);
  assert.ok(LibAuthor.objects.isOrdered);
  assert.not.ok(LibAuthor.objects.orderBy().isOrdered);
  assert.equal(await titles(LibBook.objects.orderBy('-title')), ['gamma', 'beta_one', 'Alpha 100%']);
  assert.equal(await titles(LibBook.objects.orderBy('-author__name', 'id')), ['gamma', 'Alpha 100%', 'beta_one']);
  assert.equal(await titles(LibBook.objects.orderBy('author__name', '-id')), ['beta_one', 'Alpha 100%', 'gamma']);
  assert.equal(await titles(LibBook.objects.reverse()), ['gamma', 'beta_one', 'Alpha 100%']);
  assert.equal(LibBook.objects.orderBy('-title', 'id').reverse().getOrdering(), ['title', '-id']);
  assert.equal(await titles(LibBook.objects.orderBy('pk')), ['Alpha 100%', 'beta_one', 'gamma']);
});

test('slice, count, exists, first, last', async () => {
  assert.equal(await titles(LibBook.objects.slice(1, 3)), ['beta_one', 'gamma']);
  assert.equal(await titles(LibBook.objects.slice(1)), ['beta_one', 'gamma']);
  assert.equal(await titles(LibBook.objects.slice(1, 3).slice(1, 5)), ['gamma']);
  assert.is(await LibBook.objects.slice(0, 2).count(), 2);
  assert.is(await LibBook.objects.slice(2, 10).count(), 1);
  assert.is(await LibBook.objects.filter({ author: ann }).count(), 2);
  assert.ok(await LibBook.objects.filter({ title: 'gamma' }).exists());
  assert.not.ok(await LibBook.objects.filter({ title: 'nope' }).exists());
  assert.is((await LibBook.objects.first())?.title, 'Alpha 100%');
  assert.is((await LibBook.objects.last())?.title, 'gamma');
  assert.is((await LibBook.objects.orderBy('-title').first())?.title, 'gamma');
  assert.is(await LibBook.objects.filter({ title: 'nope' }).first(), null);
  assert.throws(() => LibBook.objects.slice(0, 1).filter({ id: 1 }), (e: Error) => e instanceof QuerySetError && e.message === 'Cannot filter a query once a slice has been taken.');
  assert.throws(() => LibBook.objects.slice(-1), (e: Error) => e instanceof QuerySetError);
});

test('none() never queries', async () => {
  const queries = await captureDataQueries(async () => {
    assert.equal(await LibBook.objects.none().fetch(), []);
    assert.is(await LibBook.objects.none().count(), 0);
    assert.not.ok(await LibBook.objects.filter({ id: 1 }).none().exists());
  });
  assert.equal(queries, []);
});

test('get :: DoesNotExist and MultipleObjectsReturned', async () => {
  assert.is((await LibBook.objects.get({ title: 'gamma' })).id, 3);
  try {
    await LibBook.objects.get({ title: 'nope' });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, LibBook.DoesNotExist);
    assert.instance(error, ObjectDoesNotExist);
    assert.not.instance(error, LibAuthor.DoesNotExist);
    assert.is((error as Error).message, 'LibBook matching query does not exist.');
  }
  try {
    await LibBook.objects.get({ author: ann });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, LibBook.MultipleObjectsReturned);
    assert.instance(error, MultipleObjectsReturned);
    assert.is((error as Error).message, 'get() returned more than one LibBook -- it returned 2!');
  }
});

test('get :: unordered, at most 21 rows, slices and filters kept; a sliced query cannot be filtered', async () => {
  const [sql] = await captureDataQueries(() => LibBook.objects.orderBy('-title').filter({ title: 'gamma' }).get());
  assert.not.match(sql, /ORDER BY/, sql);
  assert.match(sql, /LIMIT 21/, sql);
  const ordered = LibBook.objects.orderBy('title');
  const [offsetSql] = await captureDataQueries(() => ordered.slice(2, 3).get());
  assert.match(offsetSql, /ORDER BY/, offsetSql);
  assert.is((await ordered.slice(2, 3).get()).title, (await ordered.fetch())[2].title);
  await rejects(() => ordered.slice(0, 0).get(), LibBook.DoesNotExist);
  await rejects(() => ordered.slice(0, 2).get({ title: 'gamma' }), (e: Error) => e instanceof QuerySetError && e.message === 'Cannot filter a query once a slice has been taken.');
  assert.is((await LibBook.objects.filter({ title__startswith: 'g' }).get({ id: 3 })).title, 'gamma');
  const [both] = await captureDataQueries(() => LibBook.objects.filter({ title__startswith: 'g' }).get({ id: 3 }));
  assert.match(both, / AND /, both);
});

test('lookups :: names resolve once per model, unknown names raise every time', async () => {
  for (let i = 0; i < 2; i++) {
    await rejects(() => LibBook.objects.get({ nope: 1 } as never), (e: Error) => e instanceof FieldError && /Cannot resolve keyword 'nope' into field/.test(e.message));
    assert.equal(await titles(LibBook.objects.filter({ author__name__startswith: 'Ann' }).orderBy('id')), await titles(LibBook.objects.filter({ author: ann }).orderBy('id')));
  }
});

test('field names and values are validated', async () => {
  try {
    // @ts-expect-error: an unknown name does not compile, and fails at run time too
    await LibBook.objects.filter({ nope: 1 }).fetch();
    assert.unreachable();
  } catch (error) {
    assert.instance(error, FieldError);
    assert.is((error as Error).message, "Cannot resolve keyword 'nope' into field. Choices are: author, author_id, created, editor, editor_id, format, id, in_print, price, tags, title");
  }
  // @ts-expect-error: unknown name across a relation
  await rejects(() => LibBook.objects.filter({ author__nope: 1 }).fetch(), (e: Error) => e instanceof FieldError && e.message.startsWith("Cannot resolve keyword 'nope' into field. Choices are: books, edited, email, id, name"));
  // @ts-expect-error: unknown lookup
  await rejects(() => LibBook.objects.filter({ title__regexx: 'x' }).fetch(), (e: Error) => e instanceof FieldError && e.message === "Unsupported lookup 'regexx' for CharField or join on the field not permitted.");
  await rejects(() => LibBook.objects.orderByNames(['-"id"; DROP TABLE x']).fetch(), FieldError);
  // @ts-expect-error: orderBy() follows to-one relations only
  await rejects(() => LibBook.objects.orderBy('tags__name').fetch(), FieldError);
  await rejects(() => LibBook.objects.get(new Q({ id: 'abc' })), (e: Error) => e instanceof ValueError && e.message === "Field 'id' expected a number but got 'abc'.");
  await rejects(() => LibBook.objects.filter(new Q({ in_print: 'maybe' })).fetch(), ValueError);
  // fetch() reports a compile error by rejecting its promise, never by throwing synchronously.
  let pending: Promise<unknown> | null = null;
  assert.not.throws(() => {
    pending = LibBook.objects.filter(new Q({ id: 'abc' })).fetch();
  });
  assert.instance(pending, Promise);
  await rejects(() => pending as unknown as Promise<unknown>, ValueError);
  // @ts-expect-error: update() takes the model's fields only
  await rejects(() => LibBook.objects.update({ nope: 1 }), FieldError);
});

test('selectRelated / prefetchRelated :: bounded query counts', async () => {
  for (let i = 0; i < 20; i++) await LibBook.objects.create({ title: `extra ${i}`, author_id: i % 2 ? ann.id : bob.id });
  try {
    let books: LibBook[] = [];
    const joined = await captureDataQueries(async () => {
      books = await LibBook.objects.selectRelated('author').prefetchRelated('tags', 'editor').fetch();
    });
    assert.is(joined.length, 3, joined.join('\n'));
    assert.is(books.length, 23);
    assert.is(books[0].author?.name, 'Ann Lee');
    assert.equal(books[0].tags?.map((t) => t.name).sort(), ['fun', 'science']);
    assert.equal(books[2].tags, []);
    assert.is(books[1].editor?.name, 'bob');
    assert.is(books[0].editor, null);
    let authors: LibAuthor[] = [];
    const reverse = await captureDataQueries(async () => {
      authors = await LibAuthor.objects.prefetchRelated('books', 'books__tags').fetch();
    });
    assert.is(reverse.length, 3, reverse.join('\n'));
    const byName = new Map(authors.map((a) => [a.name, a as LibAuthor & { books: LibBook[] }]));
    assert.is(byName.get('Ann Lee')?.books.length, 12);
    assert.is(byName.get('cyd')?.books.length, 0);
    assert.equal(byName.get('Ann Lee')?.books[0].tags?.map((t) => t.name).sort(), ['fun', 'science']);
    const ordered = await captureDataQueries(() => LibBook.objects.orderBy('author__name').slice(0, 5).fetch());
    assert.is(ordered.length, 1);
  } finally {
    await LibBook.objects.filter({ title__startswith: 'extra ' }).delete();
  }
});

test('selectRelated :: a path given again is not joined again; no arguments clears', async () => {
  const once = await captureDataQueries(() => LibBook.objects.selectRelated('author').fetch());
  const twice = await captureDataQueries(() => LibBook.objects.selectRelated('author').selectRelated('author', 'editor').selectRelated('editor').fetch());
  const both = await captureDataQueries(() => LibBook.objects.selectRelated('author', 'editor').fetch());
  assert.is(once[0].match(/JOIN/g)?.length, 1, once[0]);
  assert.is(twice[0], both[0]);
  assert.is(twice[0].match(/JOIN/g)?.length, 2, twice[0]);
  const cleared = await captureDataQueries(() => LibBook.objects.selectRelated('author').selectRelated().fetch());
  assert.not.match(cleared[0], /JOIN/);
});

test('Manager :: custom managers and getQueryset()', async () => {
  assert.instance(LibAuthor.objects, LibAuthorManager);
  assert.equal((await LibAuthor.objects.named('B').fetch()).map((a) => a.name), ['bob']);
  class InPrint extends Manager<LibBook> {
    override getQueryset(): QuerySet<LibBook> {
      return new QuerySet(LibBook).filter({ in_print: true });
    }
  }
  const inPrint = new InPrint(LibBook);
  assert.is(await inPrint.count(), 2);
  assert.equal(await titles(inPrint.filter({ author: ann })), ['Alpha 100%']);
  assert.equal(await titles(inPrint.all()), ['Alpha 100%', 'gamma']);
});

test('values / valuesList / inBulk / async iteration', async () => {
  assert.equal(await LibBook.objects.values('id', 'title'), [
    { id: 1, title: 'Alpha 100%' },
    { id: 2, title: 'beta_one' },
    { id: 3, title: 'gamma' },
  ]);
  assert.equal(await LibBook.objects.orderBy('-id').valuesList('id', { flat: true }), [3, 2, 1]);
  assert.equal(await LibBook.objects.filter({ id: 1 }).valuesList('id', 'author_id'), [[1, ann.id]]);
  assert.equal(await LibBook.objects.distinct().orderBy('author_id').valuesList('author_id', { flat: true }), [ann.id, bob.id]);
  const bulk = await LibBook.objects.inBulk([1, 3]);
  assert.equal([...bulk.keys()].sort(), [1, 3]);
  const seen: string[] = [];
  for await (const book of LibBook.objects.filter({ id__lt: 3 })) seen.push(book.title);
  assert.equal(seen, ['Alpha 100%', 'beta_one']);
});

test('create / save :: signals, autoNowAdd, defaults, getOrCreate', async () => {
  const events: string[] = [];
  const onPre = ({ created }: { created: boolean }): void => void events.push(`pre:${created}`);
  const onPost = ({ created, instance }: { created: boolean; instance: object }): void => void events.push(`post:${created}:${(instance as LibTag).name}`);
  preSave.connect(LibTag, onPre);
  postSave.connect(LibTag, onPost);
  postSave.connect(LibAuthor, () => void events.push('author'));
  try {
    await withRollback(async () => {
      const tag = await LibTag.objects.create({ name: 'new' });
      tag.name = 'renamed';
      await tag.save();
      const [same, created] = await LibTag.objects.getOrCreate({ name: 'renamed' });
      assert.not.ok(created);
      assert.is(same.pk, tag.pk);
      const [other, created2] = await LibTag.objects.getOrCreate({ name: 'other' });
      assert.ok(created2);
      assert.ok(other.pk);
      const book = await LibBook.objects.create({ title: 'Dated', author_id: cyd.id });
      assert.instance(book.created, Date);
      assert.is(book.in_print, true);
      assert.is(book.format, 'hb');
      const reloaded = await LibBook.objects.get({ pk: book.pk });
      assert.is(reloaded.created.getTime(), book.created.getTime());
    });
  } finally {
    preSave.disconnect(LibTag, onPre);
    postSave.disconnect(LibTag, onPost);
  }
  assert.equal(events, ['pre:true', 'post:true:new', 'pre:false', 'post:false:renamed', 'pre:true', 'post:true:other']);
  assert.is(await LibTag.objects.filter({ name: 'renamed' }).count(), 0);
});

test('update / delete :: bulk, cascades, set null, join rows, signals', async () => {
  await withRollback(async () => {
    assert.is(await LibBook.objects.filter({ author: ann }).update({ in_print: false }), 2);
    assert.is(await LibBook.objects.filter({ in_print: false }).count(), 2);
    assert.is(await LibBook.objects.filter({ id: 3 }).update({ editor: null }), 1);
    assert.is((await LibBook.objects.get({ id: 3 })).editor_id, null);
    const deleted: unknown[] = [];
    const receiver = ({ instance }: { instance: object }): void => void deleted.push((instance as LibBook).title);
    postDelete.connect(LibBook, receiver);
    try {
      // Deleting an author cascades to books (and their tag rows) and nulls `editor_id`.
      assert.is(await LibAuthor.objects.filter({ name: 'Ann Lee' }).delete(), 1);
    } finally {
      postDelete.disconnect(LibBook, receiver);
    }
    assert.equal(deleted.sort(), ['Alpha 100%', 'beta_one']);
    assert.equal(await titles(LibBook.objects.all()), ['gamma']);
    assert.is(await LibTag.objects.filter(new Q({ libbook__isnull: false })).count(), 0);
    const gamma = await LibBook.objects.get({ id: 3 });
    assert.is(gamma.editor_id, null);
    await gamma.destroy();
    assert.is(await LibBook.objects.count(), 0);
    await rejects(() => LibBook.objects.slice(0, 1).delete(), QuerySetError);
  });
  assert.is(await LibBook.objects.count(), 3);
  assert.is(await LibAuthor.objects.count(), 3);
});

test.run();
