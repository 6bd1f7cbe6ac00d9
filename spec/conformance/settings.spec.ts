/**
 * SPEC.md "Configuration settings (inside API_FRAMEWORK)": every key of the table has the
 * documented default on the live `apiSettings` (the test settings leave API_FRAMEWORK empty),
 * and setting it changes behaviour, observed through real requests (APIClient) wherever the
 * setting affects a request. Settings tested in depth elsewhere are listed in
 * spec/CONFORMANCE.md; this suite covers the defaults and the behaviours nothing else proves.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { useTestDatabase } from '../../lib/core/db/testing';
import { caches } from '../../lib/core/cache';
import { path } from '../../lib/core/urls';
import { AnonymousUser } from '../../contrib/auth/anonymous';
import { apiSettings, DEFAULTS } from '../../lib/settings';
import { APIClient, APIRequestFactory, type TestResponse } from '../../lib/test';
import { APIView, exceptionHandler, getViewDescription, getViewName } from '../../lib/views';
import { Response } from '../../lib/response';
import type { Request } from '../../lib/request';
import { BrowsableAPIRenderer } from '../../contrib/browsable/renderers';
import { JSONRenderer, MultiPartRenderer } from '../../lib/renderers';
import { FormParser, JSONParser, MultiPartParser } from '../../lib/parsers';
import { BasicAuthentication, SessionAuthentication } from '../../lib/authentication';
import { AllowAny, IsAuthenticated } from '../../lib/permissions';
import { DefaultContentNegotiation } from '../../lib/negotiation';
import { AutoSchema } from '../../lib/schemas';
import { AnonRateThrottle } from '../../lib/throttling';
import { ListAPIView } from '../../lib/generics';
import { PageNumberPagination } from '../../lib/pagination';
import { OrderingFilter, SearchFilter } from '../../lib/filters';
import { ModelSerializer } from '../../lib/serializers';
import { DateField, DateTimeField, DecimalField, TimeField } from '../../lib/fields';
import { formatSuffixPatterns } from '../../lib/urlpatterns';
import { User } from '../../contrib/auth/models';
import { GNote, GOwner } from '../models/generics/models';

const test = suite('conformance: settings');
useTestDatabase(test, { models: [GOwner, GNote] });

class NoteModelSerializer extends ModelSerializer {
  static Meta = { model: GNote, fields: ['id', 'title', 'rank'] };
}

/** Answers the request's user, auth and version, and the parsed body on POST. */
class EchoView extends APIView {
  /** Describes the view for OPTIONS. */
  static override description = 'Echoes the request.';
  get(request: Request) {
    return new Response({ user: request.user?.isAnonymous ? 'anonymous' : request.user?.username ?? null, auth: request.auth === null ? null : String(request.auth) });
  }
  post(request: Request) {
    return new Response({ data: request.data });
  }
}

class NoteList extends ListAPIView {
  override queryset = GNote.objects.all();
  override serializerClass = NoteModelSerializer;
  override searchFields = ['title'];
  override orderingFields = ['rank', 'title'];
}

class Values extends APIView {
  get() {
    return new Response({ price: new DecimalField({ maxDigits: 5, decimalPlaces: 2 }).toRepresentation('1.50'), text: 'café' });
  }
}

/** The URL conf of this suite (ROOT_URLCONF = 'spec/conformance/settings.spec'). */
export const urlpatterns = formatSuffixPatterns([
  path('echo/', EchoView.asView(), { name: 'echo' }),
  path('notes/', NoteList.asView(), { name: 'notes' }),
  path('values/', Values.asView(), { name: 'values' }),
]);

let restore: () => void = () => undefined;
test.before(async () => {
  restore = overrideSettings.enter({ ROOT_URLCONF: 'spec/conformance/settings.spec' });
  for (const [title, rank] of [['beta', 2], ['alpha', 3], ['gamma', 1]] as const) await GNote.objects.create({ title, rank });
  const user = await User.objects.createUser('settings-ann', 'ann@example.com', 'pw-ann');
  assert.ok(user.pk);
});
test.after(async () => {
  restore();
  await caches.default.clear();
});

/** Run `fn` with API_FRAMEWORK replaced by `values` (restored afterwards). */
const withApi = <T>(values: Record<string, unknown>, fn: () => T | Promise<T>): Promise<T> =>
  Promise.resolve(overrideSettings({ API_FRAMEWORK: values }, fn));
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

// -- Defaults: the live apiSettings answer the table's values ---------------------------------

test('defaults :: policy classes of the table', () => {
  assert.equal(apiSettings.DEFAULT_RENDERER_CLASSES, [JSONRenderer, BrowsableAPIRenderer]);
  assert.equal(apiSettings.DEFAULT_PARSER_CLASSES, [JSONParser, FormParser, MultiPartParser]);
  assert.equal(apiSettings.DEFAULT_AUTHENTICATION_CLASSES, [SessionAuthentication, BasicAuthentication]);
  assert.equal(apiSettings.DEFAULT_PERMISSION_CLASSES, [AllowAny]);
  assert.equal(apiSettings.DEFAULT_THROTTLE_CLASSES, []);
  assert.is(apiSettings.DEFAULT_CONTENT_NEGOTIATION_CLASS, DefaultContentNegotiation);
  assert.is(apiSettings.DEFAULT_SCHEMA_CLASS, AutoSchema);
  assert.is(apiSettings.DEFAULT_PAGINATION_CLASS, null);
  assert.is(apiSettings.DEFAULT_VERSIONING_CLASS, null);
  assert.is(apiSettings.UNAUTHENTICATED_USER, AnonymousUser);
  assert.is(apiSettings.UNAUTHENTICATED_TOKEN, null);
  assert.equal(apiSettings.TEST_REQUEST_RENDERER_CLASSES, [MultiPartRenderer, JSONRenderer]);
  assert.is(apiSettings.VIEW_NAME_FUNCTION, getViewName);
  assert.is(apiSettings.VIEW_DESCRIPTION_FUNCTION, getViewDescription);
  assert.is(apiSettings.EXCEPTION_HANDLER, exceptionHandler);
});

test('defaults :: scalar values of the table', () => {
  const expected: Record<string, unknown> = {
    PAGE_SIZE: null, SEARCH_PARAM: 'search', ORDERING_PARAM: 'ordering', DEFAULT_VERSION: null, ALLOWED_VERSIONS: null,
    VERSION_PARAM: 'version', TEST_REQUEST_DEFAULT_FORMAT: 'multipart', SCHEMA_COERCE_PATH_PK: true,
    SCHEMA_COERCE_METHOD_NAMES: { retrieve: 'read', destroy: 'delete' }, URL_FORMAT_OVERRIDE: 'format',
    FORMAT_SUFFIX_KWARG: 'format', DATETIME_FORMAT: 'iso-8601', DATETIME_INPUT_FORMATS: ['iso-8601'],
    DATE_FORMAT: 'iso-8601', DATE_INPUT_FORMATS: ['iso-8601'], TIME_FORMAT: 'iso-8601', TIME_INPUT_FORMATS: ['iso-8601'],
    UNICODE_JSON: true, COMPACT_JSON: true, STRICT_JSON: true, COERCE_DECIMAL_TO_STRING: true, HTML_SELECT_CUTOFF: 1000,
    HTML_SELECT_CUTOFF_TEXT: 'More than {count} items...', NON_FIELD_ERRORS_KEY: 'non_field_errors', URL_FIELD_NAME: 'url',
    NUM_PROXIES: null,
  };
  for (const [key, value] of Object.entries(expected)) {
    assert.equal((apiSettings as unknown as Record<string, unknown>)[key], value, key);
  }
  // "no default given" for the filter backends: an empty list (no generic filtering).
  assert.equal(apiSettings.DEFAULT_FILTER_BACKENDS, []);
});

test('defaults :: every key of the spec table is a known setting', () => {
  const table = [
    'DEFAULT_RENDERER_CLASSES', 'DEFAULT_PARSER_CLASSES', 'DEFAULT_AUTHENTICATION_CLASSES', 'DEFAULT_PERMISSION_CLASSES',
    'DEFAULT_THROTTLE_CLASSES', 'DEFAULT_CONTENT_NEGOTIATION_CLASS', 'DEFAULT_SCHEMA_CLASS', 'DEFAULT_FILTER_BACKENDS',
    'DEFAULT_PAGINATION_CLASS', 'PAGE_SIZE', 'SEARCH_PARAM', 'ORDERING_PARAM', 'DEFAULT_VERSIONING_CLASS', 'DEFAULT_VERSION',
    'ALLOWED_VERSIONS', 'VERSION_PARAM', 'UNAUTHENTICATED_USER', 'UNAUTHENTICATED_TOKEN', 'TEST_REQUEST_DEFAULT_FORMAT',
    'TEST_REQUEST_RENDERER_CLASSES', 'SCHEMA_COERCE_PATH_PK', 'SCHEMA_COERCE_METHOD_NAMES', 'URL_FORMAT_OVERRIDE',
    'FORMAT_SUFFIX_KWARG', 'DATETIME_FORMAT', 'DATETIME_INPUT_FORMATS', 'DATE_FORMAT', 'DATE_INPUT_FORMATS', 'TIME_FORMAT',
    'TIME_INPUT_FORMATS', 'UNICODE_JSON', 'COMPACT_JSON', 'STRICT_JSON', 'COERCE_DECIMAL_TO_STRING', 'VIEW_NAME_FUNCTION',
    'VIEW_DESCRIPTION_FUNCTION', 'HTML_SELECT_CUTOFF', 'HTML_SELECT_CUTOFF_TEXT', 'EXCEPTION_HANDLER', 'NON_FIELD_ERRORS_KEY',
    'URL_FIELD_NAME', 'NUM_PROXIES',
  ];
  for (const key of table) assert.ok(key in DEFAULTS, key);
});

test('dotted paths :: a user value given as a dotted string resolves to the object', async () => {
  await withApi({ DEFAULT_PERMISSION_CLASSES: ['api_framework.permissions.IsAuthenticated'] }, () => {
    assert.equal(apiSettings.DEFAULT_PERMISSION_CLASSES, [IsAuthenticated]);
  });
});

// -- Behaviour: changing a setting changes what a request gets ------------------------------

const client = new APIClient();
/** The decoded JSON body (specs read its fields freely). */
const body = (response: TestResponse): any => response.json();

test('DEFAULT_RENDERER_CLASSES :: HTML is served by default and refused (406) when only JSON is configured', async () => {
  const html = await client.get('/echo/', { headers: { Accept: 'text/html' } });
  assert.is(html.status, 200);
  assert.match(String(html.header('Content-Type')), /^text\/html/);
  await withApi({ DEFAULT_RENDERER_CLASSES: [JSONRenderer] }, async () => {
    const refused = await client.get('/echo/', { headers: { Accept: 'text/html' } });
    assert.is(refused.status, 406);
    assert.equal(body(refused), { detail: 'Could not satisfy the request Accept header.' });
  });
});

test('DEFAULT_PARSER_CLASSES :: form bodies parse by default and are 415 with JSON only', async () => {
  const form = await client.generic('POST', '/echo/', 'a=1&a=2', 'application/x-www-form-urlencoded');
  assert.is(form.status, 200);
  assert.equal(body(form), { data: { a: '2' } });
  await withApi({ DEFAULT_PARSER_CLASSES: [JSONParser] }, async () => {
    const refused = await client.generic('POST', '/echo/', 'a=1&a=2', 'application/x-www-form-urlencoded');
    assert.is(refused.status, 415);
    assert.equal(body(refused), { detail: 'Unsupported media type "application/x-www-form-urlencoded" in request.' });
  });
});

test('DEFAULT_AUTHENTICATION_CLASSES :: Basic credentials authenticate by default, are ignored without Basic', async () => {
  const headers = { Authorization: basic('settings-ann', 'pw-ann'), Accept: 'application/json' };
  assert.equal(body(await client.get('/echo/', { headers })), { user: 'settings-ann', auth: null });
  await withApi({ DEFAULT_AUTHENTICATION_CLASSES: [SessionAuthentication] }, async () => {
    assert.equal(body(await client.get('/echo/', { headers })), { user: 'anonymous', auth: null });
  });
});

test('DEFAULT_PERMISSION_CLASSES :: AllowAny by default; IsAuthenticated refuses the anonymous request', async () => {
  assert.is((await client.get('/echo/', { headers: { Accept: 'application/json' } })).status, 200);
  await withApi({ DEFAULT_PERMISSION_CLASSES: ['api_framework.permissions.IsAuthenticated'] }, async () => {
    const refused = await client.get('/echo/', { headers: { Accept: 'application/json' } });
    // The first default authenticator (session) has no WWW-Authenticate header: 403.
    assert.is(refused.status, 403);
    assert.equal(body(refused), { detail: 'Authentication credentials were not provided.' });
  });
});

test('DEFAULT_THROTTLE_CLASSES :: none by default; AnonRateThrottle with a rate throttles the second request', async () => {
  await caches.default.clear();
  for (let i = 0; i < 3; i += 1) assert.is((await client.get('/echo/', { headers: { Accept: 'application/json' } })).status, 200);
  await withApi({ DEFAULT_THROTTLE_CLASSES: [AnonRateThrottle], DEFAULT_THROTTLE_RATES: { anon: '1/min', user: null } }, async () => {
    assert.is((await client.get('/echo/', { headers: { Accept: 'application/json' } })).status, 200);
    const refused = await client.get('/echo/', { headers: { Accept: 'application/json' } });
    assert.is(refused.status, 429);
    assert.match(String(body(refused).detail), /^Request was throttled\. Expected available in \d+ seconds?\.$/);
  });
  await caches.default.clear();
});

test('DEFAULT_CONTENT_NEGOTIATION_CLASS :: a custom class decides the renderer', async () => {
  class AlwaysFirst {
    selectParser(_request: unknown, parsers: unknown[]) {
      return parsers[0] ?? null;
    }
    selectRenderer(_request: unknown, renderers: Array<{ mediaType: string }>) {
      return [renderers[renderers.length - 1], renderers[renderers.length - 1].mediaType];
    }
  }
  await withApi({ DEFAULT_CONTENT_NEGOTIATION_CLASS: AlwaysFirst }, async () => {
    const response = await client.get('/echo/', { headers: { Accept: 'application/json' } });
    assert.is(response.status, 200);
    assert.match(String(response.header('Content-Type')), /^text\/html/);
  });
});

test('DEFAULT_PAGINATION_CLASS and PAGE_SIZE :: no pagination by default; both together paginate', async () => {
  const plain = await client.get('/notes/', { headers: { Accept: 'application/json' } });
  assert.ok(Array.isArray(body(plain)));
  assert.is(body(plain).length, 3);
  await withApi({ PAGE_SIZE: 2 }, async () => {
    assert.ok(Array.isArray(body(await client.get('/notes/?format=json'))), 'PAGE_SIZE alone does not paginate');
  });
  await withApi({ DEFAULT_PAGINATION_CLASS: PageNumberPagination }, async () => {
    assert.ok(Array.isArray(body(await client.get('/notes/?format=json'))), 'the class alone (no page size) does not paginate');
  });
  await withApi({ DEFAULT_PAGINATION_CLASS: 'api_framework.pagination.PageNumberPagination', PAGE_SIZE: 2 }, async () => {
    const page = body(await client.get('/notes/?format=json'));
    assert.is(page.count, 3);
    assert.is(page.results.length, 2);
    assert.is(page.next, 'http://testserver/notes/?format=json&page=2');
    assert.is(page.previous, null);
  });
});

test('DEFAULT_FILTER_BACKENDS, SEARCH_PARAM, ORDERING_PARAM :: filtering follows the settings; null disables it', async () => {
  const titles = async (url: string) => (body(await client.get(url)) as Array<{ title: string }>).map((n) => n.title);
  assert.equal(await titles('/notes/?format=json&search=alp&ordering=rank'), ['beta', 'alpha', 'gamma'], 'no backends by default');
  await withApi({ DEFAULT_FILTER_BACKENDS: [SearchFilter, OrderingFilter] }, async () => {
    assert.equal(await titles('/notes/?format=json&search=a&ordering=rank'), ['gamma', 'beta', 'alpha']);
    assert.equal(await titles('/notes/?format=json&search=alp'), ['alpha']);
  });
  await withApi({ DEFAULT_FILTER_BACKENDS: [SearchFilter, OrderingFilter], SEARCH_PARAM: 'q', ORDERING_PARAM: 'sort' }, async () => {
    assert.equal(await titles('/notes/?format=json&q=alp'), ['alpha']);
    assert.equal(await titles('/notes/?format=json&search=alp&sort=-rank'), ['alpha', 'beta', 'gamma']);
  });
  await withApi({ DEFAULT_FILTER_BACKENDS: null }, async () => {
    assert.equal(await titles('/notes/?format=json&search=alp&ordering=rank'), ['beta', 'alpha', 'gamma']);
  });
});

test('URL_FORMAT_OVERRIDE :: ?format= selects the renderer; a renamed or null setting changes that', async () => {
  const type = async (url: string) => String((await client.get(url)).header('Content-Type'));
  assert.match(await type('/echo/'), /^application\/json/);
  assert.match(await type('/echo/?format=api'), /^text\/html/);
  await withApi({ URL_FORMAT_OVERRIDE: 'fmt' }, async () => {
    assert.match(await type('/echo/?fmt=api'), /^text\/html/);
    assert.match(await type('/echo/?format=api'), /^application\/json/);
  });
  await withApi({ URL_FORMAT_OVERRIDE: null }, async () => {
    assert.match(await type('/echo/?format=api'), /^application\/json/);
  });
});

test('FORMAT_SUFFIX_KWARG :: the suffix selects the format; the view reads the kwarg the setting names', async () => {
  const response = await client.get('/echo.api');
  assert.is(response.status, 200);
  assert.match(String(response.header('Content-Type')), /^text\/html/);
  // The patterns were built with the kwarg "format"; under another name the view ignores it.
  await withApi({ FORMAT_SUFFIX_KWARG: 'fmt' }, async () => {
    const ignored = await client.get('/echo.api');
    assert.match(String(ignored.header('Content-Type')), /^application\/json/);
  });
});

test('UNICODE_JSON and COMPACT_JSON :: raw compact by default; escaped and spaced when off', async () => {
  assert.is((await client.get('/values/?format=json')).text, '{"price":"1.50","text":"café"}');
  await withApi({ UNICODE_JSON: false }, async () => {
    assert.is((await client.get('/values/?format=json')).text, '{"price":"1.50","text":"caf\\u00e9"}');
  });
  await withApi({ COMPACT_JSON: false }, async () => {
    assert.is((await client.get('/values/?format=json')).text, '{"price": "1.50", "text": "café"}');
  });
});

test('COERCE_DECIMAL_TO_STRING :: strings by default; False emits a JSON number', async () => {
  assert.equal(body(await client.get('/values/?format=json')).price, '1.50');
  await withApi({ COERCE_DECIMAL_TO_STRING: false }, async () => {
    const response = await client.get('/values/?format=json');
    assert.is(response.text, '{"price":1.5,"text":"café"}');
  });
});

test('DATETIME_FORMAT :: iso-8601 by default, a strftime string, or None for native values', async () => {
  const when = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
  assert.is(new DateTimeField().toRepresentation(when), '2024-01-02T03:04:05.678000Z');
  await withApi({ DATETIME_FORMAT: '%Y/%m/%d %H-%M' }, () => {
    assert.is(new DateTimeField().toRepresentation(when), '2024/01/02 03-04');
  });
  await withApi({ DATETIME_FORMAT: null }, () => {
    const native = new DateTimeField().toRepresentation(when);
    assert.instance(native, Date);
    assert.is((native as Date).getTime(), when.getTime());
  });
});

test('DATE_FORMAT and TIME_FORMAT :: iso-8601 by default, strftime strings, None for native values', async () => {
  assert.is(new DateField().toRepresentation('2024-01-02'), '2024-01-02');
  assert.is(new TimeField().toRepresentation('03:04:05'), '03:04:05');
  await withApi({ DATE_FORMAT: '%d.%m.%Y', TIME_FORMAT: '%H.%M' }, () => {
    assert.is(new DateField().toRepresentation('2024-01-02'), '02.01.2024');
    assert.is(new TimeField().toRepresentation('03:04:05'), '03.04');
  });
  await withApi({ DATE_FORMAT: null, TIME_FORMAT: null }, () => {
    assert.is(new DateField().toRepresentation('2024-01-02'), '2024-01-02');
    assert.is(new TimeField().toRepresentation('03:04:05'), '03:04:05');
  });
});

test('DATETIME/DATE/TIME_INPUT_FORMATS :: iso-8601 accepted by default; other formats when configured', async () => {
  const invalid = async (field: { runValidation(v: unknown): Promise<unknown> }, value: string): Promise<string> => {
    try {
      await field.runValidation(value);
      return 'valid';
    } catch (error) {
      return String((error as { detail: unknown[] }).detail[0]);
    }
  };
  assert.is(await invalid(new DateField(), '2024-01-02'), 'valid');
  assert.is(await invalid(new DateField(), '02/01/2024'), 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
  assert.is(await invalid(new TimeField(), '03:04'), 'valid');
  assert.is(await invalid(new DateTimeField(), '2024-01-02T03:04:05Z'), 'valid');
  await withApi({ DATE_INPUT_FORMATS: ['%d/%m/%Y'], TIME_INPUT_FORMATS: ['%Hh%M'], DATETIME_INPUT_FORMATS: ['%d/%m/%Y %H:%M'] }, async () => {
    assert.is(await invalid(new DateField(), '02/01/2024'), 'valid');
    assert.is(await invalid(new DateField(), '2024-01-02'), 'Date has wrong format. Use one of these formats instead: DD/MM/YYYY.');
    assert.is(await invalid(new TimeField(), '03h04'), 'valid');
    assert.is(await invalid(new TimeField(), '03:04'), 'Time has wrong format. Use one of these formats instead: hhhmm.');
    assert.is(await invalid(new DateTimeField(), '02/01/2024 03:04'), 'valid');
    assert.match(await invalid(new DateTimeField(), '2024-01-02T03:04:05Z'), /^Datetime has wrong format\./);
  });
});

test('VIEW_NAME_FUNCTION and VIEW_DESCRIPTION_FUNCTION :: OPTIONS carries what the functions produce', async () => {
  const defaults = body(await client.options('/echo/', { headers: { Accept: 'application/json' } }));
  assert.is(defaults.name, 'Echo');
  assert.is(defaults.description, 'Echoes the request.');
  const calls: Array<[string, unknown]> = [];
  const viewName = (view: APIView) => {
    calls.push(['name', view.constructor.name]);
    return `Custom ${view.constructor.name}`;
  };
  const viewDescription = (view: APIView, html = false) => {
    calls.push(['description', html]);
    return `About ${view.constructor.name}`;
  };
  await withApi({ VIEW_NAME_FUNCTION: viewName, VIEW_DESCRIPTION_FUNCTION: viewDescription }, async () => {
    const custom = body(await client.options('/echo/', { headers: { Accept: 'application/json' } }));
    assert.is(custom.name, 'Custom EchoView');
    assert.is(custom.description, 'About EchoView');
  });
  assert.equal(calls, [['name', 'EchoView'], ['description', false]], 'OPTIONS asks for a plain (html=false) description');
  // The browsable API asks for the HTML description.
  calls.length = 0;
  await withApi({ VIEW_NAME_FUNCTION: viewName, VIEW_DESCRIPTION_FUNCTION: viewDescription }, async () => {
    const page = await client.get('/echo/', { headers: { Accept: 'text/html' } });
    assert.match(page.text, 'Custom EchoView');
    assert.match(page.text, 'About EchoView');
  });
  assert.ok(calls.some(([kind, html]) => kind === 'description' && html === true), JSON.stringify(calls));
});

test('TEST_REQUEST_RENDERER_CLASSES :: the default format must name one of them', async () => {
  const factory = new APIRequestFactory();
  const request = await factory.post('/echo/', { data: { a: 1 }, format: 'json' });
  assert.is(request.contentType, 'application/json');
  await withApi({ TEST_REQUEST_RENDERER_CLASSES: [JSONRenderer] }, async () => {
    try {
      await new APIRequestFactory().post('/echo/', { data: { a: 1 } });
      assert.unreachable('multipart is no longer a test renderer');
    } catch (error) {
      assert.match((error as Error).message, /multipart/);
    }
    const json = await new APIRequestFactory().post('/echo/', { data: { a: 1 }, format: 'json' });
    assert.is(json.contentType, 'application/json');
  });
});

test('TEST_REQUEST_DEFAULT_FORMAT :: multipart by default, json when set, through the client', async () => {
  const multipart = await client.post('/echo/', { data: { a: '1' }, headers: { Accept: 'application/json' } });
  assert.equal(body(multipart), { data: { a: '1' } });
  assert.match(String(multipart.request.contentType), 'multipart/form-data');
  await withApi({ TEST_REQUEST_DEFAULT_FORMAT: 'json' }, async () => {
    const json = await new APIClient().post('/echo/', { data: { a: 1 }, headers: { Accept: 'application/json' } });
    assert.equal(body(json), { data: { a: 1 } }, 'the number survives: the body was JSON');
    assert.is(json.request.contentType, 'application/json');
  });
});

test('UNAUTHENTICATED_USER and UNAUTHENTICATED_TOKEN :: what an unauthenticated request carries', async () => {
  assert.equal(body(await client.get('/echo/?format=json')), { user: 'anonymous', auth: null });
  class Guest {
    isAnonymous = false;
    username = 'guest';
  }
  class GuestToken {
    toString() {
      return 'guest-token';
    }
  }
  await withApi({ UNAUTHENTICATED_USER: Guest, UNAUTHENTICATED_TOKEN: GuestToken }, async () => {
    assert.equal(body(await client.get('/echo/?format=json')), { user: 'guest', auth: 'guest-token' });
  });
});

test('removed settings :: each one is refused with the original message when read', async () => {
  for (const name of ['DEFAULT_PAGINATION_SERIALIZER_CLASS', 'PAGINATE_BY', 'PAGINATE_BY_PARAM', 'MAX_PAGINATE_BY']) {
    await withApi({ [name]: 10 }, () => {
      assert.throws(() => apiSettings.PAGE_SIZE, (error: Error) => error.message.startsWith(`The '${name}' setting has been removed.`));
    });
  }
});

test.run();
