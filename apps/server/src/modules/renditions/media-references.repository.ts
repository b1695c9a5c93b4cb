import { and, eq, inArray, isNotNull, like, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { albums, artists, jobs, songRenditions, songs, users } from '../../db/schema';
import { renditionFolder } from './rendition.repository';

export interface SongMediaRow {
  id: string;
  status: 'processing' | 'ready' | 'failed' | 'removed';
  sourceKey: string | null;
  hlsPrefix: string | null;
}

/** What the media clean-up asks the database: which files rows still point at, and which jobs still run. */
export class MediaReferencesRepository {
  constructor(private readonly db: AppDb) {}

  async songs(ids: string[]): Promise<Map<string, SongMediaRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: songs.id, status: songs.status, sourceKey: songs.sourceKey, hlsPrefix: songs.hlsPrefix })
      .from(songs)
      .where(inArray(songs.id, ids));
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * The media folders of the songs' previews and download files (`songs/<song>/p…`, `songs/<song>/m…`): they sit
   * beside the HLS versions but belong to no transcode job, and are kept while a row points at them.
   */
  async renditionFolders(songIds: string[]): Promise<Set<string>> {
    if (songIds.length === 0) return new Set();
    const rows = await this.db
      .select({
        kind: songRenditions.kind,
        mediaKey: songRenditions.mediaKey,
        hlsPrefix: songRenditions.hlsPrefix,
      })
      .from(songRenditions)
      .where(inArray(songRenditions.songId, songIds));
    return new Set(rows.map(renditionFolder).filter((folder): folder is string => folder !== null));
  }

  /** The ids among `ids` of jobs still queued or running. */
  async pendingJobs(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.id, ids), inArray(jobs.status, ['queued', 'running'])));
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Every image key a song, album, artist or account points at (seeded songs point at their album's cover; an
   * account's picture may also be a social provider's https address, which is no key and never matches).
   */
  async imageKeys(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ key: songs.coverImage })
      .from(songs)
      .where(isNotNull(songs.coverImage))
      .union(this.db.selectDistinct({ key: albums.cover }).from(albums).where(isNotNull(albums.cover)))
      .union(this.db.selectDistinct({ key: artists.image }).from(artists).where(isNotNull(artists.image)))
      .union(
        this.db
          .selectDistinct({ key: users.profileImage })
          .from(users)
          .where(like(users.profileImage, 'images/%')),
      );
    return rows.map((row) => row.key!);
  }

  /** Songs waiting for a transcode that no queued or running job will do (its worker gave up, or never got it). */
  async songsProcessingWithoutJob(jobType: string): Promise<Array<{ id: string; sourceKey: string | null }>> {
    return this.db
      .select({ id: songs.id, sourceKey: songs.sourceKey })
      .from(songs)
      .where(
        and(
          eq(songs.status, 'processing'),
          sql`not exists (select 1 from ${jobs} where ${jobs.type} = ${jobType}
                and ${jobs.status} in ('queued', 'running') and ${jobs.payload} ->> 'songId' = ${songs.id}::text)`,
        ),
      );
  }
}
