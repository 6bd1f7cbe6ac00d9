/**
 * `retrieve()` joins the to-one relations its serializer reads into the object's SELECT
 * (lib/utils/representationJoins.ts): one statement instead of one more query per relation,
 * with the same answer and the same instances as the general path (the serializer loading
 * what it reads itself).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callView } from '../helpers';
import { captureDataQueries } from '../../lib/core/db/testing';
import type { Model } from 'sequelize-typescript';
import { RetrieveAPIView, RetrieveUpdateAPIView } from '../../lib/generics';
import { ModelViewSet } from '../../lib/viewsets';
import { ModelSerializer, meta } from '../../lib/serializers';
import { ReadOnlyField, SerializerMethodField } from '../../lib/fields';
import { PrimaryKeyRelatedField } from '../../lib/relations';
import { BasePermission } from '../../lib/permissions';
import type { Request } from '../../lib/request';
import type { APIView } from '../../lib/views';
import { joinRepresentationRelations, representationJoins } from '../../lib/utils/representationJoins';
import { GNote, GOwner } from '../models/generics/models';
import { useOwnedNotes } from '../models/generics/ownedNotes';

const test = suite('utils/representationJoins');
const notes = useOwnedNotes(test);

class OwnerSerializer extends ModelSerializer<GOwner> {
  static Meta = meta({ model: GOwner, fields: ['id', 'username'] });
}

class DottedSerializer extends ModelSerializer<GNote> {
  static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) };
  static Meta = meta({ model: GNote, fields: ['id', 'title', 'done', 'created', 'owner'] }, this.fields);
}

class NestedSerializer extends ModelSerializer<GNote> {
  static fields = { owner: new OwnerSerializer({ readOnly: true }) };
  static Meta = meta({ model: GNote, fields: ['id', 'title', 'owner'] }, this.fields);
}

class PkSerializer extends ModelSerializer<GNote> {
  static fields = { owner: new PrimaryKeyRelatedField({ queryset: GOwner.objects.all(), allowNull: true }) };
  static Meta = meta({ model: GNote, fields: ['id', 'title', 'owner'] }, this.fields);
}

class ColumnsSerializer extends ModelSerializer<GNote> {
  static Meta = meta({ model: GNote, fields: ['id', 'title', 'rank'] });
}

class MethodSerializer extends ModelSerializer<GNote> {
  static fields = {
    owner_name: new SerializerMethodField(),
    owner: new ReadOnlyField({ source: 'owner.username' }),
  };
  static Meta = meta({ model: GNote, fields: ['id', 'owner_name', 'owner'] }, this.fields);

  getOwnerName(note: GNote): string | null {
    return note.owner ? note.owner.username.toUpperCase() : null;
  }
}

/** The general path: the object fetched alone, the serializer loading what it reads. */
async function generalData(serializerClass: new (options: { instance: unknown }) => { getData(): Promise<unknown> }, pk: number): Promise<unknown> {
  const note = await GNote.objects.get({ pk });
  return JSON.parse(JSON.stringify(await new serializerClass({ instance: note }).getData()));
}

async function retrieve(view: ReturnType<typeof RetrieveAPIView.asView>, pk: number): Promise<{ body: unknown; queries: string[] }> {
  let content = '';
  const queries = await captureDataQueries(async () => {
    const response = await callView(view, { url: `/notes/${pk}/` }, { pk: String(pk) });
    assert.is(response.status, 200, String(response.content));
    content = String(response.content);
  });
  return { body: JSON.parse(content), queries };
}

const cases: Array<{ name: string; serializer: typeof DottedSerializer | typeof NestedSerializer | typeof PkSerializer | typeof ColumnsSerializer | typeof MethodSerializer; joins: string[] }> = [
  { name: 'dotted source owner.username', serializer: DottedSerializer, joins: ['owner'] },
  { name: 'nested serializer on the foreign key', serializer: NestedSerializer, joins: ['owner'] },
  { name: 'primary key relation (read from the foreign key)', serializer: PkSerializer, joins: [] },
  { name: 'columns only', serializer: ColumnsSerializer, joins: [] },
  { name: 'method field next to a dotted source', serializer: MethodSerializer, joins: ['owner'] },
];

for (const row of cases) {
  test(`retrieve :: ${row.name}: one statement, joins ${JSON.stringify(row.joins)}, the general path's answer`, async () => {
    const view = RetrieveAPIView.asView({ queryset: GNote.objects.all(), serializerClass: row.serializer });
    for (const pk of [notes.noteId, notes.orphanId]) {
      const { body, queries } = await retrieve(view, pk);
      assert.equal(body, await generalData(row.serializer, pk), `${row.name} pk ${pk}`);
      assert.is(queries.length, 1, `${row.name} pk ${pk}: ${queries.join('\n')}`);
      assert.is(/JOIN/.test(queries[0]), row.joins.length > 0, `${row.name}: ${queries[0]}`);
    }
  });
}

test('retrieve :: a view set retrieve joins; update and destroy look the object up without joins', async () => {
  const view = ModelViewSet.asView({ get: 'retrieve', put: 'update', delete: 'destroy' }, { queryset: GNote.objects.all(), serializerClass: DottedSerializer });
  const { body, queries } = await retrieve(view, notes.noteId);
  assert.is(queries.length, 1, queries.join('\n'));
  assert.is((body as { owner: string }).owner, 'ann');
  let updated = '';
  const updateQueries = await captureDataQueries(async () => {
    const response = await callView(view, { url: `/notes/${notes.noteId}/`, method: 'PUT', body: JSON.stringify({ title: 'renamed' }), headers: { 'content-type': 'application/json' } }, { pk: String(notes.noteId) });
    updated = String(response.content);
    assert.is(response.status, 200, updated);
  });
  assert.is(JSON.parse(updated).owner, 'ann');
  assert.not.match(updateQueries[0], /JOIN/, updateQueries[0]);
});

test('retrieve :: a getObject() override is used as it is (the serializer loads what it reads)', async () => {
  class Custom extends RetrieveAPIView<GNote> {
    override async getObject(): Promise<GNote> {
      return GNote.objects.get({ pk: Number(this.kwargs.pk) });
    }
  }
  const { body, queries } = await retrieve(Custom.asView({ queryset: GNote.objects.all(), serializerClass: DottedSerializer }), notes.noteId);
  assert.equal(body, await generalData(DottedSerializer, notes.noteId));
  assert.is(queries.length, 2, queries.join('\n'));
});

test('retrieve :: a queryset that already selects the relation is not joined twice', async () => {
  const view = RetrieveAPIView.asView({ queryset: GNote.objects.selectRelated('owner'), serializerClass: DottedSerializer });
  const { body, queries } = await retrieve(view, notes.noteId);
  assert.equal(body, await generalData(DottedSerializer, notes.noteId));
  assert.is(queries.length, 1);
  assert.is(queries[0].match(/JOIN/g)?.length, 1, queries[0]);
});

test('retrieve :: the object permission sees the joined object, and 404s stay 404s', async () => {
  const seen: unknown[] = [];
  class Records extends BasePermission {
    override hasObjectPermission(_request: Request, _view: APIView, obj: GNote): boolean {
      seen.push(obj.owner === undefined ? 'not loaded' : obj.owner?.username ?? null);
      return true;
    }
  }
  const view = RetrieveAPIView.asView({ queryset: GNote.objects.all(), serializerClass: DottedSerializer, permissionClasses: [Records] });
  await retrieve(view, notes.noteId);
  await retrieve(view, notes.orphanId);
  assert.equal(seen, ['ann', null]);
  const missing = await callView(view, { url: '/notes/0/' }, { pk: '0' });
  assert.is(missing.status, 404);
  const invalid = await callView(view, { url: '/notes/x/' }, { pk: 'x' });
  assert.is(invalid.status, 404);
});

test('representationJoins :: empty unless the view is retrieving; worked out once per (view class, serializer class, model)', async () => {
  let built = 0;
  class CountedDotted extends DottedSerializer {
    constructor(...args: ConstructorParameters<typeof DottedSerializer>) {
      super(...args);
      built += 1;
    }
  }
  class CountedColumns extends ColumnsSerializer {
    constructor(...args: ConstructorParameters<typeof ColumnsSerializer>) {
      super(...args);
      built += 1;
    }
  }
  class Counting extends RetrieveUpdateAPIView<GNote> {}
  const make = (serializerClass: typeof CountedDotted | typeof CountedColumns): Counting => {
    const view = new Counting();
    view.serializerClass = serializerClass as typeof CountedDotted;
    view.kwargs = {};
    return view;
  };
  const idle = make(CountedDotted);
  assert.equal(representationJoins(idle, GNote), []);
  assert.is(built, 0);
  const views = [make(CountedDotted), make(CountedDotted), make(CountedColumns)];
  for (const view of views) joinRepresentationRelations(view);
  assert.equal(representationJoins(views[0], GNote), ['owner']);
  assert.equal(representationJoins(views[1], GNote), ['owner']);
  assert.is(built, 1);
  assert.equal(representationJoins(views[2], GNote), []);
  assert.is(built, 2);
});

/** What an instance promises user code, compared between the two ways of loading the owner. */
function instanceState(instance: Model): Record<string, unknown> {
  return {
    values: JSON.parse(JSON.stringify(instance.get({ plain: true }))),
    previous: JSON.parse(JSON.stringify(instance.previous())),
    changed: instance.changed(),
    isNewRecord: instance.isNewRecord,
  };
}

test('instances :: a joined owner equals a separately loaded one, and saves', async () => {
  const joined = await GNote.objects.selectRelated('owner').get({ pk: notes.noteId });
  const alone = await GNote.objects.get({ pk: notes.noteId });
  const owner = await GOwner.objects.get({ pk: alone.owner_id! });
  assert.ok(joined.owner instanceof GOwner);
  assert.equal(instanceState(joined.owner!), instanceState(owner));
  const { owner: _joinedOwner, ...noteValues } = instanceState(joined).values as Record<string, unknown>;
  void _joinedOwner;
  assert.equal(noteValues, instanceState(alone).values);
  joined.owner!.username = 'bea';
  assert.equal(joined.owner!.changed(), ['username']);
  await joined.owner!.save();
  assert.is((await GOwner.objects.get({ pk: owner.id })).username, 'bea');
  joined.title = 'saved';
  await joined.save();
  assert.is((await GNote.objects.get({ pk: notes.noteId })).title, 'saved');
});

test.run();
