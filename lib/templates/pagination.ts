/**
 * Pagination controls for the browsable API: `api_framework/pagination/numbers.html` (page links)
 * and `api_framework/pagination/previous_and_next.html` (cursor style), with the original's markup.
 */
import { escapeHtml } from '../core/html';
import type { TemplateFunction } from './html';

/** One entry of the page-number control: a link, or a break (`…`) when `isBreak`. */
export interface PageLink {
  url: string | null;
  number: number | null;
  isActive: boolean;
  isBreak: boolean;
}

/** The context of the pagination templates (`getHtmlContext()`). */
export interface PaginationHtmlContext {
  previousUrl: string | null;
  nextUrl: string | null;
  pageLinks?: PageLink[];
}

function numbers(context: PaginationHtmlContext): string {
  const out: string[] = ['<ul class="pagination" style="margin: 5px 0 10px 0">'];
  if (context.previousUrl) {
    out.push(`  <li>\n    <a href="${escapeHtml(context.previousUrl)}" aria-label="Previous">\n      <span aria-hidden="true">&laquo;</span>\n    </a>\n  </li>`);
  } else {
    out.push('  <li class="disabled">\n    <a href="#" aria-label="Previous">\n      <span aria-hidden="true">&laquo;</span>\n    </a>\n  </li>');
  }
  for (const link of context.pageLinks ?? []) {
    if (link.isBreak) {
      out.push('  <li class="disabled">\n    <a href="#"><span aria-hidden="true">&hellip;</span></a>\n  </li>');
    } else {
      const cls = link.isActive ? ' class="active"' : '';
      out.push(`  <li${cls}>\n    <a href="${escapeHtml(link.url ?? '#')}">${escapeHtml(link.number ?? '')}</a>\n  </li>`);
    }
  }
  if (context.nextUrl) {
    out.push(`  <li>\n    <a href="${escapeHtml(context.nextUrl)}" aria-label="Next">\n      <span aria-hidden="true">&raquo;</span>\n    </a>\n  </li>`);
  } else {
    out.push('  <li class="disabled">\n    <a href="#" aria-label="Next">\n      <span aria-hidden="true">&raquo;</span>\n    </a>\n  </li>');
  }
  out.push('</ul>');
  return `${out.join('\n')}\n`;
}

function previousAndNext(context: PaginationHtmlContext): string {
  const previous = context.previousUrl
    ? `  <li class="previous">\n    <a href="${escapeHtml(context.previousUrl)}">&laquo; Previous</a>\n  </li>`
    : '  <li class="previous disabled">\n    <a href="#">&laquo; Previous</a>\n  </li>';
  const next = context.nextUrl
    ? `  <li class="next">\n    <a href="${escapeHtml(context.nextUrl)}">Next &raquo;</a>\n  </li>`
    : '  <li class="next disabled">\n    <a href="#">Next &raquo;</a>\n  </li>';
  return `<ul class="pager">\n${previous}\n${next}\n</ul>\n`;
}

/** Built-in pagination templates by name; projects may add their own. */
export const paginationTemplates: Record<string, TemplateFunction<PaginationHtmlContext>> = {
  'api_framework/pagination/numbers.html': numbers,
  'api_framework/pagination/previous_and_next.html': previousAndNext,
};
