import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonOnlyApiSettings, useSettings } from './helpers';
import { HttpRequest } from '../lib/core/http';
import { SimpleMetadata } from '../lib/metadata';
import type { Request } from '../lib/request';
import { Response } from '../lib/response';
import { APIView } from '../lib/views';

const test = suite('metadata');
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings() }));

// Field classes named like the serializer fields: the metadata maps them by class name.
class Field {
  required = true;
  readOnly = false;
  label?: string;
  helpText?: string;
  constructor(options: Record<string, unknown> = {}) {
    Object.assign(this, options);
  }
}
class CharField extends Field {}
class IntegerField extends Field {}
class ChoiceField extends Field {}
class HiddenField extends Field {}
class ListField extends Field {}
class PrimaryKeyRelatedField extends Field {}
Object.defineProperty(PrimaryKeyRelatedField, 'name', { value: 'RelatedField' });
class Serializer {
  constructor(readonly fields: Record<string, unknown>) {}
}
class ListSerializer {
  constructor(readonly child: Serializer) {}
}

class SnippetList extends APIView {
  static override description = 'Lists snippets.';
  get() {
    return new Response([]);
  }
  post() {
    return new Response({}, { status: 201 });
  }
  put() {
    return new Response({});
  }
  getSerializer() {
    return new ListSerializer(new Serializer({
      id: new IntegerField({ readOnly: true, required: false, label: 'ID' }),
      title: new CharField({ required: false, maxLength: 100, label: 'Title', helpText: 'A title' }),
      language: new ChoiceField({ choices: new Map([['python', 'Python'], ['js', 'JavaScript']]) }),
      owner: new HiddenField(),
      tags: new ListField({ child: new CharField({ maxLength: 5 }) }),
      author: new PrimaryKeyRelatedField({ choices: [[1, 'a']] }),
      nested: new Serializer({ n: new IntegerField({ minValue: 0 }) }),
    }));
  }
  getObject() {
    return {};
  }
}

async function options(view: typeof APIView) {
  const response = (await view.asView()(HttpRequest.create({ method: 'OPTIONS', url: '/' }), {})) as Response;
  await response.render();
  return response;
}

test('options :: actions with serializer field info for POST and PUT', async () => {
  const response = await options(SnippetList);
  assert.is(response.status, 200);
  const fieldInfo = {
    id: { type: 'integer', required: false, read_only: true, label: 'ID' },
    title: { type: 'string', required: false, read_only: false, label: 'Title', help_text: 'A title', max_length: 100 },
    language: { type: 'choice', required: true, read_only: false, choices: [{ value: 'python', display_name: 'Python' }, { value: 'js', display_name: 'JavaScript' }] },
    tags: { type: 'list', required: true, read_only: false, child: { type: 'string', required: true, read_only: false, max_length: 5 } },
    author: { type: 'field', required: true, read_only: false },
    nested: { type: 'nested object', required: false, children: { n: { type: 'integer', required: true, read_only: false, min_value: 0 } } },
  };
  const body = response.json() as Record<string, unknown>;
  assert.is(body.name, 'Snippet List');
  assert.is(body.description, 'Lists snippets.');
  assert.equal(body.renders, ['application/json']);
  const actions = body.actions as Record<string, Record<string, unknown>>;
  assert.equal(Object.keys(actions), ['POST', 'PUT']);
  assert.equal(actions.POST, fieldInfo);
  assert.equal(actions.PUT, fieldInfo);
});

test('options :: no actions when permissions deny', async () => {
  class NoWrites {
    hasPermission(request: Request) {
      return request.method === 'GET' || request.method === 'OPTIONS';
    }
  }
  class Locked extends SnippetList {
    override permissionClasses = [NoWrites] as never;
  }
  const body = (await options(Locked)).json() as Record<string, unknown>;
  assert.is(body.actions, undefined);
  assert.is(body.name, 'Locked');
});

test('getFieldInfo :: empty label and null limits are left out', () => {
  const info = new SimpleMetadata().getFieldInfo(new CharField({ label: '', maxLength: null }));
  assert.equal(info, { type: 'string', required: true, read_only: false });
});

test.run();
