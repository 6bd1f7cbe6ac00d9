/**
 * `Response.render()`: the same bytes and headers whether the renderer answers synchronously
 * (rendered without an asynchronous step) or with a promise, a subclass's renderContent()
 * honoured, errors arriving as rejections; and view functions answering a promise whatever
 * dispatch() does.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpRequest, HttpResponse } from '../lib/core/http';
import { BaseRenderer, JSONRenderer } from '../lib/renderers';
import { Response } from '../lib/response';
import { APIView } from '../lib/views';

const test = suite('response render');

class AsyncJSON extends JSONRenderer {
  override render(data: unknown, mediaType?: string | null, context?: Record<string, unknown>): Buffer {
    return Promise.resolve(super.render(data, mediaType, context)) as unknown as Buffer;
  }
}
class TextRenderer extends BaseRenderer {
  readonly mediaType = 'text/plain';
  readonly format = 'txt';
  render(data: unknown): string {
    return data === null ? '' : `text: ${String(data)}`;
  }
}
class AsyncText extends TextRenderer {
  override render(data: unknown): string {
    return Promise.resolve(super.render(data)) as unknown as string;
  }
}
class Unicode extends BaseRenderer {
  readonly mediaType = 'text/x-unicode';
  readonly format = 'uni';
  override charset = null;
  render(): string {
    return 'no charset';
  }
}
class Failing extends BaseRenderer {
  readonly mediaType = 'text/x-fail';
  readonly format = 'fail';
  render(): string {
    throw new Error('render failed');
  }
}

function prepared(data: unknown, renderer: BaseRenderer, response = new Response(data)): Response {
  response.acceptedRenderer = renderer;
  response.acceptedMediaType = renderer.mediaType;
  response.rendererContext = {};
  return response;
}

async function outcome(data: unknown, renderer: BaseRenderer): Promise<unknown> {
  try {
    const response = await prepared(data, renderer).render();
    return { text: response.text, contentType: response.getHeader('Content-Type') ?? null, rendered: response.isRendered, bytes: response.contentBytes.toString('hex') };
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

// [label, data, synchronous renderer, asynchronous twin]
const ROWS: Array<[string, unknown, () => BaseRenderer, () => BaseRenderer]> = [
  ['json dict', { a: 1, b: 'é' }, () => new JSONRenderer(), () => new AsyncJSON()],
  ['json null (empty body, no Content-Type)', null, () => new JSONRenderer(), () => new AsyncJSON()],
  ['text', 'hi', () => new TextRenderer(), () => new AsyncText()],
  ['text empty', null, () => new TextRenderer(), () => new AsyncText()],
];

test('render :: a synchronous and an asynchronous renderer give the same response, for every row', async () => {
  for (const [label, data, sync, async] of ROWS) {
    const expected = await outcome(data, async());
    assert.equal(await outcome(data, sync()), expected, label);
    assert.equal((expected as { rendered: boolean }).rendered, true, label);
  }
});

test('render :: a JSON renderer keeps its text as the content; an overriding one gives bytes; both write the same bytes', async () => {
  const data = { a: 1, b: 'é', c: '\u2028' };
  const plain = await prepared(data, new JSONRenderer()).render();
  const overriding = await prepared(data, new AsyncJSON()).render();
  assert.type(plain.content, 'string');
  assert.ok(Buffer.isBuffer(overriding.content));
  assert.is(plain.contentBytes.toString('hex'), overriding.contentBytes.toString('hex'));
  assert.is(plain.text, '{"a":1,"b":"é","c":"\\u2028"}');
  assert.ok(Buffer.isBuffer(await prepared(data, new JSONRenderer()).renderContent()), 'renderContent() still answers bytes');
});

test('render :: errors arrive as rejections, never as a throw', async () => {
  for (const [renderer, message] of [[new Unicode(), 'renderer returned unicode'], [new Failing(), 'render failed']] as const) {
    let pending: Promise<unknown> | undefined;
    assert.not.throws(() => {
      pending = prepared('x', renderer).render();
    }, message);
    try {
      await pending;
      assert.unreachable(message);
    } catch (error) {
      assert.match((error as Error).message, message);
    }
  }
  const unset = new Response({ a: 1 });
  await unset.render().then(() => assert.unreachable('no renderer'), (error: Error) => assert.match(error.message, /acceptedRenderer not set/));
});

test('render :: a subclass overriding renderContent() is rendered by it, once', async () => {
  let calls = 0;
  class Custom extends Response {
    override async renderContent(): Promise<Buffer> {
      calls += 1;
      return Buffer.from('custom bytes');
    }
  }
  const response = prepared({ a: 1 }, new JSONRenderer(), new Custom({ a: 1 }));
  await response.render();
  await response.render();
  assert.is(response.text, 'custom bytes');
  assert.is(calls, 1);
});

test('asView :: the view function answers a promise whatever dispatch() does', async () => {
  class SyncDispatch extends APIView {
    override dispatch(): Promise<HttpResponse> {
      return new HttpResponse('sync') as unknown as Promise<HttpResponse>;
    }
  }
  class Throwing extends APIView {
    override dispatch(): Promise<HttpResponse> {
      throw new Error('dispatch threw');
    }
  }
  let constructed = 0;
  class BrokenConstructor extends APIView {
    constructor() {
      super();
      // asView() makes one instance to check its options; the ones made per request throw.
      constructed += 1;
      if (constructed > 1) throw new Error('constructor threw');
    }
  }
  const request = () => HttpRequest.create({ url: '/' });
  const answer = SyncDispatch.asView()(request(), {});
  assert.instance(answer, Promise);
  assert.is(((await answer) as HttpResponse).text, 'sync');
  for (const [view, message] of [[Throwing.asView(), 'dispatch threw'], [BrokenConstructor.asView(), 'constructor threw']] as const) {
    let pending: unknown;
    assert.not.throws(() => {
      pending = view(request(), {});
    }, message);
    assert.instance(pending, Promise);
    await (pending as Promise<unknown>).then(() => assert.unreachable(message), (error: Error) => assert.is(error.message, message));
  }
});

test.run();
