/**
 * SPEC.md settings SCHEMA_COERCE_PATH_PK and SCHEMA_COERCE_METHOD_NAMES: the view inspector
 * describes `{pk}` path parameters by the model's real primary-key name (typically `id`) and
 * names viewset actions retrieve -> read, destroy -> delete (operation ids are action + model
 * name, as the original's); both follow the settings.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { AutoSchema, SchemaGenerator, schemaFor } from '../../lib/schemas';
import { path } from '../../lib/core/urls';
import { APIView } from '../../lib/views';
import { ModelViewSet } from '../../lib/viewsets';
import { GNote } from '../models/generics/models';

const test = suite('conformance: schemas');

class NoteViewSet extends ModelViewSet {
  override queryset = GNote.objects.all();
}

function inspector(action: string | null, detail = true): AutoSchema {
  const view = new NoteViewSet();
  view.action = action;
  view.detail = detail;
  return schemaFor(view) as AutoSchema;
}
const documentPaths = async (route: string): Promise<string[]> =>
  Object.keys((await new SchemaGenerator({ patterns: [path(route, NoteViewSet.asView({ get: 'retrieve' }))] }).getSchema(null, true)).paths);

test('SCHEMA_COERCE_PATH_PK :: {pk} is described by the model pk name; False keeps pk', async () => {
  assert.equal(await documentPaths('notes/<int:pk>/'), ['/notes/{id}/']);
  assert.equal(await documentPaths('notes/<slug:slug>/'), ['/notes/{slug}/']);
  await overrideSettings({ API_FRAMEWORK: { SCHEMA_COERCE_PATH_PK: false } }, async () => {
    assert.equal(await documentPaths('notes/<int:pk>/'), ['/notes/{pk}/']);
  });
});

test('SCHEMA_COERCE_PATH_PK :: a view without a queryset model uses id', () => {
  assert.is(new SchemaGenerator().coercePath('/things/{pk}/', 'GET', new APIView()), '/things/{id}/');
});

test('SCHEMA_COERCE_METHOD_NAMES :: retrieve -> read, destroy -> delete; a custom mapping applies', async () => {
  assert.is(inspector('retrieve').getOperationId('/notes/{pk}/', 'GET'), 'readGNote');
  assert.is(inspector('destroy').getOperationId('/notes/{pk}/', 'DELETE'), 'deleteGNote');
  assert.is(inspector('update').getOperationId('/notes/{pk}/', 'PUT'), 'updateGNote');
  await overrideSettings({ API_FRAMEWORK: { SCHEMA_COERCE_METHOD_NAMES: { update: 'replace' } } }, () => {
    assert.is(inspector('retrieve').getOperationId('/notes/{pk}/', 'GET'), 'retrieveGNote');
    assert.is(inspector('update').getOperationId('/notes/{pk}/', 'PUT'), 'replaceGNote');
  });
});

test.run();
