/**
 * XFrameOptionsMiddleware and the per-view decorators: the default DENY, the setting
 * (upper-cased), a header the view set, and the deny/sameorigin/exempt decorators (which keep
 * the view's own properties).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  XFrameOptionsMiddleware, xframeOptionsDeny, xframeOptionsExempt, xframeOptionsSameorigin,
} from '../../lib/core/clickjacking';
import { overrideSettings } from '../../lib/core/conf';
import { HttpRequest, HttpResponse } from '../../lib/core/http';
import type { ViewFunction } from '../../lib/core/urls';

const test = suite('core.clickjacking');

const plain: ViewFunction = () => new HttpResponse('ok');

function through(view: ViewFunction): Promise<HttpResponse> {
  const request = HttpRequest.create({ url: '/', headers: { host: 'testserver' } });
  return new XFrameOptionsMiddleware(async (req) => view(req, {})).handle(request);
}

test('middleware :: DENY by default, X_FRAME_OPTIONS upper-cased otherwise', async () => {
  assert.is((await through(plain)).getHeader('X-Frame-Options'), 'DENY');
  await overrideSettings({ X_FRAME_OPTIONS: 'sameorigin' }, async () => {
    assert.is((await through(plain)).getHeader('X-Frame-Options'), 'SAMEORIGIN');
  });
});

test('middleware :: a header the view set is kept', async () => {
  const own: ViewFunction = () => {
    const response = new HttpResponse('ok');
    response.setHeader('X-Frame-Options', 'SAMEORIGIN');
    return response;
  };
  assert.is((await through(own)).getHeader('X-Frame-Options'), 'SAMEORIGIN');
});

test('decorators :: deny and sameorigin set the header, and the middleware keeps it', async () => {
  await overrideSettings({ X_FRAME_OPTIONS: 'SAMEORIGIN' }, async () => {
    assert.is((await through(xframeOptionsDeny(plain))).getHeader('X-Frame-Options'), 'DENY');
  });
  assert.is((await through(xframeOptionsSameorigin(plain))).getHeader('X-Frame-Options'), 'SAMEORIGIN');
  const direct = await xframeOptionsSameorigin(plain)(HttpRequest.create({ url: '/' }), {});
  assert.is(direct.getHeader('X-Frame-Options'), 'SAMEORIGIN');
});

test('decorators :: exempt views get no header; other responses still do', async () => {
  const exempt = await through(xframeOptionsExempt(plain));
  assert.is(exempt.getHeader('X-Frame-Options'), undefined);
  assert.is((await through(plain)).getHeader('X-Frame-Options'), 'DENY');
});

test('decorators :: the wrapper keeps the view\'s properties', async () => {
  const view: ViewFunction = Object.assign(() => new HttpResponse('ok'), { csrfExempt: true, viewInitkwargs: { a: 1 } });
  const wrapped = xframeOptionsExempt(view);
  assert.is.not(wrapped, view);
  assert.is(wrapped.csrfExempt, true);
  assert.equal(wrapped.viewInitkwargs, { a: 1 });
});

test.run();
