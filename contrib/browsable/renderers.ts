/**
 * The browsable API: `BrowsableAPIRenderer` renders any API response as an HTML page for
 * people — the view's name and description, breadcrumbs, the request line, the response
 * status, headers and pretty-printed body, a format switcher, pagination and filter controls,
 * and forms (generated from the view's serializer, plus a raw-data form) for the methods the
 * user is allowed to use. `api_framework.renderers.BrowsableAPIRenderer` names this class.
 */
import { STATUS_CODES } from 'node:http';
import { Http404, PermissionDenied as HostPermissionDenied } from '../../lib/core/exceptions';
import { escapeUriPath } from '../../lib/core/encoding';
import { applyContentSecurityPolicy } from '../../lib/core/csp';
import { APIException } from '../../lib/exceptions';
import { JSONParser, type BaseParser } from '../../lib/parsers';
import { BaseRenderer, JSONRenderer, TemplateHTMLRenderer, type RendererContext } from '../../lib/renderers';
import { isFormMediaType, type Request } from '../../lib/request';
import type { Response } from '../../lib/response';
import { HiddenField } from '../../lib/fields';
import { BaseSerializer, Serializer } from '../../lib/serializers';
import { APIView } from '../../lib/views';
import type { BasePagination } from '../../lib/pagination';
import { getBreadcrumbs, type Breadcrumb } from './breadcrumbs';
import { renderSerializerForm } from './forms';
import { urlizeQuotedLinks } from './html';
import { baseContext, renderTemplate } from './templates';

/** The raw-data form of one method: a media type selector and the body text. */
export interface RawDataForm {
  id: string;
  content_types: string[];
  content_type: string;
  content: string;
}

/** The view members the browsable API reads besides `APIView`'s (generic views and view sets). */
interface BrowsableView {
  getSerializer?: (options?: Record<string, unknown>) => unknown;
  serializerClass?: unknown;
  getQueryset?: () => unknown;
  getFilterBackends?: () => Array<new () => object>;
  paginator?: BasePagination | null;
  action?: string | null;
  actionMap?: Record<string, string>;
  getExtraActionUrlMap?: () => Map<string, string>;
}

type View = APIView & BrowsableView;

function serializerOf(data: unknown): BaseSerializer | null {
  if (data === null || typeof data !== 'object') return null;
  const serializer = (data as { serializer?: unknown }).serializer;
  return serializer instanceof BaseSerializer ? serializer : null;
}

function isPermissionError(error: unknown): boolean {
  return error instanceof APIException || error instanceof HostPermissionDenied || error instanceof Http404;
}

/**
 * HTML renderer used to self-document the API. Chosen for browsers (`Accept: text/html`),
 * `?format=api` and the `.api` suffix. Override `template` (or add a template
 * `api_framework/api.html` to TEMPLATE_DIRS) to restyle it.
 */
export class BrowsableAPIRenderer extends BaseRenderer {
  readonly mediaType: string = 'text/html';
  readonly format: string = 'api';
  /** The page template. */
  template = 'api_framework/api.html';
  override charset: string | null = 'utf-8';
  /** The media type the page was accepted with. */
  acceptedMediaType = '';
  /** The context of the response being rendered. */
  rendererContext: RendererContext = {};

  /** Render the page. A 204 is shown as a 200 so the browser displays it. */
  async render(data: unknown, acceptedMediaType: string | null = null, rendererContext: RendererContext = {}): Promise<string> {
    this.acceptedMediaType = acceptedMediaType ?? '';
    this.rendererContext = rendererContext;
    const context = await this.getContext(data, acceptedMediaType, rendererContext);
    const html = renderTemplate(this.template, context);
    // Munge DELETE response code to allow us to return content (after rendering, so the
    // page shows the real status).
    const response = rendererContext.response;
    if (response && response.status === 204) response.status = 200;
    if (response) applyContentSecurityPolicy(response);
    return html;
  }

  /** The renderer used to show the response body: the view's first non-HTML renderer. */
  getDefaultRenderer(view: View): BaseRenderer | null {
    const renderers = view.getRendererClasses().filter((cls) => !(cls.prototype instanceof BrowsableAPIRenderer) && cls !== BrowsableAPIRenderer);
    if (renderers.length === 0) return null;
    const nonTemplate = renderers.filter((cls) => !(cls.prototype instanceof TemplateHTMLRenderer) && cls !== TemplateHTMLRenderer);
    return new (nonTemplate[0] ?? renderers[0])();
  }

  /** The response body rendered by `renderer`, indented. */
  async getContent(renderer: BaseRenderer | null, data: unknown, rendererContext: RendererContext): Promise<string> {
    if (!renderer) return '[No renderers were found]';
    const context: RendererContext = { ...rendererContext, indent: 4 };
    const content = await renderer.render(data, renderer.mediaType, context);
    if (renderer.renderStyle === 'binary') {
      return `[${typeof content === 'string' ? Buffer.byteLength(content) : content.length} bytes of binary content]`;
    }
    return typeof content === 'string' ? content : content.toString('utf8');
  }

  /**
   * Run `fn` with the view's request answering `method` (and the matching view set action),
   * as the permission checks of a real request of that method would see it.
   */
  async withMethod<T>(view: View, request: Request, method: string, fn: (request: Request) => Promise<T>): Promise<T> {
    const originalRequest = view.request;
    const originalAction = view.action;
    const clone = request.clone(method);
    view.request = clone;
    if (view.actionMap) view.action = view.actionMap[method.toLowerCase()] ?? null;
    try {
      return await fn(clone);
    } finally {
      view.request = originalRequest;
      if (view.actionMap) view.action = originalAction;
    }
  }

  /** Returns true if a form should be shown for this method: allowed, and permitted for the user. */
  async showFormForMethod(view: View, method: string, request: Request, obj: unknown): Promise<boolean> {
    if (!view.allowedMethods.includes(method)) return false;
    try {
      await view.checkPermissions(request);
      if (obj !== null && obj !== undefined) await view.checkObjectPermissions(request, obj);
    } catch (error) {
      if (isPermissionError(error)) return false;
      throw error;
    }
    return true;
  }

  /** The instance being shown, from the response data's serializer (not for lists). */
  instanceOf(data: unknown): unknown {
    const serializer = serializerOf(data);
    if (!serializer || !(serializer instanceof Serializer)) return null;
    return serializer.instance ?? null;
  }

  /**
   * The HTML form for `method`: generated from the view's serializer (prefilled with the
   * instance for PUT/PATCH, or with the submitted data and its errors after a failed request
   * of that method); `true` for DELETE/OPTIONS when permitted; null when not permitted.
   */
  async getRenderedHtmlForm(data: unknown, view: View, method: string, request: Request): Promise<string | boolean | null> {
    const instance = this.instanceOf(data);
    const response = this.rendererContext.response;
    return this.withMethod(view, request, method, async (methodRequest) => {
      if (!(await this.showFormForMethod(view, method, methodRequest, instance))) return null;
      if (method === 'DELETE' || method === 'OPTIONS') return true;
      if (typeof view.getSerializer !== 'function') return null;
      if (!view.getParsers().some((parser: BaseParser) => isFormMediaType(parser.mediaType))) return null;
      let serializer: unknown;
      const existing = serializerOf(data);
      if (request.method === method && response?.exception && response.status === 400 && existing instanceof Serializer) {
        // The errors of `isValid({ raiseException: true })` refer back to the serializer that
        // failed: show the submitted values and their errors again.
        serializer = existing;
      } else if (method === 'PUT' || method === 'PATCH') {
        serializer = view.getSerializer({ instance });
      } else {
        serializer = view.getSerializer();
      }
      if (!(serializer instanceof Serializer)) return null;
      return renderSerializerForm(serializer, `${method.toLowerCase()}-`);
    });
  }

  /** The raw-data form for `method`: the parsers' media types and a JSON skeleton of the serializer. */
  async getRawDataForm(data: unknown, view: View, method: string, request: Request): Promise<RawDataForm | null> {
    const instance = this.instanceOf(data);
    return this.withMethod(view, request, method, async (methodRequest) => {
      if (!(await this.showFormForMethod(view, method, methodRequest, instance))) return null;
      const parsers = view.getParsers();
      if (parsers.length === 0) return null;
      let content = '';
      if (typeof view.getSerializer === 'function' && parsers[0] instanceof JSONParser) {
        const serializer = method === 'PUT' || method === 'PATCH' ? view.getSerializer({ instance }) : view.getSerializer();
        if (serializer instanceof BaseSerializer) {
          const shown = await serializer.getData();
          const body: Record<string, unknown> = shown !== null && typeof shown === 'object' && !Array.isArray(shown)
            ? { ...(shown as Record<string, unknown>) }
            : {};
          if (serializer instanceof Serializer) {
            for (const [name, field] of serializer.fields.entries()) if (field instanceof HiddenField) delete body[name];
          }
          content = new JSONRenderer().render(body, 'application/json', { ...this.rendererContext, indent: 4 }).toString('utf8');
        }
      }
      const types = parsers.map((parser) => parser.mediaType);
      return { id: `raw-${method.toLowerCase()}`, content_types: types, content_type: types[0], content };
    });
  }

  /** The name shown as the page title. */
  getName(view: View): string {
    return view.getViewName();
  }

  /**
   * The description as HTML (the default `VIEW_DESCRIPTION_FUNCTION` renders it safely; a
   * project's own function is trusted to return HTML); none for 401/403 responses.
   */
  getDescription(view: View, statusCode: number): string {
    if (statusCode === 401 || statusCode === 403) return '';
    return view.getViewDescription(true);
  }

  /** The breadcrumbs of the request path. */
  getBreadcrumbs(request: Request): Breadcrumb[] {
    return getBreadcrumbs(request.httpRequest.path, request.httpRequest);
  }

  /** The search and ordering controls of the filter backends, for list responses. */
  getFilterForm(data: unknown, view: View, request: Request): string | null {
    if (typeof view.getQueryset !== 'function' || typeof view.getFilterBackends !== 'function') return null;
    const paginator = view.paginator ?? null;
    if (!Array.isArray(data)) {
      if (paginator === null || data === null || data === undefined) return null;
      try {
        if (!Array.isArray(paginator.getResults(data))) return null;
      } catch {
        return null;
      }
    }
    const queryset = view.getQueryset();
    const elements: string[] = [];
    for (const Backend of view.getFilterBackends()) {
      const backend = new Backend() as { toHtml?: (request: Request, queryset: unknown, view: unknown) => string };
      if (typeof backend.toHtml === 'function') {
        const html = backend.toHtml(request, queryset, view);
        if (html) elements.push(html);
      }
    }
    return elements.length ? elements.join('\n') : null;
  }

  /** The view set's extra actions of this route kind, as links. */
  getExtraActions(view: View): Array<{ name: string; url: string }> {
    if (typeof view.getExtraActionUrlMap !== 'function') return [];
    return [...view.getExtraActionUrlMap()].map(([name, url]) => ({ name, url }));
  }

  /** The format switcher's links: the current URL with `?format=<format>` for each renderer. */
  getAvailableFormats(view: View, request: Request): Array<{ name: string; url: string }> {
    const httpRequest = request.httpRequest;
    const param = String(view.settings.URL_FORMAT_OVERRIDE ?? 'format');
    const path = escapeUriPath(httpRequest.path);
    return view.getRendererClasses().map((cls) => {
      const name = new cls().format;
      const query = new URLSearchParams();
      for (const [key, value] of httpRequest.query.lists()) if (key !== param) for (const item of value) query.append(key, item);
      query.set(param, name);
      return { name, url: `${path}?${query.toString()}` };
    });
  }

  /** The response headers shown, sorted, with the default renderer's Content-Type. */
  getResponseHeaders(response: Response, renderer: BaseRenderer | null): Array<{ name: string; value: string }> {
    const headers = new Map<string, string>();
    for (const [name, value] of response.headers.entries()) headers.set(name, value);
    for (const name of [...headers.keys()]) if (name.toLowerCase() === 'content-type') headers.delete(name);
    let contentType = '';
    if (renderer) contentType = renderer.charset ? `${renderer.mediaType} ;${renderer.charset}` : renderer.mediaType;
    headers.set('Content-Type', contentType);
    return [...headers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, value]) => ({ name, value }));
  }

  /**
   * Authenticate a request the pipeline stopped before authentication (a 406, a bad version),
   * as DRF's lazy `request.user` does when the page first reads it. Failing credentials leave
   * the request unauthenticated: the page shows the anonymous user and no forms.
   */
  async ensureAuthenticated(request: Request): Promise<void> {
    if (!request.isAuthenticationDone) await request.authenticate().catch(() => undefined);
  }

  /** Build the template context of the page. */
  async getContext(data: unknown, _acceptedMediaType: string | null, rendererContext: RendererContext): Promise<Record<string, unknown>> {
    const view = rendererContext.view as View;
    const request = rendererContext.request as Request;
    const response = rendererContext.response as Response;
    if (!(view instanceof APIView) || !request || !response) {
      throw new TypeError('BrowsableAPIRenderer needs the view, request and response in the renderer context.');
    }
    await this.ensureAuthenticated(request);
    const renderer = this.getDefaultRenderer(view);
    const content = await this.getContent(renderer, data, rendererContext);

    const rawPost = await this.getRawDataForm(data, view, 'POST', request);
    const rawPut = await this.getRawDataForm(data, view, 'PUT', request);
    const rawPatch = await this.getRawDataForm(data, view, 'PATCH', request);
    const rawMethods = [...(rawPut ? ['PUT'] : []), ...(rawPatch ? ['PATCH'] : [])];
    const paginator = view.paginator ?? null;
    const status = response.status;
    const httpRequest = request.httpRequest;

    return {
      ...baseContext(httpRequest, request.user),
      content,
      content_html: urlizeQuotedLinks(content),
      view,
      request,
      response,
      response_status: status,
      response_status_text: STATUS_CODES[status] ?? '',
      request_method: request.method,
      description: this.getDescription(view, status),
      name: this.getName(view),
      paginator_html: paginator && paginator.displayPageControls ? paginator.toHtml() : null,
      breadcrumblist: this.getBreadcrumbs(request),
      allowed_methods: view.allowedMethods,
      available_formats: this.getAvailableFormats(view, request),
      response_headers: this.getResponseHeaders(response, renderer),
      put_form: await this.getRenderedHtmlForm(data, view, 'PUT', request),
      post_form: await this.getRenderedHtmlForm(data, view, 'POST', request),
      delete_form: await this.getRenderedHtmlForm(data, view, 'DELETE', request),
      options_form: await this.getRenderedHtmlForm(data, view, 'OPTIONS', request),
      extra_actions: this.getExtraActions(view),
      filter_form: this.getFilterForm(data, view, request),
      raw_data_post_form: rawPost,
      raw_data_put_form: rawPut,
      raw_data_patch_form: rawPatch,
      raw_data_put_or_post_form: rawPut ?? rawPost,
      raw_data_methods: rawMethods,
      display_edit_forms: status !== 403,
      api_settings: view.settings,
    };
  }
}
