import { z } from 'zod';
import { Album, Song } from './catalog';
import { Id, Pagination, pageQuery } from './common';

/*
 * The user dashboard (GET /user/dashboard/*) and the artist/admin dashboard (GET /admin/dashboard/*) of SPEC
 * sections 3 and 7. Amounts are integer minor units plus an ISO currency. Revenue counts only payments whose
 * status is `succeeded` (PAYMENT_SUCCEEDED).
 */

export const ItemType = z.enum(['song', 'album', 'subscription']);
export type ItemType = z.infer<typeof ItemType>;
export const Gateway = z.enum(['stripe', 'razorpay', 'paypal', 'sandbox']);
export type Gateway = z.infer<typeof Gateway>;
export const OrderStatus = z.enum([
  'pending',
  'paid',
  'failed',
  'cancelled',
  'refunded',
  'disputed',
  /** Abandoned: nothing was paid within the order's time; its intent/order was cancelled at the gateway. */
  'expired',
]);
export type OrderStatus = z.infer<typeof OrderStatus>;
export const SubscriptionStatus = z.enum([
  'pending',
  'active',
  'past_due',
  'cancelled',
  'expired',
  'revoked',
]);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** The `payments.status` of a confirmed payment: the only payments that count as revenue. */
export const PAYMENT_SUCCEEDED = 'succeeded';

// ---------------------------------------------------------------------------------------------------------------
// User dashboard

/** What every list of orders shows of one: the payment history and the dashboards' transactions. */
const orderFields = {
  _id: z.string(),
  itemType: ItemType,
  /** The song, album or artist bought; null once it left the catalogue (the title is kept). */
  itemId: z.string().nullable(),
  itemTitle: z.string(),
  /** Subscription cycle (1m, 3m, 6m, 12m); null for purchases. */
  cycle: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  gateway: Gateway,
  status: OrderStatus,
};

/** One order of the signed-in user (a purchase or a subscription), as the payment history lists it. */
export const PaymentHistoryEntry = z.object({
  ...orderFields,
  /** A subscription renewal the gateway charged (no checkout). */
  renewal: z.boolean().optional(),
  /**
   * Money moved after the payment: refunds and disputes (taken back), and reversals of disputes the seller won (the
   * money came back: a negative amount).
   */
  refunds: z
    .array(
      z.object({
        _id: z.string(),
        kind: z.enum(['refund', 'dispute', 'reversal']),
        amount: z.number().int(),
        currency: z.string(),
        createdAt: z.string(),
      }),
    )
    .optional(),
  createdAt: z.string(),
});
export type PaymentHistoryEntry = z.infer<typeof PaymentHistoryEntry>;

/** Songs and albums the user owns (most recent purchase first) and every order, newest first. */
export const UserPurchasesResponse = z.object({
  songs: z.array(Song),
  albums: z.array(Album),
  history: z.array(PaymentHistoryEntry),
});
export type UserPurchasesResponse = z.infer<typeof UserPurchasesResponse>;

/**
 * The user's latest subscription to each artist. `status` is the effective one: a subscription whose paid period
 * has ended reads `expired`. `cancelAtPeriodEnd` is true when it was cancelled but still plays until
 * `currentPeriodEnd`. `price` is the artist's monthly price.
 */
export const UserSubscription = z.object({
  _id: z.string(),
  artist: z.object({ _id: z.string(), name: z.string(), image: z.string().nullable() }),
  status: SubscriptionStatus,
  cycle: z.string(),
  gateway: Gateway,
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  price: z.number().int(),
  currency: z.string(),
  createdAt: z.string(),
});
export type UserSubscription = z.infer<typeof UserSubscription>;

export const UserSubscriptionsResponse = z.object({ subscriptions: z.array(UserSubscription) });
export type UserSubscriptionsResponse = z.infer<typeof UserSubscriptionsResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Artist / admin dashboard

export const DashboardArtistParams = z.object({ artistId: Id });
export type DashboardArtistParams = z.infer<typeof DashboardArtistParams>;

const DAY_MS = 86_400_000;
const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
/** The first instant a `from` bound admits. */
export const dateBoundStart = (bound: string): Date => new Date(isDay(bound) ? `${bound}T00:00:00Z` : bound);
/** The last instant a `to` bound admits (a whole day ends just before the next day's midnight, UTC). */
export const dateBoundEnd = (bound: string): Date =>
  isDay(bound) ? new Date(new Date(`${bound}T00:00:00Z`).getTime() + DAY_MS - 1) : new Date(bound);

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });
/** A day (YYYY-MM-DD, the whole day) or an instant (ISO 8601 with Z or an offset). */
const DateBound = z.union([isoDate, isoDateTime], {
  error: 'must be a date (YYYY-MM-DD) or an ISO date-time',
});

/** Orders of the transaction list: newest first (the default), oldest first, or by amount. */
export const TransactionSort = z.enum(['-createdAt', 'createdAt', '-amount', 'amount'], {
  error: 'must be one of -createdAt, createdAt, -amount, amount',
});
export type TransactionSort = z.infer<typeof TransactionSort>;

/** The list pages through at most this many matching orders; narrower filters or the CSV reach the rest. */
export const TRANSACTIONS_PAGE_WINDOW = 10_000;

const transactionFilters = {
  status: OrderStatus.optional(),
  gateway: Gateway.optional(),
  itemType: ItemType.optional(),
  from: DateBound.optional(),
  to: DateBound.optional(),
  artistId: Id.optional(),
  sort: TransactionSort.default('-createdAt'),
};
const boundsInOrder = (query: { from?: string; to?: string }) =>
  !query.from || !query.to || dateBoundStart(query.from) <= dateBoundEnd(query.to);
const boundsMessage = { message: 'from must not be after to', path: ['from'] };

/**
 * Filters of the transaction list. `from` is inclusive; `to` is inclusive too (a day means the whole day).
 * An artist account sees its own artist's transactions only (`artistId` may name it; any other is 403).
 */
export const TransactionsQuery = pageQuery(20)
  .extend(transactionFilters)
  .refine(boundsInOrder, boundsMessage)
  .refine((query) => (query.page - 1) * query.limit < TRANSACTIONS_PAGE_WINDOW, {
    message: `must stay within the first ${TRANSACTIONS_PAGE_WINDOW.toLocaleString('en-US')} transactions; narrow the filters or download the CSV`,
    path: ['page'],
  });
export type TransactionsQuery = z.infer<typeof TransactionsQuery>;

/** The CSV export: the list's filters and order, every matching row. */
export const TransactionsCsvQuery = z.object(transactionFilters).refine(boundsInOrder, boundsMessage);
export type TransactionsCsvQuery = z.infer<typeof TransactionsCsvQuery>;

/** One order as the dashboards list it; `user` is null once the buyer deleted their account. */
export const Transaction = z.object({
  ...orderFields,
  /** `email` only for admins. */
  user: z.object({ _id: z.string(), name: z.string(), email: z.string().optional() }).nullable(),
  artist: z.object({ _id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type Transaction = z.infer<typeof Transaction>;

/**
 * `total` counts matching orders up to TRANSACTIONS_PAGE_WINDOW; `totalCapped` says there are more than that (the
 * list pages through that many; the CSV has them all).
 */
export const TransactionsResponse = z.object({
  transactions: z.array(Transaction),
  pagination: Pagination.extend({ totalCapped: z.boolean() }),
});
export type TransactionsResponse = z.infer<typeof TransactionsResponse>;

/**
 * A song or album of the artist that was bought: `purchases` counts the accounts owning it, `revenue` sums its
 * succeeded payments less refunds in the item's currency. Highest revenue first.
 */
const PurchasedItemBase = z.object({
  _id: z.string(),
  title: z.string(),
  purchases: z.number().int(),
  revenue: z.number().int(),
  currency: z.string(),
});
export const PurchasedSong = PurchasedItemBase.extend({ coverImage: z.string().nullable() });
export type PurchasedSong = z.infer<typeof PurchasedSong>;
export const PurchasedAlbum = PurchasedItemBase.extend({ cover: z.string().nullable() });
export type PurchasedAlbum = z.infer<typeof PurchasedAlbum>;

export const PurchasedSongsResponse = z.object({ songs: z.array(PurchasedSong) });
export type PurchasedSongsResponse = z.infer<typeof PurchasedSongsResponse>;
export const PurchasedAlbumsResponse = z.object({ albums: z.array(PurchasedAlbum) });
export type PurchasedAlbumsResponse = z.infer<typeof PurchasedAlbumsResponse>;

/**
 * Accounts whose subscription plays now (active, or cancelled but paid through a period not yet ended), and the
 * artist's subscription revenue (payments less refunds) in the artist's currency.
 */
export const SubscriberStatsResponse = z.object({
  activeSubscribers: z.number().int(),
  totalRevenue: z.number().int(),
  currency: z.string(),
});
export type SubscriberStatsResponse = z.infer<typeof SubscriberStatsResponse>;

const RevenueAmounts = z.object({
  songRevenue: z.number().int(),
  albumRevenue: z.number().int(),
  subscriptionRevenue: z.number().int(),
  totalRevenue: z.number().int(),
  currency: z.string(),
});

/**
 * The artist's revenue: succeeded payments for its songs, albums and subscriptions less refunds and disputes (in
 * the currency they were paid in). The top-level amounts are in the artist's currency; `byCurrency` lists every
 * currency that was paid in (usually just that one), never summed across currencies.
 */
export const RevenueBreakdown = RevenueAmounts.extend({ byCurrency: z.array(RevenueAmounts) });
export type RevenueBreakdown = z.infer<typeof RevenueBreakdown>;

export const RevenueSummaryResponse = z.object({ revenue: RevenueBreakdown });
export type RevenueSummaryResponse = z.infer<typeof RevenueSummaryResponse>;
