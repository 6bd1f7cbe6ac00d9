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
 * This file is a leaf at run time: it names classes by string only, so it never imports views or
 * renderers; it imports their types (`import type`, erased) to type the class-valued settings.
 */
import { ImproperlyConfigured, onSettingChanged, settings } from './core/conf';
import { importString } from './core/modules';
import type { AuthenticationClass } from './authentication';
import type { BaseFilterBackend } from './filters';
import type { MetadataClass } from './metadata';
import type { ContentNegotiationClass } from './negotiation';
import type { BasePagination } from './pagination/base';
import type { ParserClass } from './parsers';
import type { PermissionClass } from './permissions';
import type { RendererClass } from './renderers';
import type { ViewInspector } from './schemas/inspector';
import type { ThrottleClass } from './throttling';
import type { VersioningClass } from './versioning';
import type { APIView, ExceptionHandler } from './views';

/** The marker value of the date/time format settings meaning ISO 8601. */
export const ISO_8601 = 'iso-8601';

/** A class named by a setting (renderer, parser, authenticator, ...). Narrowed by its user. */
export type SettingClass = new () => object;

/** A function named by a setting (exception handler, view name function, ...). */
export type SettingFunction = (...args: never[]) => unknown;

/** A filter backend class, as `DEFAULT_FILTER_BACKENDS` lists it (anything with `filterQueryset()`). */
export type FilterBackendClass = new () => Pick<BaseFilterBackend, 'filterQueryset'>;

/** A pagination class, as `DEFAULT_PAGINATION_CLASS` names it. */
export type PaginationSettingClass = new () => BasePagination;

/** A schema class, as `DEFAULT_SCHEMA_CLASS` names it (`AutoSchema` or a subclass). */
export type SchemaClass = new () => ViewInspector;

/** The signature of `VIEW_NAME_FUNCTION`: the name the browsable API and OPTIONS show for a view. */
export type ViewNameFunction = (view: APIView) => string;

/** The signature of `VIEW_DESCRIPTION_FUNCTION`: a view's description, as HTML when `html`. */
export type ViewDescriptionFunction = (view: APIView, html: boolean) => string;

/**
 * The value types of every API setting, after dotted strings are resolved: what
 * `apiSettings.X` returns. Each class-valued setting holds the real class type, so a renderer
 * where a parser belongs does not compile; `ApiFrameworkSettings` is what a settings module
 * writes (the same keys, each optional, classes also by dotted path).
 */
export interface ApiSettingsValues {
  /** The renderers a view answers with, in order of preference (`JSONRenderer`, `BrowsableAPIRenderer`). */
  DEFAULT_RENDERER_CLASSES: RendererClass[];
  /** The parsers that may read a request body (`JSONParser`, `FormParser`, `MultiPartParser`). */
  DEFAULT_PARSER_CLASSES: ParserClass[];
  /** The authenticators tried in order to set `request.user` (`SessionAuthentication`, `BasicAuthentication`). */
  DEFAULT_AUTHENTICATION_CLASSES: AuthenticationClass[];
  /** The permissions every request must pass (`AllowAny`). */
  DEFAULT_PERMISSION_CLASSES: PermissionClass[];
  /** The throttles applied to every request (none by default). */
  DEFAULT_THROTTLE_CLASSES: ThrottleClass[];
  /** Chooses the renderer and parser for a request (`DefaultContentNegotiation`). */
  DEFAULT_CONTENT_NEGOTIATION_CLASS: ContentNegotiationClass;
  /** Builds the body of OPTIONS responses (`SimpleMetadata`); null: OPTIONS answers no metadata. */
  DEFAULT_METADATA_CLASS: MetadataClass | null;
  /** Reads the API version of a request (`URLPathVersioning`, `AcceptHeaderVersioning`, ...); null: none. */
  DEFAULT_VERSIONING_CLASS: VersioningClass | null;
  /** Paginates list answers of generic views (`PageNumberPagination`, ...); null: no pagination. */
  DEFAULT_PAGINATION_CLASS: PaginationSettingClass | null;
  /** Filter backends of generic views (`SearchFilter`, `OrderingFilter`, ...). */
  DEFAULT_FILTER_BACKENDS: FilterBackendClass[] | null;
  /** The schema inspector attached to views (`AutoSchema`); null: views have no schema. */
  DEFAULT_SCHEMA_CLASS: SchemaClass | null;
  /** Rates by throttle scope, e.g. `{ anon: '100/day', user: '1000/day' }`. */
  DEFAULT_THROTTLE_RATES: Record<string, string | null>;
  /** How many proxies sit in front of the server, for the client address throttles key on; null: use the remote address. */
  NUM_PROXIES: number | null;
  /** Items per page for the paginators that use a page size; null: no pagination unless a view sets it. */
  PAGE_SIZE: number | null;
  /** The query parameter `SearchFilter` reads (`search`). */
  SEARCH_PARAM: string;
  /** The query parameter `OrderingFilter` reads (`ordering`). */
  ORDERING_PARAM: string;
  /** The version used when a request names none; null: none. */
  DEFAULT_VERSION: string | null;
  /** The versions a request may ask for; null: any. */
  ALLOWED_VERSIONS: string[] | null;
  /** The parameter (query, path or media type) that carries the version (`version`). */
  VERSION_PARAM: string;
  /** The class of `request.user` for unauthenticated requests (`AnonymousUser`); null: `request.user` is null. */
  UNAUTHENTICATED_USER: SettingClass | null;
  /** The class of `request.auth` for unauthenticated requests; null (the default): `request.auth` is null. */
  UNAUTHENTICATED_TOKEN: SettingClass | null;
  /** Gives a view its name in the browsable API and OPTIONS answers (`getViewName`). */
  VIEW_NAME_FUNCTION: ViewNameFunction;
  /** Gives a view its description in the browsable API and OPTIONS answers (`getViewDescription`). */
  VIEW_DESCRIPTION_FUNCTION: ViewDescriptionFunction;
  /** Turns an exception raised by a view into a response (`exceptionHandler`); null from it re-raises. */
  EXCEPTION_HANDLER: ExceptionHandler;
  /** The key of errors that belong to no single field (`non_field_errors`). */
  NON_FIELD_ERRORS_KEY: string;
  /** The renderers the test client may encode request bodies with (`MultiPartRenderer`, `JSONRenderer`). */
  TEST_REQUEST_RENDERER_CLASSES: RendererClass[];
  /** The format the test client encodes request bodies in by default (`multipart`). */
  TEST_REQUEST_DEFAULT_FORMAT: string;
  /** The query parameter that overrides content negotiation (`?format=json`); null: none. */
  URL_FORMAT_OVERRIDE: string | null;
  /** The URL keyword argument of format suffixes (`/snippets.json`) (`format`). */
  FORMAT_SUFFIX_KWARG: string;
  /** The name of the URL field of hyperlinked serializers (`url`). */
  URL_FIELD_NAME: string;
  /** How `DateField` writes dates: `ISO_8601` (default), a strftime format, or null for the date object itself. */
  DATE_FORMAT: string | null;
  /** The formats `DateField` accepts (`[ISO_8601]`). */
  DATE_INPUT_FORMATS: string[];
  /** How `DateTimeField` writes datetimes: `ISO_8601` (default), a strftime format, or null. */
  DATETIME_FORMAT: string | null;
  /** The formats `DateTimeField` accepts (`[ISO_8601]`). */
  DATETIME_INPUT_FORMATS: string[];
  /** How `TimeField` writes times: `ISO_8601` (default), a strftime format, or null. */
  TIME_FORMAT: string | null;
  /** The formats `TimeField` accepts (`[ISO_8601]`). */
  TIME_INPUT_FORMATS: string[];
  /** JSON answers keep non-ASCII characters as they are (true) or escape them as `\uXXXX` (false). */
  UNICODE_JSON: boolean;
  /** JSON answers without spaces after `:` and `,` (true) or with them (false). */
  COMPACT_JSON: boolean;
  /** JSON answers refuse `NaN` and `Infinity` (true) instead of writing them (false). */
  STRICT_JSON: boolean;
  /** The deepest nesting of lists/objects the JSON parser accepts (400 past it) and the JSON renderer writes. */
  JSON_MAX_DEPTH: number;
  /**
   * With the cache (Redis) down or timing out, throttles let requests through (true, the
   * default; the outage is logged once) or the request answers 503 (false).
   */
  THROTTLE_FAIL_OPEN: boolean;
  /** `DecimalField` writes strings (true) or numbers (false). */
  COERCE_DECIMAL_TO_STRING: boolean;
  /** `FileField` writes the file's URL (true) or its name (false). */
  UPLOADED_FILES_USE_URL: boolean;
  /** The most choices a relational field's select shows in the browsable API (1000). */
  HTML_SELECT_CUTOFF: number;
  /** The text shown past `HTML_SELECT_CUTOFF` (`More than {count} items...`). */
  HTML_SELECT_CUTOFF_TEXT: string;
  /** Schemas name the primary key path parameter `id` (true) instead of `pk`. */
  SCHEMA_COERCE_PATH_PK: boolean;
  /** Action names renamed in schema operation ids (`{ retrieve: 'read', destroy: 'delete' }`). */
  SCHEMA_COERCE_METHOD_NAMES: Record<string, string>;
}

/**
 * How a settings module may write one API setting: a class or function also by its dotted
 * path (`'api_framework.renderers.JSONRenderer'`), lists as read-only arrays.
 */
export type ApiSettingInput<T> = T extends abstract new (...args: never[]) => unknown
  ? T | string
  : T extends (...args: never[]) => unknown
    ? T | string
    : T extends ReadonlyArray<infer Item>
      ? ReadonlyArray<ApiSettingInput<Item>>
      : T;

/**
 * The `API_FRAMEWORK` setting: DRF's `REST_FRAMEWORK` dict, a closed type (a misspelt key
 * such as `DEFAULT_PAGINATON_CLASS` does not compile). Every key is optional; the defaults are
 * in `DEFAULTS`. Class-valued keys take the class itself or its dotted path:
 *
 *     API_FRAMEWORK: {
 *       DEFAULT_RENDERER_CLASSES: [JSONRenderer, 'api_framework.renderers.BrowsableAPIRenderer'],
 *       DEFAULT_PAGINATION_CLASS: 'api_framework.pagination.PageNumberPagination',
 *       PAGE_SIZE: 10,
 *     }
 */
export type ApiFrameworkSettings = { [K in keyof ApiSettingsValues]?: ApiSettingInput<ApiSettingsValues[K]> };

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
    const cached = this.#cache.get(name);
    if (cached !== undefined || this.#cache.has(name)) return cached as ApiSettingsValues[K];
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
