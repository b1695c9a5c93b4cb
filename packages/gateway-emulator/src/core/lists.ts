import { Refusal, type EmulatorResponse } from './router';
import type { Obj } from './store';

/** Created-time bounds as the providers take them (unix seconds). */
export interface CreatedRange {
  gte?: number;
  gt?: number;
  lte?: number;
  lt?: number;
}

export function inRange(created: number, range: CreatedRange | undefined): boolean {
  if (!range) return true;
  return (
    (range.gte === undefined || created >= range.gte) &&
    (range.gt === undefined || created > range.gt) &&
    (range.lte === undefined || created <= range.lte) &&
    (range.lt === undefined || created < range.lt)
  );
}

/** Newest first, as the providers list: by creation time, then by creation order (`items` is oldest first). */
export function newestFirst<T extends Obj>(items: T[], created: (item: T) => number): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => created(b.item) - created(a.item) || b.index - a.index)
    .map(({ item }) => item);
}

/**
 * Stripe's list page: `{object:'list', data, has_more, url}`, newest first, cursors `starting_after` (older than
 * the object) and `ending_before` (newer than it), `limit` 1 to 100 (default 10). A cursor is any object of the
 * collection, matching the filters or not; an unknown one is refused.
 */
export function stripePage(
  sorted: Obj[],
  keep: (object: Obj) => boolean,
  query: { limit?: number; starting_after?: string; ending_before?: string },
  url: string,
  missingCursor: (param: string, id: string) => EmulatorResponse,
): { object: 'list'; data: Obj[]; has_more: boolean; url: string } {
  const limit = query.limit ?? 10;
  const position = (param: 'starting_after' | 'ending_before') => {
    const id = query[param]!;
    const index = sorted.findIndex((item) => item.id === id);
    if (index < 0) throw new Refusal(missingCursor(param, id));
    return index;
  };
  if (query.ending_before) {
    const before = sorted.slice(0, position('ending_before')).filter(keep);
    const start = Math.max(0, before.length - limit);
    return { object: 'list', data: before.slice(start), has_more: start > 0, url };
  }
  const after = sorted.slice(query.starting_after ? position('starting_after') + 1 : 0).filter(keep);
  return { object: 'list', data: after.slice(0, limit), has_more: after.length > limit, url };
}

/** Razorpay's collection: `{entity:'collection', count, items}`, newest first, `skip` then `count` (max 100). */
export function razorpayCollection(sorted: Obj[], query: { count?: number; skip?: number }) {
  const items = sorted.slice(query.skip ?? 0, (query.skip ?? 0) + (query.count ?? 10));
  return { entity: 'collection', count: items.length, items };
}

/** PayPal's page: 1-based `page` of `page_size` items, with the totals PayPal reports. */
export function paypalPage<T>(items: T[], page: number, pageSize: number) {
  const start = (page - 1) * pageSize;
  return {
    items: items.slice(start, start + pageSize),
    total_items: items.length,
    total_pages: Math.max(1, Math.ceil(items.length / pageSize)),
  };
}
