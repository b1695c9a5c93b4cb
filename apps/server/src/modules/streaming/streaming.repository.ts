import { and, asc, desc, eq, exists, inArray, lte, ne, or, sql } from 'drizzle-orm';
import type { Role } from '@backbeat/contract';
import { albumTracks } from '../../db/album-tracks';
import { queryRows, toDate } from '../../db/client';
import {
  albums,
  artists,
  audioFetches,
  PLAYABLE_SONG_STATUSES,
  plays,
  purchases,
  songRenditions,
  songs,
  subscriptions,
} from '../../db/schema';
import {
  type Entitlements,
  type HeldAlbum,
  HeldItemsReader,
  purchaseStands,
  type SongAccessFacts,
  songFacts,
  songEntitlementColumns,
  subscriptionToArtistPlays,
} from '../access';

export type ProcessingStatus = 'processing' | 'ready' | 'failed' | 'removed';

/** What streaming needs to know about a song besides the policy facts. */
export interface SongMedia {
  status: ProcessingStatus;
  failureReason: string | null;
  hlsPrefix: string | null;
  durationSec: number;
}

/** A song's policy facts and media state, plus one viewer's role and entitlements to it. */
export interface SongAccessRow {
  facts: SongAccessFacts;
  media: SongMedia;
  /** The viewer's role, or null when the viewer's account no longer exists. */
  viewerRole: Role | null;
  entitlements: Entitlements;
}

/** An album as its streams and downloads read it (deleted ones included, for their buyers). */
export type AlbumStreamRow = HeldAlbum;

export interface AlbumSongRow {
  id: string;
  /** The ready song's media prefix. */
  hlsPrefix: string | null;
  accessType: SongAccessFacts['accessType'];
  freeToStream: boolean;
  artistId: string;
  artistName: string;
  artistOwnerUserId: string | null;
  removedAt: Date | null;
}

/** A song's media state and its current preview (null while none is made). */
export interface SongPreviewRow {
  media: SongMedia;
  preview: { prefix: string; startSec: number; durationSec: number } | null;
}

export interface RecentlyPlayedRow {
  id: string;
  title: string;
  singer: string;
  coverImage: string | null;
  durationSec: number;
  playedAt: Date;
}

export class StreamingRepository extends HeldItemsReader {
  /**
   * The song, its artist and album, and the viewer's purchases and paid-through subscription for it, in ONE
   * indexed query: the key endpoint runs it on every key fetch.
   */
  async findSongAccess(songId: string, userId: string, now: Date): Promise<SongAccessRow | null> {
    const [row] = await this.db
      .select({
        id: songs.id,
        accessType: songs.accessType,
        freeToStream: songs.freeToStream,
        status: songs.status,
        failureReason: songs.failureReason,
        hlsPrefix: songs.hlsPrefix,
        durationSec: songs.durationSec,
        removedAt: songs.deletedAt,
        artistId: songs.artistId,
        artistName: artists.name,
        artistOwnerUserId: artists.ownerUserId,
        albumId: albums.id,
        albumTitle: albums.title,
        albumIsPremium: albums.isPremium,
        viewerRole: sql<Role | null>`(select u.role from users u where u.id = ${userId})`,
        ...songEntitlementColumns(this.db, userId, now),
      })
      .from(songs)
      .innerJoin(artists, eq(artists.id, songs.artistId))
      .leftJoin(albums, eq(albums.id, songs.albumId))
      .where(eq(songs.id, songId))
      .limit(1);
    if (!row) return null;

    const paidThrough = toDate(row.paidThrough);
    const paidFrom = toDate(row.paidFrom);
    return {
      facts: songFacts(row),
      media: {
        status: row.status,
        failureReason: row.failureReason,
        hlsPrefix: row.hlsPrefix,
        durationSec: row.durationSec,
      },
      viewerRole: row.viewerRole,
      entitlements: {
        purchasedSongIds: new Set(row.songPurchased ? [row.id] : []),
        purchasedAlbumIds: new Set(row.albumPurchased && row.albumId ? [row.albumId] : []),
        subscriptionPeriodEnds: new Map(paidThrough ? [[row.artistId, paidThrough]] : []),
        subscriptionPeriodStarts: new Map(paidFrom ? [[row.artistId, paidFrom]] : []),
      },
    };
  }

  /** Where a playable (ready or removed) song's HLS files live; null for unknown or unready songs. */
  async findReadyMediaPrefix(songId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ hlsPrefix: songs.hlsPrefix })
      .from(songs)
      .where(and(eq(songs.id, songId), inArray(songs.status, [...PLAYABLE_SONG_STATUSES])))
      .limit(1);
    return row?.hlsPrefix ?? null;
  }

  /**
   * The album's ready songs in track order; for a deleted album, the tracks it held then (removed ones included),
   * in their order.
   */
  async findReadyAlbumSongs(album: {
    id: string;
    deletedTrackIds: string[] | null;
  }): Promise<AlbumSongRow[]> {
    const columns = {
      id: songs.id,
      hlsPrefix: songs.hlsPrefix,
      accessType: songs.accessType,
      freeToStream: songs.freeToStream,
      artistId: songs.artistId,
      artistName: artists.name,
      artistOwnerUserId: artists.ownerUserId,
      removedAt: songs.deletedAt,
    };
    const tracks = albumTracks(album);
    if (!tracks) return [];
    return this.db
      .select(columns)
      .from(songs)
      .innerJoin(artists, eq(artists.id, songs.artistId))
      .where(tracks.where)
      .orderBy(...tracks.orderBy);
  }

  /** The song's media state and the preview made for its current HLS version, in one query. */
  async findPreview(songId: string): Promise<SongPreviewRow | null> {
    const [row] = await this.db
      .select({
        status: songs.status,
        failureReason: songs.failureReason,
        hlsPrefix: songs.hlsPrefix,
        durationSec: songs.durationSec,
        previewPrefix: songRenditions.mediaKey,
        previewStartSec: songRenditions.startSec,
        previewDurationSec: songRenditions.durationSec,
      })
      .from(songs)
      .leftJoin(
        songRenditions,
        and(
          eq(songRenditions.songId, songs.id),
          eq(songRenditions.kind, 'preview'),
          eq(songRenditions.hlsPrefix, songs.hlsPrefix),
        ),
      )
      .where(eq(songs.id, songId))
      .limit(1);
    if (!row) return null;
    const { previewPrefix, previewStartSec, previewDurationSec, ...media } = row;
    return {
      media,
      preview:
        media.status === 'ready' && previewPrefix
          ? { prefix: previewPrefix, startSec: previewStartSec ?? 0, durationSec: previewDurationSec ?? 0 }
          : null,
    };
  }

  /** Where a ready song's current preview lives; null when it has none (yet). */
  async findReadyPreviewPrefix(songId: string): Promise<string | null> {
    const row = await this.findPreview(songId);
    return row?.preview?.prefix ?? null;
  }

  async insertPlay(play: {
    userId: string | null;
    songId: string;
    secondsListened: number;
    kind?: 'full' | 'preview';
    playedAt: Date;
  }): Promise<void> {
    await this.db.insert(plays).values(play);
  }

  /** Notes that the song's audio (key or fallback file) was served to the user at `at`. */
  async recordAudioFetch(userId: string, songId: string, at: Date): Promise<void> {
    await this.db
      .insert(audioFetches)
      .values({ userId, songId, fetchedAt: at })
      .onConflictDoUpdate({
        target: [audioFetches.userId, audioFetches.songId],
        set: { fetchedAt: at },
        setWhere: sql`${audioFetches.fetchedAt} < ${at.toISOString()}::timestamptz`,
      });
  }

  /**
   * Inserts a full play only if audio of the song was served to the user since their last counted play of it, and
   * that play is at least `windowSec` old; returns whether it was counted. One statement: the update takes the
   * (user, song) row's lock, so of two concurrent posts the second sees the first's `counted_at` and counts nothing.
   */
  async insertCountedPlay(play: {
    userId: string;
    songId: string;
    secondsListened: number;
    playedAt: Date;
    windowSec: number;
  }): Promise<boolean> {
    const at = play.playedAt.toISOString();
    const f = audioFetches;
    const counted = await queryRows(
      this.db,
      sql`
      with consumed as (
        update ${f} set counted_at = ${at}::timestamptz
        where ${f.userId} = ${play.userId}::uuid and ${f.songId} = ${play.songId}::uuid
          and (${f.countedAt} is null
               or (${f.fetchedAt} > ${f.countedAt}
                   and ${f.countedAt} <= ${at}::timestamptz - make_interval(secs => ${play.windowSec})))
        returning ${f.userId}
      )
      insert into ${plays} (user_id, song_id, seconds_listened, kind, played_at)
      select ${play.userId}::uuid, ${play.songId}::uuid, ${play.secondsListened}, 'full', ${at}::timestamptz
      from consumed
      returning id`,
    );
    return counted.length > 0;
  }

  /** Distinct songs the user played in full (previews are not listens), latest play first. */
  async recentlyPlayed(userId: string, limit: number, now: Date): Promise<RecentlyPlayedRow[]> {
    // A song its artist removed stays listed only while the user holds it: bought, or subscribed since before.
    const held = or(
      ne(songs.status, 'removed'),
      exists(
        this.db
          .select({ one: sql`1` })
          .from(purchases)
          .where(and(eq(purchases.userId, userId), eq(purchases.songId, songs.id), purchaseStands)),
      ),
      exists(
        this.db
          .select({ one: sql`1` })
          .from(subscriptions)
          .where(
            and(
              subscriptionToArtistPlays(userId, songs.artistId, now),
              lte(subscriptions.currentPeriodStart, songs.deletedAt),
            ),
          ),
      ),
    );
    const latest = this.db
      .select({ songId: plays.songId, playedAt: sql<Date>`max(${plays.playedAt})`.as('played_at') })
      .from(plays)
      .innerJoin(songs, eq(songs.id, plays.songId))
      .where(and(eq(plays.userId, userId), eq(plays.kind, 'full'), held))
      .groupBy(plays.songId)
      .orderBy(desc(sql`max(${plays.playedAt})`))
      .limit(limit)
      .as('latest');
    const rows = await this.db
      .select({
        id: songs.id,
        title: songs.title,
        singer: songs.singer,
        coverImage: songs.coverImage,
        durationSec: songs.durationSec,
        playedAt: latest.playedAt,
      })
      .from(latest)
      .innerJoin(songs, eq(songs.id, latest.songId))
      .orderBy(desc(latest.playedAt), asc(songs.id));
    return rows.map((row) => ({ ...row, playedAt: toDate(row.playedAt) ?? new Date(0) }));
  }
}
