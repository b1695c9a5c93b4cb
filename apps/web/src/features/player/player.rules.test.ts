import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONTEXT,
  isContextStale,
  isNearEnd,
  nextInQueue,
  playbackQueue,
  previousInQueue,
  shouldRestartOnPrevious,
  upNext,
  withNoCache,
} from './player.rules';
import { library, makeSong, songsA } from './player.test-fixtures';

describe('player rules', () => {
  it("uses the context's songs, or the library for 'all'", () => {
    expect(playbackQueue({ type: 'genre', id: 'Jazz', songs: songsA }, library)).toBe(songsA);
    expect(playbackQueue(DEFAULT_CONTEXT, library)).toBe(library);
    expect(playbackQueue({ type: 'all', id: null, songs: songsA }, [])).toBe(songsA);
  });

  it('a non-all context is stale when it lacks the current song', () => {
    const context = { type: 'album' as const, id: 'x', songs: songsA };
    expect(isContextStale(context, songsA[0]!)).toBe(false);
    expect(isContextStale(context, makeSong('other'))).toBe(true);
    expect(isContextStale(DEFAULT_CONTEXT, makeSong('other'))).toBe(false);
    expect(isContextStale(context, null)).toBe(false);
  });

  it('next and previous wrap', () => {
    expect(nextInQueue(songsA, songsA[2]!)?._id).toBe('a1');
    expect(previousInQueue(songsA, songsA[0]!)?._id).toBe('a3');
    expect(nextInQueue([], songsA[0]!)).toBeNull();
    expect(previousInQueue([], null)).toBeNull();
    expect(previousInQueue(songsA, null)?._id).toBe('a3');
  });

  it('restarts on previous only after more than 3 s', () => {
    expect(shouldRestartOnPrevious(3)).toBe(false);
    expect(shouldRestartOnPrevious(3.01)).toBe(true);
  });

  it('is near the end within 0.5 s of it, for songs longer than 1 s', () => {
    expect(isNearEnd(179.5, 180)).toBe(true);
    expect(isNearEnd(179.4, 180)).toBe(false);
    expect(isNearEnd(0.9, 1)).toBe(false);
    expect(isNearEnd(1.2, 1.5)).toBe(true);
    expect(isNearEnd(0, 0)).toBe(false);
  });

  it('lists up to 4 upcoming songs, wrapping, without the current one', () => {
    expect(upNext(library, library[2]!).map((song) => song._id)).toEqual(['l4', 'l1', 'l2']);
    const many = Array.from({ length: 8 }, (_, index) => makeSong(`m${index}`));
    expect(upNext(many, many[6]!).map((song) => song._id)).toEqual(['m7', 'm0', 'm1', 'm2']);
    expect(upNext(many, null).map((song) => song._id)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(upNext([], null)).toEqual([]);
  });

  it("appends nocache with '?' or '&'", () => {
    expect(withNoCache('/api/stream/hls/1/index.m3u8', 5)).toBe('/api/stream/hls/1/index.m3u8?nocache=5');
    expect(withNoCache('/x.m3u8?token=t', 5)).toBe('/x.m3u8?token=t&nocache=5');
  });
});
