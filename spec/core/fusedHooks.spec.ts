/**
 * Adjacent hook-style middleware run as one fused step (`fuseHookMiddleware`): for every way a
 * hook can answer (at once or as a promise, nothing, an early response, an error), the fused
 * step answers what the nested chain (each `handle()` wrapped to turn errors into responses)
 * answers, with the same hooks called in the same order.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpRequest, HttpResponse } from '../../lib/core/http';
import { MiddlewareMixin, isHookMiddleware, isHookMiddlewareClass, type GetResponse } from '../../lib/core/middleware';
import { fuseHookMiddleware } from '../../lib/core/middleware/fusedHooks';

const test = suite('middleware :: fused hook-style middleware');

/** How one hook behaves. */
type Behaviour = 'none' | 'async-none' | 'early' | 'async-early' | 'throw' | 'reject';

/** A hook-style middleware logging its hooks in `trail` and behaving as told. */
class Logged extends MiddlewareMixin {
  constructor(getResponse: GetResponse, readonly label: string, readonly onRequest: Behaviour, readonly onResponse: Behaviour, readonly trail: string[]) {
    super(getResponse);
  }

  override processRequest(_request: HttpRequest): HttpResponse | null | Promise<HttpResponse | null> {
    this.trail.push(`${this.label}:request`);
    return answer(this.onRequest, `${this.label} early`, null);
  }

  override processResponse(_request: HttpRequest, response: HttpResponse): HttpResponse | Promise<HttpResponse> {
    this.trail.push(`${this.label}:response:${response.text}`);
    return answer(this.onResponse, `${this.label} replaced`, response) as HttpResponse | Promise<HttpResponse>;
  }
}

function answer(behaviour: Behaviour, text: string, none: HttpResponse | null): HttpResponse | null | Promise<HttpResponse | null> {
  switch (behaviour) {
    case 'none': return none;
    case 'async-none': return Promise.resolve(none);
    case 'early': return new HttpResponse(text);
    case 'async-early': return Promise.resolve(new HttpResponse(text));
    case 'throw': throw new Error(`${text} failed`);
    case 'reject': return Promise.reject(new Error(`${text} failed`));
  }
}

/** The error response of the spec: the error's message as the body. */
const toResponse = async (_request: HttpRequest, error: unknown): Promise<HttpResponse> => new HttpResponse(`error: ${(error as Error).message}`, { status: 500 });

/** The nested chain of reference: each `handle()` wrapped to turn its errors into responses. */
function nested(middleware: Logged[], view: GetResponse): GetResponse {
  let next = view;
  for (const m of [...middleware].reverse()) {
    const inner = (request: HttpRequest): Promise<HttpResponse> => m.handle(request).catch((error: unknown) => toResponse(request, error));
    Object.defineProperty(m, 'getResponse', { value: next });
    next = inner;
  }
  return next;
}

function build(behaviours: Array<[Behaviour, Behaviour]>, trail: string[], view: GetResponse): Logged[] {
  return behaviours.map(([onRequest, onResponse], i) => new Logged(view, `m${i}`, onRequest, onResponse, trail));
}

const BEHAVIOURS: Behaviour[] = ['none', 'async-none', 'early', 'async-early', 'throw', 'reject'];

test('every request/response behaviour of the middle one of three: the nested chain\'s answer and trail', async () => {
  for (const onRequest of BEHAVIOURS) {
    for (const onResponse of BEHAVIOURS) {
      const rows: Array<[Behaviour, Behaviour]> = [['none', 'none'], [onRequest, onResponse], ['async-none', 'none']];
      const results: Array<[string, number, string]> = [];
      for (const fused of [false, true]) {
        const trail: string[] = [];
        const view: GetResponse = async () => {
          trail.push('view');
          return new HttpResponse('view');
        };
        const middleware = build(rows, trail, view);
        const chain = fused ? fuseHookMiddleware(middleware, view, toResponse) : nested(middleware, view);
        const response = await chain(HttpRequest.create({ url: '/' }));
        results.push([trail.join(','), response.status, response.text]);
      }
      assert.equal(results[1], results[0], `${onRequest}/${onResponse}`);
    }
  }
});

test('an early answer of the outermost skips everything inside; its own processResponse sees it', async () => {
  const trail: string[] = [];
  const view: GetResponse = async () => new HttpResponse('view');
  const chain = fuseHookMiddleware(build([['early', 'none'], ['none', 'none']], trail, view), view, toResponse);
  const response = await chain(HttpRequest.create({ url: '/' }));
  assert.is(response.text, 'm0 early');
  assert.equal(trail, ['m0:request', 'm0:response:m0 early']);
});

test('isHookMiddlewareClass / isHookMiddleware: only MiddlewareMixins keeping handle() and the getResponse they were given', () => {
  class OwnHandle extends MiddlewareMixin {
    override handle(request: HttpRequest): Promise<HttpResponse> {
      return super.handle(request);
    }
  }
  class Plain {
    constructor(readonly getResponse: GetResponse) {}
    handle(request: HttpRequest): Promise<HttpResponse> {
      return this.getResponse(request);
    }
  }
  class Wrapping extends MiddlewareMixin {
    constructor(getResponse: GetResponse) {
      super((request) => getResponse(request));
    }
  }
  const next: GetResponse = async () => new HttpResponse('');
  assert.ok(isHookMiddlewareClass(MiddlewareMixin as never) === false);
  assert.ok(isHookMiddlewareClass(Logged as never));
  assert.not.ok(isHookMiddlewareClass(OwnHandle));
  assert.not.ok(isHookMiddlewareClass(Plain));
  assert.ok(isHookMiddleware(new Logged(next, 'a', 'none', 'none', []), next));
  assert.not.ok(isHookMiddleware(new Wrapping(next), next));
});

test.run();
