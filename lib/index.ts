/**
 * The public entry point of the API framework: each module is exported as a namespace,
 * like the original's `from rest_framework import serializers, viewsets`, and the most used
 * classes are also exported by name.
 *
 * @example
 * import { serializers, viewsets, permissions, Response } from 'api_framework';
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `Request` (`lib/request.ts`) wraps an `HttpRequest` (`request.httpRequest`); async steps are
 *   explicit: `await request.parseBody()` happens in `APIView.initial()`, then `request.data` is a
 *   sync getter. `request.user` / `request.auth` are set by `performAuthentication`.
 * - `Response` (`lib/response.ts`): `new Response(data, { status, headers, templateName,
 *   contentType, exception })`.
 * - Details of the pipeline (`lib/request.ts`, `lib/views.ts`):
 *   - `initial()` order: format suffix, content negotiation, version, `await request.parseBody()`
 *     (a parse error is kept and thrown where the view first reads `request.data`, as DRF parses
 *     lazily), authentication, permissions, throttles. Reading `request.data` before
 *     `parseBody()`, or `request.user`/`request.auth` before `authenticate()`, throws. A request
 *     stopped before authentication (406, bad version, unknown format) stays unauthenticated:
 *     code that shows the user afterwards (renderers, exception handlers) checks
 *     `request.isAuthenticationDone` and `await request.authenticate()`s itself.
 *   - `request.clone(method)` copies a request answering another method (metadata and the
 *     browsable API's permission checks use it).
 *   - `forceAuthenticate(httpRequest, user, token)` (from `lib/request.ts`) makes API views use
 *     a `ForcedAuthentication` instead of the configured authenticators.
 *   - Handler methods are looked up by name (`get`, `post`, ...; not declared on `APIView`, so
 *     no `override`); policy fields (`permissionClasses`, ...) need `override`.
 *     `httpMethodNames` narrows the methods (function views). `APIView.makeView(cls, initkwargs)`
 *     (protected) builds the view function for `asView` overrides (view sets). The `Allow`
 *     header is computed once per view class and set of handlers; a class overriding
 *     `allowedMethods` is asked every time.
 *   - `Response.render()` is lazy (`isRendered`); the host handler calls it.
 *   - Setting `UNAUTHENTICATED_USER` / `UNAUTHENTICATED_TOKEN`: a class is instantiated, an
 *     object used as is, null gives null.
 *   - The single JSON module is `lib/utils/json.ts` (`dumps`/`loads`, Python-compatible bytes;
 *     `new JsonFloat(1)` prints `1.0`).
 * - Exceptions (`lib/exceptions.ts`): `APIException` with statics `statusCode`, `defaultDetail`,
 *   `defaultCode`; instance `detail`, `statusCode`, `getCodes()`, `getFullDetails()`. A
 *   `ValidationError` built from `serializer.errors` (as `isValid({ raiseException: true })`
 *   raises it) keeps the errors' non-enumerable back-reference: `error.detail.serializer` (as
 *   DRF's ReturnDict detail), so the response data of `exceptionHandler` carries it too and the
 *   browsable API refills the failed form from that serializer without validating again.
 * - Serializers: `new S({ instance, data, many, partial, context })` or `new S(instance, opts)`;
 *   `await s.isValid({ raiseException })`, `s.validatedData`, `s.errors`, `await s.save(extra)`,
 *   `await s.getData()` (loads missing relations in bulk, then returns the representation);
 *   `s.data` is the same, synchronously, once relations are loaded.
 *   Declared fields live in a static object (not instance fields, which would clash with
 *   `label`/`style`/`data`...): `static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) }`
 *   (a subclass sets a name to `null` to drop an inherited field; a redeclared inherited field keeps
 *   its place, new ones follow, as DRF 3.14); `static Meta = { model, fields,
 *   exclude, readOnlyFields, extraKwargs, depth, validators, listSerializerClass }`. Hooks are
 *   `validate<Field>(value)` (camelCase of the field name) and `validate(attrs)`, both may be async;
 *   `SerializerMethodField` calls `get<Field>(obj)`. `S.many(instances, opts)` is the typed form of
 *   `many: true`. Validators are functions or `{ validate(value, ctx?) }` objects
 *   (`requiresContext` to get the field/serializer). Dates are `'YYYY-MM-DD'` strings, times
 *   `'hh:mm:ss[.uuuuuu]'`, durations microseconds, decimals fixed-point strings.
 *   `Serializer.toRepresentation()` runs a plan compiled once per bound serializer from its
 *   `readableFields` (`lib/utils/representationPlan.ts`): source paths are read from `dataValues`
 *   (custom getters respected), and built-in conversions are inlined only where the field's
 *   `getAttribute()`/`toRepresentation()` are the unmodified built-in methods; override them to
 *   change behaviour, never rely on per-row state in a field. Settings the output depends on
 *   (`DATETIME_FORMAT`, `TIME_ZONE`) are read when the plan is built.
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
