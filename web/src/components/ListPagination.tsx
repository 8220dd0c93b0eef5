import Pagination from '@cloudscape-design/components/pagination';
import type { ReactElement } from 'react';

/** One page of `items` (1-based, clamped to the pages there are) and the number of pages. */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number): { items: T[]; currentPage: number; pagesCount: number } {
  const pagesCount = Math.max(1, Math.ceil(items.length / pageSize));
  const currentPage = Math.min(Math.max(1, Math.floor(page)), pagesCount);
  const start = (currentPage - 1) * pageSize;
  return { items: items.slice(start, start + pageSize), currentPage, pagesCount };
}

export interface ListPaginationProps {
  currentPage: number;
  pagesCount: number;
  onChange: (page: number) => void;
  /** The name of the page buttons as a whole, e.g. 'Contact pages'. */
  label: string;
  /**
   * Starts every page button's name where a page has more than one paged list ('All Contacts: next
   * page'); without it the buttons read 'Next page', 'Page 2 of 5'.
   */
  listName?: string;
}

/**
 * The page buttons of a paged card list, or none when everything fits on one page. A function rather
 * than a component: Cards draws a tools bar for any `pagination` it is given, even one that renders nothing.
 */
export function listPagination({ currentPage, pagesCount, onChange, label, listName }: ListPaginationProps): ReactElement | undefined {
  if (pagesCount <= 1) return undefined;
  // 'Next page' on its own; 'All Contacts: next page' with a list name.
  const name = (text: string) => (listName === undefined ? text.charAt(0).toUpperCase() + text.slice(1) : `${listName}: ${text}`);
  return (
    <Pagination
      currentPageIndex={currentPage}
      pagesCount={pagesCount}
      onChange={({ detail }) => onChange(detail.currentPageIndex)}
      ariaLabels={{
        nextPageLabel: name('next page'),
        previousPageLabel: name('previous page'),
        pageLabel: (n) => name(`page ${n} of ${pagesCount}`),
        paginationLabel: label,
      }}
    />
  );
}
