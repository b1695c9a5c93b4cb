import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { PLAYABLE_SONG_STATUSES, songs } from './schema';

/** An album's track order: track number (unnumbered last), then upload order. */
export const trackOrder = (): SQL[] => [
  sql`${songs.trackNumber} asc nulls last`,
  asc(songs.createdAt),
  asc(songs.id),
];

/**
 * The songs an album lists, as a filter and an order over `songs`: a live album's ready songs in track order; an
 * album deleted after it was sold, the tracks it held then (removed ones included) in their order, for its buyers.
 * `null` when it lists none (a deleted album that held no track).
 */
export function albumTracks(album: {
  id: string;
  deletedTrackIds: string[] | null;
}): { where: SQL; orderBy: SQL[] } | null {
  const tracks = album.deletedTrackIds;
  if (!tracks)
    return { where: and(eq(songs.albumId, album.id), eq(songs.status, 'ready'))!, orderBy: trackOrder() };
  if (tracks.length === 0) return null;
  return {
    where: and(inArray(songs.id, tracks), inArray(songs.status, [...PLAYABLE_SONG_STATUSES]))!,
    orderBy: [
      sql`array_position(array[${sql.join(
        tracks.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}], ${songs.id})`,
    ],
  };
}
