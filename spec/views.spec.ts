import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callView } from './helpers';
import { overrideSettings } from '../lib/core/conf';
import { Http404, PermissionDenied as HostPermissionDenied } from '../lib/core/exceptions';
import { HttpRequest, type AuthUser } from '../lib/core/http';
import { AuthenticationFailed, ValidationError } from '../lib/exceptions';
import type { Request } from '../lib/request';
import { Response } from '../lib/response';
import { JSONRenderer, StaticHTMLRenderer } from '../lib/renderers';
import { APIView, exceptionHandler, getViewDescription, getViewName } from '../lib/views';

const test = suite('views');
let restore: () => void;

test.before(() => {
  restore = overrideSettings.enter({
    API_FRAMEWORK: {
      DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'],
      DEFAULT_AUTHENTICATION_CLASSES: [],
    },
  });
});
test.after(() => restore());

const call = callView;

const user = { pk: 1, id: 1, username: 'alice', is_active: true, is_staff: false, is_superuser: false, isAuthenticated: true, isAnonymous: false, hasPerm: () => true, hasPerms: () => true } as AuthUser;

class BasicLike {
  authenticate(request: Request) {
    return request.header('authorization') === 'good' ? ([user, 'tok'] as [AuthUser, unknown]) : null;
  }
  authenticateHeader() {
    return 'Basic realm="api"';
  }
}
class SessionLike {
  authenticate() {
    return null;
  }
  authenticateHeader() {
    return null;
  }
}
class Failing {
  authenticate(): never {
    throw new AuthenticationFailed('Invalid token.');
  }
}
class IsAuthenticated {
  static and() {} static or() {} static not() {}
  hasPermission(request: Request) {
    return Boolean(request.user && request.user.isAuthenticated);
  }
  hasObjectPermission() {
    return true;
  }
}

class ExampleView extends APIView {
  static override description = `
    An example view.

        indented code stays
  `;
  get() {
    return new Response({ method: 'GET' });
  }
  post(request: Request) {
    return new Response({ data: request.data }, { status: 201 });
  }
}

test('dispatch :: GET handler, Allow lists defined methods in order', async () => {
  const response = await call(ExampleView.asView());
  assert.is(response.status, 200);
  assert.is(response.text, '{"method":"GET"}');
  assert.is(response.getHeader('Allow'), 'GET, POST, HEAD, OPTIONS');
  assert.is(response.getHeader('Content-Type'), 'application/json');
  assert.is(response.getHeader('Vary'), undefined);
});

test('dispatch :: Vary: Accept with several renderers', async () => {
  class TwoRenderers extends ExampleView {
    override rendererClasses = [JSONRenderer, StaticHTMLRenderer];
  }
  const response = await call(TwoRenderers.asView());
  assert.is(response.getHeader('Vary'), 'Accept');
});

test('dispatch :: 405 body and HEAD falls back to GET', async () => {
  const response = await call(ExampleView.asView(), { method: 'DELETE' });
  assert.is(response.status, 405);
  assert.is(response.text, '{"detail":"Method \\"DELETE\\" not allowed."}');
  const head = await call(ExampleView.asView(), { method: 'HEAD' });
  assert.is(head.status, 200);
  const unknown = await call(ExampleView.asView(), { method: 'BREW' });
  assert.is(unknown.status, 405);
});

test('dispatch :: POST body parsed', async () => {
  const response = await call(ExampleView.asView(), { method: 'POST', body: '{"a": [1]}', headers: { 'content-type': 'application/json' } });
  assert.is(response.status, 201);
  assert.is(response.text, '{"data":{"a":[1]}}');
});

test('dispatch :: a parse error surfaces only where data is read', async () => {
  const bad = { method: 'POST', body: '{oops', headers: { 'content-type': 'application/json' } };
  class NoData extends APIView {
    post() {
      return new Response({ ok: true });
    }
  }
  assert.is((await call(NoData.asView(), bad)).status, 200);
  const response = await call(ExampleView.asView(), bad);
  assert.is(response.status, 400);
  assert.is(response.text, '{"detail":"JSON parse error - Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"}');
});

test('options :: default metadata body', async () => {
  const response = await call(ExampleView.asView(), { method: 'OPTIONS' });
  assert.is(response.status, 200);
  assert.equal(response.json(), {
    name: 'Example',
    description: 'An example view.\n\n    indented code stays',
    renders: ['application/json'],
    parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  });
  class NoMetadata extends ExampleView {
    override metadataClass = null;
  }
  assert.is((await call(NoMetadata.asView(), { method: 'OPTIONS' })).status, 405);
});

test('asView :: initkwargs set per instance; unknown and method names refused', async () => {
  const view = ExampleView.asView({ name: 'Custom' });
  assert.is(view.csrfExempt, true);
  assert.is(view.viewClass, ExampleView);
  assert.equal(view.viewInitkwargs, { name: 'Custom' });
  assert.is((await call(view, { method: 'OPTIONS' })).json() instanceof Object, true);
  assert.is(((await call(view, { method: 'OPTIONS' })).json() as { name: string }).name, 'Custom');
  // @ts-expect-error an unknown attribute is no initkwarg (and fails at run time too)
  assert.throws(() => ExampleView.asView({ bogus: 1 }), /ExampleView\.asView\(\) received an invalid option 'bogus'\. asView\(\) only accepts options that are already attributes of the class\./);
  // @ts-expect-error a handler method name is no initkwarg (and fails at run time too)
  assert.throws(() => ExampleView.asView({ get: 1 }), /The method name get is not accepted as an option of ExampleView\.asView\(\)\./);
});

test('permissions :: 401 with WWW-Authenticate when the first authenticator has a header', async () => {
  class Protected extends ExampleView {
    override authenticationClasses = [BasicLike, SessionLike];
    override permissionClasses = [IsAuthenticated] as never;
  }
  const denied = await call(Protected.asView());
  assert.is(denied.status, 401);
  assert.is(denied.getHeader('WWW-Authenticate'), 'Basic realm="api"');
  assert.is(denied.text, '{"detail":"Authentication credentials were not provided."}');
  const ok = await call(Protected.asView(), { headers: { authorization: 'good' } });
  assert.is(ok.status, 200);
});

test('permissions :: 403 rewrite when the first authenticator has no header', async () => {
  class SessionFirst extends ExampleView {
    override authenticationClasses = [SessionLike, BasicLike];
    override permissionClasses = [IsAuthenticated] as never;
  }
  const denied = await call(SessionFirst.asView());
  assert.is(denied.status, 403);
  assert.is(denied.getHeader('WWW-Authenticate'), undefined);
  assert.is(denied.text, '{"detail":"Authentication credentials were not provided."}');
});

test('permissions :: authenticated but denied is PermissionDenied with the permission message', async () => {
  class Never {
    message = 'Go away.';
    hasPermission() {
      return false;
    }
  }
  class Denied extends ExampleView {
    override authenticationClasses = [BasicLike];
    override permissionClasses = [Never] as never;
  }
  const response = await call(Denied.asView(), { headers: { authorization: 'good' } });
  assert.is(response.status, 403);
  assert.is(response.text, '{"detail":"Go away."}');
});

test('authentication :: a failing scheme stops at once', async () => {
  let permissionChecked = false;
  class Spy {
    hasPermission() {
      permissionChecked = true;
      return true;
    }
  }
  class Failure extends ExampleView {
    override authenticationClasses = [Failing as never, BasicLike];
    override permissionClasses = [Spy] as never;
  }
  const response = await call(Failure.asView());
  assert.is(response.status, 403);
  assert.is(response.text, '{"detail":"Invalid token."}');
  assert.not.ok(permissionChecked);
});

test('throttles :: all are checked, the longest wait is reported', async () => {
  const checked: string[] = [];
  const throttle = (label: string, allow: boolean, wait: number | null) =>
    class {
      allowRequest() {
        checked.push(label);
        return allow;
      }
      wait() {
        return wait;
      }
    };
  class Throttled extends ExampleView {
    override throttleClasses = [throttle('a', false, 3), throttle('b', true, null), throttle('c', false, 10.5), throttle('d', false, null)] as never;
  }
  const response = await call(Throttled.asView());
  assert.equal(checked, ['a', 'b', 'c', 'd']);
  assert.is(response.status, 429);
  assert.is(response.getHeader('Retry-After'), '11');
  assert.is(response.text, '{"detail":"Request was throttled. Expected available in 11 seconds."}');
});

// Permissions answering synchronously or asynchronously, in every order: [answers, expected
// status, expected body, permissions asked]. The first refusal decides and stops the checks.
const PERMISSION_ROWS: Array<[Array<boolean | 'async-true' | 'async-false'>, number, string, number]> = [
  [[true, true], 200, '{"method":"GET"}', 2],
  [['async-true', true], 200, '{"method":"GET"}', 2],
  [[true, 'async-true', 'async-true'], 200, '{"method":"GET"}', 3],
  [[false, 'async-true'], 403, '{"detail":"denied 0"}', 1],
  [['async-false', true], 403, '{"detail":"denied 0"}', 1],
  [['async-true', false, true], 403, '{"detail":"denied 1"}', 2],
  [[true, 'async-true', 'async-false', false], 403, '{"detail":"denied 2"}', 3],
  [['async-true', 'async-true', false], 403, '{"detail":"denied 2"}', 3],
];

test('permissions :: synchronous and asynchronous answers in any order, for every row', async () => {
  for (const [answers, status, body, asked] of PERMISSION_ROWS) {
    let calls = 0;
    const classes = answers.map((answer, index) => class {
      message = `denied ${index}`;
      hasPermission(): boolean | Promise<boolean> {
        calls += 1;
        if (answer === 'async-true') return Promise.resolve(true);
        if (answer === 'async-false') return Promise.resolve(false);
        return answer;
      }
    });
    class Checked extends ExampleView {
      override authenticationClasses = [BasicLike];
      override permissionClasses = classes as never;
    }
    const response = await call(Checked.asView(), { headers: { authorization: 'good' } });
    const row = JSON.stringify(answers);
    assert.is(response.status, status, row);
    assert.is(response.text, body, row);
    assert.is(calls, asked, row);
  }
});

// Throttles answering synchronously or asynchronously: all are asked, the longest wait wins.
const THROTTLE_ROWS: Array<[Array<[boolean | 'async-true' | 'async-false', number | null]>, number, string | undefined]> = [
  [[[true, null], ['async-true', null]], 200, undefined],
  [[['async-false', 3], [false, 7]], 429, '7'],
  [[[false, 9], ['async-false', 2], [true, null]], 429, '9'],
  [[['async-true', null], ['async-false', null]], 429, undefined],
  [[[true, null], ['async-true', null], ['async-false', 4.2]], 429, '5'],
];

test('throttles :: synchronous and asynchronous answers, every throttle asked, for every row', async () => {
  for (const [answers, status, retryAfter] of THROTTLE_ROWS) {
    let calls = 0;
    const classes = answers.map(([answer, wait]) => class {
      allowRequest(): boolean | Promise<boolean> {
        calls += 1;
        if (answer === 'async-true') return Promise.resolve(true);
        if (answer === 'async-false') return Promise.resolve(false);
        return answer;
      }
      wait(): number | null {
        return wait;
      }
    });
    class Checked extends ExampleView {
      override throttleClasses = classes as never;
    }
    const response = await call(Checked.asView());
    const row = JSON.stringify(answers);
    assert.is(response.status, status, row);
    assert.is(response.getHeader('Retry-After'), retryAfter, row);
    assert.is(calls, answers.length, row);
  }
});

test('initial :: overridden checkPermissions(), checkThrottles() and performAuthentication() are called', async () => {
  const calls: string[] = [];
  class Hooked extends ExampleView {
    override async performAuthentication(request: Request): Promise<void> {
      calls.push('authentication');
      await super.performAuthentication(request);
    }
    override async checkPermissions(request: Request): Promise<void> {
      calls.push('permissions');
      await super.checkPermissions(request);
    }
    override checkThrottles(_request: Request): Promise<void> {
      calls.push('throttles');
      return Promise.reject(new AuthenticationFailed('from the hook'));
    }
  }
  const response = await call(Hooked.asView());
  assert.equal(calls, ['authentication', 'permissions', 'throttles']);
  assert.is(response.status, 403);
  assert.is(response.text, '{"detail":"from the hook"}');
});

test('exception handler :: host exceptions and validation errors', async () => {
  class Raising extends APIView {
    get(_request: Request, kwargs: Record<string, unknown>) {
      if (kwargs.kind === '404') throw new Http404();
      if (kwargs.kind === '404msg') throw new Http404('No Snippet matches the given query.');
      if (kwargs.kind === '403') throw new HostPermissionDenied();
      if (kwargs.kind === 'list') throw new ValidationError(['a', 'b']);
      throw new ValidationError({ title: ['Required.'] });
    }
  }
  const view = Raising.asView();
  assert.is((await call(view, {}, { kind: '404' })).text, '{"detail":"Not found."}');
  assert.is((await call(view, {}, { kind: '404msg' })).text, '{"detail":"No Snippet matches the given query."}');
  const forbidden = await call(view, {}, { kind: '403' });
  assert.is(forbidden.status, 403);
  assert.is(forbidden.text, '{"detail":"You do not have permission to perform this action."}');
  assert.is((await call(view, {}, { kind: 'list' })).text, '["a","b"]');
  const invalid = await call(view, {}, { kind: 'dict' });
  assert.is(invalid.status, 400);
  assert.is(invalid.text, '{"title":["Required."]}');
  assert.is(exceptionHandler(new Error('x'), { view: new Raising(), args: [], kwargs: {}, request: null }), null);
});

test('exception handler :: custom EXCEPTION_HANDLER, and null leads to a 500', async () => {
  class Broken extends APIView {
    get(): Response {
      throw new Error('boom');
    }
  }
  const custom = (exc: unknown, context: { view: APIView }) => {
    const response = exceptionHandler(exc, context as never);
    if (response) response.data = { ...(response.data as object), status_code: response.status, view: context.view.constructor.name };
    return response;
  };
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: [JSONRenderer], DEFAULT_AUTHENTICATION_CLASSES: [], EXCEPTION_HANDLER: custom } }, async () => {
    const notAllowed = await call(ExampleView.asView(), { method: 'PUT' });
    assert.is(notAllowed.text, '{"detail":"Method \\"PUT\\" not allowed.","status_code":405,"view":"ExampleView"}');
    const failed = await call(Broken.asView());
    assert.is(failed.status, 500);
  });
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: [JSONRenderer], DEFAULT_AUTHENTICATION_CLASSES: [], EXCEPTION_HANDLER: () => null } }, async () => {
    const response = await call(ExampleView.asView(), { method: 'PUT' });
    assert.is(response.status, 500);
  });
});

test('finalize :: non-response return values are an error', async () => {
  class Bad extends APIView {
    get() {
      return { not: 'a response' };
    }
  }
  const request = HttpRequest.create({ url: '/' });
  try {
    await Bad.asView()(request, {});
    assert.unreachable('should throw');
  } catch (error) {
    assert.match((error as Error).message, 'Expected a `Response`, `HttpResponse` or `HttpStreamingResponse` to be returned from the view, but received a `object`');
  }
});

test('names :: getViewName strips suffixes and splits words', () => {
  class SnippetListView extends APIView {}
  class UserViewSet extends APIView {}
  class APIRoot extends APIView {}
  class View extends APIView {}
  assert.is(getViewName(new SnippetListView()), 'Snippet List');
  assert.is(getViewName(new UserViewSet()), 'User');
  assert.is(getViewName(new APIRoot()), 'Api Root');
  assert.is(getViewName(new View()), 'View');
  const withSuffix = new UserViewSet();
  withSuffix.suffix = 'Instance';
  assert.is(getViewName(withSuffix), 'User Instance');
  withSuffix.name = 'Explicit';
  assert.is(getViewName(withSuffix), 'Explicit');
});

test('descriptions :: dedented text, instance wins, markdown when html', () => {
  const view = new ExampleView();
  assert.is(getViewDescription(view), 'An example view.\n\n    indented code stays');
  assert.is(getViewDescription(view, true), '<p>An example view.</p>\n<pre><code>indented code stays\n</code></pre>\n');
  view.description = 'Own *text*';
  assert.is(view.getViewDescription(true), '<p>Own <em>text</em></p>\n');
  class Bare extends APIView {}
  assert.is(getViewDescription(new Bare()), '');
});

test('dispatch :: Allow follows the handlers each instance has, and an overridden allowedMethods', async () => {
  class OnlyGet extends APIView {
    get(_request: Request) {
      return new Response({});
    }
  }
  class GetAndDelete extends OnlyGet {
    delete(_request: Request) {
      return new Response(null, { status: 204 });
    }
  }
  // A handler attached to some instances only (as view sets do from their action map).
  class Switching extends OnlyGet {
    constructor() {
      super();
      if (switchOn) (this as unknown as Record<string, unknown>).put = () => new Response({});
    }
  }
  class Custom extends OnlyGet {
    override get allowedMethods(): string[] {
      return [customAllow];
    }
  }
  let switchOn = false;
  let customAllow = 'GET';
  for (let round = 0; round < 2; round++) {
    assert.is((await call(OnlyGet.asView())).getHeader('Allow'), 'GET, HEAD, OPTIONS');
    assert.is((await call(GetAndDelete.asView())).getHeader('Allow'), 'GET, DELETE, HEAD, OPTIONS');
    switchOn = false;
    assert.is((await call(Switching.asView())).getHeader('Allow'), 'GET, HEAD, OPTIONS');
    switchOn = true;
    assert.is((await call(Switching.asView())).getHeader('Allow'), 'GET, PUT, HEAD, OPTIONS');
    customAllow = `GET${round}`;
    assert.is((await call(Custom.asView())).getHeader('Allow'), `GET${round}`);
    assert.is((await call(OnlyGet.asView({ httpMethodNames: ['get', 'options'] }))).getHeader('Allow'), 'GET, OPTIONS');
  }
});

test.run();
