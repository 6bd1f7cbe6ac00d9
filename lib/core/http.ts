/**
 * Requests and responses of the host layer: `HttpRequest` wraps node's `IncomingMessage`,
 * `HttpResponse` (and its family) is what views return and the server writes.
 *
 * The parts live in `http/`: `querydict.ts` (`MultiValueDict`, `QueryDict`), `user.ts`
 * (`AuthUser`, `anonymousUser`), `request.ts` with its helpers `headers.ts`, `hosts.ts` and
 * `body.ts` (upload limits), `response.ts` with `responseHeaders.ts` and `cookies.ts`, and
 * `statusResponses.ts` (redirects, 404 ...). Import from here.
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
