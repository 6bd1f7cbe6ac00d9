/**
 * SPEC.md settings SCHEMA_COERCE_PATH_PK and SCHEMA_COERCE_METHOD_NAMES: the view inspector
 * describes `{pk}` path parameters by the model's real primary-key name (typically `id`) and
 * names viewset actions retrieve -> read, destroy -> delete; both follow the settings.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { AutoSchema, schemaFor } from '../../lib/schemas';
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
const pathNames = (schema: AutoSchema, path: string, method = 'GET') =>
  (schema.getOperation(path, method).parameters as Array<{ name: string; in: string }>).filter((p) => p.in === 'path').map((p) => p.name);

test('SCHEMA_COERCE_PATH_PK :: {pk} is described by the model pk name; False keeps pk', async () => {
  assert.equal(pathNames(inspector('retrieve'), '/notes/{pk}/'), ['id']);
  assert.equal(pathNames(inspector('retrieve'), '/notes/{slug}/'), ['slug']);
  await overrideSettings({ API_FRAMEWORK: { SCHEMA_COERCE_PATH_PK: false } }, () => {
    assert.equal(pathNames(inspector('retrieve'), '/notes/{pk}/'), ['pk']);
  });
});

test('SCHEMA_COERCE_PATH_PK :: a view without a queryset model uses id', () => {
  const schema = new AutoSchema();
  schema.view = { constructor: { name: 'PlainView' } };
  assert.equal((schema.getOperation('/things/{pk}/', 'GET').parameters as Array<{ name: string }>).map((p) => p.name), ['id']);
});

test('SCHEMA_COERCE_METHOD_NAMES :: retrieve -> read, destroy -> delete; a custom mapping applies', async () => {
  assert.is(inspector('retrieve').getOperationId('/notes/{pk}/', 'GET'), 'readNote');
  assert.is(inspector('destroy').getOperationId('/notes/{pk}/', 'DELETE'), 'deleteNote');
  assert.is(inspector('update').getOperationId('/notes/{pk}/', 'PUT'), 'updateNote');
  await overrideSettings({ API_FRAMEWORK: { SCHEMA_COERCE_METHOD_NAMES: { update: 'replace' } } }, () => {
    assert.is(inspector('retrieve').getOperationId('/notes/{pk}/', 'GET'), 'retrieveNote');
    assert.is(inspector('update').getOperationId('/notes/{pk}/', 'PUT'), 'replaceNote');
  });
});

test.run();
