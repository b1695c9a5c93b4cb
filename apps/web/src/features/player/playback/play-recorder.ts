import { api } from '../../../lib/api';

/** A listen counts after 30 s, or half of a shorter song. */
export function countsAsPlay(seconds: number, duration: number): boolean {
  const threshold = Number.isFinite(duration) && duration > 0 ? Math.min(30, duration / 2) : 30;
  return seconds >= Math.max(1, threshold);
}

/**
 * Adds up the seconds actually heard (progress steps while playing, not seeks) and records the listen with
 * POST /stream/plays when the song changes, ends or the page goes away.
 */
export function createPlayRecorder(
  send = (songId: string, secondsListened: number) => api.post('/stream/plays', { songId, secondsListened }),
) {
  let songId: string | null = null;
  let seconds = 0;
  let duration = 0;
  let lastTime: number | null = null;

  const flush = () => {
    if (songId && countsAsPlay(seconds, duration)) {
      const capped = duration > 0 ? Math.min(seconds, duration) : seconds;
      void send(songId, Math.round(capped * 10) / 10).catch(() => undefined);
    }
    songId = null;
    seconds = 0;
    lastTime = null;
  };

  return {
    progress(id: string, time: number, mediaDuration: number, playing: boolean) {
      if (id !== songId) {
        flush();
        songId = id;
      }
      if (Number.isFinite(mediaDuration)) duration = mediaDuration;
      if (playing && lastTime !== null) {
        const step = time - lastTime;
        if (step > 0 && step < 1.5) seconds += step;
      }
      lastTime = time;
    },
    flush,
  };
}
