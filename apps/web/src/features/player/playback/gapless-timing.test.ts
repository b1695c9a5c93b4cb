import { describe, expect, it } from 'vitest';
import { AAC_FRAME_SAMPLES } from './adts';
import {
  DEFAULT_PRIMING_SAMPLES,
  segmentFirstFrame,
  segmentIndexAt,
  segmentPlacement,
  segmentRange,
  songTiming,
  type SongTiming,
} from './gapless-timing';
import { servedPlaylist } from './gapless.test-fixtures';
import { parseMediaPlaylist, type MediaPlaylist } from './media-playlist';

const RATE = 44100;
const FRAME_S = AAC_FRAME_SAMPLES / RATE;

/**
 * The playlist ffmpeg writes for a song of `samples` real samples cut into segments of `framesPerSegment` frames:
 * the encoder emits ceil((samples + priming) / 1024) frames plus one of padding, and EXTINF states each segment's
 * length rounded to the microsecond.
 */
function songPlaylist(samples: number, framesPerSegment = 259): MediaPlaylist {
  const frames = Math.ceil((samples + DEFAULT_PRIMING_SAMPLES) / AAC_FRAME_SAMPLES) + 1;
  const durations: number[] = [];
  for (let left = frames; left > 0; left -= framesPerSegment) {
    durations.push(Math.min(left, framesPerSegment) * FRAME_S);
  }
  const tag = `#EXT-X-BACKBEAT-GAPLESS:PRIMING-SAMPLES=1024,TOTAL-SAMPLES=${samples},SAMPLE-RATE=${RATE}`;
  return parseMediaPlaylist(
    servedPlaylist(durations, { gapless: tag }),
    'http://h/api/stream/hls/s1/index.m3u8',
  );
}

/** Which of the song's samples (0 = its first real one) the frames of every segment leave inside the window. */
function keptSamples(start: number, timing: SongTiming, playlist: MediaPlaylist): Array<[number, number]> {
  return playlist.segments.map((_, index) => {
    const { timestampOffset, appendWindowStart, appendWindowEnd } = segmentPlacement(
      start,
      timing,
      playlist,
      index,
    );
    const next = index + 1 < playlist.segments.length ? segmentFirstFrame(playlist, index + 1, RATE) : null;
    const frames =
      (next ?? Math.round((playlist.segments.at(-1)!.start + playlist.segments.at(-1)!.duration) / FRAME_S)) -
      segmentFirstFrame(playlist, index, RATE);
    const from = Math.max(timestampOffset, appendWindowStart);
    const to = Math.min(timestampOffset + frames * FRAME_S, appendWindowEnd);
    return [Math.round((from - start) * RATE), Math.round((to - start) * RATE)];
  });
}

describe('gapless trimming', () => {
  it('takes the exact counts from the playlist tag', () => {
    const timing = songTiming(songPlaylist(225941));
    expect(timing).toEqual({
      primingSamples: 1024,
      totalSamples: 225941,
      sampleRate: RATE,
      duration: 225941 / RATE,
    });
  });

  it("recovers every segment's first frame from microsecond-rounded durations, even an hour in", () => {
    const playlist = songPlaylist(RATE * 3600);
    playlist.segments.forEach((_, index) =>
      expect(segmentFirstFrame(playlist, index, RATE)).toBe(index * 259),
    );
  });

  it('cuts the priming off the first segment and the padding off the last, exactly', () => {
    const playlist = songPlaylist(225941, 100);
    const timing = songTiming(playlist);
    const first = segmentPlacement(10, timing, playlist, 0);
    expect(first.timestampOffset).toBeCloseTo(10 - 1024 / RATE, 12);
    expect(first.appendWindowStart).toBe(10);
    expect(first.appendWindowEnd).toBe(10 + 225941 / RATE);
    const second = segmentPlacement(10, timing, playlist, 1);
    expect(second.timestampOffset).toBeCloseTo(10 + (100 * 1024 - 1024) / RATE, 12);
    // Every real sample is kept once, in order, with nothing before or after it.
    const kept = keptSamples(10, timing, playlist);
    expect(kept[0]![0]).toBe(0);
    expect(kept.at(-1)![1]).toBe(225941);
    kept.slice(1).forEach(([from], index) => expect(from).toBe(kept[index]![1]));
  });

  it('starts the next song exactly where this one ends: no gap and no overlap', () => {
    let start = 1;
    let previousEnd: number | null = null;
    for (const samples of [225941, 249329, 230330, 44100 * 3 + 1, 1023]) {
      const playlist = songPlaylist(samples, 100);
      const timing = songTiming(playlist);
      const { appendWindowStart, appendWindowEnd } = segmentPlacement(start, timing, playlist, 0);
      if (previousEnd !== null) expect(appendWindowStart).toBe(previousEnd);
      expect(Math.round((appendWindowEnd - appendWindowStart) * RATE)).toBe(samples);
      previousEnd = appendWindowEnd;
      start += timing.duration;
    }
  });

  it('maps each segment to the part of the timeline it fills, and a song time to its segment', () => {
    const playlist = songPlaylist(225941, 100); // segments of 100 frames: 2.32 s, less the priming in the first
    const timing = songTiming(playlist);
    const ranges = playlist.segments.map((_, index) => segmentRange(2, timing, playlist, index));
    expect(ranges[0]!.start).toBe(2);
    expect(ranges.at(-1)!.end).toBe(2 + timing.duration);
    ranges.slice(1).forEach((range, index) => expect(range.start).toBeCloseTo(ranges[index]!.end, 9));
    const firstBoundary = ranges[0]!.end - 2;
    expect(segmentIndexAt(playlist, timing, 0)).toBe(0);
    expect(segmentIndexAt(playlist, timing, firstBoundary - 0.001)).toBe(0);
    expect(segmentIndexAt(playlist, timing, firstBoundary)).toBe(1);
    expect(segmentIndexAt(playlist, timing, -5)).toBe(0);
    expect(segmentIndexAt(playlist, timing, 1e6)).toBe(playlist.segments.length - 1);
  });

  it('falls back to the encoder priming and the catalogue duration for media without the tag', () => {
    const playlist = songPlaylist(225941);
    const untagged = { ...playlist, gapless: null };
    const decoded =
      Math.round((playlist.segments.at(-1)!.start + playlist.segments.at(-1)!.duration) * RATE) - 1024;
    expect(songTiming(untagged, 5.12).totalSamples).toBe(Math.round(5.12 * RATE));
    expect(songTiming(untagged).totalSamples).toBe(decoded);
    expect(songTiming(untagged, 9999).totalSamples).toBe(decoded); // never past what the segments hold
  });
});
