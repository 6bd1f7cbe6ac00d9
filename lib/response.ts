/**
 * The Response class: an `HttpResponse` holding unrendered data, rendered by the renderer
 * that content negotiation picked. The host handler calls `render()` after the view
 * (`isRendered === false`), as the original's template responses are rendered.
 */
import { STATUS_CODES } from 'node:http';
import { HttpResponse } from './core/http';
import { JSONRenderer, type BaseRenderer, type RendererContext } from './renderers';

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
    const headers = options.headers;
    if (headers) {
      const names = Object.keys(headers);
      for (let i = 0; i < names.length; i++) this.setHeader(names[i], headers[names[i]]);
    }
  }

  /**
   * Render `data` with the accepted renderer: returns the bytes, and sets Content-Type
   * (the renderer's media type plus its charset, unless `contentType` was given). An empty
   * rendering removes Content-Type.
   */
  async renderContent(): Promise<Buffer> {
    const content = await renderContentNow(this);
    return typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  }

  /**
   * Render the content once; the host handler calls this after the view. A subclass's
   * `renderContent()` is used when it overrides it.
   */
  render(): Promise<this> {
    if (this.isRendered) return Promise.resolve(this);
    let content: Buffer | string | Promise<Buffer | string>;
    try {
      content = this.renderContent === baseRenderContent ? renderContentNow(this) : this.renderContent();
    } catch (error) {
      return Promise.reject(error);
    }
    if (typeof content === 'string' || Buffer.isBuffer(content)) return Promise.resolve(setRendered(this, content));
    return content.then((rendered) => setRendered(this, rendered));
  }

  /** The reason phrase of the status, e.g. `Not Found`. */
  get statusText(): string {
    return STATUS_CODES[this.status] ?? '';
  }
}

/**
 * `Response.renderContent()`'s work, synchronous while the renderer answers synchronously
 * (the JSON renderer does): a promise only from an asynchronous renderer. A JSON renderer
 * that does not override `render()` answers its text, kept as the content as it is.
 */
function renderContentNow(response: Response): Buffer | string | Promise<Buffer> {
  const renderer = response.acceptedRenderer;
  if (!renderer) throw new Error('.acceptedRenderer not set on Response');
  if (response.acceptedMediaType === null) throw new Error('.acceptedMediaType not set on Response');
  if (!response.rendererContext) throw new Error('.rendererContext not set on Response');
  const context = response.rendererContext;
  context.response = response;

  const mediaType = renderer.mediaType;
  const charset = renderer.charset;
  let contentType: string;
  if (response.contentType !== null) contentType = response.contentType;
  else if (charset) contentType = `${mediaType}; charset=${charset}`;
  else contentType = mediaType;
  response.setHeader('Content-Type', contentType);

  // A JSON renderer whose render() is the library's renders through renderText().
  if (renderer instanceof JSONRenderer && renderer.render === jsonRender) {
    const text = renderer.renderText(response.data, response.acceptedMediaType, context);
    if (text.length === 0) response.removeHeader('Content-Type');
    return text;
  }
  const ret = renderer.render(response.data, response.acceptedMediaType, context);
  if (typeof ret === 'object' && !Buffer.isBuffer(ret)) return Promise.resolve(ret).then((value) => toBytes(response, value, charset));
  return toBytes(response, ret, charset);
}

/** The rendered bytes of what the renderer answered (an empty rendering drops Content-Type). */
function toBytes(response: Response, ret: string | Buffer, charset: string | null): Buffer {
  const bytes = typeof ret === 'string' ? Buffer.from(ret, 'utf8') : ret;
  if (typeof ret === 'string' && !charset) {
    throw new Error('renderer returned unicode, and did not specify a charset value.');
  }
  if (bytes.length === 0) response.removeHeader('Content-Type');
  return bytes;
}

/** Keep the rendered content (bytes, or a JSON renderer's text) on `response`. */
function setRendered<R extends Response>(response: R, content: Buffer | string): R {
  response.content = content;
  response.isRendered = true;
  return response;
}

// The JSON renderer's own `render()`, to tell a subclass that overrides it (see `renderContentNow`).
const jsonRender = JSONRenderer.prototype.render;

// The base implementation, to tell a subclass that overrides it (see `render`).
const baseRenderContent = Response.prototype.renderContent;
