/**
 * Admin dashboard shapes (SPEC section 7). The server answers the contract's dashboard schemas
 * (packages/contract/src/dashboard.ts); fields beyond the SPEC's are read defensively.
 */

export interface Transaction {
  _id: string;
  itemType?: string;
  itemId?: string | null;
  itemTitle?: string;
  title?: string;
  amount?: number;
  currency?: string;
  gateway?: string;
  status?: string;
  user?: { _id?: string; name?: string; email?: string } | null;
  userName?: string;
  artist?: { _id?: string; name?: string } | null;
  createdAt?: string;
}

export interface SubscriberStats {
  activeSubscribers: number;
  totalRevenue: number;
  currency?: string;
}

export interface RevenueBreakdown {
  songRevenue: number;
  albumRevenue: number;
  subscriptionRevenue: number;
  totalRevenue: number;
  currency?: string;
}

export interface PurchasedItem {
  _id: string;
  title?: string;
  name?: string;
  purchases?: number;
  count?: number;
  purchaseCount?: number;
  revenue?: number;
  currency?: string;
  coverImage?: string | null;
  cover?: string | null;
}

/** `POST /api/admin/orders/:id/refund`: the order after the refund and the server's message. */
export interface RefundResult {
  order: { _id: string; status: string };
  message: string;
}

/** Whose figures and which days: an artist (or, for admins without one, the platform) and an inclusive range. */
export interface DashboardScope {
  artistId?: string;
  from: string;
  to: string;
}

export type SeriesBucket = 'day' | 'week' | 'month';

export interface SeriesArgs extends DashboardScope {
  bucket: SeriesBucket;
}

export interface TopItemsArgs extends DashboardScope {
  type: 'song' | 'album' | 'artist';
  by: 'revenue' | 'plays';
  limit?: number;
}

export type TransactionSort = '-createdAt' | 'createdAt' | '-amount' | 'amount';

/** The transactions table's state: filters, order and page, as the API and the CSV take them. */
export interface TransactionFilters {
  artistId?: string;
  from?: string;
  to?: string;
  status?: string;
  gateway?: string;
  itemType?: string;
  sort: TransactionSort;
  page: number;
  limit: number;
}
