/**
 * Settings for the API framework are all namespaced in the API_FRAMEWORK setting.
 * For example your project's settings module might hold:
 *
 *     API_FRAMEWORK: {
 *       DEFAULT_RENDERER_CLASSES: ['api_framework.renderers.JSONRenderer'],
 *       DEFAULT_PARSER_CLASSES: ['api_framework.parsers.JSONParser'],
 *     }
 *
 * This module provides `apiSettings`, used to read API settings: the user's value first,
 * then the default. Settings that name classes or functions by dotted string resolve to the
 * referenced object on first read, and the result is cached until the settings change.
 *
 * This file is a leaf: it names classes by string only, so it never imports views or renderers.
 */
import { ImproperlyConfigured, onSettingChanged, settings } from './core/conf';
import { importString } from './core/modules';

/** The marker value of the date/time format settings meaning ISO 8601. */
export const ISO_8601 = 'iso-8601';

/** A class named by a setting (renderer, parser, authenticator, ...). Narrowed by its user. */
export type SettingClass = new () => object;

/** A function named by a setting (exception handler, view name function, ...). */
export type SettingFunction = (...args: never[]) => unknown;

/** The value types of every API setting, after dotted strings are resolved. */
export interface ApiSettingsValues {
  DEFAULT_RENDERER_CLASSES: SettingClass[];
  DEFAULT_PARSER_CLASSES: SettingClass[];
  DEFAULT_AUTHENTICATION_CLASSES: SettingClass[];
  DEFAULT_PERMISSION_CLASSES: SettingClass[];
  DEFAULT_THROTTLE_CLASSES: SettingClass[];
  DEFAULT_CONTENT_NEGOTIATION_CLASS: SettingClass;
  DEFAULT_METADATA_CLASS: SettingClass | null;
  DEFAULT_VERSIONING_CLASS: SettingClass | null;
  DEFAULT_PAGINATION_CLASS: SettingClass | null;
  DEFAULT_FILTER_BACKENDS: SettingClass[] | null;
  DEFAULT_SCHEMA_CLASS: SettingClass | null;
  DEFAULT_THROTTLE_RATES: Record<string, string | null>;
  NUM_PROXIES: number | null;
  PAGE_SIZE: number | null;
  SEARCH_PARAM: string;
  ORDERING_PARAM: string;
  DEFAULT_VERSION: string | null;
  ALLOWED_VERSIONS: string[] | null;
  VERSION_PARAM: string;
  UNAUTHENTICATED_USER: SettingClass | null;
  UNAUTHENTICATED_TOKEN: SettingClass | null;
  VIEW_NAME_FUNCTION: SettingFunction;
  VIEW_DESCRIPTION_FUNCTION: SettingFunction;
  EXCEPTION_HANDLER: SettingFunction;
  NON_FIELD_ERRORS_KEY: string;
  TEST_REQUEST_RENDERER_CLASSES: SettingClass[];
  TEST_REQUEST_DEFAULT_FORMAT: string;
  URL_FORMAT_OVERRIDE: string | null;
  FORMAT_SUFFIX_KWARG: string;
  URL_FIELD_NAME: string;
  DATE_FORMAT: string | null;
  DATE_INPUT_FORMATS: string[];
  DATETIME_FORMAT: string | null;
  DATETIME_INPUT_FORMATS: string[];
  TIME_FORMAT: string | null;
  TIME_INPUT_FORMATS: string[];
  UNICODE_JSON: boolean;
  COMPACT_JSON: boolean;
  STRICT_JSON: boolean;
  /** The deepest nesting of lists/objects the JSON parser accepts (400 past it) and the JSON renderer writes. */
  JSON_MAX_DEPTH: number;
  /**
   * With the cache (Redis) down or timing out, throttles let requests through (true, the
   * default; the outage is logged once) or the request answers 503 (false).
   */
  THROTTLE_FAIL_OPEN: boolean;
  COERCE_DECIMAL_TO_STRING: boolean;
  UPLOADED_FILES_USE_URL: boolean;
  HTML_SELECT_CUTOFF: number;
  HTML_SELECT_CUTOFF_TEXT: string;
  SCHEMA_COERCE_PATH_PK: boolean;
  SCHEMA_COERCE_METHOD_NAMES: Record<string, string>;
}

/** A setting's name. */
export type ApiSettingName = keyof ApiSettingsValues;

/** The defaults, with classes and functions named by dotted string. */
export const DEFAULTS: Readonly<Record<ApiSettingName, unknown>> = Object.freeze({
  // Base API policies
  DEFAULT_RENDERER_CLASSES: [
    'api_framework.renderers.JSONRenderer',
    'api_framework.renderers.BrowsableAPIRenderer',
  ],
  DEFAULT_PARSER_CLASSES: [
    'api_framework.parsers.JSONParser',
    'api_framework.parsers.FormParser',
    'api_framework.parsers.MultiPartParser',
  ],
  DEFAULT_AUTHENTICATION_CLASSES: [
    'api_framework.authentication.SessionAuthentication',
    'api_framework.authentication.BasicAuthentication',
  ],
  DEFAULT_PERMISSION_CLASSES: ['api_framework.permissions.AllowAny'],
  DEFAULT_THROTTLE_CLASSES: [],
  DEFAULT_CONTENT_NEGOTIATION_CLASS: 'api_framework.negotiation.DefaultContentNegotiation',
  DEFAULT_METADATA_CLASS: 'api_framework.metadata.SimpleMetadata',
  DEFAULT_VERSIONING_CLASS: null,

  // Generic view behavior
  DEFAULT_PAGINATION_CLASS: null,
  DEFAULT_FILTER_BACKENDS: [],

  // Schema
  DEFAULT_SCHEMA_CLASS: 'api_framework.schemas.AutoSchema',

  // Throttling
  DEFAULT_THROTTLE_RATES: { user: null, anon: null },
  NUM_PROXIES: null,

  // Pagination
  PAGE_SIZE: null,

  // Filtering
  SEARCH_PARAM: 'search',
  ORDERING_PARAM: 'ordering',

  // Versioning
  DEFAULT_VERSION: null,
  ALLOWED_VERSIONS: null,
  VERSION_PARAM: 'version',

  // Authentication
  UNAUTHENTICATED_USER: 'contrib.auth.anonymous.AnonymousUser',
  UNAUTHENTICATED_TOKEN: null,

  // View configuration
  VIEW_NAME_FUNCTION: 'api_framework.views.getViewName',
  VIEW_DESCRIPTION_FUNCTION: 'api_framework.views.getViewDescription',

  // Exception handling
  EXCEPTION_HANDLER: 'api_framework.views.exceptionHandler',
  NON_FIELD_ERRORS_KEY: 'non_field_errors',

  // Testing
  TEST_REQUEST_RENDERER_CLASSES: [
    'api_framework.renderers.MultiPartRenderer',
    'api_framework.renderers.JSONRenderer',
  ],
  TEST_REQUEST_DEFAULT_FORMAT: 'multipart',

  // Hyperlink settings
  URL_FORMAT_OVERRIDE: 'format',
  FORMAT_SUFFIX_KWARG: 'format',
  URL_FIELD_NAME: 'url',

  // Input and output formats
  DATE_FORMAT: ISO_8601,
  DATE_INPUT_FORMATS: [ISO_8601],
  DATETIME_FORMAT: ISO_8601,
  DATETIME_INPUT_FORMATS: [ISO_8601],
  TIME_FORMAT: ISO_8601,
  TIME_INPUT_FORMATS: [ISO_8601],

  // Encoding
  UNICODE_JSON: true,
  COMPACT_JSON: true,
  STRICT_JSON: true,
  JSON_MAX_DEPTH: 512,
  THROTTLE_FAIL_OPEN: true,
  COERCE_DECIMAL_TO_STRING: true,
  UPLOADED_FILES_USE_URL: true,

  // Browsable API
  HTML_SELECT_CUTOFF: 1000,
  HTML_SELECT_CUTOFF_TEXT: 'More than {count} items...',

  // Schemas
  SCHEMA_COERCE_PATH_PK: true,
  SCHEMA_COERCE_METHOD_NAMES: { retrieve: 'read', destroy: 'delete' },
});

/** Settings whose value may be a dotted string path (or a list of them). */
export const IMPORT_STRINGS: ReadonlySet<ApiSettingName> = new Set<ApiSettingName>([
  'DEFAULT_RENDERER_CLASSES',
  'DEFAULT_PARSER_CLASSES',
  'DEFAULT_AUTHENTICATION_CLASSES',
  'DEFAULT_PERMISSION_CLASSES',
  'DEFAULT_THROTTLE_CLASSES',
  'DEFAULT_CONTENT_NEGOTIATION_CLASS',
  'DEFAULT_METADATA_CLASS',
  'DEFAULT_VERSIONING_CLASS',
  'DEFAULT_PAGINATION_CLASS',
  'DEFAULT_FILTER_BACKENDS',
  'DEFAULT_SCHEMA_CLASS',
  'EXCEPTION_HANDLER',
  'TEST_REQUEST_RENDERER_CLASSES',
  'UNAUTHENTICATED_USER',
  'UNAUTHENTICATED_TOKEN',
  'VIEW_NAME_FUNCTION',
  'VIEW_DESCRIPTION_FUNCTION',
]);

/** Settings that no longer exist; naming one in API_FRAMEWORK is an error. */
export const REMOVED_SETTINGS: readonly string[] = [
  'PAGINATE_BY',
  'PAGINATE_BY_PARAM',
  'MAX_PAGINATE_BY',
  'DEFAULT_PAGINATION_SERIALIZER_CLASS',
];

const SETTINGS_DOC = 'https://www.django-rest-framework.org/api-guide/settings/';

/** Resolve a dotted string, or each string in a list, naming `setting` if one is bad. */
export function performImport(value: unknown, setting: string): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === 'string') return importString(value, setting);
  if (Array.isArray(value)) {
    return value.map((item: unknown) => (typeof item === 'string' ? importString(item, setting) : item));
  }
  return value;
}

function isSettingName(name: string): name is ApiSettingName {
  return Object.prototype.hasOwnProperty.call(DEFAULTS, name);
}

/**
 * A settings object: API settings are read as properties (`apiSettings.PAGE_SIZE`), the
 * user's value winning over the default, dotted strings resolved on first read.
 * Call `reload()` after changing settings by hand; `overrideSettings` does it for you.
 */
export class APISettings {
  readonly #defaults: Readonly<Record<string, unknown>>;
  readonly #importStrings: ReadonlySet<string>;
  readonly #explicit: Record<string, unknown> | null;
  #cache = new Map<string, unknown>();
  #checked: Record<string, unknown> | null = null;

  /**
   * `userSettings` fixes the values instead of reading `settings.API_FRAMEWORK` (for tests
   * and for a view's private settings object).
   */
  constructor(
    userSettings: Record<string, unknown> | null = null,
    defaults: Readonly<Record<string, unknown>> = DEFAULTS,
    importStrings: ReadonlySet<string> = IMPORT_STRINGS,
  ) {
    this.#explicit = userSettings;
    this.#defaults = defaults;
    this.#importStrings = importStrings;
  }

  /** The user's raw API_FRAMEWORK values, checked once for removed settings. */
  get userSettings(): Record<string, unknown> {
    if (this.#checked === null) {
      const raw = this.#explicit ?? settings.API_FRAMEWORK ?? {};
      for (const name of REMOVED_SETTINGS) {
        if (Object.prototype.hasOwnProperty.call(raw, name)) {
          throw new ImproperlyConfigured(
            `The '${name}' setting has been removed. Please refer to '${SETTINGS_DOC}' for available settings.`,
          );
        }
      }
      this.#checked = raw;
    }
    return this.#checked;
  }

  /** Read one setting by name; an unknown name throws `Invalid API setting: 'X'`. */
  get<K extends ApiSettingName>(name: K): ApiSettingsValues[K] {
    if (this.#cache.has(name)) return this.#cache.get(name) as ApiSettingsValues[K];
    if (!Object.prototype.hasOwnProperty.call(this.#defaults, name)) {
      throw new ImproperlyConfigured(`Invalid API setting: '${name}'`);
    }
    const user = this.userSettings;
    let value = Object.prototype.hasOwnProperty.call(user, name) ? user[name] : this.#defaults[name];
    if (this.#importStrings.has(name)) value = performImport(value, name);
    this.#cache.set(name, value);
    return value as ApiSettingsValues[K];
  }

  /** Forget cached values so the next read sees the current API_FRAMEWORK setting. */
  reload(): void {
    this.#cache = new Map();
    this.#checked = null;
  }
}

/** `APISettings` plus one typed read-only property per setting. */
export type ApiSettings = APISettings & { readonly [K in ApiSettingName]: ApiSettingsValues[K] };

for (const name of Object.keys(DEFAULTS)) {
  if (!isSettingName(name)) continue;
  Object.defineProperty(APISettings.prototype, name, {
    get(this: APISettings) {
      return this.get(name);
    },
    enumerable: true,
    configurable: true,
  });
}

/** The API settings of the running project. */
export const apiSettings = new APISettings() as ApiSettings;

onSettingChanged((key) => {
  if (key === 'API_FRAMEWORK') apiSettings.reload();
});
