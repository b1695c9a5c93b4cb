import { describe, expect, it } from 'vitest';
import { AAC_FRAME_SAMPLES } from './adts';
import {
  BUFFER_AHEAD_S,
  holeEnd,
  keepFrom,
  MAX_BUFFER_BYTES,
  nextJob,
  placeFollowing,
} from './buffer-policy';
import { segmentRange, songTiming } from './gapless-timing';
import { servedPlaylist } from './gapless.test-fixtures';
import { parseMediaPlaylist } from './media-playlist';
import type { TimelineEntry } from './timeline-entry';

const RATE = 44100;
/** 259 frames: the transcoder's 6 s segments. */
const SEGMENT_S = (259 * AAC_FRAME_SAMPLES) / RATE;

/** A song of `seconds` (6 s segments) placed at `start` (null: not placed yet). */
function song(seconds: number, start: number | null): TimelineEntry {
  const samples = Math.round(seconds * RATE);
  const count = Math.ceil((samples + 1024) / (259 * AAC_FRAME_SAMPLES));
  const tag = `#EXT-X-BACKBEAT-GAPLESS:PRIMING-SAMPLES=1024,TOTAL-SAMPLES=${samples},SAMPLE-RATE=${RATE}`;
  const playlist = parseMediaPlaylist(
    servedPlaylist(new Array<number>(count).fill(SEGMENT_S), { gapless: tag }),
    'http://h/api/stream/hls/s1/index.m3u8',
  );
  return {
    source: { songId: 's', url: '/u' },
    start,
    playlist,
    timing: songTiming(playlist),
    appended: new Map(),
    attempts: new Map(),
    rechecking: false,
    failed: false,
    dropped: false,
  } as unknown as TimelineEntry;
}

/** The buffer holding segments `indexes` of `entry`. */
function held(entry: TimelineEntry, indexes: number[]) {
  return indexes.map((index) => segmentRange(entry.start!, entry.timing!, entry.playlist!, index));
}

describe('buffer policy', () => {
  it('loads the current song from the playhead on, up to 30 s ahead', () => {
    const current = song(120, 10);
    expect(nextJob([current], 10, [])).toEqual({ entry: current, index: 0 });
    expect(nextJob([current], 10, held(current, [0]))).toEqual({ entry: current, index: 1 });
    // 40 s in: segment 6 holds the playhead; up to 70 s is wanted, i.e. through segment 11.
    const job = nextJob([current], 50, held(current, [6, 7, 8, 9, 10]));
    expect(job?.index).toBe(11);
    expect(nextJob([current], 50, held(current, [6, 7, 8, 9, 10, 11]))).toBeNull();
    expect(segmentRange(10, current.timing!, current.playlist!, 12).start - 50).toBeGreaterThan(
      BUFFER_AHEAD_S,
    );
  });

  it("fetches the next song's first segment once it is within 600 s, and the rest only within 30 s", () => {
    const current = song(300, 1);
    const following = song(200, null);
    placeFollowing([current, following]);
    expect(following.start).toBe(1 + current.timing!.duration);
    const all = [...Array(current.playlist!.segments.length).keys()];
    const early = held(
      current,
      all.filter((index) => index <= 6),
    );
    expect(nextJob([current, following], 10, early)).toEqual({ entry: following, index: 0 });
    const withFirst = [...early, ...held(following, [0])];
    expect(nextJob([current, following], 10, withFirst)).toBeNull();
    const longSong = song(900, 1);
    const afterLong = song(200, null);
    placeFollowing([longSong, afterLong]);
    const longEarly = held(longSong, [0, 1, 2, 3, 4, 5, 6]);
    expect(nextJob([longSong, afterLong], 10, longEarly)).toBeNull();
  });

  it('waits for a playlist, and for a place, before loading a song', () => {
    const current = song(60, 1);
    const unplaced = { ...song(60, null), playlist: null, timing: null } as TimelineEntry;
    const everything = held(current, [...Array(current.playlist!.segments.length).keys()]);
    expect(nextJob([current, unplaced], 40, everything)).toBeNull();
    unplaced.start = 61;
    expect(nextJob([current, unplaced], 40, everything)).toEqual({ entry: unplaced, index: null });
  });

  it('stops at 60 MB of segments, and after three loads of a segment that never showed up', () => {
    const current = song(120, 0);
    current.appended.set(0, MAX_BUFFER_BYTES);
    expect(nextJob([current], 0, held(current, [0]))).toBeNull();
    const stuck = song(120, 0);
    stuck.attempts.set(0, 3);
    expect(nextJob([stuck], 0, [])).toBeNull();
  });

  it('keeps 30 s behind the playhead, and jumps holes up to 0.5 s', () => {
    const current = song(120, 100);
    expect(keepFrom([current], 110)).toBe(100);
    expect(keepFrom([current], 200)).toBe(170);
    const buffered = [
      { start: 0, end: 10 },
      { start: 10.4, end: 20 },
      { start: 21, end: 30 },
    ];
    expect(holeEnd(buffered, 10)).toBe(10.4);
    expect(holeEnd(buffered, 20)).toBeNull();
  });
});
