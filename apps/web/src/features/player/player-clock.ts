/**
 * The clock a listener sees: the song's own elapsed time and length. The gapless player lays songs on one
 * MediaSource timeline whose duration is 1e9 s; that number, or any other length the media reports that cannot be
 * the song's, must never reach the display.
 */

/** How far the media's own length may exceed the catalogue's (encoder padding, rounding) and still be the song's. */
export const CLOCK_DURATION_TOLERANCE_SEC = 5;

export interface SongClockInput {
  /** Seconds into the song, as the playback reports it. */
  currentTime: number;
  /** The length the media reported (0 until it does). */
  reportedDuration: number;
  /** The catalogue's length of the song (or of the preview's window while a preview plays). */
  catalogueDuration: number;
}

export interface SongClock {
  elapsed: number;
  total: number;
}

const usable = (seconds: number) => Number.isFinite(seconds) && seconds > 0;

/** The song's total: the media's length when it can be the song's, else the catalogue's; elapsed within it. */
export function songClock({ currentTime, reportedDuration, catalogueDuration }: SongClockInput): SongClock {
  const catalogue = usable(catalogueDuration) ? catalogueDuration : 0;
  const plausible =
    usable(reportedDuration) &&
    (catalogue === 0 || reportedDuration <= catalogue + CLOCK_DURATION_TOLERANCE_SEC);
  const total = plausible ? reportedDuration : catalogue;
  const time = Number.isFinite(currentTime) && currentTime > 0 ? currentTime : 0;
  return { elapsed: total > 0 ? Math.min(time, total) : time, total };
}
