/**
 * What every pagination style shares: the queryset and schema types, `BasePagination`, and the
 * helpers that read page sizes from the request and describe the query parameters.
 */
import type { AnyModelClass } from '../core/db/fieldInfo';
import { gettext } from '../core/i18n';
import type { Request } from '../request';
import type { Response } from '../response';
import { apiSettings } from '../settings';
import { paginationTemplates, type PageLink, type PaginationHtmlContext } from '../templates/pagination';

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

/** The query parameter `key` of the request, or null when missing. */
export function queryParam(request: Request, key: string): string | null {
  const value: unknown = request.queryParams.get(key);
  return typeof value === 'string' ? value : null;
}

/** The length of a list or queryset (one COUNT query). */
export async function countOf<T>(list: Paginatable<T>): Promise<number> {
  return isArray(list) ? list.length : list.count();
}

/** Items `start` to `end` of a list or queryset (one query). */
export async function sliceOf<T>(list: Paginatable<T>, start: number, end: number): Promise<T[]> {
  return isArray(list) ? list.slice(start, end) : list.slice(start, end).fetch();
}

function isArray<T>(list: Paginatable<T>): list is readonly T[] {
  return Array.isArray(list);
}

/** Render a pagination controls template; `null` renders nothing. */
export function renderTemplate(name: string | null, context: PaginationHtmlContext): string {
  if (name === null) return '';
  const template = paginationTemplates[name];
  if (!template) throw new Error(`TemplateDoesNotExist: ${name}`);
  return template(context);
}

/**
 * The page size a client asked for through `param` (when the style allows it: `param` set; valid
 * sizes are clamped to `max`), else `fallback`, else the `PAGE_SIZE` setting.
 */
export function requestedPageSize(
  request: Request,
  param: string | null,
  max: number | null,
  fallback: number | null | undefined,
): number | null {
  if (param) {
    try {
      return positiveInt(queryParam(request, param), true, max);
    } catch {
      // Missing or invalid: fall back to the default size.
    }
  }
  return fallback !== undefined ? fallback : apiSettings.PAGE_SIZE;
}

/** The schema field of a client-chosen page size (`pageSizeQueryParam`). */
export function pageSizeSchemaField(name: string, description: string): SchemaField {
  return {
    name,
    required: false,
    location: 'query',
    schema: { type: 'integer', title: 'Page size', description: gettext(description) },
  };
}

/** Schema fields as OpenAPI query parameters (typed `type`, else as the field's schema says). */
export function toOperationParameters(fields: readonly SchemaField[], type?: string): SchemaParameter[] {
  return fields.map((field) => ({
    name: field.name,
    required: false,
    in: 'query',
    description: field.schema.description,
    schema: { type: type ?? field.schema.type },
  }));
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
