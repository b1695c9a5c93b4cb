import { and, desc, eq, isNull, or } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { albums, artists, purchases, songs, subscriptions, users } from '../../db/schema';
import { purchaseStands } from '../access';
import type { SubscriptionRow } from './payments.repository';
import { activeSubscriptionsOf } from './subscriptions.repository';

/** An album on sale; a song is one too, with its album. */
export interface AlbumForSale {
  id: string;
  title: string;
  price: number;
  currency: string;
  artistId: string;
  /** The account that manages the item's artist: its music already plays for it. */
  artistOwnerUserId: string | null;
}

export interface SongForSale extends AlbumForSale {
  album: { id: string; title: string; isPremium: boolean } | null;
}

export interface ArtistForSale {
  id: string;
  name: string;
  subscriptionPrice: number;
  currency: string;
  ownerUserId: string | null;
}

export interface Buyer {
  id: string;
  name: string;
  email: string;
}

/** What can be sold to whom: catalogue prices and what the buyer already owns (read, never written, here). */
export class OffersRepository {
  constructor(private readonly db: AppDb) {}

  /** A song that is for sale (ready); `anyStatus` also finds one still processing (ownership checks). */
  async findSong(id: string, options: { anyStatus?: boolean } = {}): Promise<SongForSale | null> {
    const [row] = await this.db
      .select({
        id: songs.id,
        title: songs.title,
        price: songs.price,
        currency: songs.currency,
        artistId: songs.artistId,
        artistOwnerUserId: artists.ownerUserId,
        albumId: albums.id,
        albumTitle: albums.title,
        albumIsPremium: albums.isPremium,
      })
      .from(songs)
      .innerJoin(artists, eq(artists.id, songs.artistId))
      .leftJoin(albums, eq(albums.id, songs.albumId))
      .where(and(eq(songs.id, id), options.anyStatus ? undefined : eq(songs.status, 'ready')))
      .limit(1);
    if (!row) return null;
    const { albumId, albumTitle, albumIsPremium, ...song } = row;
    return {
      ...song,
      album: albumId ? { id: albumId, title: albumTitle ?? '', isPremium: albumIsPremium ?? false } : null,
    };
  }

  async findAlbum(id: string): Promise<AlbumForSale | null> {
    const [row] = await this.db
      .select({
        id: albums.id,
        title: albums.title,
        price: albums.price,
        currency: albums.currency,
        artistId: albums.artistId,
        artistOwnerUserId: artists.ownerUserId,
      })
      .from(albums)
      .innerJoin(artists, eq(artists.id, albums.artistId))
      // A deleted album (sold, then deleted by its artist) is never sold again.
      .where(and(eq(albums.id, id), isNull(albums.deletedAt)))
      .limit(1);
    return row ?? null;
  }

  async findArtist(id: string): Promise<ArtistForSale | null> {
    const [row] = await this.db
      .select({
        id: artists.id,
        name: artists.name,
        subscriptionPrice: artists.subscriptionPrice,
        currency: artists.currency,
        ownerUserId: artists.ownerUserId,
      })
      .from(artists)
      .where(eq(artists.id, id))
      .limit(1);
    return row ?? null;
  }

  /** True when the user bought the song, or the album it is on. */
  async ownsSong(userId: string, songId: string, albumId: string | null): Promise<boolean> {
    const bought = albumId
      ? or(eq(purchases.songId, songId), eq(purchases.albumId, albumId))
      : eq(purchases.songId, songId);
    const rows = await this.db
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), bought, purchaseStands))
      .limit(1);
    return rows.length > 0;
  }

  async ownsAlbum(userId: string, albumId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), eq(purchases.albumId, albumId), purchaseStands))
      .limit(1);
    return rows.length > 0;
  }

  /** The user's subscription to the artist that is active (not cancelled) and paid through a future date. */
  async findActiveSubscription(userId: string, artistId: string, now: Date): Promise<SubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(activeSubscriptionsOf(userId, artistId, now))
      .orderBy(desc(subscriptions.currentPeriodEnd))
      .limit(1);
    return row ?? null;
  }

  async findBuyer(userId: string): Promise<Buyer | null> {
    const [row] = await this.db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row ?? null;
  }
}
