import type { Order } from '@backbeat/contract';
import type { OrderRow } from './payments.repository';

/** An order as its buyer sees it; `itemId` is the song, album or (for a subscription) artist id. */
export function presentOrder(row: OrderRow): Order {
  const itemId = row.itemType === 'song' ? row.songId : row.itemType === 'album' ? row.albumId : row.artistId;
  return {
    _id: row.id,
    itemType: row.itemType,
    itemId,
    itemTitle: row.itemTitle,
    amount: row.amount,
    currency: row.currency,
    gateway: row.gateway,
    status: row.status,
    cycle: row.cycle,
    createdAt: row.createdAt.toISOString(),
  };
}
