import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgEnum, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { itemTypeEnum } from './enums';

/**
 * Dashboard rollups: per UTC day and per UTC month, kept by database triggers (migration 0006) in the same
 * transaction that writes a payment, a refund, a play or a subscription period, so every dashboard figure is an
 * indexed read of a few hundred rows however many orders there are. They record history: deleting a song, an album
 * or an account later does not rewrite the platform's or the artist's past figures (rows of a deleted item simply
 * find no catalogue row to join). `dashboard_rebuild_rollups()` recomputes them all from the ledger (after a bulk
 * load with triggers off).
 *
 * `scope` is the artist's id, or PLATFORM_SCOPE (all zeros) for the whole platform's row.
 */
export const rollupGrainEnum = pgEnum('rollup_grain', ['day', 'month']);

/** The scope of the platform-wide rollup rows. */
export const PLATFORM_SCOPE = '00000000-0000-0000-0000-000000000000';

const money = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);
/** The period a rollup row sums: its grain, and its bucket's first day. */
const period = () => ({
  grain: rollupGrainEnum('grain').notNull(),
  bucket: date('bucket', { mode: 'string' }).notNull(),
});

/**
 * Money per scope, bucket and currency: succeeded payments (gross) and refunds or disputes (refunded), split by
 * what was sold. A refund counts on the day it was made, in its own currency.
 */
export const revenueRollup = pgTable(
  'revenue_rollup',
  {
    scope: uuid('scope').notNull(),
    ...period(),
    currency: text('currency').notNull(),
    songGross: money('song_gross'),
    albumGross: money('album_gross'),
    subscriptionGross: money('subscription_gross'),
    songRefunded: money('song_refunded'),
    albumRefunded: money('album_refunded'),
    subscriptionRefunded: money('subscription_refunded'),
    /** Succeeded payments (renewals included) and refunds or disputes recorded in the bucket. */
    sales: integer('sales').notNull().default(0),
    refunds: integer('refunds').notNull().default(0),
    /**
     * Payments of all kinds: never negative and never below the net of any of the bucket's days, so a month row's
     * gross bounds what an artist can have made on its days (rankings; see dashboard-ranking.ts).
     */
    gross: bigint('gross', { mode: 'number' })
      .notNull()
      .generatedAlwaysAs(sql`song_gross + album_gross + subscription_gross`),
    /** What an artist ranks by: payments less refunds, all kinds. */
    net: bigint('net', { mode: 'number' })
      .notNull()
      .generatedAlwaysAs(
        sql`song_gross + album_gross + subscription_gross - song_refunded - album_refunded - subscription_refunded`,
      ),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.grain, t.bucket, t.currency] }),
    // Covering indexes (every column a read needs is in the index): the reads are index-only scans, instead of one
    // heap page per row (a scope's rows are written day after day, far apart in the table).
    index('revenue_rollup_scope_idx').on(
      t.scope,
      t.grain,
      t.bucket,
      t.currency,
      t.songGross,
      t.albumGross,
      t.subscriptionGross,
      t.songRefunded,
      t.albumRefunded,
      t.subscriptionRefunded,
      t.sales,
      t.refunds,
    ),
    // Top artists: one month's rows by their bound, best first (a ranking reads the head of each month it touches).
    index('revenue_rollup_bucket_gross_idx').on(t.grain, t.bucket, t.currency, t.gross.desc(), t.scope),
  ],
);

/** Money per song or album, bucket and currency (subscriptions have no item row: their artist is the item). */
export const itemRevenueRollup = pgTable(
  'item_revenue_rollup',
  {
    itemType: itemTypeEnum('item_type').notNull(),
    itemId: uuid('item_id').notNull(),
    artistId: uuid('artist_id'),
    ...period(),
    currency: text('currency').notNull(),
    gross: money('gross'),
    refunded: money('refunded'),
    sales: integer('sales').notNull().default(0),
    refunds: integer('refunds').notNull().default(0),
    net: bigint('net', { mode: 'number' })
      .notNull()
      .generatedAlwaysAs(sql`gross - refunded`),
  },
  (t) => [
    primaryKey({ columns: [t.itemType, t.itemId, t.grain, t.bucket, t.currency] }),
    // Best first by the ranking's bound (gross): a ranking reads the head of each month (platform) or of an
    // artist's month it touches, then sums its candidates by the primary key.
    index('item_revenue_rollup_bucket_gross_idx').on(
      t.itemType,
      t.grain,
      t.bucket,
      t.currency,
      t.gross.desc(),
      t.itemId,
    ),
    index('item_revenue_rollup_artist_gross_idx').on(
      t.artistId,
      t.itemType,
      t.grain,
      t.bucket,
      t.currency,
      t.gross.desc(),
      t.itemId,
    ),
  ],
);

/**
 * Plays per scope and bucket: full plays (`plays`, what rankings and every "plays" figure count) and 30-second
 * previews of locked songs (`preview_plays`, a figure of their own: a preview is not a listen).
 */
export const playsRollup = pgTable(
  'plays_rollup',
  {
    scope: uuid('scope').notNull(),
    ...period(),
    plays: integer('plays').notNull().default(0),
    previewPlays: integer('preview_plays').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.grain, t.bucket] }),
    index('plays_rollup_scope_idx').on(t.scope, t.grain, t.bucket, t.plays, t.previewPlays),
    // Top artists by plays: one bucket's rows, most played first.
    index('plays_rollup_bucket_idx').on(t.grain, t.bucket, t.plays.desc(), t.scope),
  ],
);

/** Full plays per song, and per album (of the song's album when it was played), and bucket. */
export const itemPlaysRollup = pgTable(
  'item_plays_rollup',
  {
    itemType: itemTypeEnum('item_type').notNull(),
    itemId: uuid('item_id').notNull(),
    artistId: uuid('artist_id'),
    ...period(),
    plays: integer('plays').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.itemType, t.itemId, t.grain, t.bucket] }),
    index('item_plays_rollup_bucket_idx').on(t.itemType, t.grain, t.bucket, t.plays.desc(), t.itemId),
    index('item_plays_rollup_artist_idx').on(
      t.artistId,
      t.itemType,
      t.grain,
      t.bucket,
      t.plays.desc(),
      t.itemId,
    ),
  ],
);

/**
 * Subscriptions starting and ending per scope and UTC day. A subscription counts as a subscriber at the end of
 * each day from the day it was taken out until the day its paid period ends (the period end a refund or a
 * revocation cut short included): subscribers at the end of day D = starts on or before D - ends on or before D.
 */
export const subscriberRollup = pgTable(
  'subscriber_rollup',
  {
    scope: uuid('scope').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    starts: integer('starts').notNull().default(0),
    ends: integer('ends').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.day] }),
    index('subscriber_rollup_scope_idx').on(t.scope, t.day, t.starts, t.ends),
  ],
);

export type RollupGrain = (typeof rollupGrainEnum.enumValues)[number];
