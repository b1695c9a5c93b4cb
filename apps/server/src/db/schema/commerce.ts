import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import {
  gatewayEnum,
  itemTypeEnum,
  orderStatusEnum,
  paymentEventStatusEnum,
  paymentIssueKindEnum,
  paymentIssueStatusEnum,
  reconciliationStatusEnum,
  refundKindEnum,
  subscriptionStatusEnum,
} from './enums';
import { userIdColumn, users } from './users';
import { albums, artists, songs } from './catalog';

/**
 * An order exists before any gateway is called; amounts are server-priced minor units.
 * user_id becomes null when the buyer deletes their account: the anonymised record stays for accounting.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    itemType: itemTypeEnum('item_type').notNull(),
    songId: uuid('song_id').references(() => songs.id, { onDelete: 'set null' }),
    albumId: uuid('album_id').references(() => albums.id, { onDelete: 'set null' }),
    artistId: uuid('artist_id').references(() => artists.id, { onDelete: 'set null' }),
    /** Title of what was bought, kept so receipts survive catalogue deletions. */
    itemTitle: text('item_title').notNull(),
    cycle: text('cycle'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    gateway: gatewayEnum('gateway').notNull(),
    status: orderStatusEnum('status').notNull().default('pending'),
    /** The gateway's id for this order (payment intent, razorpay order, paypal order, stripe invoice). */
    externalId: text('external_id'),
    /** The subscription this order started or renewed. */
    subscriptionId: uuid('subscription_id').references((): AnyPgColumn => subscriptions.id, {
      onDelete: 'set null',
    }),
    /** A renewal charged by the gateway (no checkout): written already paid when the gateway reports it. */
    renewal: boolean('renewal').notNull().default(false),
    /**
     * The period a paid subscription order pays for, as the gateway reported it: a refund or dispute of this order
     * takes back exactly this period (a renewal paid separately keeps playing).
     */
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_gateway_external_key').on(t.gateway, t.externalId),
    index('orders_user_idx').on(t.userId, t.createdAt),
    // The dashboard's transactions: each filter's index is in the list's order to the row (created_at, then id) and
    // carries the other filters' columns, so a page, a deep page and the capped count of matching orders are
    // index-only scans instead of one table page per row.
    index('orders_artist_idx').on(t.artistId, t.createdAt, t.id, t.status, t.gateway, t.itemType),
    index('orders_status_idx').on(t.status, t.createdAt, t.id, t.gateway, t.itemType),
    /** The admin dashboard's transactions list over every artist: newest first. */
    index('orders_created_idx').on(t.createdAt, t.id),
    index('orders_subscription_idx').on(t.subscriptionId),
    index('orders_gateway_idx').on(t.gateway, t.createdAt, t.id, t.itemType, t.status),
    index('orders_item_type_idx').on(t.itemType, t.createdAt, t.id, t.gateway, t.status),
    // The amount sort, of every order and of one artist's.
    index('orders_amount_idx').on(t.amount, t.createdAt, t.id),
    index('orders_artist_amount_idx').on(t.artistId, t.amount, t.createdAt, t.id),
  ],
);

/** Verified confirmations from a gateway; unique per (gateway, external id) so replays grant nothing new. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    gateway: gatewayEnum('gateway').notNull(),
    externalId: text('external_id').notNull(),
    /**
     * The gateway's other id for the same money, where refunds and disputes name it instead: the PaymentIntent of a
     * Stripe invoice, the capture of a PayPal order, the sale of a PayPal subscription payment.
     */
    reference: text('reference'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    raw: jsonb('raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_gateway_external_key').on(t.gateway, t.externalId),
    index('payments_order_idx').on(t.orderId),
    index('payments_gateway_reference_idx').on(t.gateway, t.reference),
  ],
);

/**
 * An entitlement to a song or an album. Exactly one of song_id / album_id is set. Buying an album also writes one row
 * per track it holds then (`granted_by_album_id`), so a track stays the buyer's when it leaves the album or the album
 * is deleted. A refund or dispute sets `revoked_at`; the row stays as the record.
 */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userIdColumn(),
    songId: uuid('song_id').references(() => songs.id, { onDelete: 'cascade' }),
    albumId: uuid('album_id').references(() => albums.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    /** Set on the track rows an album purchase wrote (no foreign key: the album may be deleted later). */
    grantedByAlbumId: uuid('granted_by_album_id'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('purchases_order_idx').on(t.orderId),
    uniqueIndex('purchases_user_song_key').on(t.userId, t.songId),
    uniqueIndex('purchases_user_album_key').on(t.userId, t.albumId),
    index('purchases_song_idx').on(t.songId),
    index('purchases_album_idx').on(t.albumId),
  ],
);

/**
 * A subscription to an artist. Access is exactly the paid period: it plays while `current_period_end` is in the
 * future and the status is active, past_due or cancelled (see modules/access). For a gateway subscription the period
 * is the one the gateway reports on each paid invoice; `cancel_at_period_end` means it will not renew.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userIdColumn(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'cascade' }),
    status: subscriptionStatusEnum('status').notNull().default('pending'),
    cycle: text('cycle').notNull().default('1m'),
    gateway: gatewayEnum('gateway').notNull(),
    externalId: text('external_id'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** When the gateway ended it (deleted, halted, expired) or a refund revoked it. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The price of one cycle, minor units. */
    amount: integer('amount'),
    currency: text('currency'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_artist_idx').on(t.userId, t.artistId, t.currentPeriodEnd),
    index('subscriptions_artist_idx').on(t.artistId, t.status),
    uniqueIndex('subscriptions_gateway_external_key').on(t.gateway, t.externalId),
    // The platform's subscribers now: subscriptions whose paid period runs (see modules/access). Not a partial
    // index: a predicate naming past_due could not be built in the transaction that migrates an older database
    // (that enum value was added by migration 0005).
    index('subscriptions_period_end_idx').on(t.currentPeriodEnd, t.status),
  ],
);

/** Money taken back from a paid order: a refund (ours or from the gateway's dashboard) or a dispute. */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    gateway: gatewayEnum('gateway').notNull(),
    /** The gateway's refund or dispute id. */
    externalId: text('external_id').notNull(),
    kind: refundKindEnum('kind').notNull().default('refund'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason'),
    raw: jsonb('raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refunds_gateway_external_key').on(t.gateway, t.externalId),
    index('refunds_order_idx').on(t.orderId),
    index('refunds_created_idx').on(t.createdAt),
  ],
);

/**
 * Every webhook event a gateway delivered, once: the unique (gateway, event id) makes handlers idempotent. An event
 * for an order we do not know is kept as `unknown_order` and answered 200 so the gateway stops retrying.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gateway: gatewayEnum('gateway').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    status: paymentEventStatusEnum('status').notNull().default('received'),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    payload: jsonb('payload').notNull(),
    note: text('note'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_events_gateway_event_key').on(t.gateway, t.eventId),
    index('payment_events_received_idx').on(t.receivedAt),
  ],
);

/** The gateway's customer for a user (Stripe Customer), created once and kept. */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    userId: userIdColumn(),
    gateway: gatewayEnum('gateway').notNull(),
    externalId: text('external_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.gateway] })],
);

/**
 * A recurring price at a gateway (Stripe Price, Razorpay plan, PayPal billing plan) for one artist, cycle and amount,
 * created once and reused; a new price of the artist makes a new plan.
 */
export const paymentPlans = pgTable(
  'payment_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gateway: gatewayEnum('gateway').notNull(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'cascade' }),
    cycle: text('cycle').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    externalId: text('external_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_plans_offer_key').on(t.gateway, t.artistId, t.cycle, t.amount, t.currency)],
);

/**
 * A refund, dispute or dispute reversal reported before the payment it names was known here (gateways deliver events
 * in any order): kept, and applied in the transaction that records that payment. `payment_ref` is the gateway's id
 * of the money (PaymentIntent or charge, Razorpay payment, PayPal capture or sale).
 */
export const earlyAdjustments = pgTable(
  'early_adjustments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gateway: gatewayEnum('gateway').notNull(),
    paymentRef: text('payment_ref').notNull(),
    kind: refundKindEnum('kind').notNull(),
    externalId: text('external_id').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    reason: text('reason'),
    raw: jsonb('raw'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('early_adjustments_gateway_external_key').on(t.gateway, t.externalId),
    index('early_adjustments_payment_idx').on(t.gateway, t.paymentRef),
  ],
);

/** What needs an admin's eye (see `paymentIssueKindEnum`); one row per problem, resolved when settled. */
export const paymentIssues = pgTable(
  'payment_issues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gateway: gatewayEnum('gateway').notNull(),
    kind: paymentIssueKindEnum('kind').notNull(),
    /** The gateway's id of the money or object concerned. */
    externalId: text('external_id').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    amount: integer('amount'),
    currency: text('currency'),
    detail: text('detail').notNull(),
    status: paymentIssueStatusEnum('status').notNull().default('open'),
    resolution: text('resolution'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_issues_key').on(t.gateway, t.kind, t.externalId),
    index('payment_issues_status_idx').on(t.status, t.createdAt),
  ],
);

/**
 * One run of the reconciliation with a gateway: the window of the gateway's activity it read, and what it applied
 * that webhooks had missed (`fixes`) or could not settle (counted in `problems`, listed in payment_issues).
 */
export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    gateway: gatewayEnum('gateway').notNull(),
    trigger: text('trigger').notNull(),
    status: reconciliationStatusEnum('status').notNull().default('running'),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    windowEnd: timestamp('window_end', { withTimezone: true }).notNull(),
    examined: integer('examined').notNull().default(0),
    fixed: integer('fixed').notNull().default(0),
    problems: integer('problems').notNull().default(0),
    fixes: jsonb('fixes').notNull().default([]),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('reconciliation_runs_gateway_idx').on(t.gateway, t.startedAt)],
);
