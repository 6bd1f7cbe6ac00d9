/**
 * The features app's pagination styles over snippets.
 */
import { pagination } from '../../lib';

/** `?limit=&offset=`: 5 by default, at most 20. */
export class SnippetLimitOffsetPagination extends pagination.LimitOffsetPagination {
  override defaultLimit: number | null = 5;
  override maxLimit: number | null = 20;
}

/** `?cursor=`: 5 per page, newest first. */
export class SnippetCursorPagination extends pagination.CursorPagination {
  override pageSize: number | null = 5;
  override ordering: string | readonly string[] = '-created';
}

/** `?page=&page_size=`: 5 per page by default, at most 7. */
export class SnippetPageNumberPagination extends pagination.PageNumberPagination {
  override pageSize: number | null = 5;
  override pageSizeQueryParam: string | null = 'page_size';
  override maxPageSize: number | null = 7;
}
