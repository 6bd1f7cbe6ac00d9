/**
 * Pagination styles: they decide which slice of a list is returned, and how the page's
 * envelope (`count`, `next`, `previous`, `results`) and links look.
 *
 * Generic views and viewsets paginate automatically through `paginationClass`
 * (default `DEFAULT_PAGINATION_CLASS`); a plain `APIView` calls the same API by hand:
 *
 * @example
 * const paginator = new PageNumberPagination();
 * const page = await paginator.paginateQueryset(Snippet.objects.all(), request, this);
 * return paginator.getPaginatedResponse(await new SnippetSerializer(page, { many: true }).getData());
 *
 * This module holds the page-number and limit/offset styles; `CursorPagination` lives in
 * `pagination/cursor.ts` and `BasePagination` with the shared helpers in `pagination/base.ts`,
 * both re-exported here.
 */
import { gettext } from './core/i18n';
import { NotFound } from './exceptions';
import type { Request } from './request';
import { Response } from './response';
import type { PaginationHtmlContext } from './templates/pagination';
import { removeQueryParam, replaceQueryParam } from './utils/urls';
import {
  BasePagination, countOf, getDisplayedPageNumbers, getPageLinks, pageSizeSchemaField, positiveInt, queryParam,
  renderTemplate, requestedPageSize, sliceOf, toOperationParameters,
  type Paginatable, type PaginatedData, type PaginatedView, type SchemaField, type SchemaObject, type SchemaParameter,
} from './pagination/base';

export {
  BasePagination, getDisplayedPageNumbers, getPageLinks, positiveInt,
  type OrderableQuery, type Paginatable, type PaginatedData, type PaginatedView, type SchemaField, type SchemaObject,
  type SchemaParameter, type SliceableQuery,
} from './pagination/base';
export { CursorPagination, type Cursor } from './pagination/cursor';
export type { PageLink, PaginationHtmlContext } from './templates/pagination';

function divideWithCeil(a: number, b: number): number {
  return Math.ceil(a / b);
}

/** One page of a `Paginator`. */
export class Page<T> {
  constructor(
    readonly objectList: T[],
    readonly number: number,
    readonly paginator: Paginator<T>,
    /** The total number of pages of the paginator. */
    readonly numPages: number,
  ) {}

  /** True when a later page exists. */
  hasNext(): boolean {
    return this.number < this.numPages;
  }

  /** True when an earlier page exists. */
  hasPrevious(): boolean {
    return this.number > 1;
  }

  /** The number of the next page. */
  nextPageNumber(): number {
    return this.number + 1;
  }

  /** The number of the previous page. */
  previousPageNumber(): number {
    return this.number - 1;
  }

  /** The number of items on this page. */
  get length(): number {
    return this.objectList.length;
  }
}

/** Raised by `Paginator.page()` for a page number that is not valid. */
export class InvalidPage extends Error {
  override name = 'InvalidPage';
}

/**
 * Splits a list into pages of `perPage` items, like the host framework's paginator: counts
 * once, then fetches only the requested slice.
 */
export class Paginator<T> {
  #count: number | null = null;

  constructor(
    readonly objectList: Paginatable<T>,
    readonly perPage: number,
    readonly orphans = 0,
    readonly allowEmptyFirstPage = true,
  ) {}

  /** The total number of items (counted once). */
  async count(): Promise<number> {
    if (this.#count === null) this.#count = await countOf(this.objectList);
    return this.#count;
  }

  /** The total number of pages. */
  async numPages(): Promise<number> {
    const count = await this.count();
    if (count === 0 && !this.allowEmptyFirstPage) return 0;
    const hits = Math.max(1, count - this.orphans);
    return Math.ceil(hits / this.perPage);
  }

  /** Check a page number; throws `InvalidPage` when it is not an integer or out of range. */
  async validateNumber(number: unknown): Promise<number> {
    let value: number;
    if (typeof number === 'number') {
      if (!Number.isInteger(number)) throw new InvalidPage('That page number is not an integer');
      value = number;
    } else {
      try {
        value = positiveInt(typeof number === 'string' ? number.replace(/^\s*-/, '') : null);
      } catch {
        throw new InvalidPage('That page number is not an integer');
      }
      if (typeof number === 'string' && /^\s*-/.test(number)) value = -value;
    }
    if (value < 1) throw new InvalidPage('That page number is less than 1');
    if (value > (await this.numPages())) {
      if (value !== 1 || !this.allowEmptyFirstPage) throw new InvalidPage('That page contains no results');
    }
    return value;
  }

  /** Fetch page `number` (1-based). */
  async page(number: unknown): Promise<Page<T>> {
    const valid = await this.validateNumber(number);
    const count = await this.count();
    const bottom = (valid - 1) * this.perPage;
    let top = bottom + this.perPage;
    if (top + this.orphans >= count) top = count;
    const items = bottom < top ? await sliceOf(this.objectList, bottom, top) : [];
    return new Page(items, valid, this, await this.numPages());
  }
}

/**
 * A simple page-number based style: `?page=4`, and `?page=4&page_size=100` when
 * `pageSizeQueryParam` is set.
 */
export class PageNumberPagination extends BasePagination {
  /** The page size; `undefined` means the `PAGE_SIZE` setting, `null` disables pagination. */
  pageSize?: number | null;
  /** The paginator class that slices the list. */
  paginatorClass: typeof Paginator = Paginator;
  /** The query parameter holding the page number. */
  pageQueryParam = 'page';
  pageQueryDescription = 'A page number within the paginated result set.';
  /** Set to a name (e.g. `page_size`) to let clients choose the page size. */
  pageSizeQueryParam: string | null = null;
  pageSizeQueryDescription = 'Number of results to return per page.';
  /** The largest page size a client may request (only with `pageSizeQueryParam`). */
  maxPageSize: number | null = null;
  /** Page parameter values that request the final page. */
  lastPageStrings: readonly string[] = ['last'];
  /** The HTML controls template; `null` disables the controls. */
  template: string | null = 'api_framework/pagination/numbers.html';
  invalidPageMessage = 'Invalid page.';

  /** The current page, set by `paginateQueryset()`. */
  page!: Page<unknown>;
  /** The request being paginated, set by `paginateQueryset()`. */
  request!: Request;
  #count = 0;

  /** Paginate `queryset`; returns `null` when no page size applies to this request. */
  async paginateQueryset<T>(queryset: Paginatable<T>, request: Request, _view?: PaginatedView | null): Promise<T[] | null> {
    const pageSize = this.getPageSize(request);
    if (!pageSize) return null;
    const paginator = new this.paginatorClass<T>(queryset, pageSize);
    const pageNumber = await this.getPageNumber(request, paginator);
    let page: Page<T>;
    try {
      page = await paginator.page(pageNumber);
    } catch (error) {
      if (!(error instanceof InvalidPage)) throw error;
      const message = gettext(this.invalidPageMessage)
        .replace('{page_number}', String(pageNumber))
        .replace('{message}', error.message);
      throw new NotFound(message);
    }
    this.#count = await paginator.count();
    if ((await paginator.numPages()) > 1 && this.template !== null) this.displayPageControls = true;
    this.page = page as Page<unknown>;
    this.request = request;
    return page.objectList;
  }

  /** The requested page number (or the last page for one of `lastPageStrings`). */
  async getPageNumber(request: Request, paginator: Paginator<unknown>): Promise<string | number> {
    const pageNumber = queryParam(request, this.pageQueryParam) ?? 1;
    if (typeof pageNumber === 'string' && this.lastPageStrings.includes(pageNumber)) return paginator.numPages();
    return pageNumber;
  }

  /** Build the `count, next, previous, results` envelope. */
  getPaginatedResponse(data: unknown): Response {
    const body: PaginatedData = {
      count: this.#count,
      next: this.getNextLink(),
      previous: this.getPreviousLink(),
      results: data,
    };
    return new Response(body);
  }

  override getPaginatedResponseSchema(schema: SchemaObject): SchemaObject {
    return {
      type: 'object',
      required: ['count', 'next', 'previous', 'results'],
      properties: {
        count: { type: 'integer', example: 123 },
        next: {
          type: ['string', 'null'],
          format: 'uri',
          example: `http://api.example.org/accounts/?${this.pageQueryParam}=4`,
        },
        previous: {
          type: ['string', 'null'],
          format: 'uri',
          example: `http://api.example.org/accounts/?${this.pageQueryParam}=2`,
        },
        results: schema,
      },
    };
  }

  /** The page size for this request: the client's (when allowed and valid) or the default. */
  getPageSize(request: Request): number | null {
    return requestedPageSize(request, this.pageSizeQueryParam, this.maxPageSize, this.pageSize);
  }

  /** The absolute URL of the next page, or null on the last page. */
  getNextLink(): string | null {
    if (!this.page.hasNext()) return null;
    return replaceQueryParam(this.request.buildAbsoluteUri(), this.pageQueryParam, this.page.nextPageNumber());
  }

  /** The absolute URL of the previous page (without the page parameter for page 1), or null. */
  getPreviousLink(): string | null {
    if (!this.page.hasPrevious()) return null;
    const url = this.request.buildAbsoluteUri();
    const pageNumber = this.page.previousPageNumber();
    if (pageNumber === 1) return removeQueryParam(url, this.pageQueryParam);
    return replaceQueryParam(url, this.pageQueryParam, pageNumber);
  }

  /** The context of the HTML controls: previous/next URLs and the page links. */
  getHtmlContext(): PaginationHtmlContext {
    const baseUrl = this.request.buildAbsoluteUri();
    const urlFor = (pageNumber: number): string =>
      pageNumber === 1
        ? removeQueryParam(baseUrl, this.pageQueryParam)
        : replaceQueryParam(baseUrl, this.pageQueryParam, pageNumber);
    const current = this.page.number;
    const final = this.page.numPages;
    return {
      previousUrl: this.getPreviousLink(),
      nextUrl: this.getNextLink(),
      pageLinks: getPageLinks(getDisplayedPageNumbers(current, final), current, urlFor),
    };
  }

  override toHtml(): string {
    return renderTemplate(this.template, this.getHtmlContext());
  }

  override getSchemaFields(_view?: unknown): SchemaField[] {
    const fields: SchemaField[] = [
      {
        name: this.pageQueryParam,
        required: false,
        location: 'query',
        schema: { type: 'integer', title: 'Page', description: gettext(this.pageQueryDescription) },
      },
    ];
    if (this.pageSizeQueryParam !== null) {
      fields.push(pageSizeSchemaField(this.pageSizeQueryParam, this.pageSizeQueryDescription));
    }
    return fields;
  }

  override getSchemaOperationParameters(_view?: unknown): SchemaParameter[] {
    return toOperationParameters(this.getSchemaFields(), 'integer');
  }
}

/** A limit/offset based style: `?limit=100` and `?offset=400&limit=100`. */
export class LimitOffsetPagination extends BasePagination {
  /** The limit when the client gives none; `undefined` means the `PAGE_SIZE` setting. */
  defaultLimit?: number | null;
  limitQueryParam = 'limit';
  limitQueryDescription = 'Number of results to return per page.';
  offsetQueryParam = 'offset';
  offsetQueryDescription = 'The initial index from which to return the results.';
  /** The largest limit a client may request. */
  maxLimit: number | null = null;
  /** The HTML controls template; `null` disables the controls. */
  template: string | null = 'api_framework/pagination/numbers.html';

  /** State of the current page, set by `paginateQueryset()`. */
  limit: number | null = null;
  offset = 0;
  count = 0;
  request!: Request;

  /** Paginate `queryset`; returns `null` when no limit applies to this request. */
  async paginateQueryset<T>(queryset: Paginatable<T>, request: Request, _view?: PaginatedView | null): Promise<T[] | null> {
    this.limit = this.getLimit(request);
    if (this.limit === null || this.limit === undefined) return null;
    this.count = await countOf(queryset);
    this.offset = this.getOffset(request);
    this.request = request;
    if (this.count > this.limit && this.template !== null) this.displayPageControls = true;
    if (this.count === 0 || this.offset > this.count) return [];
    return sliceOf(queryset, this.offset, this.offset + this.limit);
  }

  /** Build the `count, next, previous, results` envelope. */
  getPaginatedResponse(data: unknown): Response {
    const body: PaginatedData = {
      count: this.count,
      next: this.getNextLink(),
      previous: this.getPreviousLink(),
      results: data,
    };
    return new Response(body);
  }

  override getPaginatedResponseSchema(schema: SchemaObject): SchemaObject {
    const o = this.offsetQueryParam;
    const l = this.limitQueryParam;
    return {
      type: 'object',
      required: ['count', 'next', 'previous', 'results'],
      properties: {
        count: { type: 'integer', example: 123 },
        next: { type: ['string', 'null'], format: 'uri', example: `http://api.example.org/accounts/?${o}=400&${l}=100` },
        previous: { type: ['string', 'null'], format: 'uri', example: `http://api.example.org/accounts/?${o}=200&${l}=100` },
        results: schema,
      },
    };
  }

  /** The limit for this request: the client's (when valid, clamped to `maxLimit`) or the default. */
  getLimit(request: Request): number | null {
    return requestedPageSize(request, this.limitQueryParam, this.maxLimit, this.defaultLimit);
  }

  /** The offset for this request; missing or invalid values mean 0. */
  getOffset(request: Request): number {
    try {
      return positiveInt(queryParam(request, this.offsetQueryParam));
    } catch {
      return 0;
    }
  }

  /** The absolute URL of the next page, or null at the end. */
  getNextLink(): string | null {
    const limit = this.limit ?? 0;
    if (this.offset + limit >= this.count) return null;
    const url = replaceQueryParam(this.request.buildAbsoluteUri(), this.limitQueryParam, limit);
    return replaceQueryParam(url, this.offsetQueryParam, this.offset + limit);
  }

  /** The absolute URL of the previous page (without an offset for the first), or null. */
  getPreviousLink(): string | null {
    if (this.offset <= 0) return null;
    const limit = this.limit ?? 0;
    const url = replaceQueryParam(this.request.buildAbsoluteUri(), this.limitQueryParam, limit);
    if (this.offset - limit <= 0) return removeQueryParam(url, this.offsetQueryParam);
    return replaceQueryParam(url, this.offsetQueryParam, this.offset - limit);
  }

  /** The context of the HTML controls: previous/next URLs and the page links. */
  getHtmlContext(): PaginationHtmlContext {
    const baseUrl = this.request.buildAbsoluteUri();
    const limit = this.limit ?? 0;
    let current = 1;
    let final = 1;
    if (limit) {
      current = divideWithCeil(this.offset, limit) + 1;
      // Pages from the offset to the end plus the pages before the offset; an offset that is
      // not a multiple of the limit may add one page as an artifact.
      final = Math.max(divideWithCeil(this.count - this.offset, limit) + divideWithCeil(this.offset, limit), 1);
    }
    if (current > final) current = final;
    const urlFor = (pageNumber: number): string =>
      pageNumber === 1
        ? removeQueryParam(baseUrl, this.offsetQueryParam)
        : replaceQueryParam(baseUrl, this.offsetQueryParam, this.offset + (pageNumber - current) * limit);
    return {
      previousUrl: this.getPreviousLink(),
      nextUrl: this.getNextLink(),
      pageLinks: getPageLinks(getDisplayedPageNumbers(current, final), current, urlFor),
    };
  }

  override toHtml(): string {
    return renderTemplate(this.template, this.getHtmlContext());
  }

  override getSchemaFields(_view?: unknown): SchemaField[] {
    return [
      {
        name: this.limitQueryParam,
        required: false,
        location: 'query',
        schema: { type: 'integer', title: 'Limit', description: gettext(this.limitQueryDescription) },
      },
      {
        name: this.offsetQueryParam,
        required: false,
        location: 'query',
        schema: { type: 'integer', title: 'Offset', description: gettext(this.offsetQueryDescription) },
      },
    ];
  }

  override getSchemaOperationParameters(_view?: unknown): SchemaParameter[] {
    return toOperationParameters(this.getSchemaFields(), 'integer');
  }
}
