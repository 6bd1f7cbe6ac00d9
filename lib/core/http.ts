/**
 * Requests and responses of the host layer: `HttpRequest` wraps node's `IncomingMessage`,
 * `HttpResponse` (and its family) is what views return and the server writes.
 *
 * The parts live in `http/`: `querydict.ts` (`MultiValueDict`, `QueryDict`), `user.ts`
 * (`AuthUser`, `anonymousUser`), `request.ts` with its helpers `headers.ts`, `hosts.ts` and
 * `body.ts` (upload limits), `response.ts` with `responseHeaders.ts` and `cookies.ts`, and
 * `statusResponses.ts` (redirects, 404 ...). Import from here.
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * `HttpRequest` wraps `IncomingMessage`: `raw`, `method` (upper case), `path` (decoded, no query),
 * `pathInfo`, `fullPath` (`getFullPath()`: the decoded path escaped again with
 * `escapeUriPath()` plus `?` and `iriToUri(queryString)`, as Django's `get_full_path()`; use it,
 * not `path`, wherever the request's own URL goes into a page or a header), `query: QueryDict` (repeated keys kept:
 * `get(key)` = last value, `getList(key)`, `entries()`, `lists()`), `headers` (node's lower-cased
 * object), `header(name)`, `META` (Django-style: `REMOTE_ADDR`, `REMOTE_USER`, `HTTP_*`,
 * `CONTENT_TYPE`, `CONTENT_LENGTH`, `SERVER_NAME`, `SERVER_PORT`; built on first read, so hot
 * paths reading one header use `metaHeader('HTTP_ACCEPT')`, which gives META's value without
 * building it), `cookies`, `scheme`,
 * `isSecure()`, `getHost()` (validated against `ALLOWED_HOSTS`, throws `DisallowedHost`),
 * `buildAbsoluteUri(location?)`, `contentType` (media type, lower case, no params, or ''),
 * `contentParams`, `body(): Promise<Buffer>` (read once, cached; limited by
 * `DATA_UPLOAD_MAX_MEMORY_SIZE`, throws `RequestDataTooBig` -> 413), `stream({ files? })` (the raw
 * body as a Readable with the same limit; with `files: true`, which `Request` passes for parsers
 * with `uploadsFiles` (multipart, file upload), bounded by `FILE_UPLOAD_MAX_SIZE` (default 50 MiB,
 * `null` = unbounded) instead, since files go to disk; multipart non-file fields stay bounded by
 * `DATA_UPLOAD_MAX_MEMORY_SIZE`), `POST`/`FILES` (filled by form parsing),
 * `user` (an `AuthUser`; `anonymousUser` until authentication middleware or the API sets it),
 * `session` (set by `SessionMiddleware`), `resolverMatch`, the CSRF flags `csrfProcessingDone` /
 * `dontEnforceCsrfChecks` (a view is exempted by its own `csrfExempt` property), `languageCode`.
 * `HttpResponse`: `status`, `content` (Buffer|string), `headers` (case-insensitive:
 * `setHeader/getHeader/hasHeader/removeHeader`), `setCookie(name, value, opts)`,
 * `deleteCookie(name)`, `cookies`; subclasses `JsonResponse`, `HttpResponseRedirect` (and
 * `HttpResponsePermanentRedirect`; `Location` = `iriToUri(url)` from `lib/core/encoding.ts`, the
 * host framework's `iri_to_uri`: existing `%XX` escapes and reserved characters are kept, non-ASCII
 * and characters a URI may not hold are percent-encoded as UTF-8; schemes other than http, https,
 * ftp raise `DisallowedRedirect`), `HttpResponseNotAllowed`, `StreamingHttpResponse` (an async
 * iterable body).
 * - Import all of it from `lib/core/http`, which re-exports the parts in `lib/core/http/`
 *   (`querydict.ts`, `user.ts`, `request.ts` with `headers.ts`, `hosts.ts` and `body.ts` (the
 *   upload limits), `response.ts` with `responseHeaders.ts` and `cookies.ts` (Set-Cookie),
 *   `statusResponses.ts`); request cookies are parsed by `lib/core/cookie.ts`.
 * - Also in `http.ts`: `AuthUser` (the interface `contrib/auth`'s `User`/`AnonymousUser` implement;
 *   `hasPerm`/`hasPerms` may return `boolean | Promise<boolean>`), `anonymousUser` (the default
 *   `request.user`), `MultiValueDict`, `QueryDict.parse(qs)`, `UploadedFile` (what
 *   `request.FILES` holds), `HttpRequest.create({ method, url, headers, body, secure })` (a
 *   socket-less request for request factories), `response.text` / `response.json()`,
 *   `response.closeConnection`, `request.state` (a Map for per-request scratch data),
 *   `request.addCleanup(fn)` (Django's `request_finished`: run by `request.runCleanups()`, which the
 *   server calls after writing the response and the test clients after handling it, errors
 *   included; the parsers register the removal of uploaded temporary files there).
 * - `request.session` is not declared by `lib/core`: `contrib/sessions` adds it with
 *   declaration merging (`declare module '../../lib/core/http' { interface HttpRequest { session: SessionBase } }`).
 * - Host exceptions live in `lib/core/exceptions.ts` (re-exported by `http.ts`):
 *   `SuspiciousOperation` (-> 400), `DisallowedHost`, `DisallowedRedirect`, `TooManyFieldsSent`,
 *   `RequestDataTooBig` (-> 413), `PermissionDenied` (-> 403), `Http404` (-> 404); and, as the
 *   host framework's `core.exceptions`, `ObjectDoesNotExist`, `MultipleObjectsReturned`,
 *   `FieldError` (re-exported by `lib/core/db`) and the validators' `ValidationError(message, code)`
 *   (re-exported by `contrib/auth/validators.ts`).
 */
export {
  DisallowedHost, DisallowedRedirect, Http404, PermissionDenied, RequestAborted, RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent,
} from './exceptions';
export { MultiValueDict, QueryDict } from './http/querydict';
export { anonymousUser, type AuthUser } from './http/user';
export { splitDomainPort, validateHost, allowTestClientHost } from './http/hosts';
export { HttpRequest, type RequestInit, type UploadedFile } from './http/request';
export { ResponseHeaders } from './http/responseHeaders';
export { patchVaryHeaders } from './http/vary';
export type { CookieOptions, ResponseCookie } from './http/cookies';
export { HttpResponse, JsonResponse, StreamingHttpResponse, type ResponseInit } from './http/response';
export {
  HttpResponseBadRequest, HttpResponseForbidden, HttpResponseNotAllowed, HttpResponseNotFound, HttpResponseNotModified,
  HttpResponsePermanentRedirect, HttpResponseRedirect, HttpResponseServerError,
} from './http/statusResponses';
