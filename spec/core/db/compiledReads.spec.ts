/**
 * `values()` / `valuesList()` and `prefetchRelated()` of many-to-many relations through the
 * compiled SELECT (lib/core/db/compiledSelect.ts) instead of `Model.findAll()`: each case
 * answers exactly what `findAll()` with the QuerySet's options answered before (values of every
 * column type, joins for ordering, DISTINCT, slices, bound filters), and `findAll()` is not
 * called. Runs on SQLite and, with DATABASE_URL=mysql://..., on MariaDB.
 */
import 'reflect-metadata';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QueryTypes, type FindOptions } from 'sequelize';
import { Q, preDelete, type QuerySet, type ValueName } from '../../../lib/core/db';
import { getSequelize } from '../../../lib/core/db/connection';
import { captureDataQueries, useTestDatabase } from '../../../lib/core/db/testing';
import { User } from '../../../contrib/auth/models';
import { SArticle, SArticleTag, STag, serializerModels } from '../../models/serializers/models';
import { countCalls } from '../../helpers';

const test = suite('core/db/compiled reads');
useTestDatabase(test, { models: serializerModels });

/** Counts `findAll()` calls on `models` while `fn` runs; answers fn's result and the count. */
function findAllCalls<T>(models: Array<{ findAll: unknown }>, fn: () => Promise<T>): Promise<[T, number]> {
  return countCalls(models, 'findAll', fn);
}

/** What `values()` answered before: `findAll()` with the QuerySet's options, the attributes, raw. */
async function valuesByFindAll(qs: QuerySet<SArticle>, names: string[], distinct = false): Promise<unknown[]> {
  const options = (qs as unknown as { findOptions(): FindOptions }).findOptions();
  const attributes: Array<[string, string]> = names.map((name) => [name, name]);
  return SArticle.findAll({ ...options, attributes, raw: true, ...(distinct ? { group: names } : {}) });
}

test.before(async () => {
  const ann = await User.objects.create({ username: 'ann', password: '!' });
  const bob = await User.objects.create({ username: 'bob', password: '!' });
  const tags = [];
  for (const name of ['red', 'green', 'blue']) tags.push(await STag.objects.create({ name }));
  const rows: Array<Record<string, unknown>> = [
    { title: 'first ✓ 😀', published: true, owner_id: ann.id, extra: { a: [1, null] }, price: '12.50', views: 3, day: '2024-02-29', uid: '0b7e9f0c-4a1e-4c55-8a7e-3f0cbd1f0e11' },
    { title: "it's\u0000second", published: false, owner_id: bob.id, extra: null, ratio: 0.25, views: 3 },
    { title: 'third', published: true, owner_id: null, extra: 'text', views: 9 },
    { title: 'fourth', published: false, owner_id: ann.id, views: 0 },
  ];
  const articles = [];
  for (const row of rows) articles.push(await SArticle.objects.create(row));
  const links: Array<[number, number[]]> = [[0, [0, 1]], [1, [2]], [3, [0, 1, 2]]];
  for (const [article, tagIndexes] of links) {
    for (const tag of tagIndexes) await SArticleTag.objects.create({ article_id: articles[article].id, tag_id: tags[tag].id });
  }
});

const ALL: Array<ValueName<SArticle>> = ['id', 'title', 'body', 'views', 'ratio', 'price', 'published', 'created', 'day', 'at', 'uid', 'extra', 'contact', 'status', 'owner_id'];

const VALUES_CASES: Array<[string, () => QuerySet<SArticle>, Array<ValueName<SArticle>>, boolean]> = [
  ['every column type', () => SArticle.objects.orderBy('id'), ALL, false],
  ['bound filter and slice', () => SArticle.objects.filter({ views__gte: 1 }, Q.or({ published: true }, { title__icontains: 'SECOND' })).orderBy('-views', 'id').slice(1, 3), ['id', 'title'], false],
  ['ordering across a relation (a join)', () => SArticle.objects.orderBy('owner__username', '-id'), ['title', 'owner_id'], false],
  ['distinct', () => SArticle.objects.distinct().orderBy('views'), ['views'], true],
  ['offset without a limit', () => SArticle.objects.orderBy('id').slice(2), ['id'], false],
  ['nothing matches', () => SArticle.objects.filter({ title: 'nope' }), ['id'], false],
];

for (const [label, build, names, distinct] of VALUES_CASES) {
  test(`values(), ${label}: what findAll() answered, without findAll()`, async () => {
    const expected = await valuesByFindAll(build(), names, distinct);
    const [rows, calls] = await findAllCalls([SArticle], () => build().values(...names));
    assert.is(calls, 0, 'compiled, not findAll()');
    assert.equal(rows, expected);
    const [again] = await findAllCalls([SArticle], () => build().values(...names));
    assert.equal(again, expected, 'the cached shape answers the same');
  });
}

test('one shape run again with other conditions and slices: each run has its own text and rows', async () => {
  const ids = (await SArticle.objects.orderBy('id').values('id')).map((row) => row.id as number);
  const runs: Array<[string, () => Promise<unknown>]> = [
    ['get first', async () => (await SArticle.objects.get({ pk: ids[0] })).id],
    ['get second', async () => (await SArticle.objects.get({ pk: ids[1] })).id],
    ['slice', async () => (await SArticle.objects.orderBy('id').slice(1, 3).fetch()).map((row) => row.id)],
    ['offset', async () => (await SArticle.objects.orderBy('id').slice(2).fetch()).map((row) => row.id)],
    ['unsliced', async () => (await SArticle.objects.orderBy('id').fetch()).length],
    ['slice again', async () => (await SArticle.objects.orderBy('id').slice(1, 3).fetch()).map((row) => row.id)],
    ['other filter', async () => (await SArticle.objects.filter({ views: 9 }).orderBy('id').fetch()).map((row) => row.id)],
  ];
  const answers: unknown[] = [];
  const sql = await captureDataQueries(async () => {
    for (const [, run] of runs) answers.push(await run());
  });
  assert.equal(answers, [ids[0], ids[1], ids.slice(1, 3), ids.slice(2), ids.length, ids.slice(1, 3), [ids[2]]]);
  assert.is(sql.length, runs.length, sql.join('\n'));
  assert.is(sql[0], sql[1], 'a lookup by key: one text, other values');
  assert.ok(/LIMIT 2 OFFSET 1;?$/.test(sql[2]), sql[2]);
  assert.ok(/OFFSET 2;?$/.test(sql[3]) && !sql[3].includes('LIMIT 2 '), sql[3]);
  assert.not.ok(sql[4].includes('LIMIT'), sql[4]);
  assert.is(sql[5], sql[2], 'the same slice again');
  assert.ok(sql[6].includes('WHERE') && !sql[4].includes('WHERE'), 'filtered and unfiltered shapes');
});

test('valuesList(): tuples and flat lists from the compiled values()', async () => {
  const [flat, calls] = await findAllCalls([SArticle], () => SArticle.objects.filter({ published: true }).orderBy('id').valuesList('title', { flat: true }));
  assert.is(calls, 0);
  assert.equal(flat, ['first ✓ 😀', 'third']);
  const reference = await valuesByFindAll(SArticle.objects.orderBy('-id').slice(0, 2), ['id', 'published']) as Array<Record<string, unknown>>;
  assert.equal(reference.map((row) => row.id), [4, 3]);
  assert.equal(await SArticle.objects.orderBy('-id').slice(0, 2).valuesList('id', 'published'), reference.map((row) => [row.id, row.published]));
});

/** The tag names of each article as the join table says, by article id. */
async function tagsFromJoinTable(): Promise<Map<number, string[]>> {
  const qi = getSequelize().getQueryInterface().queryGenerator as unknown as { quoteTable(t: unknown): string };
  const rows = await getSequelize().query(
    `SELECT j.article_id AS article, t.name AS name FROM ${qi.quoteTable(SArticleTag.getTableName())} j JOIN ${qi.quoteTable(STag.getTableName())} t ON t.id = j.tag_id ORDER BY t.id`,
    { type: QueryTypes.SELECT },
  ) as Array<{ article: number; name: string }>;
  const byArticle = new Map<number, string[]>();
  for (const row of rows) byArticle.set(Number(row.article), [...(byArticle.get(Number(row.article)) ?? []), row.name]);
  return byArticle;
}

const PREFETCH_CASES: Array<[string, () => QuerySet<SArticle>]> = [
  ['all articles', () => SArticle.objects.orderBy('id')],
  ['a bound filter on the outer query', () => SArticle.objects.filter({ title__in: ['first ✓ 😀', "it's\u0000second", 'fourth'] }).orderBy('-id')],
  ['with selectRelated', () => SArticle.objects.selectRelated('owner').orderBy('id').slice(0, 3)],
];

for (const [label, build] of PREFETCH_CASES) {
  test(`prefetchRelated() of a many-to-many, ${label}: the join table's rows, compiled`, async () => {
    const expected = await tagsFromJoinTable();
    const [articles, calls] = await findAllCalls([SArticle, STag], () => build().prefetchRelated('tags').fetch());
    assert.is(calls, 0, 'compiled, not findAll()');
    assert.ok(articles.length > 0);
    for (const article of articles) {
      const tags = article.tags ?? [];
      assert.instance(tags, Array);
      assert.equal(tags.map((tag) => tag.name), expected.get(article.id) ?? [], `tags of ${article.title}`);
      for (const tag of tags) {
        assert.instance(tag, STag);
        assert.is(tag.get('articles'), undefined, 'the reverse join is not left on the tag');
        assert.equal(Object.keys(tag.get({ plain: true }) as object).sort(), ['id', 'name']);
      }
    }
  });
}

test('prefetchRelated() of the reverse many-to-many (tag.articles) and nested paths', async () => {
  const [tags, calls] = await findAllCalls([SArticle, STag], () => STag.objects.orderBy('id').prefetchRelated('articles', 'articles__owner').fetch());
  assert.is(calls, 0);
  const expected = await tagsFromJoinTable();
  for (const tag of tags) {
    const articles = (tag.get('articles') as SArticle[]).map((article) => article.id).sort();
    const want = [...expected].filter(([, names]) => names.includes(tag.name)).map(([id]) => id).sort();
    assert.equal(articles, want, `articles of ${tag.name}`);
    for (const article of tag.get('articles') as SArticle[]) {
      assert.is((article.get('owner') as User | null)?.id ?? null, article.owner_id);
    }
  }
});

test('delete() of rows with dependents and receivers reads them compiled: full instances for the signals, keys otherwise', async () => {
  const first = await SArticle.objects.create({ title: 'doomed one' });
  const second = await SArticle.objects.create({ title: 'doomed two' });
  const tag = await STag.objects.get({ name: 'red' });
  await SArticleTag.objects.create({ article_id: first.id, tag_id: tag.id });
  const [deleted, calls] = await findAllCalls([SArticle, SArticleTag], () => SArticle.objects.filter({ title: 'doomed one' }).delete());
  assert.is(calls, 0, 'compiled, not findAll()');
  assert.is(deleted, 1);
  assert.is(await SArticleTag.objects.filter({ article_id: first.id }).count(), 0, 'the join rows went first');
  const seen: unknown[] = [];
  const receiver = ({ instance }: { instance: object }): void => void seen.push([(instance as SArticle).id, (instance as SArticle).title, instance instanceof SArticle]);
  preDelete.connect(SArticle, receiver);
  try {
    const [count, signalCalls] = await findAllCalls([SArticle], () => SArticle.objects.filter({ title__startswith: 'doomed' }).delete());
    assert.is(signalCalls, 0);
    assert.is(count, 1);
  } finally {
    preDelete.disconnect(SArticle, receiver);
  }
  assert.equal(seen, [[second.id, 'doomed two', true]]);
  assert.is(await SArticle.objects.filter({ title__startswith: 'doomed' }).count(), 0);
});

test.run();
