import { index, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { downloadFormatEnum, itemTypeEnum } from './enums';
import { users } from './users';

/**
 * One row per download started (a song file or an album ZIP), for counting and the per-account limit.
 * `item_id` is the song or album id; kept when the item leaves the catalogue.
 */
export const downloads = pgTable(
  'downloads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    itemType: itemTypeEnum('item_type').notNull(),
    itemId: uuid('item_id').notNull(),
    format: downloadFormatEnum('format').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('downloads_user_idx').on(t.userId, t.createdAt),
    index('downloads_item_idx').on(t.itemType, t.itemId, t.createdAt),
  ],
);
