/**
 * The features app's pagination styles over snippets.
 */
import { pagination } from 'api_framework';

/** `?limit=&offset=`: 5 by default, at most 20. */
export class SnippetLimitOffsetPagination extends pagination.LimitOffsetPagination {
  override defaultLimit = 5;
  override maxLimit = 20;
}

/** `?cursor=`: 5 per page, newest first. */
export class SnippetCursorPagination extends pagination.CursorPagination {
  override pageSize = 5;
  override ordering = '-created';
}

/** `?page=&page_size=`: 5 per page by default, at most 7. */
export class SnippetPageNumberPagination extends pagination.PageNumberPagination {
  override pageSize = 5;
  override pageSizeQueryParam = 'page_size';
  override maxPageSize = 7;
}
