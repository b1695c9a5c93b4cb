import type { Song } from '@backbeat/contract';
import {
  decideSongAccess,
  decideSongDownload,
  type Entitlements,
  holdsSong,
  NO_ENTITLEMENTS,
  type Viewer,
} from '../access';
import { presentSong, songAccessFacts } from './catalog.presenter';
import type { SongRow } from './song.repository';

/** Loads one viewer's entitlements for a batch of songs (purchases and subscriptions). */
export type EntitlementsLoader = (
  userId: string,
  scope: { songIds: string[]; albumIds: string[]; artistIds: string[] },
  now: Date,
) => Promise<Entitlements>;

/**
 * Turns song rows into contract songs with `canPlay` and `canDownload` decided by the policies for this viewer. Entitlements
 * are loaded once per response, in one batch; guests and admins need none. Removed songs (sold, then deleted by
 * their artist) are dropped unless the viewer holds them.
 */
export class SongView {
  constructor(
    private readonly loadEntitlements: EntitlementsLoader,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async present(viewer: Viewer | null, rows: SongRow[]): Promise<Song[]> {
    if (rows.length === 0) return [];
    const now = this.clock();
    let entitlements = NO_ENTITLEMENTS;
    if (viewer && viewer.role !== 'admin') {
      entitlements = await this.loadEntitlements(
        viewer.id,
        {
          songIds: rows.map((row) => row.id),
          albumIds: rows.flatMap((row) => (row.albumId ? [row.albumId] : [])),
          artistIds: rows.map((row) => row.artistId),
        },
        now,
      );
    }
    return rows.flatMap((row) => {
      const facts = songAccessFacts(row);
      const play = decideSongAccess(viewer, facts, entitlements, now);
      // A removed song left the catalogue: only those who hold it still see it.
      if (row.status === 'removed' && !holdsSong(play)) return [];
      return [presentSong(row, play.allowed, decideSongDownload(viewer, facts, entitlements, now).allowed)];
    });
  }
}
