/**
 * Content negotiation deals with selecting an appropriate renderer given the incoming
 * request. Typically this will be based on the request's Accept header.
 */
import { onSettingChanged } from './core/conf';
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

  /**
   * Given a request and a list of renderers, return a `[renderer, mediaType]` pair. The
   * choice depends only on the format, the Accept header and the renderers' media types and
   * formats, so it is remembered per (renderer classes, format, Accept) unless a subclass
   * overrides `getAcceptList()` or `filterRenderers()` (the choice tables at the end of this file).
   */
  selectRenderer(request: Request, renderers: BaseRenderer[], formatSuffix: string | null = null): RendererSelection {
    const formatQueryParam = apiSettings.URL_FORMAT_OVERRIDE;
    const format = formatSuffix ||
      (formatQueryParam && request.httpRequest.queryString !== '' ? request.queryParams.get(formatQueryParam) : undefined);
    if (this.getAcceptList !== defaultGetAcceptList || this.filterRenderers !== defaultFilterRenderers) {
      return this.chooseRenderer(request, renderers, format);
    }
    // Keyed by the Accept text itself (no key string to build), in a table per format.
    const key = request.httpRequest.metaHeader('HTTP_ACCEPT') ?? '*/*';
    const choices = choicesFor(renderers, format ?? '');
    const known = choices.get(key);
    if (known !== undefined) return [renderers[known.index], known.mediaType];
    const selection = this.chooseRenderer(request, renderers, format);
    const index = renderers.indexOf(selection[0]);
    if (index >= 0) rememberChoice(choices, key, { index, mediaType: selection[1] });
    return selection;
  }

  /** `selectRenderer()`'s work: filter by `format`, then match the Accept list. */
  private chooseRenderer(request: Request, renderers: BaseRenderer[], format: string | null | undefined): RendererSelection {
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

const defaultGetAcceptList = DefaultContentNegotiation.prototype.getAcceptList;
const defaultFilterRenderers = DefaultContentNegotiation.prototype.filterRenderers;

/** A remembered renderer choice: the renderer's index in the list and the accepted media type. */
interface Choice {
  index: number;
  mediaType: string;
}

/** The most (format, Accept) pairs remembered per renderer list (the Accept header is the client's). */
const MAX_CHOICES = 64;

/** Per renderer list (by the classes, in order): the media types and formats seen, and the choices per format. */
interface ChoiceTable {
  mediaTypes: string[];
  formats: string[];
  byFormat: Map<string, Map<string, Choice>>;
}

/** The most formats remembered per renderer list (`?format=` is the client's). */
const MAX_FORMATS = 16;

/** A trie over the renderer classes of a list; `table` at the node of the list's last class. */
interface ChoiceNode {
  next: WeakMap<object, ChoiceNode>;
  table: ChoiceTable | null;
}

let choiceRoot: ChoiceNode = { next: new WeakMap(), table: null };

onSettingChanged(() => {
  choiceRoot = { next: new WeakMap(), table: null };
});

/**
 * The remembered choices for `renderers`: keyed by their classes, and valid only while the
 * instances have the media types and formats the table was made with (else a fresh table,
 * not remembered, is answered).
 */
function choicesFor(renderers: BaseRenderer[], format: string): Map<string, Choice> {
  let node = choiceRoot;
  for (const renderer of renderers) {
    const cls = renderer.constructor;
    let child = node.next.get(cls);
    if (!child) {
      child = { next: new WeakMap(), table: null };
      node.next.set(cls, child);
    }
    node = child;
  }
  let table = node.table;
  if (!table) {
    table = { mediaTypes: renderers.map((r) => r.mediaType), formats: renderers.map((r) => r.format), byFormat: new Map() };
    node.table = table;
  }
  for (let i = 0; i < renderers.length; i++) {
    if (renderers[i].mediaType !== table.mediaTypes[i] || renderers[i].format !== table.formats[i]) return new Map();
  }
  let choices = table.byFormat.get(format);
  if (!choices) {
    if (table.byFormat.size >= MAX_FORMATS) table.byFormat.clear();
    choices = new Map();
    table.byFormat.set(format, choices);
  }
  return choices;
}

function rememberChoice(choices: Map<string, Choice>, key: string, choice: Choice): void {
  if (choices.size >= MAX_CHOICES) choices.clear();
  choices.set(key, choice);
}

export { parseAcceptHeader };
