import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { PLAYABLE_SONG_STATUSES, songRenditions, songs } from '../../db/schema';

export type RenditionKind = 'preview' | 'mp3' | 'flac';

export interface Rendition {
  songId: string;
  kind: RenditionKind;
  hlsPrefix: string;
  mediaKey: string;
  startSec: number;
  durationSec: number;
}

/** A ready song's current (HLS version) facts the rendition jobs work from. */
export interface RenditionSong {
  id: string;
  hlsPrefix: string;
  durationSec: number;
  previewStartSec: number | null;
}

/**
 * The media-store folder to delete when a rendition goes: a preview is a folder of its own; a download file made
 * by its own job sits alone in one. Files kept inside the song's HLS folder go with that folder (null here).
 */
export function renditionFolder(
  rendition: Pick<Rendition, 'kind' | 'mediaKey' | 'hlsPrefix'>,
): string | null {
  const folder =
    rendition.kind === 'preview'
      ? rendition.mediaKey
      : rendition.mediaKey.slice(0, rendition.mediaKey.lastIndexOf('/'));
  return folder === rendition.hlsPrefix || folder.startsWith(`${rendition.hlsPrefix}/`) ? null : folder;
}

/** Previews and download files of songs; only rows made for a song's current HLS version count. */
export class RenditionRepository {
  constructor(private readonly db: AppDb) {}

  /** A playable (ready, or removed but kept for its buyers) song's current media facts, or null. */
  async findReadySong(songId: string): Promise<RenditionSong | null> {
    const [row] = await this.db
      .select({
        id: songs.id,
        hlsPrefix: songs.hlsPrefix,
        durationSec: songs.durationSec,
        previewStartSec: songs.previewStartSec,
      })
      .from(songs)
      .where(and(eq(songs.id, songId), inArray(songs.status, [...PLAYABLE_SONG_STATUSES])))
      .limit(1);
    return row?.hlsPrefix ? { ...row, hlsPrefix: row.hlsPrefix } : null;
  }

  /** The rendition of the song's current HLS version, or null. */
  async findCurrent(songId: string, kind: RenditionKind): Promise<Rendition | null> {
    const [row] = await this.currentOf([songId], [kind]);
    return row ?? null;
  }

  /** Current renditions of several songs (downloads of an album), any of `kinds`. */
  listCurrent(songIds: string[], kinds: RenditionKind[]): Promise<Rendition[]> {
    return this.currentOf(songIds, kinds);
  }

  private async currentOf(songIds: string[], kinds: RenditionKind[]): Promise<Rendition[]> {
    if (songIds.length === 0) return [];
    return this.db
      .select({
        songId: songRenditions.songId,
        kind: songRenditions.kind,
        hlsPrefix: songRenditions.hlsPrefix,
        mediaKey: songRenditions.mediaKey,
        startSec: songRenditions.startSec,
        durationSec: songRenditions.durationSec,
      })
      .from(songRenditions)
      .innerJoin(
        songs,
        and(eq(songs.id, songRenditions.songId), eq(songs.hlsPrefix, songRenditions.hlsPrefix)),
      )
      .where(
        and(
          inArray(songRenditions.songId, songIds),
          inArray(songRenditions.kind, kinds),
          inArray(songs.status, [...PLAYABLE_SONG_STATUSES]),
        ),
      );
  }

  /**
   * Records a rendition if the song is still on the HLS version it was made from and `stillWanted` agrees with
   * the song as it is now (e.g. the preview start did not change meanwhile): row-locked, so a concurrent edit
   * either sees the new row or makes this one refuse. Returns the rendition it replaced (its files are the
   * caller's to delete), `null` when there was none, or 'stale' when nothing was written.
   */
  async record(
    rendition: Rendition,
    stillWanted: (song: RenditionSong) => boolean = () => true,
  ): Promise<Rendition | null | 'stale'> {
    return this.db.transaction(async (tx) => {
      const [song] = await tx
        .select({
          id: songs.id,
          hlsPrefix: songs.hlsPrefix,
          durationSec: songs.durationSec,
          previewStartSec: songs.previewStartSec,
          status: songs.status,
        })
        .from(songs)
        .where(eq(songs.id, rendition.songId))
        .for('update');
      const playable = song && (song.status === 'ready' || song.status === 'removed');
      if (!playable || song.hlsPrefix !== rendition.hlsPrefix) return 'stale';
      if (!stillWanted({ ...song, hlsPrefix: song.hlsPrefix })) return 'stale';
      const [previous] = await tx
        .select()
        .from(songRenditions)
        .where(and(eq(songRenditions.songId, rendition.songId), eq(songRenditions.kind, rendition.kind)));
      await tx
        .insert(songRenditions)
        .values({ ...rendition, createdAt: new Date() })
        .onConflictDoUpdate({
          target: [songRenditions.songId, songRenditions.kind],
          set: {
            hlsPrefix: rendition.hlsPrefix,
            mediaKey: rendition.mediaKey,
            startSec: rendition.startSec,
            durationSec: rendition.durationSec,
            createdAt: new Date(),
          },
        });
      return previous ?? null;
    });
  }

  /** Removes the rows made for an older HLS version of the song and returns them (their files are to go). */
  async deleteStale(songId: string, currentHlsPrefix: string): Promise<Rendition[]> {
    return this.db
      .delete(songRenditions)
      .where(and(eq(songRenditions.songId, songId), ne(songRenditions.hlsPrefix, currentHlsPrefix)))
      .returning();
  }

  /** Ready songs without a preview of their current version (made before previews existed): at most `limit`. */
  async listSongsWithoutPreview(limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: songs.id })
      .from(songs)
      .where(
        and(
          eq(songs.status, 'ready'),
          sql`not exists (select 1 from song_renditions r where r.song_id = "songs"."id"
            and r.kind = 'preview' and r.hls_prefix = "songs"."hls_prefix")`,
        ),
      )
      .limit(limit);
    return rows.map((row) => row.id);
  }
}
