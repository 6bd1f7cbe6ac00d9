import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase } from '../lib/core/db/testing';
import { overrideSettings } from '../lib/core/conf';
import { APIRequestFactory } from '../lib/test';
import { Request } from '../lib/request';
import { NotFound } from '../lib/exceptions';
import { OrderingFilter } from '../lib/filters';
import {
  BasePagination,
  CursorPagination,
  LimitOffsetPagination,
  PageNumberPagination,
  getDisplayedPageNumbers,
  type Paginatable,
} from '../lib/pagination';
import { Response } from '../lib/response';
import { ListAPIView } from '../lib/generics';
import { GNote, GOwner, NoteSerializer } from './models/generics/models';

const factory = new APIRequestFactory();
async function req(url: string): Promise<Request> {
  return new Request(await factory.get(url));
}
const ids = (rows: unknown[] | null) => (rows as GNote[]).map((n) => n.id);

const test = suite('pagination');
useTestDatabase(test, { models: [GOwner, GNote] });
test.before(async () => {
  for (let i = 1; i <= 23; i += 1) await GNote.objects.create({ title: `note ${i}`, rank: i % 4 });
  // Distinct creation times a second apart (rows created in one millisecond would tie).
  const base = Date.now() - 3600_000;
  for (let i = 1; i <= 23; i += 1) await GNote.objects.filter({ id: i }).update({ created: new Date(base + i * 1000) });
});

class Pages extends PageNumberPagination {
  override pageSize = 5;
  override pageSizeQueryParam = 'page_size';
  override maxPageSize = 7;
}

test('page number :: first page envelope and links keep other params', async () => {
  const p = new Pages();
  const page = await p.paginateQueryset(GNote.objects.all(), await req('/notes/?search=x'));
  assert.equal(ids(page), [1, 2, 3, 4, 5]);
  const res = p.getPaginatedResponse(['data']);
  assert.equal(res.data, { count: 23, next: 'http://testserver/notes/?page=2&search=x', previous: null, results: ['data'] });
  assert.ok(p.displayPageControls);
});

test('page number :: middle, page 2 previous drops page, last string', async () => {
  const p = new Pages();
  await p.paginateQueryset(GNote.objects.all(), await req('/notes/?page=2'));
  const data = p.getPaginatedResponse([]).data as Record<string, unknown>;
  assert.is(data.previous, 'http://testserver/notes/');
  assert.is(data.next, 'http://testserver/notes/?page=3');
  const q = new Pages();
  const last = await q.paginateQueryset(GNote.objects.all(), await req('/notes/?page=last'));
  assert.equal(ids(last), [21, 22, 23]);
  assert.is((q.getPaginatedResponse([]).data as Record<string, unknown>).next, null);
  assert.is((q.getPaginatedResponse([]).data as Record<string, unknown>).previous, 'http://testserver/notes/?page=4');
});

test('page number :: invalid and out-of-range pages are 404 Invalid page.', async () => {
  for (const bad of ['0', '6', 'abc', '1.0', '-1']) {
    try {
      await new Pages().paginateQueryset(GNote.objects.all(), await req(`/notes/?page=${bad}`));
      assert.unreachable(`page=${bad} accepted`);
    } catch (error) {
      assert.instance(error, NotFound);
      assert.is(String((error as NotFound).detail), 'Invalid page.');
    }
  }
});

test('page number :: page_size clamped to max, invalid falls back', async () => {
  const big = new Pages();
  assert.is((await big.paginateQueryset(GNote.objects.all(), await req('/notes/?page_size=100')))!.length, 7);
  for (const bad of ['0', '-3', 'x']) {
    const p = new Pages();
    assert.is((await p.paginateQueryset(GNote.objects.all(), await req(`/notes/?page_size=${bad}`)))!.length, 5);
  }
});

test('page number :: PAGE_SIZE setting used when the class sets none; null disables', async () => {
  await overrideSettings({ API_FRAMEWORK: { PAGE_SIZE: 4 } }, async () => {
    const page = await new PageNumberPagination().paginateQueryset(GNote.objects.all(), await req('/notes/'));
    assert.is(page!.length, 4);
  });
  assert.is(await new PageNumberPagination().paginateQueryset(GNote.objects.all(), await req('/notes/')), null);
});

test('page number :: html controls and displayed numbers', async () => {
  assert.equal(getDisplayedPageNumbers(14, 16), [1, null, 13, 14, 15, 16]);
  assert.equal(getDisplayedPageNumbers(1, 3), [1, 2, 3]);
  const p = new Pages();
  await p.paginateQueryset(GNote.objects.all(), await req('/notes/?page=3'));
  const ctx = p.getHtmlContext();
  assert.equal(ctx.pageLinks!.map((l) => l.number), [1, 2, 3, 4, 5]);
  assert.ok(ctx.pageLinks![2].isActive);
  assert.is(ctx.pageLinks![0].url, 'http://testserver/notes/');
  assert.match(p.toHtml(), '<li class="active">');
});

test('limit offset :: envelope, links, bad numbers fall back, max limit', async () => {
  class LO extends LimitOffsetPagination {
    override defaultLimit = 5;
    override maxLimit = 8;
  }
  let p = new LO();
  assert.equal(ids(await p.paginateQueryset(GNote.objects.all(), await req('/notes/?offset=10&limit=3'))), [11, 12, 13]);
  let data = p.getPaginatedResponse([]).data as Record<string, unknown>;
  assert.is(data.count, 23);
  assert.is(data.next, 'http://testserver/notes/?limit=3&offset=13');
  assert.is(data.previous, 'http://testserver/notes/?limit=3&offset=7');
  p = new LO();
  await p.paginateQueryset(GNote.objects.all(), await req('/notes/?offset=2&limit=3'));
  assert.is((p.getPaginatedResponse([]).data as Record<string, unknown>).previous, 'http://testserver/notes/?limit=3');
  p = new LO();
  assert.equal(ids(await p.paginateQueryset(GNote.objects.all(), await req('/notes/?offset=x&limit=-2'))), [1, 2, 3, 4, 5]);
  p = new LO();
  assert.is((await p.paginateQueryset(GNote.objects.all(), await req('/notes/?limit=50')))!.length, 8);
  p = new LO();
  assert.equal(await p.paginateQueryset(GNote.objects.all(), await req('/notes/?offset=100')), []);
  data = p.getPaginatedResponse([]).data as Record<string, unknown>;
  assert.is(data.next, null);
  assert.is(data.count, 23);
});

class Cursor extends CursorPagination {
  override pageSize = 5;
  override ordering = 'id';
}

async function walk(p: () => CursorPagination, start: string, qs: () => Paginatable<unknown>, onPage?: (n: number) => Promise<void>): Promise<number[]> {
  const seen: number[] = [];
  let url: string | null = start;
  let n = 0;
  while (url) {
    const pager = p();
    const page = await pager.paginateQueryset(qs(), await req(url.replace('http://testserver', '')));
    seen.push(...ids(page));
    url = (pager.getPaginatedResponse([]).data as { next: string | null }).next;
    n += 1;
    if (onPage) await onPage(n);
  }
  return seen;
}

test('cursor :: forward walk, then backwards, envelope has no count', async () => {
  const seen = await walk(() => new Cursor(), '/notes/', () => GNote.objects.all());
  assert.equal(seen, Array.from({ length: 23 }, (_, i) => i + 1));
  const p = new Cursor();
  await p.paginateQueryset(GNote.objects.all(), await req('/notes/'));
  const next = (p.getPaginatedResponse([]).data as { next: string }).next;
  const p2 = new Cursor();
  const page2 = await p2.paginateQueryset(GNote.objects.all(), await req(next.replace('http://testserver', '')));
  assert.equal(ids(page2), [6, 7, 8, 9, 10]);
  const body = p2.getPaginatedResponse([]).data as Record<string, string>;
  assert.equal(Object.keys(body), ['next', 'previous', 'results']);
  const p3 = new Cursor();
  assert.equal(ids(await p3.paginateQueryset(GNote.objects.all(), await req(body.previous.replace('http://testserver', '')))), [1, 2, 3, 4, 5]);
  assert.is((p3.getPaginatedResponse([]).data as Record<string, unknown>).previous, null);
  const cursor = new URL(next).searchParams.get('cursor')!;
  assert.is(Buffer.from(cursor, 'base64').toString('ascii'), 'p=5');
});

test('cursor :: no duplicates while rows are inserted between pages', async () => {
  class Newest extends CursorPagination {
    override pageSize = 4;
    override ordering = '-created';
  }
  const before = await GNote.objects.count();
  try {
    const seen = await walk(() => new Newest(), '/notes/', () => GNote.objects.all(), async () => {
      await GNote.objects.create({ title: 'inserted meanwhile' });
    });
    assert.is(new Set(seen).size, seen.length, 'an item was returned twice');
    assert.is(seen.length, before);
    assert.equal(seen, Array.from({ length: 23 }, (_, i) => 23 - i));
  } finally {
    await GNote.objects.filter({ title: 'inserted meanwhile' }).delete();
  }
});

test('cursor :: duplicate positions are resolved with offsets', async () => {
  class ByRank extends CursorPagination {
    override pageSize = 3;
    // Only the first field gives positions; the second keeps ties in a stable order.
    override ordering = ['rank', 'id'];
  }
  const seen = await walk(() => new ByRank(), '/notes/', () => GNote.objects.orderBy('rank', 'id'));
  assert.is(seen.length, 23);
  assert.is(new Set(seen).size, 23);
});

test('cursor :: invalid cursors are 404 Invalid cursor', async () => {
  for (const bad of ['abc', 'bm9wZQ', Buffer.from('p=abc').toString('base64'), Buffer.from('o=x').toString('base64'), Buffer.from('r=z').toString('base64')]) {
    try {
      await new Cursor().paginateQueryset(GNote.objects.all(), await req(`/notes/?cursor=${encodeURIComponent(bad)}`));
      assert.unreachable(`cursor ${bad} accepted`);
    } catch (error) {
      assert.instance(error, NotFound);
      assert.is(String((error as NotFound).detail), 'Invalid cursor');
    }
  }
});

test('cursor :: ordering comes from the view ordering filter', async () => {
  class View extends ListAPIView {
    override queryset = GNote.objects.all();
    override serializerClass = NoteSerializer;
    override filterBackends = [OrderingFilter];
    override orderingFields = ['id', 'rank'];
    override ordering = '-id';
  }
  const view = new View();
  const p = new Cursor();
  const page = await p.paginateQueryset(GNote.objects.all(), await req('/notes/'), view);
  assert.equal(ids(page), [23, 22, 21, 20, 19]);
});

test('custom style :: links in a Link header', async () => {
  class LinkHeader extends PageNumberPagination {
    override pageSize = 10;
    override getPaginatedResponse(data: unknown): Response {
      const links = [this.getNextLink() && `<${this.getNextLink()}>; rel="next"`, this.getPreviousLink() && `<${this.getPreviousLink()}>; rel="prev"`];
      return new Response(data, { headers: { Link: links.filter(Boolean).join(', ') } });
    }
  }
  const p: BasePagination = new LinkHeader();
  const page = await p.paginateQueryset(GNote.objects.all(), await req('/notes/?page=2'));
  const res = p.getPaginatedResponse(ids(page));
  assert.equal(res.data, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  assert.is(res.getHeader('Link'), '<http://testserver/notes/?page=3>; rel="next", <http://testserver/notes/>; rel="prev"');
  assert.equal(p.getSchemaFields().map((f) => f.name), ['page']);
});

test.run();
