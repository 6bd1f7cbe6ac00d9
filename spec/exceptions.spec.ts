import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpRequest } from '../lib/core/http';
import {
  APIException, AuthenticationFailed, ErrorDetail, MethodNotAllowed, NotAcceptable, NotAuthenticated, NotFound,
  ParseError, PermissionDenied, Throttled, UnsupportedMediaType, ValidationError, badRequest, serverError,
} from '../lib/exceptions';
import { CharField } from '../lib/fields';
import { Serializer } from '../lib/serializers';
import type { ReturnDict, ReturnList } from '../lib/utils/serializerHelpers';

const test = suite('exceptions');

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

test('catalog :: status, detail and code of every exception', () => {
  const cases: Array<[APIException, number, string, string]> = [
    [new APIException(), 500, 'A server error occurred.', 'error'],
    [new ParseError(), 400, 'Malformed request.', 'parse_error'],
    [new AuthenticationFailed(), 401, 'Incorrect authentication credentials.', 'authentication_failed'],
    [new NotAuthenticated(), 401, 'Authentication credentials were not provided.', 'not_authenticated'],
    [new PermissionDenied(), 403, 'You do not have permission to perform this action.', 'permission_denied'],
    [new NotFound(), 404, 'Not found.', 'not_found'],
    [new MethodNotAllowed('DELETE'), 405, 'Method "DELETE" not allowed.', 'method_not_allowed'],
    [new NotAcceptable(), 406, 'Could not satisfy the request Accept header.', 'not_acceptable'],
    [new UnsupportedMediaType('text/plain'), 415, 'Unsupported media type "text/plain" in request.', 'unsupported_media_type'],
    [new Throttled(), 429, 'Request was throttled.', 'throttled'],
  ];
  for (const [exc, statusCode, detail, code] of cases) {
    assert.is(exc.statusCode, statusCode, exc.name);
    assert.ok(exc.detail instanceof ErrorDetail);
    assert.is(String(exc.detail), detail);
    assert.is(exc.getCodes(), code);
    assert.equal(plain(exc.getFullDetails()), { message: detail, code });
    assert.ok(exc instanceof Error);
  }
});

test('throttled :: wait is rounded up and pluralised', () => {
  assert.is(String(new Throttled(1).detail), 'Request was throttled. Expected available in 1 second.');
  assert.is(String(new Throttled(0.2).detail), 'Request was throttled. Expected available in 1 second.');
  const exc = new Throttled(41.3);
  assert.is(String(exc.detail), 'Request was throttled. Expected available in 42 seconds.');
  assert.is(exc.wait, 42);
  assert.is(new Throttled().wait, null);
  assert.is(String(new Throttled(2, 'Slow down.').detail), 'Slow down. Expected available in 2 seconds.');
});

test('custom :: subclass statics drive defaults; explicit detail and code win', () => {
  class ServiceUnavailable extends APIException {
    static override statusCode = 503;
    static override defaultDetail = 'Service temporarily unavailable, try again later.';
    static override defaultCode = 'service_unavailable';
  }
  const exc = new ServiceUnavailable();
  assert.is(exc.statusCode, 503);
  assert.is(exc.getCodes(), 'service_unavailable');
  const custom = new PermissionDenied('Nope.', 'custom');
  assert.is(String(custom.detail), 'Nope.');
  assert.is(custom.getCodes(), 'custom');
});

test('errordetail :: behaves like a string, compares codes', () => {
  const detail = new ErrorDetail('Bad.', 'invalid');
  assert.is(JSON.stringify({ d: detail }), '{"d":"Bad."}');
  assert.is(`${detail}`, 'Bad.');
  assert.ok((detail as unknown as string) == 'Bad.');
  assert.ok(detail.equals('Bad.'));
  assert.ok(detail.equals(new ErrorDetail('Bad.', 'invalid')));
  assert.not.ok(detail.equals(new ErrorDetail('Bad.', 'other')));
  assert.not.ok(detail.equals('Good.'));
  assert.is(detail.code, 'invalid');
});

test('validation :: a string becomes a one-item list', () => {
  const exc = new ValidationError('Broken.');
  assert.ok(Array.isArray(exc.detail));
  assert.equal(plain(exc.detail), ['Broken.']);
  assert.equal(exc.getCodes(), ['invalid']);
  assert.is(exc.statusCode, 400);
  assert.equal(plain(new ValidationError().detail), ['Invalid input.']);
});

test('validation :: nested details keep their shape, codes and existing ErrorDetails', () => {
  const exc = new ValidationError({
    title: ['This field is required.'],
    nested: { inner: [new ErrorDetail('Too long.', 'max_length')] },
    non_field_errors: ['x'],
  }, 'required');
  assert.equal(plain(exc.detail), { title: ['This field is required.'], nested: { inner: ['Too long.'] }, non_field_errors: ['x'] });
  assert.equal(exc.getCodes(), { title: ['required'], nested: { inner: ['max_length'] }, non_field_errors: ['required'] });
  assert.equal(plain(exc.getFullDetails()), {
    title: [{ message: 'This field is required.', code: 'required' }],
    nested: { inner: [{ message: 'Too long.', code: 'max_length' }] },
    non_field_errors: [{ message: 'x', code: 'required' }],
  });
});

test('validation :: details built from serializer.errors keep the serializer (not in the JSON)', async () => {
  class TitleSerializer extends Serializer {
    static fields = { title: new CharField({ maxLength: 3 }), serializer: new CharField({ required: false }) };
  }
  const serializer = new TitleSerializer({ data: { title: 'too long', serializer: 'x'.repeat(2) } });
  let raised: unknown = null;
  try {
    await serializer.isValid({ raiseException: true });
  } catch (error) {
    raised = error;
  }
  assert.ok(raised instanceof ValidationError);
  const detail = raised.detail as ReturnDict;
  assert.is(detail.serializer, serializer);
  assert.equal(Object.keys(detail), ['title']);
  assert.is(JSON.stringify(detail), '{"title":["Ensure this field has no more than 3 characters."]}');
  assert.equal(raised.getCodes(), { title: ['max_length'] });

  const many = TitleSerializer.many([], { data: [{ title: 'ok' }, { title: 'long' }] });
  assert.not.ok(await many.isValid());
  const listDetail = new ValidationError(many.errors as never).detail as ReturnList;
  assert.is(listDetail.serializer, many);
  assert.is(JSON.stringify(listDetail), '[{},{"title":["Ensure this field has no more than 3 characters."]}]');

  // Plain objects, and a field that happens to be called `serializer`, carry no back-reference.
  assert.is((new ValidationError({ title: ['x'] }).detail as ReturnDict).serializer, undefined);
  const fieldNamed = new ValidationError({ serializer: ['Bad.'] }).detail as ReturnDict;
  assert.equal(plain(fieldNamed), { serializer: ['Bad.'] });
  assert.ok(Array.isArray(fieldNamed.serializer));
});

test('error views :: server error and bad request are JSON with spaced separators', () => {
  const request = HttpRequest.create({ url: '/' });
  const r500 = serverError(request);
  assert.is(r500.status, 500);
  assert.is(r500.text, '{"error": "Server Error (500)"}');
  assert.is(r500.getHeader('Content-Type'), 'application/json');
  const r400 = badRequest(request, new Error('x'));
  assert.is(r400.status, 400);
  assert.is(r400.text, '{"error": "Bad Request (400)"}');
});

test.run();
