/**
 * The Response class: an `HttpResponse` holding unrendered data, rendered by the renderer
 * that content negotiation picked. The host handler calls `render()` after the view
 * (`isRendered === false`), as the original's template responses are rendered.
 */
import { STATUS_CODES } from 'node:http';
import { HttpResponse } from './core/http';
import type { BaseRenderer, RendererContext } from './renderers';

/** Options of the `Response` constructor. */
export interface ResponseOptions {
  /** The HTTP status (default 200). */
  status?: number;
  /** The template used by template-based renderers. */
  templateName?: string | null;
  /** Extra headers. */
  headers?: Record<string, string | number> | null;
  /** True when the response was built from a raised exception. */
  exception?: boolean;
  /** Overrides the Content-Type the renderer would set. */
  contentType?: string | null;
}

/**
 * An `HttpResponse` that allows its data to be rendered into arbitrary media types.
 * Return one from a view: `return new Response({ detail: 'ok' }, { status: 201 })`.
 */
export class Response extends HttpResponse {
  /** The unrendered data. */
  data: unknown;
  /** The template used by template-based renderers. */
  templateName: string | null;
  /** True when the response was built from a raised exception. */
  exception: boolean;
  /** The Content-Type set explicitly, or null to use the renderer's. */
  contentType: string | null;
  /** The renderer chosen by content negotiation (set by `APIView.finalizeResponse`). */
  acceptedRenderer: BaseRenderer | null = null;
  /** The media type chosen by content negotiation. */
  acceptedMediaType: string | null = null;
  /** The context handed to the renderer (view, request, args, kwargs, response). */
  rendererContext: RendererContext | null = null;
  /** False until `render()` has run. */
  isRendered = false;

  constructor(data: unknown = null, options: ResponseOptions = {}) {
    super('', { status: options.status ?? 200, contentType: null });
    this.data = data;
    this.templateName = options.templateName ?? null;
    this.exception = options.exception ?? false;
    this.contentType = options.contentType ?? null;
    for (const [name, value] of Object.entries(options.headers ?? {})) this.setHeader(name, value);
  }

  /**
   * Render `data` with the accepted renderer: returns the bytes, and sets Content-Type
   * (the renderer's media type plus its charset, unless `contentType` was given). An empty
   * rendering removes Content-Type.
   */
  async renderContent(): Promise<Buffer> {
    const renderer = this.acceptedRenderer;
    if (!renderer) throw new Error('.acceptedRenderer not set on Response');
    if (this.acceptedMediaType === null) throw new Error('.acceptedMediaType not set on Response');
    if (!this.rendererContext) throw new Error('.rendererContext not set on Response');
    const context = this.rendererContext;
    context.response = this;

    const mediaType = renderer.mediaType;
    const charset = renderer.charset;
    let contentType: string;
    if (this.contentType !== null) contentType = this.contentType;
    else if (charset) contentType = `${mediaType}; charset=${charset}`;
    else contentType = mediaType;
    this.setHeader('Content-Type', contentType);

    const ret = await renderer.render(this.data, this.acceptedMediaType, context);
    const bytes = typeof ret === 'string' ? Buffer.from(ret, 'utf8') : ret;
    if (typeof ret === 'string' && !charset) {
      throw new Error('renderer returned unicode, and did not specify a charset value.');
    }
    if (bytes.length === 0) this.removeHeader('Content-Type');
    return bytes;
  }

  /** Render the content once; the host handler calls this after the view. */
  async render(): Promise<this> {
    if (!this.isRendered) {
      const bytes = await this.renderContent();
      this.content = bytes;
      this.isRendered = true;
    }
    return this;
  }

  /** The reason phrase of the status, e.g. `Not Found`. */
  get statusText(): string {
    return STATUS_CODES[this.status] ?? '';
  }
}
