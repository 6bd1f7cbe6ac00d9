import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Http404 } from '../lib/core/exceptions';
import { HttpRequest } from '../lib/core/http';
import { NotAcceptable } from '../lib/exceptions';
import { DefaultContentNegotiation } from '../lib/negotiation';
import { FormParser, JSONParser, MultiPartParser } from '../lib/parsers';
import { Request } from '../lib/request';
import { BaseRenderer, JSONRenderer, StaticHTMLRenderer } from '../lib/renderers';
import { MediaType, orderByPrecedence } from '../lib/utils/mediatypes';

const test = suite('negotiation');
const negotiator = new DefaultContentNegotiation();

class PlainRenderer extends BaseRenderer {
  readonly mediaType = 'text/plain';
  readonly format = 'txt';
  render(data: unknown) {
    return String(data);
  }
}
class AnyRenderer extends BaseRenderer {
  readonly mediaType = '*/*';
  readonly format = 'any';
  render(data: unknown) {
    return String(data);
  }
}

const renderers = () => [new JSONRenderer(), new StaticHTMLRenderer(), new PlainRenderer()];

function select(accept: string | null, url = '/', suffix: string | null = null, list: BaseRenderer[] = renderers()): [string, string] {
  const headers: Record<string, string> = accept === null ? {} : { accept };
  const request = new Request(HttpRequest.create({ url, headers }));
  const [renderer, mediaType] = negotiator.selectRenderer(request, list, suffix);
  return [renderer.format, mediaType];
}

test('accept :: no header picks the first renderer with its own media type', () => {
  assert.equal(select(null), ['json', 'application/json']);
  assert.equal(select('*/*'), ['json', 'application/json']);
});

test('accept :: specificity wins over order and q-values (as in the original)', () => {
  assert.equal(select('text/html'), ['html', 'text/html']);
  assert.equal(select('text/*, application/json'), ['json', 'application/json']);
  assert.equal(select('text/html;q=0.1, application/json;q=0.9'), ['json', 'application/json;q=0.9']);
  assert.equal(select('*/*, text/plain'), ['txt', 'text/plain']);
  assert.equal(select('text/*'), ['html', 'text/html']);
  assert.equal(select('*/*;q=0.8'), ['json', 'application/json;q=0.8']);
});

test('accept :: parameters pass through as the accepted media type', () => {
  assert.equal(select('application/json; indent=4'), ['json', 'application/json; indent=4']);
});

test('accept :: nothing acceptable is 406', () => {
  try {
    select('image/png');
    assert.unreachable('should throw');
  } catch (error) {
    assert.instance(error, NotAcceptable);
    assert.is(String((error as NotAcceptable).detail), 'Could not satisfy the request Accept header.');
    assert.is((error as NotAcceptable).availableRenderers?.length, 3);
  }
});

test('format :: ?format= and the URL suffix filter renderers; unknown is 404', () => {
  assert.equal(select('text/html,*/*;q=0.8', '/?format=json'), ['json', 'application/json;q=0.8']);
  assert.equal(select(null, '/', 'txt'), ['txt', 'text/plain']);
  assert.equal(select(null, '/?format=json', 'html'), ['html', 'text/html']);
  assert.throws(() => select(null, '/?format=yaml'), (error: unknown) => error instanceof Http404);
  assert.throws(() => select('image/png', '/?format=json'), (error: unknown) => error instanceof NotAcceptable);
});

test('renderer */* :: matches any accepted type', () => {
  assert.equal(select('image/png', '/', null, [new AnyRenderer()]), ['any', 'image/png']);
  assert.equal(select('*/*', '/', null, [new AnyRenderer()]), ['any', '*/*']);
});

test('parser :: matched against Content-Type, parameters ignored', () => {
  const parsers = [new JSONParser(), new FormParser(), new MultiPartParser()];
  const parserFor = (contentType: string) =>
    negotiator.selectParser(new Request(HttpRequest.create({ headers: { 'content-type': contentType } })), parsers)?.mediaType ?? null;
  assert.is(parserFor('application/json; charset=utf-8'), 'application/json');
  assert.is(parserFor('multipart/form-data; boundary=x'), 'multipart/form-data');
  assert.is(parserFor('APPLICATION/X-WWW-FORM-URLENCODED'), 'application/x-www-form-urlencoded');
  assert.is(parserFor('text/plain'), null);
});

test('mediatypes :: quoted parameter values keep their ";" and match as one value', () => {
  const quoted = new MediaType('Application/JSON; version="1;0"; q=0.5');
  assert.is(quoted.fullType, 'application/json');
  assert.equal({ ...quoted.params }, { version: '1;0', q: '0.5' });
  assert.is(quoted.precedence, 3);
  assert.ok(new MediaType('application/json; version="1;0"').match(quoted));
  assert.not.ok(new MediaType('application/json; version=1').match(quoted));
  assert.is(String(quoted), 'application/json; version=1;0; q=0.5');
  assert.is(new MediaType('text/html; q="0;5"').precedence, 2, 'only q');
});

test('mediatypes :: orderByPrecedence groups most specific first', () => {
  assert.equal(orderByPrecedence(['*/*', 'text/*', 'application/json', 'application/json; indent=2', 'text/html;q=0.5']), [
    ['application/json; indent=2'],
    ['application/json', 'text/html;q=0.5'],
    ['text/*'],
    ['*/*'],
  ]);
});

const ACCEPTS: Array<string | null> = [
  null, '*/*', 'text/html', 'text/*, application/json', 'text/html;q=0.1, application/json;q=0.9', '*/*, text/plain',
  'text/*', '*/*;q=0.8', 'application/json; indent=4', 'image/png', 'text/plain; charset=x',
];
const FORMATS: Array<[string, string | null]> = [['/', null], ['/?format=txt', null], ['/', 'html'], ['/?format=nope', null], ['/?x=1', null]];

/** The answer of a negotiation, or the error's class name. */
function outcome(negotiation: DefaultContentNegotiation, accept: string | null, url: string, suffix: string | null, list: BaseRenderer[]): unknown {
  const headers: Record<string, string> = accept === null ? {} : { accept };
  const request = new Request(HttpRequest.create({ url, headers }));
  try {
    const [renderer, mediaType] = negotiation.selectRenderer(request, list, suffix);
    return [list.indexOf(renderer), renderer.format, mediaType];
  } catch (error) {
    return (error as Error).constructor.name;
  }
}

/** DefaultContentNegotiation's choice made afresh every time (a subclass is never remembered). */
class FreshNegotiation extends DefaultContentNegotiation {
  override getAcceptList(request: Request): string[] {
    return super.getAcceptList(request);
  }
}

test('remembered choices :: every (Accept, format) row answers what a fresh negotiation answers, asked again too', () => {
  const fresh = new FreshNegotiation();
  for (let round = 0; round < 3; round++) {
    for (const accept of ACCEPTS) {
      for (const [url, suffix] of FORMATS) {
        const list = renderers();
        const expected = outcome(fresh, accept, url, suffix, list);
        assert.equal(outcome(negotiator, accept, url, suffix, list), expected, `round ${round}: ${accept} ${url} ${suffix}`);
      }
    }
  }
});

test('remembered choices :: the renderer answered is the instance of this request, at the same place', () => {
  const first = renderers();
  const second = renderers();
  const request = () => new Request(HttpRequest.create({ headers: { accept: 'text/html' } }));
  assert.is(negotiator.selectRenderer(request(), first)[0], first[1]);
  assert.is(negotiator.selectRenderer(request(), second)[0], second[1]);
});

test('remembered choices :: an overridden getAcceptList() or a renderer with another media type is asked every time', () => {
  let calls = 0;
  class Counting extends DefaultContentNegotiation {
    override getAcceptList(request: Request): string[] {
      calls += 1;
      return super.getAcceptList(request);
    }
  }
  const counting = new Counting();
  outcome(counting, 'text/html', '/', null, renderers());
  outcome(counting, 'text/html', '/', null, renderers());
  assert.is(calls, 2);
  // The same classes, one instance changed: its own media type decides.
  assert.equal(outcome(negotiator, 'text/plain', '/', null, renderers()), [2, 'txt', 'text/plain']);
  const changed = renderers();
  Object.defineProperty(changed[2], 'mediaType', { value: 'text/markdown' });
  assert.equal(outcome(negotiator, 'text/plain', '/', null, changed), 'NotAcceptable');
  assert.equal(outcome(negotiator, 'text/markdown', '/', null, changed), [2, 'txt', 'text/markdown']);
  assert.equal(outcome(negotiator, 'text/plain', '/', null, renderers()), [2, 'txt', 'text/plain']);
});

test.run();
