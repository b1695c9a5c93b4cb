import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { albums, purchases, songs } from '../../db/schema';

/** Who a purchase is given to, under which order, when, and (for an album's track) through which album. */
export interface Grant {
  userId: string;
  orderId: string | null;
  grantedByAlbumId?: string | null;
  createdAt: Date;
}

/**
 * Gives the songs (or albums) to the account under the grant; where a purchase of one exists already, a standing one
 * is kept as it is and a revoked one (refunded before) is restored under this grant.
 */
export function grantPurchases(db: AppDb, key: 'songId' | 'albumId', itemIds: string[], grant: Grant) {
  const { orderId, grantedByAlbumId = null, createdAt } = grant;
  return db
    .insert(purchases)
    .values(itemIds.map((id) => (key === 'songId' ? { ...grant, songId: id } : { ...grant, albumId: id })))
    .onConflictDoUpdate({
      target: [purchases.userId, purchases[key]],
      set: { orderId, grantedByAlbumId, revokedAt: null, createdAt },
      setWhere: sql`${purchases.revokedAt} is not null`,
    });
}

/**
 * The writes that give or take back bought music; payments call these inside their own transaction. A purchase is
 * forever until a refund or dispute revokes it: buying an album also records each track it holds at that moment, so a
 * track that later leaves the album (or an album that is deleted) stays the buyer's.
 */
export class EntitlementGrants {
  constructor(private readonly db: AppDb) {}

  /** Grants a song; a standing entitlement is kept as it is, a revoked one (refunded before) is restored. */
  async grantSong(userId: string, songId: string, orderId: string, at: Date): Promise<void> {
    await grantPurchases(this.db, 'songId', [songId], { userId, orderId, createdAt: at });
  }

  /**
   * Grants an album and, row by row, the tracks it holds now (tracks bought on their own stay as they are); for an
   * album deleted meanwhile, the tracks it held when it was deleted.
   */
  async grantAlbum(userId: string, albumId: string, orderId: string, at: Date): Promise<void> {
    await grantPurchases(this.db, 'albumId', [albumId], { userId, orderId, createdAt: at });
    await this.db.execute(sql`
      insert into ${purchases} (user_id, song_id, order_id, granted_by_album_id, created_at)
      select ${userId}::uuid, ${songs.id}, ${orderId}::uuid, ${albumId}::uuid, ${at.toISOString()}::timestamptz
      from ${songs} where ${songs.albumId} = ${albumId}::uuid
        -- An album deleted while this checkout was open: the tracks it held then, as its other buyers have them.
        or ${songs.id} = any(coalesce((select ${albums.deletedTrackIds} from ${albums}
                                       where ${albums.id} = ${albumId}::uuid), '{}'::uuid[]))
      on conflict (user_id, song_id) do update
        set order_id = excluded.order_id, granted_by_album_id = excluded.granted_by_album_id,
            revoked_at = null, created_at = excluded.created_at
        where ${purchases.revokedAt} is not null`);
  }

  /**
   * The order whose own purchase gives the buyer this song or album now; null when nothing does, or when a song is
   * theirs through an album.
   */
  async holderOf(
    userId: string,
    item: { songId?: string | null; albumId?: string | null },
  ): Promise<string | null> {
    const where = item.songId
      ? and(eq(purchases.songId, item.songId), isNull(purchases.grantedByAlbumId))
      : item.albumId
        ? eq(purchases.albumId, item.albumId)
        : undefined;
    if (!where) return null;
    const [row] = await this.db
      .select({ orderId: purchases.orderId })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), isNull(purchases.revokedAt), where))
      .limit(1);
    return row?.orderId ?? null;
  }

  /** What one order granted is now held by another order of the same item (the ledger keeps that payment instead). */
  async moveOrder(fromOrderId: string, toOrderId: string): Promise<void> {
    await this.db
      .update(purchases)
      .set({ orderId: toOrderId })
      .where(and(eq(purchases.orderId, fromOrderId), isNull(purchases.revokedAt)));
  }

  /** Takes back everything one order granted (refund, dispute); returns how many entitlements it revoked. */
  async revokeOrder(orderId: string, at: Date): Promise<number> {
    const rows = await this.db
      .update(purchases)
      .set({ revokedAt: at })
      .where(and(eq(purchases.orderId, orderId), isNull(purchases.revokedAt)))
      .returning({ id: purchases.id });
    return rows.length;
  }
}
