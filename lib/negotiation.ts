/**
 * Content negotiation deals with selecting an appropriate renderer given the incoming
 * request. Typically this will be based on the request's Accept header.
 */
import { Http404 } from './core/exceptions';
import { NotAcceptable } from './exceptions';
import { apiSettings } from './settings';
import { mediaTypeMatches, orderByPrecedence, parseAcceptHeader, parseMediaType } from './utils/mediatypes';
import type { Request } from './request';
import type { BaseParser } from './parsers';
import type { BaseRenderer } from './renderers';

/** The result of renderer selection: the renderer and the accepted media type. */
export type RendererSelection = [renderer: BaseRenderer, acceptedMediaType: string];

/** A content negotiation class, as in `contentNegotiationClass`. */
export type ContentNegotiationClass = new () => BaseContentNegotiation;

/** The content negotiation policy. Subclass it to choose parsers and renderers differently. */
export abstract class BaseContentNegotiation {
  /** Pick the parser for the request's content type, or null when none handles it. */
  abstract selectParser(request: Request, parsers: BaseParser[]): BaseParser | null;

  /** Pick the renderer and accepted media type for the request, or raise. */
  abstract selectRenderer(request: Request, renderers: BaseRenderer[], formatSuffix?: string | null): RendererSelection;
}

/**
 * The default policy: parsers are matched against Content-Type; renderers are filtered by
 * the URL format suffix or `?format=` query parameter (404 when no renderer has that
 * format), then matched against the Accept header, most specific media types first.
 * Quality values (`q=`) do not reorder the choice, as in the original.
 */
export class DefaultContentNegotiation extends BaseContentNegotiation {
  /** Given a list of parsers and a request, return the first parser that handles its content type. */
  selectParser(request: Request, parsers: BaseParser[]): BaseParser | null {
    const contentType = request.contentType;
    for (const parser of parsers) {
      if (mediaTypeMatches(parser.mediaType, contentType)) return parser;
    }
    return null;
  }

  /** Given a request and a list of renderers, return a `[renderer, mediaType]` pair. */
  selectRenderer(request: Request, renderers: BaseRenderer[], formatSuffix: string | null = null): RendererSelection {
    const formatQueryParam = apiSettings.URL_FORMAT_OVERRIDE;
    const format = formatSuffix || (formatQueryParam ? request.queryParams.get(formatQueryParam) : undefined);
    let candidates = renderers;
    if (format) candidates = this.filterRenderers(renderers, format);

    const accepts = this.getAcceptList(request);
    // Check the acceptable media types against each renderer, more specific media types first.
    for (const mediaTypeSet of orderByPrecedence(accepts)) {
      for (const renderer of candidates) {
        for (const mediaType of mediaTypeSet) {
          const rendererType = parseMediaType(renderer.mediaType);
          const wrapper = parseMediaType(mediaType);
          if (!rendererType.match(wrapper)) continue;
          if (rendererType.precedence > wrapper.precedence) {
            // The client asked for e.g. '*/*': accept the renderer's own type, with the params.
            const params = Object.entries(wrapper.params).map(([key, value]) => `${key}=${value}`);
            return [renderer, [renderer.mediaType, ...params].join(';')];
          }
          return [renderer, mediaType];
        }
      }
    }
    throw new NotAcceptable(null, null, candidates);
  }

  /** Keep the renderers of the given format; raise a 404 when there are none. */
  filterRenderers(renderers: BaseRenderer[], format: string): BaseRenderer[] {
    const filtered = renderers.filter((renderer) => renderer.format === format);
    if (filtered.length === 0) throw new Http404();
    return filtered;
  }

  /** The media types of the Accept header (`* / *` when there is none). */
  getAcceptList(request: Request): string[] {
    const header = request.httpRequest.metaHeader('HTTP_ACCEPT') ?? '*/*';
    return header.split(',').map((token) => token.trim());
  }
}

export { parseAcceptHeader };
