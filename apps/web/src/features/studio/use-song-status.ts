import { useEffect, useState } from 'react';
import { useDispatch } from 'react-redux';
import type { ProcessingStatus } from '@backbeat/contract';
import { backbeatApi } from '../../lib/api-query';
import { forgetUpload } from './recent-uploads';
import { useGetSongStatusQuery } from './studio.api';

export const STATUS_POLL_MS = 2000;

export interface SongStatusView {
  /** null until the first answer (or when there is no song). */
  status: ProcessingStatus | null;
  failureReason: string | null;
  /** The last read failed (the song is gone, or the network); polling goes on while it is processing. */
  error: unknown;
  /** Reads the status again and resumes polling, e.g. after a new audio file was uploaded. */
  refresh: () => void;
}

/**
 * Polls GET /songs/:id/status every 2 s while the song is processing and stops at 'ready' or 'failed'. A song
 * that becomes ready joins the catalogue lists, so they refetch and it leaves the recent-uploads note.
 */
export function useSongStatus(songId: string | null): SongStatusView {
  const dispatch = useDispatch();
  const [settled, setSettled] = useState(false);
  const query = useGetSongStatusQuery(songId ?? '', {
    skip: !songId,
    refetchOnMountOrArgChange: true,
    pollingInterval: settled ? 0 : STATUS_POLL_MS,
  });
  const status = songId ? (query.data?.status ?? null) : null;
  const nowSettled = status === 'ready' || status === 'failed';
  // Derived during render (React's documented pattern), so the next render polls or stops.
  if (nowSettled !== settled) setSettled(nowSettled);

  // Lists refetch only when this page saw the song finish, not for every ready song it opens.
  const [sawProcessing, setSawProcessing] = useState(false);
  if (status === 'processing' && !sawProcessing) setSawProcessing(true);

  const ready = status === 'ready';
  useEffect(() => {
    if (ready && songId) forgetUpload(songId);
  }, [ready, songId]);
  useEffect(() => {
    if (!ready || !sawProcessing) return;
    dispatch(backbeatApi.util.invalidateTags(['Songs', 'Albums', 'Artists']));
  }, [ready, sawProcessing, dispatch]);

  const { refetch } = query;
  return {
    status,
    failureReason: status === 'failed' ? (query.data?.failureReason ?? null) : null,
    error: query.error,
    refresh: () => {
      if (songId) void refetch();
    },
  };
}
