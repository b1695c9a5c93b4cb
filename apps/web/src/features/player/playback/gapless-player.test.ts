// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AAC_FRAME_SAMPLES, summarizeAdts } from './adts';
import { GaplessPlayer, KEY_FRESH_MS, type GaplessPlayerEvents, type SongSource } from './gapless-player';
import { adtsFrame, concat, encrypt, IV_HEX, IV, transportStream } from './gapless.test-fixtures';
import type { Fetcher } from './song-loader';

const RATE = 44100;
const FRAME_S = AAC_FRAME_SAMPLES / RATE;
const ORIGIN = 'http://localhost:3000';
const RAW_KEY = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
/** Each song: two segments of 40 frames; 1024 priming samples, and real samples ending inside the last frame. */
const FRAMES_PER_SEGMENT = 40;
const SONG_SAMPLES: Record<string, number> = { s1: 80_000, s2: 79_321, s3: 80_500 };

/** A SourceBuffer that keeps what the append window lets through (frames counted from the ADTS it is given). */
class FakeSourceBuffer extends EventTarget {
  updating = false;
  timestampOffset = 0;
  appendWindowStart = 0;
  appendWindowEnd = Number.POSITIVE_INFINITY;
  ranges: Array<{ start: number; end: number }> = [];
  appends: Array<{ start: number; end: number; timestampOffset: number }> = [];

  appendBuffer(data: Uint8Array) {
    const { frames } = summarizeAdts(data);
    const start = Math.max(this.appendWindowStart, this.timestampOffset);
    const end = Math.min(this.appendWindowEnd, this.timestampOffset + frames * FRAME_S);
    this.appends.push({ start, end, timestampOffset: this.timestampOffset });
    if (end > start) this.ranges.push({ start, end });
    this.finish();
  }

  remove(start: number, end: number) {
    this.ranges = this.ranges.flatMap((range) => {
      if (range.end <= start || range.start >= end) return [range];
      return [
        ...(range.start < start ? [{ start: range.start, end: start }] : []),
        ...(range.end > end ? [{ start: end, end: range.end }] : []),
      ];
    });
    this.finish();
  }

  get buffered() {
    const merged = [...this.ranges]
      .sort((a, b) => a.start - b.start)
      .reduce<Array<{ start: number; end: number }>>((out, range) => {
        const last = out.at(-1);
        if (last && range.start - last.end < 1e-6) last.end = Math.max(last.end, range.end);
        else out.push({ ...range });
        return out;
      }, []);
    return {
      length: merged.length,
      start: (i: number) => merged[i]!.start,
      end: (i: number) => merged[i]!.end,
    };
  }

  private finish() {
    this.updating = true;
    setTimeout(() => {
      this.updating = false;
      this.dispatchEvent(new Event('updateend'));
    }, 0);
  }
}

class FakeMediaSource extends EventTarget {
  static isTypeSupported = () => true;
  readyState = 'closed';
  duration = Number.NaN;
  buffer: FakeSourceBuffer | null = null;
  addSourceBuffer() {
    this.buffer = new FakeSourceBuffer();
    return this.buffer;
  }
}

const sources = new Map<string, FakeMediaSource>();

/** The <audio> element, as far as the player uses it: src, time, seeking, buffered, play state. */
class FakeAudio extends EventTarget {
  paused = true;
  seeking = false;
  error = null;
  private time = 0;
  private source: FakeMediaSource | null = null;
  private srcValue: string | null = null;

  set src(url: string) {
    this.srcValue = url;
    this.source = sources.get(url) ?? null;
    setTimeout(() => {
      if (!this.source) return;
      this.source.readyState = 'open';
      this.source.dispatchEvent(new Event('sourceopen'));
    }, 0);
  }
  getAttribute(name: string) {
    return name === 'src' ? this.srcValue : null;
  }
  removeAttribute() {
    this.srcValue = null;
  }
  load() {}
  pause() {
    this.paused = true;
  }
  get currentTime() {
    return this.time;
  }
  set currentTime(value: number) {
    this.time = value;
    this.seeking = true;
    this.dispatchEvent(new Event('seeking'));
    setTimeout(() => {
      this.seeking = false;
      this.dispatchEvent(new Event('seeked'));
    }, 0);
  }
  /** Playback moving on by itself. */
  advanceTo(value: number) {
    this.time = value;
    this.dispatchEvent(new Event('timeupdate'));
  }
  get buffered() {
    return this.source?.buffer?.buffered ?? { length: 0, start: () => 0, end: () => 0 };
  }
}

const playlistUrl = (songId: string) => `${ORIGIN}/api/stream/hls/${songId}/index.m3u8?token=t-${songId}`;
const keyUrl = (songId: string) => `${ORIGIN}/api/stream/hls/${songId}/key?token=t-${songId}`;
const source = (songId: string): SongSource => ({
  songId,
  url: playlistUrl(songId),
  firstSegmentUrl: `/api/stream/hls/${songId}/seg_0000.ts`,
});

let segment: ArrayBuffer;
let requests: string[];
let refusedKeys: Set<string>;

const fetcher: Fetcher = async (url) => {
  requests.push(url);
  const match = /\/hls\/(s\d)\/(index\.m3u8|key|seg_(\d{4})\.ts)/.exec(url);
  const songId = match?.[1];
  if (!songId || !match) return new Response('', { status: 404 });
  if (match[2] === 'key')
    return new Response(refusedKeys.has(songId) ? '' : RAW_KEY, {
      status: refusedKeys.has(songId) ? 403 : 200,
    });
  if (match[3]) return new Response(segment);
  const duration = (FRAMES_PER_SEGMENT * FRAME_S).toFixed(6);
  return new Response(
    [
      '#EXTM3U',
      `#EXT-X-BACKBEAT-GAPLESS:PRIMING-SAMPLES=1024,TOTAL-SAMPLES=${SONG_SAMPLES[songId]},SAMPLE-RATE=${RATE}`,
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-PLAYLIST-TYPE:VOD',
      `#EXT-X-KEY:METHOD=AES-128,URI="/api/stream/hls/${songId}/key?token=t-${songId}",IV=${IV_HEX}`,
      `#EXTINF:${duration},`,
      `/api/stream/hls/${songId}/seg_0000.ts`,
      `#EXTINF:${duration},`,
      `/api/stream/hls/${songId}/seg_0001.ts`,
      '#EXT-X-ENDLIST',
    ].join('\n'),
  );
};

/** Lets every pending fetch, decryption, append and event run. */
async function settle() {
  for (let i = 0; i < 30; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

function setup() {
  const audio = new FakeAudio();
  const events = {
    onFatalError: vi.fn(),
    onJoin: vi.fn(),
    onDuration: vi.fn(),
    onEnded: vi.fn(),
  } satisfies GaplessPlayerEvents;
  const player = new GaplessPlayer(audio as unknown as HTMLAudioElement, events, fetcher);
  const buffer = () => [...sources.values()].at(-1)!.buffer!;
  return { audio, events, player, buffer };
}

beforeEach(async () => {
  requests = [];
  refusedKeys = new Set();
  segment = await encrypt(
    transportStream(concat(Array.from({ length: FRAMES_PER_SEGMENT }, () => adtsFrame(20)))),
    RAW_KEY,
    IV,
  );
  let count = 0;
  vi.stubGlobal('MediaSource', FakeMediaSource);
  vi.stubGlobal('window', { location: { href: `${ORIGIN}/album/a1` } });
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, {
      createObjectURL: (media: FakeMediaSource) => {
        const url = `blob:fake/${(count += 1)}`;
        sources.set(url, media);
        return url;
      },
      revokeObjectURL: () => undefined,
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sources.clear();
});

describe('GaplessPlayer', () => {
  it('starts a song on a fresh stretch of timeline, cut to its samples', async () => {
    const { audio, player, events, buffer } = setup();
    player.play(source('s1'), { startPosition: 0, continuous: false });
    await settle();
    const start = player.songOffset;
    expect(start).toBeGreaterThanOrEqual(1);
    expect(audio.currentTime).toBe(start);
    expect(events.onDuration).toHaveBeenCalledWith(80_000 / RATE);
    const [first, second] = buffer().appends;
    expect(first).toEqual({
      start,
      end: start + (40 * 1024 - 1024) / RATE,
      timestampOffset: start - 1024 / RATE,
    });
    expect(second!.start).toBeCloseTo(first!.end, 9);
    expect(second!.end).toBe(start + 80_000 / RATE); // the padding is cut
  });

  it('prefetches the next song right after the current one and joins them without a gap', async () => {
    const { audio, player, events, buffer } = setup();
    player.play(source('s1'), { startPosition: 0, continuous: false });
    await settle();
    player.setNext(source('s2'));
    await settle();
    expect(requests.some((url) => url.startsWith(playlistUrl('s2')))).toBe(true);
    expect(requests).toContain(keyUrl('s2'));
    const s1End = player.songOffset + 80_000 / RATE;
    const s2First = buffer().appends.find((append) => append.start === s1End);
    expect(s2First).toBeDefined();
    // The automatic hand-over: the timeline runs on, no seek.
    const before = audio.currentTime;
    player.play(source('s2'), { startPosition: 0, continuous: true });
    expect(audio.currentTime).toBe(before);
    expect(player.songOffset).toBe(s1End);
    expect(player.songTime).toBe(0);
    expect(buffer().buffered.length).toBe(1); // one continuous stretch across the join
    expect(events.onFatalError).not.toHaveBeenCalled();
  });

  it('skips to a prefetched next song with a seek, and tells when playback ran into it', async () => {
    const { audio, player, events } = setup();
    player.play(source('s1'), { startPosition: 0, continuous: false });
    await settle();
    player.setNext(source('s2'));
    await settle();
    const s1End = player.songOffset + 80_000 / RATE;
    audio.advanceTo(s1End + 0.1);
    expect(events.onJoin).toHaveBeenCalledWith(source('s1'), source('s2'));
    expect(player.songTime).toBeCloseTo(0.1, 9);

    player.setNext(source('s3'));
    await settle();
    const s3Start = s1End + 79_321 / RATE;
    player.play(source('s3'), { startPosition: 0, continuous: false });
    expect(audio.currentTime).toBe(s3Start);
    expect(player.songOffset).toBe(s3Start);
  });

  it('asks the server for an aged prefetched key again before that song sounds; a refusal stops it', async () => {
    const { audio, player, events } = setup();
    player.play(source('s1'), { startPosition: 0, continuous: false });
    await settle();
    player.setNext(source('s2'));
    await settle();
    const keyRequests = () => requests.filter((url) => url === keyUrl('s2')).length;
    expect(keyRequests()).toBe(1);
    const now = performance.now();
    vi.spyOn(performance, 'now').mockReturnValue(now + KEY_FRESH_MS + 1);
    refusedKeys.add('s2');
    const before = audio.currentTime;
    player.play(source('s2'), { startPosition: 0, continuous: false });
    await settle();
    expect(keyRequests()).toBe(2);
    expect(audio.currentTime).toBe(before); // no seek into a song whose key was refused
    expect(events.onFatalError).toHaveBeenCalledWith(expect.objectContaining({ status: 403 }), 's2');
  });

  it('drops a next song whose prefetch was refused without a word, and plays it cold when asked', async () => {
    const { audio, player, events } = setup();
    player.play(source('s1'), { startPosition: 0, continuous: false });
    await settle();
    refusedKeys.add('s2');
    player.setNext(source('s2'));
    await settle();
    expect(events.onFatalError).not.toHaveBeenCalled();
    refusedKeys.delete('s2');
    const s1End = player.songOffset + 80_000 / RATE;
    player.play(source('s2'), { startPosition: 0, continuous: false });
    await settle();
    expect(player.songOffset).toBeGreaterThan(s1End); // a fresh stretch, not the dropped prefetch
    expect(audio.currentTime).toBe(player.songOffset);
    expect(events.onFatalError).not.toHaveBeenCalled();
  });

  it('reports the end when playback stops at the last song with nothing queued', async () => {
    const { audio, player, events } = setup();
    player.play(source('s1'), { startPosition: 0, continuous: false });
    await settle();
    audio.advanceTo(player.songOffset + 80_000 / RATE - 0.01);
    audio.dispatchEvent(new Event('waiting'));
    expect(events.onEnded).toHaveBeenCalledTimes(1);
  });
});
