import type { PaymentHistoryEntry, PurchasedAlbum, Transaction, UserSubscription } from '@backbeat/contract';
import { mediaUrl } from '../../platform/media-url';
import type { OrderRow, SoldItemRow, SubscriptionRow, TransactionRow } from './dashboard.repository';

export function presentHistoryEntry(row: OrderRow): PaymentHistoryEntry {
  return {
    _id: row.id,
    itemType: row.itemType,
    itemId: row.itemId,
    itemTitle: row.itemTitle,
    cycle: row.cycle,
    amount: row.amount,
    currency: row.currency,
    gateway: row.gateway,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Buyers' e-mail addresses are shown to admins only. */
export function presentTransaction(row: TransactionRow, withEmail: boolean): Transaction {
  return {
    ...presentHistoryEntry(row),
    user:
      row.userId && row.userName !== null
        ? {
            _id: row.userId,
            name: row.userName,
            ...(withEmail && row.userEmail ? { email: row.userEmail } : {}),
          }
        : null,
    artist: row.artistId && row.artistName !== null ? { _id: row.artistId, name: row.artistName } : null,
  };
}

/**
 * A subscription whose paid period has ended reads `expired`, whatever its stored status; one cancelled but paid
 * through a future date still plays and ends with its period.
 */
export function presentSubscription(row: SubscriptionRow, now: Date): UserSubscription {
  const paidThrough = row.currentPeriodEnd !== null && row.currentPeriodEnd > now;
  const ended =
    (row.status === 'active' || row.status === 'cancelled' || row.status === 'past_due') && !paidThrough;
  return {
    _id: row.id,
    artist: { _id: row.artistId, name: row.artistName, image: mediaUrl(row.artistImage) },
    status: ended ? 'expired' : row.status,
    cycle: row.cycle,
    gateway: row.gateway,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: (row.cancelAtPeriodEnd || row.status === 'cancelled') && paidThrough,
    price: row.price,
    currency: row.currency,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A sold album as listed; songs rename `cover` to `coverImage`, as the catalogue does. */
export function presentSoldItem(row: SoldItemRow): PurchasedAlbum {
  return {
    _id: row.id,
    title: row.title,
    cover: mediaUrl(row.cover),
    purchases: row.purchases,
    revenue: row.revenue,
    currency: row.currency,
  };
}
