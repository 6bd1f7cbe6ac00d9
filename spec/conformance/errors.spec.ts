/**
 * SPEC.md "Errors": body shapes 1-6 and the exceptions table, observed through real requests
 * (APIClient through the URL conf and middleware): translated messages with Accept-Language
 * under LocaleMiddleware (structure and keys untranslated), the custom exception handler and
 * its None -> 500, the handler skipped for responses a view returns, JSON content types, the
 * handler500/handler400 error views, and a custom exception class.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { SuspiciousOperation } from '../../lib/core/exceptions';
import { HttpRequest } from '../../lib/core/http';
import { path } from '../../lib/core/urls';
import { APIClient, APIRequestFactory, type TestResponse } from '../../lib/test';
import { APIView, exceptionHandler, type ExceptionHandlerContext } from '../../lib/views';
import { Response } from '../../lib/response';
import type { Request } from '../../lib/request';
import { APIException, NotFound, PermissionDenied, ValidationError } from '../../lib/exceptions';
import { IsAuthenticated } from '../../lib/permissions';
import { BasicAuthentication } from '../../lib/authentication';
import { Serializer } from '../../lib/serializers';
import { CharField, IntegerField } from '../../lib/fields';

const test = suite('conformance: errors');
useTestDatabase(test);

class NoteInput extends Serializer {
  static fields = { title: new CharField({ maxLength: 5 }), rank: new IntegerField() };
  override validate(attrs: Record<string, unknown>) {
    if (attrs.title === 'bad') throw new ValidationError('Bad title.');
    return attrs;
  }
}

/** Raises what the URL asks for. */
class Raising extends APIView {
  get(_request: Request) {
    const kind = String(this.kwargs.kind);
    if (kind === 'not-found') throw new NotFound();
    if (kind === 'denied') throw new PermissionDenied();
    if (kind === 'crash') throw new Error('boom');
    if (kind === 'suspicious') throw new SuspiciousOperation('bad host');
    return new Response({ ok: true });
  }
  async post(request: Request) {
    const serializer = new NoteInput({ data: request.data });
    await serializer.isValid({ raiseException: true });
    return new Response(serializer.validatedData, { status: 201 });
  }
}

/** Returns its own error responses instead of raising. */
class Returning extends APIView {
  async post(request: Request) {
    const serializer = new NoteInput({ data: request.data });
    if (!(await serializer.isValid())) return new Response(serializer.errors, { status: 400 });
    return new Response(serializer.validatedData, { status: 201 });
  }
}

class Protected extends APIView {
  override authenticationClasses = [BasicAuthentication];
  override permissionClasses = [IsAuthenticated];
  get() {
    return new Response({ ok: true });
  }
}

class ServiceUnavailable extends APIException {
  static override statusCode = 503;
  static override defaultDetail = 'Service temporarily unavailable, try again later.';
  static override defaultCode = 'service_unavailable';
}

class Unavailable extends APIView {
  get(): Response {
    throw new ServiceUnavailable();
  }
}

/** The URL conf of this suite (ROOT_URLCONF = 'spec/conformance/errors.spec'). */
export const urlpatterns = [
  path('raise/<str:kind>/', Raising.asView()),
  path('return/', Returning.asView()),
  path('protected/', Protected.asView()),
  path('unavailable/', Unavailable.asView()),
];
export const handler500 = 'api_framework.exceptions.serverError';
export const handler400 = 'api_framework.exceptions.badRequest';

const LOCALE_MIDDLEWARE = [
  'contrib.sessions.middleware.SessionMiddleware',
  'lib.core.localeMiddleware.LocaleMiddleware',
  'lib.core.middleware.CommonMiddleware',
  'contrib.auth.middleware.AuthenticationMiddleware',
];

let restore: () => void = () => undefined;
test.before(() => {
  restore = overrideSettings.enter({
    ROOT_URLCONF: 'spec/conformance/errors.spec',
    API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [] },
  });
});
test.after(() => restore());

const client = new APIClient();
/** The decoded JSON body (specs read its fields freely). */
const body = (response: TestResponse): any => response.json();
const json = { format: 'json' as const };

// -- Body shapes ----------------------------------------------------------------------------------

test('shape 1 :: most errors are {detail} with a JSON content type', async () => {
  for (const [url, status, detail] of [
    ['/raise/not-found/', 404, 'Not found.'],
    ['/raise/denied/', 403, 'You do not have permission to perform this action.'],
    ['/protected/', 401, 'Authentication credentials were not provided.'],
  ] as const) {
    const response = await client.get(url);
    assert.is(response.status, status, url);
    assert.equal(body(response), { detail }, url);
    assert.is(response.header('Content-Type'), 'application/json', url);
  }
});

test('shape 2 :: validation errors are field -> list of messages, non-field errors under NON_FIELD_ERRORS_KEY', async () => {
  const missing = await client.post('/raise/x/', { data: { title: 'toolong' }, ...json });
  assert.is(missing.status, 400);
  assert.equal(body(missing), { title: ['Ensure this field has no more than 5 characters.'], rank: ['This field is required.'] });
  const nonField = await client.post('/raise/x/', { data: { title: 'bad', rank: 1 }, ...json });
  assert.equal(body(nonField), { non_field_errors: ['Bad title.'] });
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [], NON_FIELD_ERRORS_KEY: 'errors' } }, async () => {
    assert.equal(body(await client.post('/raise/x/', { data: { title: 'bad', rank: 1 }, ...json })), { errors: ['Bad title.'] });
  });
});

test('shape 3 :: Accept-Language translates messages under LocaleMiddleware; keys and structure stay', async () => {
  await overrideSettings({ MIDDLEWARE: LOCALE_MIDDLEWARE }, async () => {
    const german = { headers: { 'Accept-Language': 'de' } };
    const notFound = await client.get('/raise/not-found/', german);
    assert.equal(body(notFound), { detail: 'Nicht gefunden.' });
    assert.is(notFound.header('Content-Language'), 'de');
    const unauthenticated = await client.get('/protected/', german);
    assert.is(unauthenticated.status, 401);
    assert.equal(body(unauthenticated), { detail: 'Es wurden keine Anmeldedaten übermittelt.' });
    const invalid = await client.post('/raise/x/', { data: { title: 'toolong' }, ...json, ...german });
    assert.is(invalid.status, 400);
    assert.equal(Object.keys(body(invalid)).sort(), ['rank', 'title'], 'field keys are not translated');
    assert.equal(body(invalid).rank, ['Dieses Feld ist erforderlich.']);
    assert.ok(Array.isArray(body(invalid).title) && body(invalid).title.length === 1);
    assert.not.match(body(invalid).title[0], /Ensure this field/);
    const notAllowed = await client.put('/protected/', { headers: { 'Accept-Language': 'fr', Authorization: 'Basic eDp5' } });
    assert.is(notAllowed.status, 401, 'wrong credentials are refused before the method check');
    assert.equal(body(notAllowed), { detail: "Nom d'utilisateur ou mot de passe invalide." });
    const french = await client.delete('/raise/x/', { headers: { 'Accept-Language': 'fr' } });
    assert.is(french.status, 405);
    assert.equal(body(french), { detail: 'Méthode « DELETE » non autorisée.' });
    // Without a supported language in the header, English (LANGUAGE_CODE) is used.
    assert.equal(body(await client.get('/raise/not-found/', { headers: { 'Accept-Language': 'it' } })), { detail: 'Not found.' });
  });
});

test('shape 3 :: without LocaleMiddleware the header is ignored and LANGUAGE_CODE decides', async () => {
  const german = { headers: { 'Accept-Language': 'de' } };
  assert.equal(body(await client.get('/raise/not-found/', german)), { detail: 'Not found.' });
  await overrideSettings({ LANGUAGE_CODE: 'fr' }, async () => {
    assert.equal(body(await client.get('/raise/not-found/', german)), { detail: 'Introuvable.' });
  });
  await overrideSettings({ LANGUAGE_CODE: 'fr', USE_I18N: false }, async () => {
    assert.equal(body(await client.get('/raise/not-found/')), { detail: 'Not found.' });
  });
});

test('shape 4 :: EXCEPTION_HANDLER gets (exc, context with view); its response is used; null -> standard 500', async () => {
  const seen: Array<{ exc: unknown; view: string }> = [];
  const handler = (exc: unknown, context: ExceptionHandlerContext) => {
    seen.push({ exc, view: context.view.constructor.name });
    const response = exceptionHandler(exc, context);
    if (response) response.data = { ...(response.data as object), status_code: response.status };
    return response;
  };
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [], EXCEPTION_HANDLER: handler } }, async () => {
    const response = await client.get('/raise/not-found/');
    assert.equal(body(response), { detail: 'Not found.', status_code: 404 });
    assert.is(seen.length, 1);
    assert.instance(seen[0].exc, NotFound);
    assert.is(seen[0].view, 'Raising');
  });
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [], EXCEPTION_HANDLER: () => null } }, async () => {
    const response = await client.get('/raise/not-found/');
    assert.is(response.status, 500);
    assert.is(response.text, '{"error": "Server Error (500)"}');
    assert.is(response.header('Content-Type'), 'application/json');
  });
});

test('shape 4 :: the handler returning null re-raises the original exception', async () => {
  const factory = new APIRequestFactory();
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [], EXCEPTION_HANDLER: () => null } }, async () => {
    const request = await factory.get('/raise/denied/');
    try {
      await Raising.asView()(request, { kind: 'denied' });
      assert.unreachable('the exception should propagate');
    } catch (error) {
      assert.instance(error, PermissionDenied);
    }
  });
});

test('shape 5 :: the handler is not called for error responses a view returns directly', async () => {
  let calls = 0;
  const counting = (exc: unknown, context: ExceptionHandlerContext) => {
    calls += 1;
    return exceptionHandler(exc, context);
  };
  await overrideSettings({ API_FRAMEWORK: { DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'], DEFAULT_AUTHENTICATION_CLASSES: [], EXCEPTION_HANDLER: counting } }, async () => {
    const returned = await client.post('/return/', { data: { title: 'ok' }, ...json });
    assert.is(returned.status, 400);
    assert.equal(body(returned), { rank: ['This field is required.'] });
    assert.is(calls, 0);
    const raised = await client.post('/raise/x/', { data: { title: 'ok' }, ...json });
    assert.is(raised.status, 400);
    assert.is(calls, 1);
  });
});

test('shape 6 :: detail, getCodes() and getFullDetails(), nested by field for validation errors', async () => {
  const serializer = new NoteInput({ data: { title: 'toolong' } });
  assert.not.ok(await serializer.isValid());
  try {
    await serializer.isValid({ raiseException: true });
    assert.unreachable('should raise');
  } catch (error) {
    const exc = error as ValidationError;
    assert.equal(JSON.parse(JSON.stringify(exc.detail)), { title: ['Ensure this field has no more than 5 characters.'], rank: ['This field is required.'] });
    assert.equal(exc.getCodes(), { title: ['max_length'], rank: ['required'] });
    assert.equal(JSON.parse(JSON.stringify(exc.getFullDetails())), {
      title: [{ message: 'Ensure this field has no more than 5 characters.', code: 'max_length' }],
      rank: [{ message: 'This field is required.', code: 'required' }],
    });
  }
  const denied = new PermissionDenied();
  assert.is(String(denied.detail), 'You do not have permission to perform this action.');
  assert.is(denied.getCodes(), 'permission_denied');
});

// -- Exceptions table ---------------------------------------------------------------------------

test('table :: ParseError 400, UnsupportedMediaType 415, NotAcceptable 406, MethodNotAllowed 405', async () => {
  const malformed = await client.generic('POST', '/raise/x/', '{"title": ', 'application/json');
  assert.is(malformed.status, 400);
  assert.match(String(body(malformed).detail), /^JSON parse error - /);
  const unsupported = await client.generic('POST', '/raise/x/', 'x', 'text/plain');
  assert.is(unsupported.status, 415);
  assert.equal(body(unsupported), { detail: 'Unsupported media type "text/plain" in request.' });
  const notAcceptable = await client.get('/raise/ok/', { headers: { Accept: 'text/csv' } });
  assert.is(notAcceptable.status, 406);
  assert.equal(body(notAcceptable), { detail: 'Could not satisfy the request Accept header.' });
  assert.is(notAcceptable.header('Content-Type'), 'application/json');
  const notAllowed = await client.patch('/raise/x/');
  assert.is(notAllowed.status, 405);
  assert.equal(body(notAllowed), { detail: 'Method "PATCH" not allowed.' });
});

test('table :: a custom exception class sets status, detail and code', async () => {
  const response = await client.get('/unavailable/');
  assert.is(response.status, 503);
  assert.equal(body(response), { detail: 'Service temporarily unavailable, try again later.' });
  assert.is(new ServiceUnavailable().getCodes(), 'service_unavailable');
});

test('table :: handler500 = serverError and handler400 = badRequest answer JSON', async () => {
  const crash = await client.get('/raise/crash/');
  assert.is(crash.status, 500);
  assert.is(crash.text, '{"error": "Server Error (500)"}');
  assert.is(crash.header('Content-Type'), 'application/json');
  const suspicious = await client.get('/raise/suspicious/');
  assert.is(suspicious.status, 400);
  assert.is(suspicious.text, '{"error": "Bad Request (400)"}');
  assert.is(suspicious.header('Content-Type'), 'application/json');
  // Sanity: the request itself reached the view.
  assert.is((await client.get('/raise/ok/')).status, 200);
  assert.ok(HttpRequest);
});

test.run();
