/**
 * Cursor pagination: opaque `?cursor=` tokens that move forward or back from a position in a
 * fixed ordering. Re-exported by `lib/pagination.ts` (`api_framework.pagination.CursorPagination`).
 */
import { getFieldInfo } from '../core/db/fieldInfo';
import { gettext } from '../core/i18n';
import { NotFound } from '../exceptions';
import type { Request } from '../request';
import { Response } from '../response';
import { apiSettings } from '../settings';
import type { PaginationHtmlContext } from '../templates/pagination';
import { quotePlus, replaceQueryParam } from '../utils/urls';
import {
  BasePagination, pageSizeSchemaField, positiveInt, queryParam, renderTemplate, requestedPageSize, toOperationParameters,
  type OrderableQuery, type Paginatable, type PaginatedView, type SchemaField, type SchemaObject, type SchemaParameter,
} from './base';

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

const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/** Decode base64 strictly enough to refuse garbage (bad padding, non-ASCII payloads). */
function decodeBase64Ascii(encoded: string): string {
  // The original drops characters outside the alphabet, so `?cursor=!!!` silently gave the
  // first page; a cursor carrying them was not made by this paginator and is refused.
  if (NOT_BASE64.test(encoded)) throw new RangeError('not base64');
  if (encoded.length % 4 !== 0 || /=[^=]/.test(encoded) || /={3,}$/.test(encoded)) {
    throw new RangeError('Incorrect padding');
  }
  const bytes = Buffer.from(encoded, 'base64');
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
    this.baseUrl = request.buildAbsoluteUri();
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
    return requestedPageSize(request, this.pageSizeQueryParam, this.maxPageSize, this.pageSize);
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
      ? view.filterBackends ?? apiSettings.DEFAULT_FILTER_BACKENDS ?? []
      : [];
    const filterClass = backendClasses.find((cls) => hasGetOrdering(cls.prototype as object));
    if (filterClass) {
      const filter = new filterClass() as OrderingSource;
      ordering = filter.getOrdering(request, queryset, view);
      if (ordering === null || ordering === undefined) {
        throw new Error(`Using cursor pagination, but filter class ${filterClass.name} returned a \`null\` ordering.`);
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
      if (encoded !== '' && !['o', 'r', 'p'].some((key) => tokens.has(key))) throw new RangeError('no cursor fields');
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
      required: ['next', 'previous', 'results'],
      properties: {
        next: { type: ['string', 'null'] },
        previous: { type: ['string', 'null'] },
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
      fields.push(pageSizeSchemaField(this.pageSizeQueryParam, this.pageSizeQueryDescription));
    }
    return fields;
  }

  override getSchemaOperationParameters(_view?: unknown): SchemaParameter[] {
    return toOperationParameters(this.getSchemaFields());
  }
}
