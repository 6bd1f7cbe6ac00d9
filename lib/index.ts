/**
 * The public entry point of the API framework: each module is exported as a namespace,
 * like the original's `from rest_framework import serializers, viewsets`, and the most used
 * classes are also exported by name.
 *
 * @example
 * import { serializers, viewsets, permissions, Response } from 'api_framework';
 */
export * as status from './status';
export * as exceptions from './exceptions';
export * as settings from './settings';
export * as request from './request';
export * as response from './response';
export * as parsers from './parsers';
export * as renderers from './renderers';
export * as negotiation from './negotiation';
export * as views from './views';
export * as decorators from './decorators';
export * as metadata from './metadata';
export * as authentication from './authentication';
export * as permissions from './permissions';
export * as throttling from './throttling';
export * as versioning from './versioning';
export * as pagination from './pagination';
export * as reverse from './reverse';
export * as urlpatterns from './urlpatterns';
export * as fields from './fields';
export * as relations from './relations';
export * as serializers from './serializers';
export * as validators from './validators';
export * as mixins from './mixins';
export * as generics from './generics';
export * as viewsets from './viewsets';
export * as routers from './routers';
export * as filters from './filters';
export * as schemas from './schemas';

export { apiSettings } from './settings';
export { Request } from './request';
export { Response } from './response';
export { APIView } from './views';
export { apiView } from './decorators';
export { getSchemaView } from './schemas';

// The host layer a project uses directly (the original's django.urls, django.http,
// django.apps and django.conf): URL confs, form data, app configs and the settings module.
export { include, path, rePath, type UrlPattern } from './core/urls';
export { QueryDict } from './core/http';
export type { AppConfig } from './core/apps';
export type { ProjectSettings, ProjectSettingsExtension, PasswordValidatorSetting } from './core/conf';
export type { ApiFrameworkSettings } from './settings';
