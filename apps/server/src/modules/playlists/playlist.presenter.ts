import type { PlaylistDetail, PlaylistSummary, Song } from '@backbeat/contract';
import { mediaUrl } from '../../platform/media-url';
import type { PlaylistRow } from './playlists.repository';

export function presentPlaylist(row: PlaylistRow): PlaylistSummary {
  const covers = row.covers.flatMap((key) => mediaUrl(key) ?? []);
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    songCount: row.songCount,
    cover: covers[0] ?? null,
    covers,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const presentPlaylistDetail = (row: PlaylistRow, songs: Song[]): PlaylistDetail => ({
  ...presentPlaylist(row),
  songs,
});
