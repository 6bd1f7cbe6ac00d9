/**
 * Filter backends fed bad query parameters (lib/filters.ts): FieldFilterBackend values each
 * column type cannot hold (a clear 400 naming the field) and misdeclared fields; SearchFilter
 * with empty, blank, comma-only and unbalanced-quote terms; OrderingFilter with empty,
 * comma-only, bare `-` and unknown fields mixed with valid ones. Never a 500.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ImproperlyConfigured } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { ValidationError } from '../../lib/exceptions';
import { FieldFilterBackend, OrderingFilter, SearchFilter, searchSmartSplit } from '../../lib/filters';
import { ListAPIView } from '../../lib/generics';
import { Request } from '../../lib/request';
import { ModelSerializer } from '../../lib/serializers';
import { APIRequestFactory } from '../../lib/test';
import { callView, jsonOnlyApiSettings, useSettings } from '../helpers';
import { GNote, GOwner } from '../models/generics/models';
import { BadOwner, BadRow } from './models';

const test = suite('badInput filters');
useTestDatabase(test, { models: [BadOwner, BadRow, GOwner, GNote] });
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings(), TIME_ZONE: 'UTC', USE_TZ: true }));

const factory = new APIRequestFactory();
const req = async (url: string): Promise<Request> => new Request(await factory.get(url));
const ids = async (qs: { fetch(): Promise<unknown[]> }): Promise<number[]> => ((await qs.fetch()) as Array<{ id: number }>).map((row) => row.id);

class RowSerializer extends ModelSerializer {
  static Meta = { model: BadRow, fields: ['id', 'title', 'n', 'price', 'flag', 'day', 'kind'] };
}

class RowList extends ListAPIView {
  override queryset = BadRow.objects.all();
  override serializerClass = RowSerializer;
  override filterBackends = [SearchFilter, OrderingFilter, FieldFilterBackend];
  override searchFields = ['title', 'owner__name'];
  override orderingFields = ['n', 'title', 'price'];
  override ordering = 'id';
  override filtersetFields = ['n', 'price', 'flag', 'day', 'at', 'kind', 'owner__name', 'title'];
}

const FILTERSET = { filtersetFields: ['n', 'price', 'flag', 'day', 'at', 'kind', 'owner__name', 'title'] };

async function list(query: string): Promise<{ status: number; body: unknown }> {
  const response = await callView(RowList.asView(), { url: `/rows/${query}` });
  return { status: response.status, body: JSON.parse(response.text) };
}

function fieldErrors(error: unknown): unknown {
  assert.instance(error, ValidationError);
  return JSON.parse(JSON.stringify((error as ValidationError).detail));
}

async function filterError(query: string): Promise<unknown> {
  try {
    new FieldFilterBackend().filterQueryset(await req(`/${query}`), BadRow.objects.all(), FILTERSET);
  } catch (error) {
    return fieldErrors(error);
  }
  return assert.unreachable(`${query} was accepted`);
}

async function filterIds(query: string): Promise<number[]> {
  return ids(new FieldFilterBackend().filterQueryset(await req(`/${query}`), BadRow.objects.orderBy('id'), FILTERSET));
}

test.before(async () => {
  const ann = await BadOwner.objects.create({ name: 'ann' });
  const bob = await BadOwner.objects.create({ name: 'bob' });
  await BadRow.objects.create({ title: 'alpha one', n: 1, price: '1.50', flag: true, day: '2020-02-29', at: new Date('2020-02-29T10:00:00Z'), kind: 'a', owner_id: ann.id });
  await BadRow.objects.create({ title: 'beta "two"', n: 2, price: '20.00', flag: false, day: '2021-03-01', at: new Date('2021-03-01T00:00:00Z'), kind: 'b', owner_id: bob.id });
  await BadRow.objects.create({ title: "gamma it's", n: 3, price: '3', flag: false, day: '2021-03-01', at: new Date('2022-01-01T23:59:59Z'), kind: 'z', owner_id: bob.id });
  const owner = await GOwner.objects.create({ username: 'many', password: '' });
  await GNote.objects.create({ title: 'first note', owner_id: owner.id });
  await GNote.objects.create({ title: 'second note', owner_id: owner.id });
});

test('field filter :: integers', async () => {
  assert.equal(await filterIds('?n=2'), [2]);
  assert.equal(await filterIds('?n=+2'), [2]);
  assert.equal(await filterIds('?n=%202%20'), [2], 'surrounding blanks are ignored');
  for (const bad of ['abc', '1.5', '1e3', '0x10', '--1', '%00']) {
    assert.equal(await filterError(`?n=${bad}`), { n: ['Enter a number.'] }, bad);
  }
});

test('field filter :: decimals', async () => {
  assert.equal(await filterIds('?price=20'), [2]);
  assert.equal(await filterIds('?price=1.5'), [1]);
  assert.equal(await filterIds('?price=.5'), []);
  for (const bad of ['abc', '1.2.3', 'NaN', 'Infinity', '1e2', '.']) {
    assert.equal(await filterError(`?price=${bad}`), { price: ['Enter a number.'] }, bad);
  }
});

test('field filter :: booleans', async () => {
  assert.equal(await filterIds('?flag=true'), [1]);
  assert.equal(await filterIds('?flag=0'), [2, 3]);
  assert.equal(await filterIds('?flag=False'), [2, 3]);
  assert.equal(await filterError('?flag=maybe'), { flag: ['Select a valid choice. maybe is not one of the available choices.'] });
});

test('field filter :: dates: impossible calendar days are 400, not another day', async () => {
  assert.equal(await filterIds('?day=2020-02-29'), [1]);
  assert.equal(await filterIds('?day=2021-03-01'), [2, 3]);
  for (const bad of ['2021-02-29', '2020-02-30', '2020-13-01', '2020-00-10', '20-01-01', 'yesterday', '2020-1-1x']) {
    assert.equal(await filterError(`?day=${bad}`), { day: ['Enter a valid date.'] }, bad);
  }
});

test('field filter :: datetimes: ISO input, a date alone is midnight, impossible values are 400', async () => {
  assert.equal(await filterIds('?at=2020-02-29T10:00:00Z'), [1]);
  assert.equal(await filterIds(`?at=${encodeURIComponent('2020-02-29T11:00:00+01:00')}`), [1]);
  assert.equal(await filterIds('?at=2020-02-29%2010:00'), [1], 'naive values are in TIME_ZONE');
  assert.equal(await filterIds('?at=2021-03-01'), [2]);
  // 2021-02-29 must not silently become 1 March.
  for (const bad of ['2021-02-29', '2021-02-29T00:00:00Z', '2020-01-01T25:00', '2020-01-01Tnoon', 'soon']) {
    assert.equal(await filterError(`?at=${encodeURIComponent(bad)}`), { at: ['Enter a valid date/time.'] }, bad);
  }
});

test('field filter :: grouped choices', async () => {
  assert.equal(await filterIds('?kind=b'), [2]);
  assert.equal(await filterIds('?kind=z'), [3]);
  assert.equal(await filterError('?kind=Letters'), { kind: ['Select a valid choice. Letters is not one of the available choices.'] });
  assert.equal(await filterError('?kind=B'), { kind: ['Select a valid choice. B is not one of the available choices.'] });
});

test('field filter :: strings and relations are bound values; empty values and undeclared names are ignored', async () => {
  assert.equal(await filterIds('?owner__name=bob'), [2, 3]);
  assert.equal(await filterIds(`?title=${encodeURIComponent("gamma it's")}`), [3]);
  assert.equal(await filterIds(`?title=${encodeURIComponent("' OR 1=1 --")}`), []);
  assert.equal(await filterIds('?n=&flag=&owner__password=x&id=1'), [1, 2, 3]);
  assert.equal(await filterIds('?n=1&n=3'), [3], 'the last of repeated values');
  // Several bad values: one error per field.
  assert.equal(await filterError('?n=x&day=y&title=ok'), { n: ['Enter a number.'], day: ['Enter a valid date.'] });
});

test('field filter :: a misdeclared field is a configuration error naming it', async () => {
  const backend = new FieldFilterBackend();
  for (const name of ['nope', 'owner__nope', 'n__owner', 'owner__name__x']) {
    try {
      backend.filterQueryset(await req('/'), BadRow.objects.all(), { filtersetFields: [name] });
      assert.unreachable(name);
    } catch (error) {
      assert.instance(error, ImproperlyConfigured);
      assert.match((error as Error).message, `Invalid filterset field '${name}' on Object: the model has no such field.`);
    }
  }
  assert.equal(await ids(backend.filterQueryset(await req('/?n=1'), BadRow.objects.orderBy('id'), {})), [1, 2, 3], 'no declared fields');
});

test('field filter :: a to-many path returns each row once', async () => {
  const backend = new FieldFilterBackend();
  const rows = await ids(backend.filterQueryset(await req('/?notes__title=first%20note'), GOwner.objects.orderBy('id'), { filtersetFields: ['notes__title'] }));
  assert.is(rows.length, 1);
});

test('field filter :: schema parameters', () => {
  const backend = new FieldFilterBackend();
  assert.equal(backend.getSchemaFields({ filtersetFields: ['n'] }).map((f) => [f.name, f.location]), [['n', 'query']]);
  assert.equal(backend.getSchemaOperationParameters({ filtersetFields: ['n', 'day'] }).map((p) => [p.name, p.in]), [['n', 'query'], ['day', 'query']]);
  assert.equal(backend.getSchemaFields(), []);
  assert.equal(backend.getSchemaOperationParameters(), []);
});

test('search :: empty, blank, comma-only and null-character terms filter nothing', async () => {
  const backend = new SearchFilter();
  const view = { searchFields: ['title'] };
  for (const query of ['', '?search=', '?search=%20%20', '?search=,,,', '?search=%00', '?search=%22%22', `?search=${encodeURIComponent(" , '' ")}`]) {
    assert.equal(await ids(backend.filterQueryset(await req(`/${query}`), BadRow.objects.orderBy('id'), view)), [1, 2, 3], query);
  }
  assert.equal(await ids(backend.filterQueryset(await req('/?search=alpha'), BadRow.objects.orderBy('id'), { searchFields: [] })), [1, 2, 3]);
  assert.equal(await ids(backend.filterQueryset(await req('/?search=alpha'), BadRow.objects.orderBy('id'), {})), [1, 2, 3]);
});

test('search :: unbalanced and embedded quotes are searched for literally', async () => {
  assert.equal(searchSmartSplit('"two'), ['"two']);
  assert.equal(searchSmartSplit("it's"), ["it's"]);
  assert.equal(searchSmartSplit('"'), ['"']);
  assert.equal(searchSmartSplit('"a b" c"'), ['a b', 'c"']);
  const backend = new SearchFilter();
  const view = { searchFields: ['title'] };
  const run = async (term: string): Promise<number[]> => ids(backend.filterQueryset(await req(`/?search=${encodeURIComponent(term)}`), BadRow.objects.orderBy('id'), view));
  assert.equal(await run('"two'), [2]);
  assert.equal(await run('two"'), [2]);
  assert.equal(await run("it's"), [3]);
  assert.equal(await run('"'), [2]);
  assert.equal(await run('%'), [], 'LIKE wildcards are literal');
  assert.equal(await run('_'), []);
  assert.equal(await run('"beta \\"two\\""'), [2], 'escaped quotes inside a quoted phrase');
});

test('search :: a misdeclared search field is a configuration error; a to-many field returns rows once', async () => {
  const backend = new SearchFilter();
  try {
    backend.filterQueryset(await req('/?search=x'), BadRow.objects.all(), { searchFields: ['^nope'] });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ImproperlyConfigured);
    assert.match((error as Error).message, "Invalid search field '^nope'");
  }
  const owners = await ids(backend.filterQueryset(await req('/?search=note'), GOwner.objects.orderBy('id'), { searchFields: ['notes__title'] }));
  assert.is(owners.length, 1, 'two matching notes, one owner');
});

test('search :: the browsable search box escapes the term', async () => {
  const backend = new SearchFilter();
  const html = backend.toHtml(await req(`/?search=${encodeURIComponent('"><script>')}`), null, { searchFields: ['title'] });
  assert.match(html, 'value="&quot;&gt;&lt;script&gt;"');
  assert.not.match(html, '<script>');
  assert.is(backend.toHtml(await req('/?search=x'), null, {}), '');
  assert.equal(backend.getSchemaFields().map((f) => f.name), ['search']);
  assert.equal(backend.getSchemaOperationParameters().map((p) => p.name), ['search']);
});

test('ordering :: empty, comma-only, bare minus and unknown fields fall back to the view ordering', async () => {
  const backend = new OrderingFilter();
  const view = { orderingFields: ['n', 'title'], ordering: '-id' };
  for (const query of ['?ordering=', '?ordering=,,', '?ordering=-', '?ordering=--n', '?ordering=%20', '?ordering=nope,-nope', '?ordering=-,,-', '?ordering=id']) {
    assert.equal(backend.getOrdering(await req(`/${query}`), BadRow.objects.all(), view), ['-id'], query);
    assert.equal(await ids(backend.filterQueryset(await req(`/${query}`), BadRow.objects.all(), view)), [3, 2, 1], query);
  }
  assert.is(backend.getOrdering(await req('/?ordering=,'), BadRow.objects.all(), { orderingFields: ['n'] }), null, 'no view ordering');
});

test('ordering :: unknown fields mixed with valid ones keep only the valid ones, in order', async () => {
  const backend = new OrderingFilter();
  const view = { orderingFields: ['n', 'title', 'price'], ordering: 'id' };
  assert.equal(backend.getOrdering(await req('/?ordering=nope,-n,,password,title%20'), BadRow.objects.all(), view), ['-n', 'title']);
  assert.equal(await ids(backend.filterQueryset(await req('/?ordering=bogus,-price'), BadRow.objects.all(), view)), [2, 3, 1]);
  // An allowed name that is no model field is dropped too (never sent to the database).
  assert.equal(backend.getOrdering(await req('/?ordering=computed,n'), BadRow.objects.all(), { orderingFields: ['computed', 'n'] }), ['n']);
});

test('ordering :: default valid fields from a getSerializerClass() that fails its assertion', async () => {
  const backend = new OrderingFilter();
  const failing = {
    getSerializerClass(): never {
      const error = new Error("'X' should either include a `serializerClass` attribute");
      error.name = 'AssertionError';
      throw error;
    },
  };
  assert.throws(() => backend.getValidFields(BadRow.objects.all(), failing), /Cannot use OrderingFilter on a view which does not have/);
  const other = { getSerializerClass(): never { throw new TypeError('boom'); } };
  assert.throws(() => backend.getValidFields(BadRow.objects.all(), other), /boom/);
  const viaMethod = { getSerializerClass: () => RowSerializer };
  assert.equal(backend.getValidFields(BadRow.objects.all(), viaMethod).map(([name]) => name), ['id', 'title', 'n', 'price', 'flag', 'day', 'kind']);
});

test('ordering :: the browsable control marks the current choice and escapes links', async () => {
  const backend = new OrderingFilter();
  const view = { orderingFields: [['n', 'Number'] as const], ordering: 'id' };
  const request = await req('/rows/?ordering=-n&x=%22%3E%3Cb%3E');
  const context = backend.getTemplateContext(request, BadRow.objects.all(), view);
  assert.is(context.current, '-n');
  assert.equal(context.options, [['n', 'Number - ascending'], ['-n', 'Number - descending']]);
  const html = backend.toHtml(request, BadRow.objects.all(), view);
  assert.match(html, 'class="list-group-item active"');
  assert.match(html, 'href="http://testserver/rows/?ordering=n&amp;x=%22%3E%3Cb%3E"');
  assert.not.match(html, '<b>');
  assert.equal(backend.getSchemaFields().map((f) => f.name), ['ordering']);
  assert.equal(backend.getSchemaOperationParameters().map((p) => p.name), ['ordering']);
});

test('view :: bad filter values answer 400 with field errors; bad search/ordering answer 200', async () => {
  assert.equal(await list('?n=abc&day=2021-02-29'), { status: 400, body: { n: ['Enter a number.'], day: ['Enter a valid date.'] } });
  const ok = await list('?search=%22&ordering=-,,nope');
  assert.is(ok.status, 200);
  assert.equal((ok.body as Array<{ id: number }>).map((row) => row.id), [2]);
  const all = await list('?ordering=-price&search=&flag=');
  assert.equal((all.body as Array<{ id: number }>).map((row) => row.id), [2, 3, 1]);
});

test.run();
