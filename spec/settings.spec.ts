import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ImproperlyConfigured, overrideSettings } from '../lib/core/conf';
import { APISettings, apiSettings, ISO_8601 } from '../lib/settings';
import { JSONRenderer, MultiPartRenderer } from '../lib/renderers';
import { DefaultContentNegotiation } from '../lib/negotiation';
import { exceptionHandler, getViewName } from '../lib/views';

const test = suite('settings');

test('defaults :: values of the settings table', () => {
  const s = new APISettings({});
  assert.is(s.get('PAGE_SIZE'), null);
  assert.is(s.get('SEARCH_PARAM'), 'search');
  assert.is(s.get('ORDERING_PARAM'), 'ordering');
  assert.is(s.get('VERSION_PARAM'), 'version');
  assert.is(s.get('URL_FORMAT_OVERRIDE'), 'format');
  assert.is(s.get('FORMAT_SUFFIX_KWARG'), 'format');
  assert.is(s.get('NON_FIELD_ERRORS_KEY'), 'non_field_errors');
  assert.is(s.get('URL_FIELD_NAME'), 'url');
  assert.is(s.get('DATETIME_FORMAT'), ISO_8601);
  assert.equal(s.get('DATE_INPUT_FORMATS'), ['iso-8601']);
  assert.is(s.get('UNICODE_JSON'), true);
  assert.is(s.get('COMPACT_JSON'), true);
  assert.is(s.get('STRICT_JSON'), true);
  assert.is(s.get('COERCE_DECIMAL_TO_STRING'), true);
  assert.is(s.get('HTML_SELECT_CUTOFF'), 1000);
  assert.is(s.get('HTML_SELECT_CUTOFF_TEXT'), 'More than {count} items...');
  assert.equal(s.get('DEFAULT_THROTTLE_RATES'), { user: null, anon: null });
  assert.is(s.get('NUM_PROXIES'), null);
  assert.is(s.get('DEFAULT_VERSIONING_CLASS'), null);
  assert.is(s.get('DEFAULT_PAGINATION_CLASS'), null);
  assert.equal(s.get('DEFAULT_THROTTLE_CLASSES'), []);
  assert.is(s.get('TEST_REQUEST_DEFAULT_FORMAT'), 'multipart');
  assert.equal(s.get('SCHEMA_COERCE_METHOD_NAMES'), { retrieve: 'read', destroy: 'delete' });
  assert.is(s.get('SCHEMA_COERCE_PATH_PK'), true);
});

test('imports :: dotted strings and lists resolve to the objects', () => {
  const s = new APISettings({});
  assert.is(s.get('DEFAULT_CONTENT_NEGOTIATION_CLASS'), DefaultContentNegotiation);
  assert.equal(s.get('TEST_REQUEST_RENDERER_CLASSES'), [MultiPartRenderer, JSONRenderer]);
  assert.is(s.get('EXCEPTION_HANDLER'), exceptionHandler);
  assert.is(s.get('VIEW_NAME_FUNCTION'), getViewName);
  assert.is(s.get('DEFAULT_CONTENT_NEGOTIATION_CLASS'), s.get('DEFAULT_CONTENT_NEGOTIATION_CLASS'));
});

test('user values :: win over defaults; classes may be given directly', () => {
  const s = new APISettings({ PAGE_SIZE: 10, DEFAULT_RENDERER_CLASSES: [JSONRenderer, 'api_framework.renderers.MultiPartRenderer'] });
  assert.is(s.get('PAGE_SIZE'), 10);
  assert.equal(s.get('DEFAULT_RENDERER_CLASSES'), [JSONRenderer, MultiPartRenderer]);
});

test('errors :: bad path names the setting', () => {
  const s = new APISettings({ DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.NoSuchRenderer'] });
  try {
    s.get('DEFAULT_RENDERER_CLASSES');
    assert.unreachable('should throw');
  } catch (error) {
    assert.instance(error, ImproperlyConfigured);
    assert.match((error as Error).message, "Could not import 'api_framework.renderers.NoSuchRenderer' for API setting 'DEFAULT_RENDERER_CLASSES'");
  }
  const missingModule = new APISettings({ EXCEPTION_HANDLER: 'api_framework.nowhere.handler' });
  assert.throws(() => missingModule.get('EXCEPTION_HANDLER'), /for API setting 'EXCEPTION_HANDLER'/);
});

test('errors :: unknown key', () => {
  const s = new APISettings({});
  assert.throws(() => s.get('NOT_A_SETTING' as never), /Invalid API setting: 'NOT_A_SETTING'/);
});

test('errors :: removed settings are refused', () => {
  for (const name of ['PAGINATE_BY', 'PAGINATE_BY_PARAM', 'MAX_PAGINATE_BY', 'DEFAULT_PAGINATION_SERIALIZER_CLASS']) {
    const s = new APISettings({ [name]: 10 });
    assert.throws(
      () => s.get('PAGE_SIZE'),
      (error: Error) => error.message === `The '${name}' setting has been removed. Please refer to 'https://www.django-rest-framework.org/api-guide/settings/' for available settings.`,
    );
  }
});

test('reload :: overriding API_FRAMEWORK is seen at once and restored', async () => {
  assert.is(apiSettings.PAGE_SIZE, null);
  await overrideSettings({ API_FRAMEWORK: { PAGE_SIZE: 7 } }, async () => {
    assert.is(apiSettings.PAGE_SIZE, 7);
    assert.is(apiSettings.get('PAGE_SIZE'), 7);
  });
  assert.is(apiSettings.PAGE_SIZE, null);
});

test.run();
