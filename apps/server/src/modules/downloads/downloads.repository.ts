import { eq, sql } from 'drizzle-orm';
import type { DownloadFormat, DownloadItemType, Role } from '@backbeat/contract';
import { albumTracks } from '../../db/album-tracks';
import { toDate } from '../../db/client';
import { albums, artists, downloads, songs, users } from '../../db/schema';
import { HeldItemsReader, type HeldAlbum, type SongFactsRow } from '../access';

/** A song as a download needs it: the policy facts, its media state, and what its file is tagged with. */
export interface DownloadSongRow extends SongFactsRow {
  title: string;
  singer: string;
  status: 'processing' | 'ready' | 'failed' | 'removed';
  hlsPrefix: string | null;
  trackNumber: number | null;
  /** The song's cover, else its album's (a media-store image key). */
  coverImage: string | null;
  artistAllowsSubscriberDownloads: boolean;
  albumReleaseDate: Date | null;
  /** Ready songs on the song's album (the "of N" of its track number). */
  albumTrackCount: number | null;
  genreName: string | null;
}

/** An album as its streams and downloads read it (deleted ones included, for their buyers). */
export type DownloadAlbumRow = HeldAlbum;

const songColumns = {
  id: songs.id,
  title: songs.title,
  singer: songs.singer,
  status: songs.status,
  hlsPrefix: songs.hlsPrefix,
  trackNumber: songs.trackNumber,
  accessType: songs.accessType,
  coverImage: sql<string | null>`coalesce(${songs.coverImage}, ${albums.cover})`,
  artistId: songs.artistId,
  artistName: artists.name,
  artistOwnerUserId: artists.ownerUserId,
  artistAllowsSubscriberDownloads: artists.allowSubscriberDownloads,
  albumId: albums.id,
  albumTitle: albums.title,
  albumIsPremium: albums.isPremium,
  albumReleaseDate: albums.releaseDate,
  albumTrackCount: sql<number | null>`(select count(*)::int from songs s2
    where s2.album_id = "songs"."album_id" and s2.status = 'ready')`,
  genreName: sql<string | null>`(select g.name from genres g where g.id = "songs"."genre_id")`,
  removedAt: songs.deletedAt,
};

export class DownloadsRepository extends HeldItemsReader {
  private selectSongs() {
    return this.db
      .select(songColumns)
      .from(songs)
      .innerJoin(artists, eq(artists.id, songs.artistId))
      .leftJoin(albums, eq(albums.id, songs.albumId));
  }

  private static row(row: Record<string, unknown> & DownloadSongRow): DownloadSongRow {
    return {
      ...row,
      albumTrackCount: row.albumId ? Number(row.albumTrackCount ?? 0) : null,
      albumReleaseDate: toDate(row.albumReleaseDate),
      removedAt: toDate(row.removedAt),
    };
  }

  async findSong(songId: string): Promise<DownloadSongRow | null> {
    const [row] = await this.selectSongs().where(eq(songs.id, songId)).limit(1);
    return row ? DownloadsRepository.row(row) : null;
  }

  /**
   * The album's ready songs in track order (as the album page lists them). A deleted album's are the tracks it held
   * then (removed ones included), tagged as its tracks again: they left it, its buyers did not.
   */
  async listAlbumSongs(album: DownloadAlbumRow): Promise<DownloadSongRow[]> {
    const selection = albumTracks(album);
    if (!selection) return [];
    const rows = await this.selectSongs()
      .where(selection.where)
      .orderBy(...selection.orderBy);
    const tracks = album.deletedTrackIds;
    if (!tracks) return rows.map((row) => DownloadsRepository.row(row));
    const byId = new Map(rows.map((row) => [row.id, DownloadsRepository.row(row)]));
    return tracks.flatMap((id, index) => {
      const song = byId.get(id);
      if (!song) return [];
      return [
        {
          ...song,
          albumId: album.id,
          albumTitle: album.title,
          albumIsPremium: album.isPremium,
          albumReleaseDate: album.releaseDate,
          trackNumber: index + 1,
          albumTrackCount: tracks.length,
          coverImage: song.coverImage ?? album.cover,
        },
      ];
    });
  }

  /** The account's current role; null when it no longer exists. */
  async findRole(userId: string): Promise<Role | null> {
    const [row] = await this.db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
    return row?.role ?? null;
  }

  async recordDownload(values: {
    userId: string;
    itemType: DownloadItemType;
    itemId: string;
    format: DownloadFormat;
  }): Promise<void> {
    await this.db.insert(downloads).values(values);
  }
}
