/**
 * The browsable API: its HTML renderer, the login and logout URL conf (`urls`, application
 * namespace `api_framework`) and the URL patterns serving its CSS and JavaScript.
 *
 * @example
 * import { staticfilesUrlpatterns, urls as apiAuthUrls } from 'contrib/browsable';
 * export const urlpatterns = [
 *   ...staticfilesUrlpatterns(),
 *   path('api-auth/', include(apiAuthUrls, { namespace: 'api_framework' })),
 * ];
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `BrowsableAPIRenderer` (`api_framework.renderers.BrowsableAPIRenderer`) renders the page from
 *   the template `api_framework/api.html` (nunjucks, autoescaped; TEMPLATE_DIRS and installed
 *   apps' `templates` folders override it) with DRF's context names (`content`, `name`,
 *   `description`, `breadcrumblist`, `post_form`, `put_form`, `raw_data_*_form`, `delete_form`,
 *   `options_form`, `filter_form`, ...). Forms are found from `data.serializer` (ReturnDict) and
 *   permissions are checked on `request.clone(method)`; a 204 is shown with status 200.
 * - `contrib/browsable/templates.ts`: `renderTemplate(name, ctx)`, `baseContext(httpRequest, user?)` (CSRF
 *   token, user, `api_framework:login`/`logout` URLs, `static_url`). `forms.ts`:
 *   `renderSerializerForm(serializer, idPrefix)`. `html.ts`: `urlizeQuotedLinks`. The page's
 *   `description` is `view.getViewDescription(true)`: the default function renders Markdown with
 *   `markupDescription` (`lib/utils/formatting.ts`), which escapes raw HTML and keeps only
 *   relative, http(s), mailto and ftp link/image URLs (`safeLinkUrl`).
 * - Static files: `staticfilesUrlpatterns()` (`staticfiles.ts`) serves `STATIC_URL` from
 *   STATICFILES_DIRS, installed apps' `static` folders and the two contrib apps'; a project must
 *   include it (the demo does).
 * - `contrib/browsable/urls.ts`: `appName = 'api_framework'`, names `login`, `logout` (logout on
 *   POST; GET confirms). `redirects.ts`: `isSafeRedirect(url, request)`,
 *   `safeRedirectTarget(next, request, fallback)`; redirect with `HttpResponseRedirect` (its
 *   `Location` is `iriToUri(url)`, so `%` escapes are kept).
 */
export { BrowsableAPIRenderer } from './renderers';
export { staticfilesUrlpatterns } from './staticfiles';
export * as urls from './urls';
