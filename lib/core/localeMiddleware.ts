/**
 * `LocaleMiddleware`: pick the request's language (cookie, `Accept-Language`, `LANGUAGE_CODE`)
 * and make it the active language for everything the request runs, so error messages and
 * field errors come out translated. List it after the session middleware, as in Django.
 */
import { patchVaryHeaders, type HttpRequest, type HttpResponse } from './http';
import { getLanguage, getLanguageFromRequest, runWithLanguage } from './i18n';
import type { GetResponse, Middleware } from './middleware';

/**
 * Activate the request's language around the rest of the chain, set `request.languageCode`,
 * and mark the response with `Content-Language` and `Vary: Accept-Language`. Subclass and
 * override `getLanguage()` to choose the language differently (from the user's profile, say).
 */
export class LocaleMiddleware implements Middleware {
  constructor(protected readonly getResponse: GetResponse) {}

  /** The language for `request`. */
  getLanguage(request: HttpRequest): string {
    return getLanguageFromRequest({ headers: request.headers, cookies: request.cookies });
  }

  /** Run the request with its language active. */
  async handle(request: HttpRequest): Promise<HttpResponse> {
    return runWithLanguage(this.getLanguage(request), async () => {
      request.languageCode = getLanguage();
      const response = await this.getResponse(request);
      // A view may have switched language with activate(); report the one in effect now.
      const language = getLanguage();
      patchVaryHeaders(response, ['Accept-Language']);
      if (!response.getHeader('Content-Language')) response.setHeader('Content-Language', language);
      return response;
    });
  }
}
