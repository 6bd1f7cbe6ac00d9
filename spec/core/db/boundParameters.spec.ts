/**
 * Every lookup value reaches the driver as a bound parameter, never spliced into the SQL text:
 * a NUL byte, quotes or SQL fragments are plain values that match what they equal (nothing
 * here), on SQLite (where a spliced NUL cut the statement) and MySQL alike. Integers outside the
 * column's range are decided without SQL (no `Infinity` or overflow reaches the driver).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase, captureDataQueries } from '../../../lib/core/db/testing';
import { Q, ObjectDoesNotExist, getVendor } from '../../../lib/core/db';
import { LibAuthor, LibBook, LibTag } from './library/models';
import { useTestApps } from './helpers';

const test = suite('core/db/bound parameters');
useTestApps(test);
useTestDatabase(test);

const NUL_NAME = 'nul\0byte';
const HOSTILE = ["a\0b", "x' OR '1'='1", 'x"; DROP TABLE lib_book; --', '%', '_', '\\', '$1', '$$'];

test.before(async () => {
  const ann = await LibAuthor.objects.create({ name: 'Ann Lee', email: 'ann@example.com' });
  const bob = await LibAuthor.objects.create({ name: 'bob' });
  await LibTag.objects.create({ name: 'science' });
  await LibBook.objects.create({ title: 'Alpha', author_id: ann.id, price: '10.50' });
  await LibBook.objects.create({ title: 'beta', author_id: bob.id, editor_id: ann.id });
});

const names = async (qs: { fetch(): Promise<LibAuthor[]> }): Promise<string[]> => (await qs.fetch()).map((a) => a.name);

test('hostile strings :: every text lookup matches nothing and the SQL text holds none of them', async () => {
  const lookups = ['name', 'name__iexact', 'name__contains', 'name__icontains', 'name__startswith', 'name__istartswith', 'name__endswith', 'name__iendswith', 'name__in'];
  for (const value of HOSTILE) {
    for (const lookup of lookups) {
      const statements = await captureDataQueries(async () => {
        assert.equal(await names(LibAuthor.objects.filter({ [lookup]: lookup.endsWith('__in') ? [value] : value })), [], `${lookup}=${JSON.stringify(value)}`);
      });
      assert.ok(statements.length > 0);
      // Short values ('_', '$1') also occur in SQL of their own; the distinctive ones must not.
      if (value.length > 2) for (const sql of statements) assert.not.ok(sql.includes(value), `${JSON.stringify(value)} spliced into ${sql}`);
    }
    assert.equal(await names(LibAuthor.objects.exclude({ name: value }).orderBy('id')), ['Ann Lee', 'bob'], `exclude ${JSON.stringify(value)}`);
    assert.equal(await names(LibAuthor.objects.filter(Q.or({ name: value }, { email__icontains: value }))), []);
    assert.equal(await LibBook.objects.filter({ author__name: value }).count(), 0, `across a relation: ${JSON.stringify(value)}`);
    assert.equal(await LibAuthor.objects.filter({ books__title__icontains: value }).exists(), false);
    await assert.not.ok(await LibAuthor.objects.filter({ pk__in: LibBook.objects.filter({ title: value }) }).exists());
  }
});

test('hostile strings :: a NUL byte is stored, found and updated as a value', async () => {
  const created = await LibAuthor.objects.create({ name: NUL_NAME });
  assert.is((await LibAuthor.objects.get({ name: NUL_NAME })).id, created.id);
  assert.is((await LibAuthor.objects.get({ name__startswith: 'nul\0' })).id, created.id);
  assert.equal(await names(LibAuthor.objects.filter({ name: 'nul' })), [], 'the value is not cut at the NUL');
  assert.is(await LibAuthor.objects.filter({ id: created.id }).update({ email: 'e\0@example.com' }), 1);
  assert.is((await LibAuthor.objects.get({ email: 'e\0@example.com' })).name, NUL_NAME);
  assert.is(await LibAuthor.objects.filter({ name: NUL_NAME }).delete(), 1);
  assert.is(await LibAuthor.objects.filter({ name: NUL_NAME }).count(), 0);
});

test('regex :: the pattern is bound (MySQL); refused clearly on SQLite', async () => {
  if (getVendor() !== 'mysql') return;
  assert.equal(await names(LibAuthor.objects.filter({ name__regex: "^Ann' OR '1'='1" })), []);
  assert.equal(await names(LibAuthor.objects.filter({ name__iregex: '^ann' })), ['Ann Lee']);
});

test('integers out of range :: exact, in, comparisons and ranges decide without SQL overflow', async () => {
  const huge = '9'.repeat(309);
  const cases: Array<[Record<string, unknown>, string[]]> = [
    [{ id: huge }, []],
    [{ id: `-${huge}` }, []],
    [{ id: 2147483648 }, []],
    [{ id: Infinity }, []],
    [{ id__in: [huge, 1] }, ['Ann Lee']],
    [{ id__in: [huge] }, []],
    [{ id__lt: huge }, ['Ann Lee', 'bob']],
    [{ id__lte: huge }, ['Ann Lee', 'bob']],
    [{ id__gt: huge }, []],
    [{ id__gte: huge }, []],
    [{ id__gt: `-${huge}` }, ['Ann Lee', 'bob']],
    [{ id__lt: `-${huge}` }, []],
    [{ id__range: [`-${huge}`, 1] }, ['Ann Lee']],
    [{ id__range: [1, huge] }, ['Ann Lee', 'bob']],
    [{ id__range: [huge, huge] }, []],
    [{ books__id: huge }, []],
    [{ id: '2147483647' }, []],
  ];
  for (const [lookups, expected] of cases) {
    assert.equal(await names(LibAuthor.objects.filter(new Q(lookups)).orderBy('id')), expected, JSON.stringify(lookups));
  }
  assert.equal(await names(LibAuthor.objects.exclude(new Q({ id: huge })).orderBy('id')), ['Ann Lee', 'bob']);
  let caught: unknown = null;
  try {
    await LibAuthor.objects.get(new Q({ pk: huge }));
  } catch (error) {
    caught = error;
  }
  assert.instance(caught, ObjectDoesNotExist);
  assert.is(await LibBook.objects.filter(new Q({ author_id: huge })).update({ title: 'never' }), 0);
  assert.is(await LibBook.objects.filter(new Q({ author: huge })).delete(), 0);
});
test.run();
