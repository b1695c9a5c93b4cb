import { useEffect, useRef } from 'react';
import { STREAM_WARNING_DURATION_MS, toast } from '../../../lib/toast';

/**
 * A warning toast with the current song's stream error: 5 s on mobile, 2 s on desktop, once per selection.
 * A song the player picked by itself (the library's first, paused) shows its error in the player only.
 */
export function useStreamWarning({
  songId,
  selectedAt,
  error,
  isMobile,
  wanted,
}: {
  songId: string | null;
  selectedAt: number | null;
  error: string | null;
  isMobile: boolean;
  /** The listener asked for this song to play. */
  wanted: boolean;
}): void {
  const warnedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!songId || !error || !wanted) return;
    const key = `${songId}:${selectedAt ?? 'restored'}`;
    if (warnedFor.current === key) return;
    warnedFor.current = key;
    toast.warning(error, {
      id: `stream-warning-${songId}`,
      duration: isMobile ? STREAM_WARNING_DURATION_MS.mobile : STREAM_WARNING_DURATION_MS.desktop,
    });
  }, [songId, selectedAt, error, isMobile, wanted]);
}
