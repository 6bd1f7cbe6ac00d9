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
 */
import { getFieldInfo, type AnyModelClass } from './core/db/fieldInfo';
import { gettext } from './core/i18n';
import { NotFound } from './exceptions';
import type { Request } from './request';
import { Response } from './response';
import { apiSettings } from './settings';
import { paginationTemplates, type PageLink, type PaginationHtmlContext } from './templates/pagination';
import { quotePlus, removeQueryParam, replaceQueryParam } from './utils/urls';

export type { PageLink, PaginationHtmlContext } from './templates/pagination';

/** What pagination needs of a queryset: counting and slicing. A `QuerySet` satisfies it. */
export interface SliceableQuery<T> {
  count(): Promise<number>;
  slice(start: number, end?: number): { fetch(): Promise<T[]> };
}

/** A queryset that can also be ordered and filtered (cursor pagination needs that). */
export interface OrderableQuery<T> extends SliceableQuery<T> {
  orderBy(...fields: string[]): OrderableQuery<T>;
  filter(lookups: Record<string, unknown>): OrderableQuery<T>;
  readonly model?: AnyModelClass;
}

/** A list to paginate: a queryset, or an in-memory array. */
export type Paginatable<T> = SliceableQuery<T> | readonly T[];

/** A field description for schema generation (`getSchemaFields(view)`). */
export interface SchemaField {
  name: string;
  required: boolean;
  location: 'query' | 'path' | 'form' | 'body' | 'header';
  schema: { type: 'integer' | 'string' | 'boolean' | 'number'; title: string; description: string };
}

/** An OpenAPI operation parameter (`getSchemaOperationParameters(view)`). */
export interface SchemaParameter {
  name: string;
  required: boolean;
  in: 'query' | 'path' | 'header' | 'cookie';
  description: string;
  schema: { type: string };
}

/** An OpenAPI schema object, as built by schema generation. */
export type SchemaObject = Record<string, unknown>;

/**
 * The view as pagination sees it. Cursor pagination defers its ordering to an ordering filter
 * of a generic view (`filterBackends`).
 */
export interface PaginatedView {
  filterBackends?: ReadonlyArray<new () => object> | null;
  filterQueryset?: unknown;
}

/** The paginated envelope of the page-number and limit/offset styles. */
export interface PaginatedData<T = unknown> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T;
}

/**
 * Cast a query string to a positive integer like Python's `int()`: surrounding whitespace,
 * a sign and `_` separators are accepted; anything else (including `2.0`) is invalid.
 */
export function positiveInt(value: string | null | undefined, strict = false, cutoff: number | null = null): number {
  if (value === null || value === undefined || !/^\s*[+-]?\d+(_\d+)*\s*$/.test(value)) {
    throw new RangeError(`invalid literal for int(): '${String(value)}'`);
  }
  const result = Number.parseInt(value.replace(/_/g, '').trim(), 10);
  if (result < 0 || (result === 0 && strict)) throw new RangeError('not a positive integer');
  if (cutoff) return Math.min(result, cutoff);
  return result;
}

function divideWithCeil(a: number, b: number): number {
  return Math.ceil(a / b);
}

/**
 * The page numbers to show in HTML controls: one page each side of the current one (two at the
 * edges), the first and last pages, and `null` for a break that hides more than one page.
 * For example current=14, final=16 gives [1, null, 13, 14, 15, 16].
 */
export function getDisplayedPageNumbers(current: number, final: number): Array<number | null> {
  if (current < 1 || final < current) throw new RangeError('current page out of range');
  if (final <= 5) return Array.from({ length: final }, (_, i) => i + 1);
  const included = new Set([1, current - 1, current, current + 1, final]);
  if (current <= 4) {
    included.add(2);
    included.add(3);
  }
  if (current >= final - 3) {
    included.add(final - 1);
    included.add(final - 2);
  }
  const result: Array<number | null> = [...included].filter((n) => n > 0 && n <= final).sort((a, b) => a - b);
  if (current > 4) result.splice(1, 0, null);
  if (current < final - 3) result.splice(result.length - 1, 0, null);
  return result;
}

/** Turn displayed page numbers (with `null` breaks) into `PageLink`s. */
export function getPageLinks(
  pageNumbers: Array<number | null>,
  current: number,
  urlFor: (pageNumber: number) => string,
): PageLink[] {
  return pageNumbers.map((number) =>
    number === null
      ? { url: null, number: null, isActive: false, isBreak: true }
      : { url: urlFor(number), number, isActive: number === current, isBreak: false },
  );
}

function queryParam(request: Request, key: string): string | null {
  const value: unknown = request.queryParams.get(key);
  return typeof value === 'string' ? value : null;
}

function absoluteUri(request: Request): string {
  return request.buildAbsoluteUri();
}

async function countOf<T>(list: Paginatable<T>): Promise<number> {
  return isArray(list) ? list.length : list.count();
}

async function sliceOf<T>(list: Paginatable<T>, start: number, end: number): Promise<T[]> {
  return isArray(list) ? list.slice(start, end) : list.slice(start, end).fetch();
}

function isArray<T>(list: Paginatable<T>): list is readonly T[] {
  return Array.isArray(list);
}

function renderTemplate(name: string | null, context: PaginationHtmlContext): string {
  if (name === null) return '';
  const template = paginationTemplates[name];
  if (!template) throw new Error(`TemplateDoesNotExist: ${name}`);
  return template(context);
}

/**
 * The base of every pagination style. Subclass it and implement `paginateQueryset()` and
 * `getPaginatedResponse()`; the instance may keep state between the two calls.
 */
export abstract class BasePagination {
  /** Set to true (during `paginateQueryset`) to ask the browsable API for HTML controls. */
  displayPageControls = false;

  /** Return the items of the requested page, or `null` when pagination is off for the request. */
  abstract paginateQueryset<T>(queryset: Paginatable<T>, request: Request, view?: PaginatedView | null): Promise<T[] | null>;

  /** Wrap the serialized page in a response (envelope, or links in headers). */
  abstract getPaginatedResponse(data: unknown): Response;

  /** Describe the paginated response for schema generation, given the schema of the results. */
  getPaginatedResponseSchema(schema: SchemaObject): SchemaObject {
    return schema;
  }

  /** Render the HTML page controls shown by the browsable API. */
  toHtml(): string {
    throw new Error('toHtml() must be implemented to display page controls.');
  }

  /** Extract the results list from a paginated response body. */
  getResults(data: unknown): unknown {
    return (data as { results?: unknown }).results;
  }

  /** The query parameters this style reads, as schema fields. */
  getSchemaFields(_view?: unknown): SchemaField[] {
    return [];
  }

  /** The query parameters this style reads, as OpenAPI parameters. */
  getSchemaOperationParameters(_view?: unknown): SchemaParameter[] {
    return [];
  }
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
      properties: {
        count: { type: 'integer', example: 123 },
        next: {
          type: 'string',
          nullable: true,
          format: 'uri',
          example: `http://api.example.org/accounts/?${this.pageQueryParam}=4`,
        },
        previous: {
          type: 'string',
          nullable: true,
          format: 'uri',
          example: `http://api.example.org/accounts/?${this.pageQueryParam}=2`,
        },
        results: schema,
      },
    };
  }

  /** The page size for this request: the client's (when allowed and valid) or the default. */
  getPageSize(request: Request): number | null {
    if (this.pageSizeQueryParam) {
      try {
        return positiveInt(queryParam(request, this.pageSizeQueryParam), true, this.maxPageSize);
      } catch {
        // Missing or invalid: fall back to the default page size.
      }
    }
    return this.pageSize !== undefined ? this.pageSize : apiSettings.PAGE_SIZE;
  }

  /** The absolute URL of the next page, or null on the last page. */
  getNextLink(): string | null {
    if (!this.page.hasNext()) return null;
    return replaceQueryParam(absoluteUri(this.request), this.pageQueryParam, this.page.nextPageNumber());
  }

  /** The absolute URL of the previous page (without the page parameter for page 1), or null. */
  getPreviousLink(): string | null {
    if (!this.page.hasPrevious()) return null;
    const url = absoluteUri(this.request);
    const pageNumber = this.page.previousPageNumber();
    if (pageNumber === 1) return removeQueryParam(url, this.pageQueryParam);
    return replaceQueryParam(url, this.pageQueryParam, pageNumber);
  }

  /** The context of the HTML controls: previous/next URLs and the page links. */
  getHtmlContext(): PaginationHtmlContext {
    const baseUrl = absoluteUri(this.request);
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
      fields.push({
        name: this.pageSizeQueryParam,
        required: false,
        location: 'query',
        schema: { type: 'integer', title: 'Page size', description: gettext(this.pageSizeQueryDescription) },
      });
    }
    return fields;
  }

  override getSchemaOperationParameters(_view?: unknown): SchemaParameter[] {
    return this.getSchemaFields().map((field) => ({
      name: field.name,
      required: false,
      in: 'query',
      description: field.schema.description,
      schema: { type: 'integer' },
    }));
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
      properties: {
        count: { type: 'integer', example: 123 },
        next: { type: 'string', nullable: true, format: 'uri', example: `http://api.example.org/accounts/?${o}=400&${l}=100` },
        previous: { type: 'string', nullable: true, format: 'uri', example: `http://api.example.org/accounts/?${o}=200&${l}=100` },
        results: schema,
      },
    };
  }

  /** The limit for this request: the client's (when valid, clamped to `maxLimit`) or the default. */
  getLimit(request: Request): number | null {
    if (this.limitQueryParam) {
      try {
        return positiveInt(queryParam(request, this.limitQueryParam), true, this.maxLimit);
      } catch {
        // Missing or invalid: fall back to the default limit.
      }
    }
    return this.defaultLimit !== undefined ? this.defaultLimit : apiSettings.PAGE_SIZE;
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
    const url = replaceQueryParam(absoluteUri(this.request), this.limitQueryParam, limit);
    return replaceQueryParam(url, this.offsetQueryParam, this.offset + limit);
  }

  /** The absolute URL of the previous page (without an offset for the first), or null. */
  getPreviousLink(): string | null {
    if (this.offset <= 0) return null;
    const limit = this.limit ?? 0;
    const url = replaceQueryParam(absoluteUri(this.request), this.limitQueryParam, limit);
    if (this.offset - limit <= 0) return removeQueryParam(url, this.offsetQueryParam);
    return replaceQueryParam(url, this.offsetQueryParam, this.offset - limit);
  }

  /** The context of the HTML controls: previous/next URLs and the page links. */
  getHtmlContext(): PaginationHtmlContext {
    const baseUrl = absoluteUri(this.request);
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
    return this.getSchemaFields().map((field) => ({
      name: field.name,
      required: false,
      in: 'query',
      description: field.schema.description,
      schema: { type: 'integer' },
    }));
  }
}


/** The decoded state of a cursor: an offset from a position, in either direction. */
export interface Cursor {
  offset: number;
  reverse: boolean;
  position: string | null;
}

/** The view's ordering filter, as cursor pagination consults it. */
interface OrderingSource {
  getOrdering(request: Request, queryset: unknown, view: unknown): readonly string[] | string | null | undefined;
}

function hasGetOrdering(value: object): value is OrderingSource {
  return typeof (value as { getOrdering?: unknown }).getOrdering === 'function';
}

function reverseOrdering(ordering: readonly string[]): string[] {
  return ordering.map((item) => (item.startsWith('-') ? item.slice(1) : `-${item}`));
}

const BASE64_ALPHABET = /[^A-Za-z0-9+/=]/g;

/** Decode base64 strictly enough to refuse garbage (bad padding, non-ASCII payloads). */
function decodeBase64Ascii(encoded: string): string {
  const cleaned = encoded.replace(BASE64_ALPHABET, '');
  if (cleaned.length % 4 !== 0 || /=[^=]/.test(cleaned) || /={3,}$/.test(cleaned)) {
    throw new RangeError('Incorrect padding');
  }
  const bytes = Buffer.from(cleaned, 'base64');
  for (const byte of bytes) if (byte > 0x7f) throw new RangeError('not ascii');
  return bytes.toString('ascii');
}

function positionFromInstance(instance: unknown, ordering: readonly string[]): string {
  const fieldName = ordering[0].replace(/^-+/, '');
  let value: unknown;
  if (instance !== null && typeof instance === 'object') {
    const getter = (instance as { get?: unknown }).get;
    value = fieldName in instance || typeof getter !== 'function'
      ? (instance as Record<string, unknown>)[fieldName]
      : (getter as (key: string) => unknown).call(instance, fieldName);
  }
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/**
 * Cursor-based pagination: opaque cursors that only move forward or back from a position in a
 * fixed ordering. Because each page is fetched relative to the last position seen, an item is
 * never returned twice, even when other clients insert rows between page fetches.
 *
 * The ordering field should be unchanging, unique or nearly unique, non-nullable and indexed;
 * ties are resolved with an offset, capped by `offsetCutoff`.
 */
export class CursorPagination extends BasePagination {
  cursorQueryParam = 'cursor';
  cursorQueryDescription = 'The pagination cursor value.';
  /** The page size; `undefined` means the `PAGE_SIZE` setting. */
  pageSize?: number | null;
  invalidCursorMessage = 'Invalid cursor';
  /** The fixed ordering: a field name or list, `-` for descending. */
  ordering: string | readonly string[] = '-created';
  template: string | null = 'api_framework/pagination/previous_and_next.html';
  /** Set to a name (e.g. `page_size`) to let clients choose the page size. */
  pageSizeQueryParam: string | null = null;
  pageSizeQueryDescription = 'Number of results to return per page.';
  maxPageSize: number | null = null;
  /**
   * The largest offset a cursor may carry: guards against crafted cursors that would make the
   * database skip over huge numbers of rows.
   */
  offsetCutoff = 1000;

  /** State of the current page, set by `paginateQueryset()`. */
  baseUrl = '';
  cursor: Cursor | null = null;
  page: unknown[] = [];
  hasNext = false;
  hasPrevious = false;
  nextPosition: string | null = null;
  previousPosition: string | null = null;
  #ordering: readonly string[] = [];
  #pageSize = 0;

  /** Fetch the page the cursor points at; returns `null` when no page size applies. */
  async paginateQueryset<T>(queryset: Paginatable<T>, request: Request, view?: PaginatedView | null): Promise<T[] | null> {
    const pageSize = this.getPageSize(request);
    if (!pageSize) return null;
    if (Array.isArray(queryset)) throw new TypeError('CursorPagination needs a queryset, not a list.');
    const query = queryset as OrderableQuery<T>;
    this.#pageSize = pageSize;
    this.baseUrl = absoluteUri(request);
    this.#ordering = this.getOrdering(request, query, view ?? null);
    this.cursor = this.decodeCursor(request);
    const { offset, reverse, position: currentPosition } = this.cursor ?? { offset: 0, reverse: false, position: null };

    // Cursor pagination always enforces an ordering.
    let ordered = query.orderBy(...(reverse ? reverseOrdering(this.#ordering) : this.#ordering));

    // With a fixed position, continue strictly after it (in the direction of travel).
    if (currentPosition !== null) {
      const order = this.#ordering[0];
      const isReversed = order.startsWith('-');
      const attr = order.replace(/^-+/, '');
      const lookup = reverse !== isReversed ? `${attr}__lt` : `${attr}__gt`;
      ordered = ordered.filter({ [lookup]: this.coercePosition(query, attr, currentPosition) });
    }

    // Fetch one extra item to learn whether a page follows this one.
    const results = await ordered.slice(offset, offset + pageSize + 1).fetch();
    let page = results.slice(0, pageSize);
    let hasFollowingPosition = false;
    let followingPosition: string | null = null;
    if (results.length > page.length) {
      hasFollowingPosition = true;
      followingPosition = positionFromInstance(results[results.length - 1], this.#ordering);
    }

    if (reverse) {
      // The query ran in reverse, so put the items back in the requested order.
      page = page.reverse();
      this.hasNext = currentPosition !== null || offset > 0;
      this.hasPrevious = hasFollowingPosition;
      if (this.hasNext) this.nextPosition = currentPosition;
      if (this.hasPrevious) this.previousPosition = followingPosition;
    } else {
      this.hasNext = hasFollowingPosition;
      this.hasPrevious = currentPosition !== null || offset > 0;
      if (this.hasNext) this.nextPosition = followingPosition;
      if (this.hasPrevious) this.previousPosition = currentPosition;
    }
    if ((this.hasPrevious || this.hasNext) && this.template !== null) this.displayPageControls = true;
    this.page = page;
    return page;
  }

  /**
   * Turn a position string back into a value of the ordering field's type, so the comparison
   * runs on dates and numbers rather than text. Override for custom field types.
   */
  coercePosition(queryset: OrderableQuery<unknown>, field: string, position: string): unknown {
    const info = queryset.model ? getFieldInfo(queryset.model) : null;
    const type = (field === 'pk' ? info?.pk : info?.getField(field))?.type ?? '';
    if (type === 'DATE') {
      const date = new Date(position);
      if (Number.isNaN(date.getTime())) throw new NotFound(gettext(this.invalidCursorMessage));
      return date;
    }
    if (/^(INTEGER|BIGINT|SMALLINT|MEDIUMINT|TINYINT|FLOAT|DOUBLE|REAL)$/.test(type)) {
      const number = Number(position);
      if (position.trim() === '' || !Number.isFinite(number)) throw new NotFound(gettext(this.invalidCursorMessage));
      return number;
    }
    return position;
  }

  /** The page size for this request: the client's (when allowed and valid) or the default. */
  getPageSize(request: Request): number | null {
    if (this.pageSizeQueryParam) {
      try {
        return positiveInt(queryParam(request, this.pageSizeQueryParam), true, this.maxPageSize);
      } catch {
        // Missing or invalid: fall back to the default page size.
      }
    }
    return this.pageSize !== undefined ? this.pageSize : apiSettings.PAGE_SIZE;
  }

  /** The absolute URL of the next page, or null at the end. */
  getNextLink(): string | null {
    if (!this.hasNext) return null;
    const page = this.page;
    const cursor = this.cursor;
    let compare: string | null;
    if (page.length && cursor && cursor.reverse && cursor.offset !== 0) {
      // Changing direction from an offset cursor: the first position found cannot be the marker.
      compare = positionFromInstance(page[page.length - 1], this.#ordering);
    } else {
      compare = this.nextPosition;
    }
    let offset = 0;
    let position: string | null = null;
    let hasItemWithUniquePosition = false;
    for (let i = page.length - 1; i >= 0; i -= 1) {
      position = positionFromInstance(page[i], this.#ordering);
      if (position !== compare) {
        // This item and the one after it differ: its position is a usable marker.
        hasItemWithUniquePosition = true;
        break;
      }
      // Same position as the following item: skip over it with the offset.
      compare = position;
      offset += 1;
    }
    if (page.length && !hasItemWithUniquePosition) {
      if (!this.hasPrevious) {
        // First page: no position to filter by yet, only an offset of one page.
        offset = this.#pageSize;
        position = null;
      } else if (cursor?.reverse) {
        // Changing direction here skips forward a few items: a known paging artifact.
        offset = 0;
        position = this.previousPosition;
      } else {
        offset = (cursor?.offset ?? 0) + this.#pageSize;
        position = this.previousPosition;
      }
    }
    if (!page.length) position = this.nextPosition;
    return this.encodeCursor({ offset, reverse: false, position });
  }

  /** The absolute URL of the previous page, or null at the start. */
  getPreviousLink(): string | null {
    if (!this.hasPrevious) return null;
    const page = this.page;
    const cursor = this.cursor;
    let compare: string | null;
    if (page.length && cursor && !cursor.reverse && cursor.offset !== 0) {
      compare = positionFromInstance(page[0], this.#ordering);
    } else {
      compare = this.previousPosition;
    }
    let offset = 0;
    let position: string | null = null;
    let hasItemWithUniquePosition = false;
    for (const item of page) {
      position = positionFromInstance(item, this.#ordering);
      if (position !== compare) {
        hasItemWithUniquePosition = true;
        break;
      }
      compare = position;
      offset += 1;
    }
    if (page.length && !hasItemWithUniquePosition) {
      if (!this.hasNext) {
        // Final page: an offset of one page, no position yet.
        offset = this.#pageSize;
        position = null;
      } else if (cursor?.reverse) {
        offset = (cursor.offset ?? 0) + this.#pageSize;
        position = this.nextPosition;
      } else {
        // Changing direction here skips back a few items: a known paging artifact.
        offset = 0;
        position = this.nextPosition;
      }
    }
    if (!page.length) position = this.previousPosition;
    return this.encodeCursor({ offset, reverse: true, position });
  }

  /**
   * The ordering to paginate by: the view's ordering filter decides when it has one,
   * else this class's `ordering`.
   */
  getOrdering(request: Request, queryset: unknown, view: PaginatedView | null): readonly string[] {
    let ordering: readonly string[] | string | null | undefined;
    const backendClasses = view && typeof view.filterQueryset === 'function'
      ? view.filterBackends ?? (apiSettings.DEFAULT_FILTER_BACKENDS as ReadonlyArray<new () => object> | null) ?? []
      : [];
    const filterClass = backendClasses.find((cls) => hasGetOrdering(cls.prototype as object));
    if (filterClass) {
      const filter = new filterClass() as OrderingSource;
      ordering = filter.getOrdering(request, queryset, view);
      if (ordering === null || ordering === undefined) {
        throw new Error(`Using cursor pagination, but filter class ${filterClass.name} returned a \`None\` ordering.`);
      }
    } else {
      ordering = this.ordering;
      if (ordering === null || ordering === undefined) {
        throw new Error('Using cursor pagination, but no ordering attribute was declared on the pagination class.');
      }
      const fields = typeof ordering === 'string' ? [ordering] : ordering;
      if (fields.some((field) => field.includes('__'))) {
        throw new Error(
          'Cursor pagination does not support double underscore lookups for orderings. Orderings should be an ' +
            'unchanging, unique or nearly-unique field on the model, such as "-created" or "pk".',
        );
      }
    }
    if (typeof ordering !== 'string' && !Array.isArray(ordering)) {
      throw new Error(`Invalid ordering. Expected string or tuple, but got ${typeof ordering}`);
    }
    return typeof ordering === 'string' ? [ordering] : [...ordering];
  }

  /** Read the cursor from the request; `null` without one, `NotFound` for a malformed one. */
  decodeCursor(request: Request): Cursor | null {
    const encoded = queryParam(request, this.cursorQueryParam);
    if (encoded === null) return null;
    try {
      const tokens = new URLSearchParams(decodeBase64Ascii(encoded));
      const offset = positiveInt(tokens.get('o') ?? '0', false, this.offsetCutoff);
      const reverseText = tokens.get('r') ?? '0';
      if (!/^\s*[+-]?\d+\s*$/.test(reverseText)) throw new RangeError('bad reverse flag');
      const reverse = Number.parseInt(reverseText, 10) !== 0;
      const position = tokens.get('p');
      return { offset, reverse, position };
    } catch (error) {
      if (error instanceof NotFound) throw error;
      throw new NotFound(gettext(this.invalidCursorMessage));
    }
  }

  /** Encode a cursor into the absolute URL of the page it points at. */
  encodeCursor(cursor: Cursor): string {
    const tokens = new Map<string, string[]>();
    if (cursor.offset !== 0) tokens.set('o', [String(cursor.offset)]);
    if (cursor.reverse) tokens.set('r', ['1']);
    if (cursor.position !== null) tokens.set('p', [cursor.position]);
    const querystring = [...tokens].map(([key, [value]]) => `${key}=${quotePlus(value)}`).join('&');
    const encoded = Buffer.from(querystring, 'utf8').toString('base64');
    return replaceQueryParam(this.baseUrl, this.cursorQueryParam, encoded);
  }

  /** Build the `next, previous, results` envelope. */
  getPaginatedResponse(data: unknown): Response {
    return new Response({ next: this.getNextLink(), previous: this.getPreviousLink(), results: data });
  }

  override getPaginatedResponseSchema(schema: SchemaObject): SchemaObject {
    return {
      type: 'object',
      properties: {
        next: { type: 'string', nullable: true },
        previous: { type: 'string', nullable: true },
        results: schema,
      },
    };
  }

  /** The context of the HTML controls: previous and next URLs. */
  getHtmlContext(): PaginationHtmlContext {
    return { previousUrl: this.getPreviousLink(), nextUrl: this.getNextLink() };
  }

  override toHtml(): string {
    return renderTemplate(this.template, this.getHtmlContext());
  }

  override getSchemaFields(_view?: unknown): SchemaField[] {
    const fields: SchemaField[] = [
      {
        name: this.cursorQueryParam,
        required: false,
        location: 'query',
        schema: { type: 'string', title: 'Cursor', description: gettext(this.cursorQueryDescription) },
      },
    ];
    if (this.pageSizeQueryParam !== null) {
      fields.push({
        name: this.pageSizeQueryParam,
        required: false,
        location: 'query',
        schema: { type: 'integer', title: 'Page size', description: gettext(this.pageSizeQueryDescription) },
      });
    }
    return fields;
  }

  override getSchemaOperationParameters(_view?: unknown): SchemaParameter[] {
    return this.getSchemaFields().map((field) => ({
      name: field.name,
      required: false,
      in: 'query',
      description: field.schema.description,
      schema: { type: field.schema.type },
    }));
  }
}
