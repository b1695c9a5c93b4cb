/** Page windows and the contract's pagination block, as every paged repository and service uses them. */
import type { Pagination } from '@backbeat/contract';

/** A page request as repositories take it. */
export interface PageWindow {
  limit: number;
  offset: number;
}

export function pageWindow(page: number, limit: number): PageWindow {
  return { limit, offset: (page - 1) * limit };
}

/** Number of pages for `total` rows; 0 when there are none. */
export const pageCount = (total: number, limit: number) => Math.ceil(total / limit);

export function pagination(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, totalPages: pageCount(total, limit) };
}

/** A page of rows plus the total that matched, as every paged repository method returns. */
export interface Paged<T> {
  rows: T[];
  total: number;
}
