import { useLocation } from 'react-router';
import type { QueryError } from '../../lib/api-query';
import { findUpload } from './recent-uploads';
import { useGetSongQuery } from '../catalog';
import { useGetAllArtistSongsQuery } from './studio.api';
import type { Song } from './studio.types';

function songFromState(state: unknown, songId: string | undefined): Song | null {
  const song = (state as { song?: Song } | null)?.song;
  return song && song._id === songId ? song : null;
}

const isNotFound = (error: unknown) => (error as QueryError | undefined)?.status === 404;

/**
 * The song the editor opens. The artist's (ready) songs hold the fresh copy (`fromList`); a song that is not among them (still
 * processing, failed, or of another managed artist) is read on its own (`fetched`, GET /songs/:id). Until then, the copy the
 * studio list passed in the navigation state or this tab's recent uploads stands in. A song whose artist the
 * account does not manage counts as not found.
 */
export function useEditedSong(
  songId: string | undefined,
  artistId: string | undefined,
  managedArtistIds: readonly string[],
) {
  const location = useLocation();
  const known = songFromState(location.state, songId) ?? (songId ? findUpload(songId) : undefined) ?? null;
  const list = useGetAllArtistSongsQuery(artistId ?? '', { skip: !songId || !artistId });
  const fromList = list.data?.find((song) => song._id === songId) ?? null;
  const single = useGetSongQuery(songId ?? '', {
    skip: !songId || !artistId || !list.isSuccess || !!fromList,
  });
  const fetched =
    !fromList && single.data && managedArtistIds.includes(single.data.artist._id) ? single.data : null;
  // A 404 is an answer (the song is gone or not visible), not a failure to show with a retry.
  const singleFailed = single.isError && !isNotFound(single.error);
  return {
    fromList,
    fetched,
    known: single.isError && isNotFound(single.error) ? null : known,
    isLoading: (list.isLoading || single.isLoading) && !known,
    isError: (list.isError || singleFailed) && !known,
    error: list.error ?? single.error,
    refetch: () => {
      void list.refetch();
      if (!single.isUninitialized) void single.refetch();
    },
  };
}
