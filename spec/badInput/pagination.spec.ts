/**
 * Paginators fed bad query parameters through a list view (lib/pagination): page numbers that
 * are zero, negative, fractional, words or past the end; `page=last` on an empty list; page
 * sizes and limits that are zero, negative or words; cursors that are not base64, carry bogus
 * positions, odd flags or SQL. Each answers a page or a clear 404 — never a 500, and client
 * text only ever reaches the database as a bound value.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { captureQueries, useTestDatabase } from '../../lib/core/db/testing';
import { ListAPIView } from '../../lib/generics';
import { CursorPagination, LimitOffsetPagination, PageNumberPagination } from '../../lib/pagination';
import { ModelSerializer } from '../../lib/serializers';
import { callView, jsonOnlyApiSettings, useSettings } from '../helpers';
import { BadOwner, BadRow } from './models';

const test = suite('badInput pagination');
useTestDatabase(test, { models: [BadOwner, BadRow] });
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings() }));

class RowSerializer extends ModelSerializer {
  static Meta = { model: BadRow, fields: ['id', 'title'] };
}

class Pages extends PageNumberPagination {
  override pageSize = 2;
  override pageSizeQueryParam = 'page_size';
  override maxPageSize = 3;
}

class Limits extends LimitOffsetPagination {
  override defaultLimit = 2;
  override maxLimit = 3;
}

class Cursors extends CursorPagination {
  override pageSize = 2;
  override ordering = 'id';
}

class DateCursors extends CursorPagination {
  override pageSize = 2;
  override ordering = '-at';
}

class TitleCursors extends CursorPagination {
  override pageSize = 2;
  override ordering = 'title';
}

function listView(paginationClass: unknown, empty = false) {
  class RowList extends ListAPIView {
    override queryset = empty ? BadRow.objects.none() : BadRow.objects.orderBy('id');
    override serializerClass = RowSerializer;
    override paginationClass = paginationClass as typeof PageNumberPagination;
  }
  return RowList.asView();
}

interface Answer {
  status: number;
  body: { detail?: string; count?: number; results?: Array<{ id: number }>; next?: string | null; previous?: string | null };
}

async function get(paginationClass: unknown, query: string, empty = false): Promise<Answer> {
  const response = await callView(listView(paginationClass, empty), { url: `/rows/${query}`, headers: { host: 'testserver' } });
  return { status: response.status, body: JSON.parse(response.text) };
}

const idsOf = (answer: Answer): number[] => (answer.body.results ?? []).map((row) => row.id);

test.before(async () => {
  for (let i = 1; i <= 5; i++) {
    await BadRow.objects.create({ title: `row ${i}`, day: '2020-01-01', at: new Date(Date.UTC(2020, 0, i)) });
  }
});

test('page number :: zero, negative, fractional, words, past the end: 404 Invalid page.', async () => {
  for (const page of ['0', '-1', '1.5', 'abc', '', '%20', '4', '99999999999999999999', '1e2', '0x1', 'last1']) {
    const answer = await get(Pages, `?page=${page}`);
    assert.equal(answer, { status: 404, body: { detail: 'Invalid page.' } }, `page=${page}`);
  }
  assert.equal(idsOf(await get(Pages, '?page=3')), [5]);
  assert.equal(idsOf(await get(Pages, '?page=%2B2')), [3, 4], 'a leading + is an integer, as int() reads it');
  assert.equal(idsOf(await get(Pages, '?page=last')), [5]);
});

test('page number :: page=last and page=1 on an empty list are an empty first page', async () => {
  for (const page of ['last', '1']) {
    assert.equal(await get(Pages, `?page=${page}`, true), { status: 200, body: { count: 0, next: null, previous: null, results: [] } }, page);
  }
  assert.equal(await get(Pages, '?page=2', true), { status: 404, body: { detail: 'Invalid page.' } });
});

test('page number :: page_size zero, negative, words fall back to the default; too large is capped', async () => {
  for (const size of ['0', '-1', 'abc', '1.5', '']) {
    assert.equal(idsOf(await get(Pages, `?page_size=${size}`)), [1, 2], `page_size=${size}`);
  }
  assert.equal(idsOf(await get(Pages, '?page_size=100')), [1, 2, 3]);
  assert.equal(idsOf(await get(Pages, '?page_size=1&page=5')), [5]);
});

test('limit/offset :: negative, zero and word limits fall back; word offsets are 0; too large is capped', async () => {
  for (const limit of ['-5', 'abc', '', '1.5']) {
    assert.equal(idsOf(await get(Limits, `?limit=${limit}`)), [1, 2], `limit=${limit}`);
  }
  assert.equal(idsOf(await get(Limits, '?limit=0')), [1, 2], 'limit=0 is not a positive limit');
  assert.equal(idsOf(await get(Limits, '?limit=100')), [1, 2, 3]);
  for (const offset of ['abc', '-3', '', '1.5']) {
    assert.equal(idsOf(await get(Limits, `?offset=${offset}`)), [1, 2], `offset=${offset}`);
  }
  const past = await get(Limits, '?offset=100');
  assert.equal(past, { status: 200, body: { count: 5, next: null, previous: 'http://testserver/rows/?limit=2&offset=98', results: [] } });
});

function cursorFor(text: string): string {
  return encodeURIComponent(Buffer.from(text).toString('base64'));
}

test('cursor :: not base64, bad flags, negative or word offsets: 404 Invalid cursor', async () => {
  // The original decodes '!!!' (characters outside base64 dropped) and 'foo' to the first page.
  const bad = ['!!!', '%00', 'cD0x!', cursorFor('foo'), '====', cursorFor('o=abc'), cursorFor('o=-1'), cursorFor('r=yes'), cursorFor('o=1.5'), cursorFor('p=1&r=maybe')];
  for (const cursor of bad) {
    assert.equal(await get(Cursors, `?cursor=${cursor}`), { status: 404, body: { detail: 'Invalid cursor' } }, cursor);
  }
});

test('cursor :: r=2 reads as reverse, a huge offset is capped, an empty cursor is the first page', async () => {
  const reversed = await get(Cursors, `?cursor=${cursorFor('r=2&p=4')}`);
  assert.is(reversed.status, 200);
  assert.equal(idsOf(reversed), [2, 3]);
  const capped = await get(Cursors, `?cursor=${cursorFor('o=99999999')}`);
  assert.equal(capped.status, 200);
  assert.equal(idsOf(capped), []);
  assert.equal(idsOf(await get(Cursors, '?cursor=')), [1, 2]);
});

test('cursor :: bogus positions for number and date orderings are 404, not a 500', async () => {
  for (const position of ['abc', '', '1 OR 1=1', 'Infinity', 'NaN']) {
    assert.equal(await get(Cursors, `?cursor=${cursorFor(`p=${encodeURIComponent(position)}`)}`), { status: 404, body: { detail: 'Invalid cursor' } }, position);
  }
  for (const position of ['yesterday', "2020-01-01' OR '1'='1", '2020-13-45']) {
    assert.equal(await get(DateCursors, `?cursor=${cursorFor(`p=${encodeURIComponent(position)}`)}`), { status: 404, body: { detail: 'Invalid cursor' } }, position);
  }
  assert.equal(idsOf(await get(DateCursors, `?cursor=${cursorFor('p=2020-01-04T00:00:00.000Z')}`)), [3, 2]);
});

test('cursor :: SQL in a position is a bound value: a correct (empty) page and no SQL from input', async () => {
  const hostile = "row 1' OR '1'='1";
  let answer: Answer | null = null;
  const statements = await captureQueries(async () => {
    answer = await get(TitleCursors, `?cursor=${cursorFor(`p=${encodeURIComponent(hostile)}`)}`);
  });
  assert.is(answer!.status, 200);
  assert.equal(idsOf(answer!), [2, 3], 'the rows after that text, compared as text');
  for (const statement of statements) assert.not.match(statement, "OR '1'='1");
});

test.run();
