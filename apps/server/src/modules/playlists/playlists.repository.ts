import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { playlistEntries, playlists, songs, users } from '../../db/schema';
import { songListColumns, type SongRow } from '../catalog';

/** A playlist with what its card shows; `covers` are media-store keys. */
export interface PlaylistRow {
  id: string;
  userId: string;
  name: string;
  description: string;
  songCount: number;
  covers: string[];
  createdAt: Date;
  updatedAt: Date;
}

export type SongState = 'processing' | 'ready' | 'failed' | 'removed';

/** Up to four distinct covers (a song's own, else its album's), in playlist order. */
const coversOfPlaylist = sql<string[]>`(
  select coalesce(array_agg(x.cover order by x.position), '{}'::text[])
  from (
    select coalesce(s.cover_image, al.cover) as cover, min(pe.position) as position
    from playlist_entries pe
    join songs s on s.id = pe.song_id
    left join albums al on al.id = s.album_id
    where pe.playlist_id = "playlists"."id" and coalesce(s.cover_image, al.cover) is not null
    group by 1
    order by 2
    limit 4
  ) x
)`;

const summaryColumns = {
  id: playlists.id,
  userId: playlists.userId,
  name: playlists.name,
  description: playlists.description,
  songCount:
    sql<number>`(select count(*) from playlist_entries pe where pe.playlist_id = "playlists"."id")`.mapWith(
      Number,
    ),
  covers: coversOfPlaylist,
  createdAt: playlists.createdAt,
  updatedAt: playlists.updatedAt,
};

const ownedBy = (id: string, userId: string) => and(eq(playlists.id, id), eq(playlists.userId, userId));

/** All SQL of playlists and their entries. Entry positions only order; gaps are allowed. */
export class PlaylistRepository {
  constructor(private readonly db: AppDb) {}

  /** The user's playlists, most recently changed first. */
  listByUser(userId: string): Promise<PlaylistRow[]> {
    return this.db
      .select(summaryColumns)
      .from(playlists)
      .where(eq(playlists.userId, userId))
      .orderBy(desc(playlists.updatedAt), desc(playlists.createdAt), desc(playlists.id));
  }

  async findOwned(id: string, userId: string): Promise<PlaylistRow | null> {
    const [row] = await this.db.select(summaryColumns).from(playlists).where(ownedBy(id, userId)).limit(1);
    return row ?? null;
  }

  /** Locks the playlist row until the transaction ends (serialises concurrent edits); false if not the user's. */
  async lockOwned(id: string, userId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: playlists.id })
      .from(playlists)
      .where(ownedBy(id, userId))
      .for('update');
    return rows.length > 0;
  }

  /** Locks the user row, so two concurrent creations cannot both pass the per-user limit. */
  async lockUser(userId: string): Promise<void> {
    await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  }

  async countByUser(userId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(playlists).where(eq(playlists.userId, userId));
    return row?.n ?? 0;
  }

  async insert(values: { userId: string; name: string; description: string }): Promise<string> {
    const [row] = await this.db.insert(playlists).values(values).returning({ id: playlists.id });
    return row!.id;
  }

  /** Applies the changes and marks the playlist as changed now. */
  async update(id: string, changes: { name?: string; description?: string } = {}): Promise<void> {
    await this.db
      .update(playlists)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(playlists.id, id));
  }

  async delete(id: string, userId: string): Promise<boolean> {
    const rows = await this.db.delete(playlists).where(ownedBy(id, userId)).returning({ id: playlists.id });
    return rows.length > 0;
  }

  /** The playlist's songs in order, as catalogue rows (any processing status). */
  listSongs(playlistId: string): Promise<SongRow[]> {
    return this.db
      .select(songListColumns)
      .from(playlistEntries)
      .innerJoin(songs, eq(songs.id, playlistEntries.songId))
      .where(eq(playlistEntries.playlistId, playlistId))
      .orderBy(asc(playlistEntries.position), asc(playlistEntries.addedAt), asc(playlistEntries.id));
  }

  async songIds(playlistId: string): Promise<string[]> {
    const rows = await this.db
      .select({ songId: playlistEntries.songId })
      .from(playlistEntries)
      .where(eq(playlistEntries.playlistId, playlistId))
      .orderBy(asc(playlistEntries.position), asc(playlistEntries.addedAt), asc(playlistEntries.id));
    return rows.map((row) => row.songId);
  }

  async songState(songId: string): Promise<SongState | null> {
    const [row] = await this.db
      .select({ status: songs.status })
      .from(songs)
      .where(eq(songs.id, songId))
      .limit(1);
    return row?.status ?? null;
  }

  /** Appends the song; false when it is already in the playlist. */
  async append(playlistId: string, songId: string): Promise<boolean> {
    const [last] = await this.db
      .select({ position: sql<number | null>`max(${playlistEntries.position})` })
      .from(playlistEntries)
      .where(eq(playlistEntries.playlistId, playlistId));
    const position = (last?.position ?? -1) + 1;
    const inserted = await this.db
      .insert(playlistEntries)
      .values({ playlistId, songId, position })
      .onConflictDoNothing({ target: [playlistEntries.playlistId, playlistEntries.songId] })
      .returning({ id: playlistEntries.id });
    return inserted.length > 0;
  }

  async remove(playlistId: string, songId: string): Promise<boolean> {
    const rows = await this.db
      .delete(playlistEntries)
      .where(and(eq(playlistEntries.playlistId, playlistId), eq(playlistEntries.songId, songId)))
      .returning({ id: playlistEntries.id });
    return rows.length > 0;
  }

  /** Numbers the entries 0..n-1 in the given order, in one statement. */
  async setOrder(playlistId: string, songIds: string[]): Promise<void> {
    if (songIds.length === 0) return;
    const ids = sql.join(
      songIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    await this.db.execute(sql`
      update playlist_entries pe
      set position = o.ordinality - 1
      from unnest(array[${ids}]) with ordinality as o(song_id, ordinality)
      where pe.playlist_id = ${playlistId} and pe.song_id = o.song_id`);
  }
}

/** Runs work in one transaction with a repository bound to it (PGlite has one connection: use only that one). */
export type PlaylistTransactor = <T>(work: (repo: PlaylistRepository) => Promise<T>) => Promise<T>;

export function createPlaylistTransactor(db: AppDb): PlaylistTransactor {
  return (work) => db.transaction((tx) => work(new PlaylistRepository(tx as unknown as AppDb)));
}
