/**
 * Schemas: every API view carries a view inspector as `schema` (DEFAULT_SCHEMA_CLASS, read
 * when first accessed), attached to the view; a view may declare its own or null, and so may
 * `asView()` initkwargs and `apiView(..., { schema })`.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../lib/core/conf';
import { APIRequestFactory } from '../lib/test';
import { APIView } from '../lib/views';
import { apiView } from '../lib/decorators';
import { Response } from '../lib/response';
import { AutoSchema, ViewInspector, schemaFor } from '../lib/schemas';
import { ViewSet } from '../lib/viewsets';

const test = suite('schemas');
const factory = new APIRequestFactory();

class CustomSchema extends AutoSchema {
  override getOperationId(path: string, method: string): string {
    return `custom-${super.getOperationId(path, method)}`;
  }
}

class SnippetListView extends APIView {
  get() {
    return new Response({ schema: this.schema?.constructor.name ?? null, attached: this.schema?.view === this });
  }
}

class ExcludedView extends APIView {
  override schema = null;
}

class OwnSchemaView extends APIView {
  override schema = new CustomSchema();
}

test('default :: an AutoSchema attached to the view, the same on every read', () => {
  const view = new SnippetListView();
  const schema = view.schema;
  assert.instance(schema, AutoSchema);
  assert.is(schema?.view, view);
  assert.is(view.schema, schema);
  assert.is(schemaFor(view), schema);
  assert.is(view.schema?.view, view);
  assert.is((view.schema as AutoSchema).getOperationId('/snippets/', 'GET'), 'listSnippets');
  // Each view instance has its own inspector.
  const other = new SnippetListView();
  assert.is.not(other.schema, schema);
  assert.is(other.schema?.view, other);
});

test('default :: DEFAULT_SCHEMA_CLASS is read when the schema is first read', async () => {
  const view = new SnippetListView();
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_SCHEMA_CLASS: CustomSchema } }, () => {
    assert.instance(view.schema, CustomSchema);
    assert.is((view.schema as AutoSchema).getOperationId('/snippets/', 'GET'), 'custom-listSnippets');
  });
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_SCHEMA_CLASS: null } }, () => {
    assert.is(new SnippetListView().schema, null);
    assert.is(schemaFor(new SnippetListView()), null);
  });
  assert.instance(new SnippetListView().schema, AutoSchema);
});

test('declared :: null excludes the view; an own instance is attached to each view', () => {
  assert.is(new ExcludedView().schema, null);
  assert.is(schemaFor(new ExcludedView()), null);
  const view = new OwnSchemaView();
  assert.instance(view.schema, CustomSchema);
  assert.is(view.schema?.view, view);
  const bad = new SnippetListView();
  (bad as { schema: unknown }).schema = 'nope';
  assert.throws(() => bad.schema, /SnippetListView\.schema must be a ViewInspector instance or null/);
});

test('declared :: a shared inspector follows the view that reads it (as the original descriptor)', () => {
  const shared = new CustomSchema();
  const a = new SnippetListView();
  const b = new SnippetListView();
  a.schema = shared;
  b.schema = shared;
  assert.is(a.schema?.view, a);
  assert.is(b.schema?.view, b);
});

test('asView initkwargs and apiView options set the schema', async () => {
  const custom = await SnippetListView.asView({ schema: new CustomSchema() })(await factory.get('/'), {});
  assert.equal((custom as Response).data, { schema: 'CustomSchema', attached: true });
  const none = await SnippetListView.asView({ schema: null })(await factory.get('/'), {});
  assert.equal((none as Response).data, { schema: null, attached: false });
  const plain = await SnippetListView.asView()(await factory.get('/'), {});
  assert.equal((plain as Response).data, { schema: 'AutoSchema', attached: true });

  let seen: unknown = 'unset';
  const probe = (options: Parameters<typeof apiView>[1]) =>
    apiView(['GET'], options)(function probeView(this: unknown, request) {
      seen = request.parserContext.view;
      return new Response(null);
    });
  await probe({ schema: null })(await factory.get('/'), {});
  assert.is((seen as APIView).schema, null);
  await probe({ schema: new CustomSchema() })(await factory.get('/'), {});
  assert.instance((seen as APIView).schema, CustomSchema);
  assert.is((seen as APIView).schema?.view, seen);
  await probe({})(await factory.get('/'), {});
  assert.instance((seen as APIView).schema, AutoSchema);
});

test('view sets :: the inspector sees the action', () => {
  class NoteViewSet extends ViewSet {}
  const view = new NoteViewSet();
  view.action = 'list';
  assert.is((view.schema as AutoSchema).getOperationId('/notes/', 'GET'), 'listNotes');
  view.action = 'destroy';
  view.detail = true;
  assert.is((view.schema as AutoSchema).getOperationId('/notes/{id}/', 'DELETE'), 'deleteNote');
  assert.instance(view.schema, ViewInspector);
});

test.run();
