/** Page windows and the contract's pagination block, as every paged repository and service uses them. */
import type { Pagination } from '@backbeat/contract';
import { count, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AppDb } from '../db/client';

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

/** The parts of a paged list query: the table's id column, which rows and in what order. */
export interface PageQuery<T> {
  db: AppDb;
  table: PgTable;
  id: PgColumn;
  where: SQL | undefined;
  order: SQL[];
  window: PageWindow;
  /** The full rows of the page, given the condition that picks the page's ids; sorted by `order` again. */
  rows: (inPage: SQL) => Promise<T[]>;
  /** Every row matching `where` (often a cached count: see the catalogue's CountCache). */
  total: () => Promise<number>;
}

/**
 * A page of rows: the page's ids come from the index alone, then the full rows (with their correlated lookups)
 * are selected for those ids only, not for every row the offset skips.
 */
export async function pageByIds<T>(query: PageQuery<T>): Promise<Paged<T>> {
  const { db, table, id, where, order, window } = query;
  const pageIds = db
    .select({ id })
    .from(table)
    .where(where)
    .orderBy(...order)
    .limit(window.limit)
    .offset(window.offset);
  const [rows, total] = await Promise.all([query.rows(inArray(id, pageIds)), query.total()]);
  return { rows, total };
}

/** How many rows of `table` match `where`. */
export async function countRows(db: AppDb, table: PgTable, where?: SQL): Promise<number> {
  const [row] = await db.select({ total: count() }).from(table).where(where);
  return row?.total ?? 0;
}
