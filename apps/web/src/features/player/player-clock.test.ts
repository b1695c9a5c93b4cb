import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../lib/format';
import { CLOCK_DURATION_TOLERANCE_SEC, songClock } from './player-clock';

describe('songClock: every clock shows the song’s own time', () => {
  it('never shows the gapless timeline’s 1e9 s (the "277777:46:40" of a preloaded song)', () => {
    const clock = songClock({ currentTime: 0, reportedDuration: 1e9, catalogueDuration: 277 });
    expect(clock).toEqual({ elapsed: 0, total: 277 });
    expect(formatDuration(clock.total)).toBe('4:37');
  });

  it('prefers the media’s exact length once it is the song’s', () => {
    expect(songClock({ currentTime: 12.5, reportedDuration: 183.43, catalogueDuration: 183 })).toEqual({
      elapsed: 12.5,
      total: 183.43,
    });
  });

  it('uses the catalogue’s length until the media reports one, and for broken reports', () => {
    for (const reported of [0, Number.NaN, Number.POSITIVE_INFINITY, -3]) {
      expect(songClock({ currentTime: 3, reportedDuration: reported, catalogueDuration: 90 }).total).toBe(90);
    }
  });

  it('takes a preview window’s length (shorter than the song) as it is', () => {
    expect(songClock({ currentTime: 4, reportedDuration: 30, catalogueDuration: 30 }).total).toBe(30);
  });

  it('invariant: elapsed stays within [0, total] and total is the song’s when the catalogue knows it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -10, max: 2e9, noNaN: true }),
        fc.oneof(fc.constant(1e9), fc.double({ min: -10, max: 2e9 })),
        fc.double({ min: 1, max: 3600, noNaN: true }),
        (currentTime, reportedDuration, catalogueDuration) => {
          const { elapsed, total } = songClock({ currentTime, reportedDuration, catalogueDuration });
          expect(total).toBeGreaterThan(0);
          expect(total).toBeLessThanOrEqual(catalogueDuration + CLOCK_DURATION_TOLERANCE_SEC);
          expect(elapsed).toBeGreaterThanOrEqual(0);
          expect(elapsed).toBeLessThanOrEqual(total);
        },
      ),
    );
  });
});
