import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { gatewayEnum, itemTypeEnum, orderStatusEnum, subscriptionStatusEnum } from './enums';
import { users } from './users';
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
    /** The gateway's id for this order (payment intent, razorpay order, paypal order). */
    externalId: text('external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_gateway_external_key').on(t.gateway, t.externalId),
    index('orders_user_idx').on(t.userId, t.createdAt),
    index('orders_artist_idx').on(t.artistId, t.createdAt),
    index('orders_status_idx').on(t.status, t.createdAt),
    /** The admin dashboard's transactions list over every artist: newest first. */
    index('orders_created_idx').on(t.createdAt),
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
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    raw: jsonb('raw'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_gateway_external_key').on(t.gateway, t.externalId),
    index('payments_order_idx').on(t.orderId),
  ],
);

/** An entitlement to a song or an album. Exactly one of song_id / album_id is set. */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    songId: uuid('song_id').references(() => songs.id, { onDelete: 'cascade' }),
    albumId: uuid('album_id').references(() => albums.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('purchases_user_song_key').on(t.userId, t.songId),
    uniqueIndex('purchases_user_album_key').on(t.userId, t.albumId),
    index('purchases_song_idx').on(t.songId),
    index('purchases_album_idx').on(t.albumId),
  ],
);

/** A subscription to an artist; access lasts until current_period_end even after cancellation. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'cascade' }),
    status: subscriptionStatusEnum('status').notNull().default('pending'),
    cycle: text('cycle').notNull().default('1m'),
    gateway: gatewayEnum('gateway').notNull(),
    externalId: text('external_id'),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_artist_idx').on(t.userId, t.artistId, t.currentPeriodEnd),
    index('subscriptions_artist_idx').on(t.artistId, t.status),
    uniqueIndex('subscriptions_gateway_external_key').on(t.gateway, t.externalId),
  ],
);
