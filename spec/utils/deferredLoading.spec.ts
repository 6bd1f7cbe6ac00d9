/**
 * `retrieve()` loads only the columns its serializer reads when they are plain columns
 * (`QuerySet.deferExcept()`, lib/core/db/deferredAttributes.ts): the answer is the general
 * path's, other attributes are not selected, and object permissions that read an attribute
 * that was not loaded decide on the whole object, looked up again.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callView } from '../helpers';
import { captureDataQueries } from '../../lib/core/db/testing';
import { RetrieveAPIView } from '../../lib/generics';
import { ModelSerializer, meta } from '../../lib/serializers';
import { ReadOnlyField, SerializerMethodField } from '../../lib/fields';
import { BasePermission } from '../../lib/permissions';
import type { Request } from '../../lib/request';
import type { APIView } from '../../lib/views';
import { DeferredAttributeError } from '../../lib/core/db/deferredAttributes';
import { GNote } from '../models/generics/models';
import { useOwnedNotes } from '../models/generics/ownedNotes';

const test = suite('utils/deferredLoading');
const notes = useOwnedNotes(test, { language: 'js' });

class DottedSerializer extends ModelSerializer<GNote> {
  static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) };
  static Meta = meta({ model: GNote, fields: ['id', 'title', 'rank', 'owner'] }, this.fields);
}

class ColumnsSerializer extends ModelSerializer<GNote> {
  static Meta = meta({ model: GNote, fields: ['id', 'title', 'rank'] });
}

class MethodSerializer extends ModelSerializer<GNote> {
  static fields = { shout: new SerializerMethodField() };
  static Meta = meta({ model: GNote, fields: ['id', 'shout'] }, this.fields);

  getShout(note: GNote): string {
    return note.title.toUpperCase();
  }
}

/** The general path: the whole object, serialized. */
async function generalData(serializerClass: new (options: { instance: unknown }) => { getData(): Promise<unknown> }, pk: number): Promise<unknown> {
  const note = await GNote.objects.get({ pk });
  return JSON.parse(JSON.stringify(await new serializerClass({ instance: note }).getData()));
}

async function retrieve(view: ReturnType<typeof RetrieveAPIView.asView>, pk: number, status = 200): Promise<{ body: unknown; queries: string[] }> {
  let content = '';
  const queries = await captureDataQueries(async () => {
    const response = await callView(view, { url: `/notes/${pk}/` }, { pk: String(pk) });
    assert.is(response.status, status, String(response.content));
    content = String(response.content);
  });
  return { body: JSON.parse(content), queries };
}

/** The column names a SELECT reads (quoted names in its select list). */
function selectedColumns(sql: string): string[] {
  const list = sql.slice(sql.search(/SELECT\s/i) + 7, sql.search(/\sFROM\s/i));
  return list.split(',').map((item) => {
    const column = /[`"](\w+)[`"]\s*$/.exec(item.replace(/\s+AS\s+.*$/i, ''));
    assert.ok(column, `a column in ${sql}`);
    return column[1];
  }).sort();
}

test('retrieve :: a serializer of plain columns: only its columns (and keys) are selected, same answer', async () => {
  const view = RetrieveAPIView.asView({ queryset: GNote.objects.all(), serializerClass: ColumnsSerializer });
  for (const pk of [notes.noteId, notes.orphanId]) {
    const { body, queries } = await retrieve(view, pk);
    assert.equal(body, await generalData(ColumnsSerializer, pk));
    assert.is(queries.length, 1, queries.join('\n'));
    assert.equal(selectedColumns(queries[0]), ['id', 'rank', 'title'], queries[0]);
  }
});

test('retrieve :: a dotted source joins the relation for its column only (no password)', async () => {
  const view = RetrieveAPIView.asView({ queryset: GNote.objects.all(), serializerClass: DottedSerializer });
  for (const pk of [notes.noteId, notes.orphanId]) {
    const { body, queries } = await retrieve(view, pk);
    assert.equal(body, await generalData(DottedSerializer, pk));
    assert.is(queries.length, 1, queries.join('\n'));
    assert.equal(selectedColumns(queries[0]), ['id', 'id', 'owner_id', 'rank', 'title', 'username'], queries[0]);
  }
});

test('retrieve :: a method field reads the whole instance: every column is selected', async () => {
  const view = RetrieveAPIView.asView({ queryset: GNote.objects.all(), serializerClass: MethodSerializer });
  const { body, queries } = await retrieve(view, notes.noteId);
  assert.equal(body, { id: notes.noteId, shout: 'OWNED' });
  assert.ok(selectedColumns(queries[0]).includes('language'), queries[0]);
});

test('retrieve :: deferredLoadingAllowed() false selects every column', async () => {
  class Whole extends RetrieveAPIView<GNote> {
    override deferredLoadingAllowed(): boolean {
      return false;
    }
  }
  const { body, queries } = await retrieve(Whole.asView({ queryset: GNote.objects.all(), serializerClass: ColumnsSerializer }), notes.noteId);
  assert.equal(body, await generalData(ColumnsSerializer, notes.noteId));
  assert.ok(selectedColumns(queries[0]).includes('language'), queries[0]);
});

test('retrieve :: object permissions that read only what was loaded decide on the narrowed object', async () => {
  const seen: unknown[] = [];
  class OwnerCheck extends BasePermission {
    override hasObjectPermission(_request: Request, _view: APIView, obj: GNote): boolean {
      seen.push(obj.owner?.username ?? null, obj.owner_id);
      return true;
    }
  }
  const view = RetrieveAPIView.asView({ queryset: GNote.objects.all(), serializerClass: DottedSerializer, permissionClasses: [OwnerCheck] });
  const { queries } = await retrieve(view, notes.noteId);
  assert.is(queries.length, 1, queries.join('\n'));
  assert.is(seen[0], 'ann');
  assert.is(typeof seen[1], 'number');
});

test('retrieve :: a permission reading an attribute that was not loaded decides on the whole object', async () => {
  const seen: unknown[] = [];
  class LanguageCheck extends BasePermission {
    override hasObjectPermission(_request: Request, _view: APIView, obj: GNote): boolean {
      seen.push(obj.language);
      return obj.language === 'js';
    }
  }
  const view = RetrieveAPIView.asView({ queryset: GNote.objects.all(), serializerClass: ColumnsSerializer, permissionClasses: [LanguageCheck] });
  const allowed = await retrieve(view, notes.noteId);
  assert.equal(allowed.body, await generalData(ColumnsSerializer, notes.noteId));
  assert.is(allowed.queries.length, 2, allowed.queries.join('\n'));
  assert.ok(selectedColumns(allowed.queries[1]).includes('language'), allowed.queries[1]);
  assert.equal(seen, ['js']);
  // The orphan's language is python: denied on the real value.
  const denied = await retrieve(view, notes.orphanId, 403);
  assert.is(denied.queries.length, 2);
  assert.equal(seen, ['js', 'python']);
});

test('retrieve :: a permission that swallows the deferred read still decides on the whole object', async () => {
  class Careless extends BasePermission {
    override hasObjectPermission(_request: Request, _view: APIView, obj: GNote): boolean {
      try {
        return obj.done === false;
      } catch {
        return false;
      }
    }
  }
  const view = RetrieveAPIView.asView({ queryset: GNote.objects.all(), serializerClass: ColumnsSerializer, permissionClasses: [Careless] });
  const { body, queries } = await retrieve(view, notes.noteId);
  assert.equal(body, await generalData(ColumnsSerializer, notes.noteId));
  assert.is(queries.length, 2, queries.join('\n'));
});

test('retrieve :: a getObject() called again on the view (after retrieve) loads the whole object', async () => {
  let again: GNote | null = null;
  class Twice extends RetrieveAPIView<GNote> {
    override async retrieve(request: Request): Promise<import('../../lib/response').Response> {
      const response = await super.retrieve(request);
      again = await this.getObject();
      return response;
    }
  }
  await retrieve(Twice.asView({ queryset: GNote.objects.all(), serializerClass: ColumnsSerializer }), notes.noteId);
  assert.is((again as GNote | null)?.language, 'js');
});

test('deferExcept :: deferred attributes throw a DeferredAttributeError naming them; loaded ones and raw set() work', async () => {
  const note = await GNote.objects.deferExcept([['title'], ['owner', 'username']]).selectRelated('owner').get({ pk: notes.noteId });
  assert.is(note.title, 'owned');
  assert.is(note.owner?.username, 'ann');
  assert.is(typeof note.owner_id, 'number');
  assert.throws(() => note.language, (error: unknown) => error instanceof DeferredAttributeError && /GNote\.language was not loaded/.test(error.message) && /deferExcept\(\)/.test(error.message));
  assert.throws(() => note.owner?.password, (error: unknown) => error instanceof DeferredAttributeError && error.attribute === 'password');
  assert.equal(Object.keys(note.dataValues).filter((key) => key !== 'owner').sort(), ['id', 'owner_id', 'title']);
  note.set('language', 'python', { raw: true });
  assert.is(note.language, 'python');
  assert.is((note.toJSON() as { title: string }).title, 'owned');
});

test.run();
