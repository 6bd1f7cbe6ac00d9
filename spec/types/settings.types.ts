// Typed settings (issue 15 item 4): a settings module is checked against closed, documented
// types. A misspelt key, a value of the wrong type or a class of the wrong kind fails to
// compile; classes are accepted as values or dotted paths; a project's own keys go through the
// `ProjectSettingsExtension` declaration-merging point.
import type { ApiFrameworkSettings, ProjectSettings } from 'api_framework';
import { apiSettings } from 'api_framework';
import { settings, overrideSettings } from '../../lib/core/conf';
import { JSONRenderer, TemplateHTMLRenderer } from '../../lib/renderers';
import { JSONParser } from '../../lib/parsers';
import { TokenAuthentication } from '../../lib/authentication';
import { IsAuthenticated } from '../../lib/permissions';
import { PageNumberPagination } from '../../lib/pagination';
import { SearchFilter } from '../../lib/filters';
import { AnonRateThrottle } from '../../lib/throttling';
import { exceptionHandler } from '../../lib/views';
import { SecurityMiddleware } from '../../lib/core/security';
import type { RendererClass } from '../../lib/renderers';
import { expectExactType, expectType } from './expectType';

// A project's own key, declared the way a project does it (on the public entry point).
declare module 'api_framework' {
  interface ProjectSettingsExtension {
    /** Where the example project archives invoices. */
    TYPES_SPEC_ARCHIVE_DIR?: string;
  }
}

// The settings module of a project, as startproject writes it: compiles.
const projectSettings: Partial<ProjectSettings> = {
  DEBUG: true,
  SECRET_KEY: 'x',
  ALLOWED_HOSTS: ['localhost'],
  INSTALLED_APPS: ['api_framework.contrib.auth', 'api_framework.contrib.sessions'],
  MIDDLEWARE: ['api_framework.contrib.sessions.middleware.SessionMiddleware', SecurityMiddleware],
  ROOT_URLCONF: 'mysite.urls',
  DATABASE_URL: 'sqlite:db.sqlite3',
  CACHE_URL: null,
  AUTH_PASSWORD_VALIDATORS: [
    { NAME: 'api_framework.contrib.auth.passwordValidation.MinimumLengthValidator', OPTIONS: { min_length: 12 } },
  ],
  SECURE_HSTS_SECONDS: 3600,
  TYPES_SPEC_ARCHIVE_DIR: '/var/archive',
  API_FRAMEWORK: {
    // classes by dotted path and by value, mixed
    DEFAULT_RENDERER_CLASSES: [JSONRenderer, 'api_framework.renderers.BrowsableAPIRenderer'],
    DEFAULT_PARSER_CLASSES: [JSONParser],
    DEFAULT_AUTHENTICATION_CLASSES: ['api_framework.authentication.SessionAuthentication', TokenAuthentication],
    DEFAULT_PERMISSION_CLASSES: [IsAuthenticated],
    DEFAULT_THROTTLE_CLASSES: [AnonRateThrottle],
    DEFAULT_PAGINATION_CLASS: PageNumberPagination,
    DEFAULT_FILTER_BACKENDS: [SearchFilter],
    EXCEPTION_HANDLER: exceptionHandler,
    PAGE_SIZE: 10,
    DEFAULT_THROTTLE_RATES: { anon: '3/min' },
  },
};
void projectSettings;

// The `satisfies` form checks the same way and keeps the literal's own type.
const satisfied = { DEBUG: false, ALLOWED_HOSTS: ['example.com'] } satisfies Partial<ProjectSettings>;
expectExactType<string[]>()(satisfied.ALLOWED_HOSTS);
// @ts-expect-error a misspelt key fails under `satisfies` too
void ({ DEBUG: false, ALOWED_HOSTS: ['example.com'] } satisfies Partial<ProjectSettings>);

// `as const` lists (read-only arrays) are accepted in API_FRAMEWORK.
const renderers = [JSONRenderer, TemplateHTMLRenderer] as const;
expectType<ApiFrameworkSettings>({ DEFAULT_RENDERER_CLASSES: renderers });

// The extension key is typed where the live settings are read.
expectExactType<string | undefined>()(settings.TYPES_SPEC_ARCHIVE_DIR);
// Known keys read with their types.
expectExactType<string[]>()(settings.INSTALLED_APPS);
expectExactType<ApiFrameworkSettings>()(settings.API_FRAMEWORK);

// The resolved API settings carry the real class types.
expectExactType<RendererClass[]>()(apiSettings.DEFAULT_RENDERER_CLASSES);
expectExactType<number | null>()(apiSettings.PAGE_SIZE);

// --- what must not compile ---

const misspeltKey: Partial<ProjectSettings> = {
  // @ts-expect-error INSTALED_APPS is not a setting (INSTALLED_APPS is)
  INSTALED_APPS: ['api_framework.contrib.auth'],
};
void misspeltKey;

const misspeltApiKey: Partial<ProjectSettings> = {
  API_FRAMEWORK: {
    // @ts-expect-error DEFAULT_PAGINATON_CLASS is not an API setting (DEFAULT_PAGINATION_CLASS is)
    DEFAULT_PAGINATON_CLASS: 'api_framework.pagination.PageNumberPagination',
  },
};
void misspeltApiKey;

const removedApiKey: ApiFrameworkSettings = {
  // @ts-expect-error PAGINATE_BY was removed from DRF (PAGE_SIZE replaces it)
  PAGINATE_BY: 10,
};
void removedApiKey;

const rendererAsParser: ApiFrameworkSettings = {
  // @ts-expect-error a renderer where a parser is expected
  DEFAULT_PARSER_CLASSES: [JSONRenderer],
};
void rendererAsParser;

const parserAsRenderer: ApiFrameworkSettings = {
  // @ts-expect-error a parser where a renderer is expected
  DEFAULT_RENDERER_CLASSES: [JSONParser],
};
void parserAsRenderer;

const permissionAsAuthentication: ApiFrameworkSettings = {
  // @ts-expect-error a permission where an authentication class is expected
  DEFAULT_AUTHENTICATION_CLASSES: [IsAuthenticated],
};
void permissionAsAuthentication;

const rendererAsPagination: ApiFrameworkSettings = {
  // @ts-expect-error a renderer where a pagination class is expected
  DEFAULT_PAGINATION_CLASS: JSONRenderer,
};
void rendererAsPagination;

const filterAsThrottle: ApiFrameworkSettings = {
  // @ts-expect-error a filter backend where a throttle is expected
  DEFAULT_THROTTLE_CLASSES: [SearchFilter],
};
void filterAsThrottle;

const wrongValueType: ApiFrameworkSettings = {
  // @ts-expect-error PAGE_SIZE is a number, not a string
  PAGE_SIZE: '10',
};
void wrongValueType;

const rendererAsMiddleware: Partial<ProjectSettings> = {
  // @ts-expect-error a renderer is not a middleware class
  MIDDLEWARE: [JSONRenderer],
};
void rendererAsMiddleware;

const wrongProjectValue: Partial<ProjectSettings> = {
  // @ts-expect-error DEBUG is a boolean
  DEBUG: 'yes',
};
void wrongProjectValue;

// overrideSettings (the tests' override_settings) is checked the same way.
// @ts-expect-error a misspelt key in an override
overrideSettings({ ALLOWED_HOST: ['testserver'] }, () => undefined);
// @ts-expect-error reading a setting that does not exist
void settings.INSTALED_APPS;
// @ts-expect-error an undeclared project key is not a setting
void settings.TYPES_SPEC_ARCHIVE_FOLDER;
