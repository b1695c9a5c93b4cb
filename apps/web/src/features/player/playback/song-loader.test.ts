// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adtsFrame, concat, encrypt, IV, servedPlaylist, transportStream } from './gapless.test-fixtures';
import { PlaybackError, SongLoader, type Fetcher } from './song-loader';

const ORIGIN = 'http://localhost:3000';
const PLAYLIST_URL = `${ORIGIN}/api/stream/hls/s1/index.m3u8?token=t.k&nocache=1`;
const KEY_URL = `${ORIGIN}/api/stream/hls/s1/key?token=t.k`;
const segmentUrl = (index: number) => `${ORIGIN}/api/stream/hls/s1/seg_${String(index).padStart(4, '0')}.ts`;
const RAW_KEY = Uint8Array.from({ length: 16 }, (_, i) => i * 3);
const ADTS = concat(Array.from({ length: 12 }, (_, i) => adtsFrame(200 + i)));

type Answer = () => Promise<Response>;

/** A fetcher answering by address; records every request. */
function fakeServer(answers: Record<string, Answer | Answer[]>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetcher: Fetcher = (url, init) => {
    calls.push({ url, init });
    const answer = answers[url];
    const next = Array.isArray(answer) ? answer.shift() : answer;
    return next ? next() : Promise.resolve(new Response('not found', { status: 404 }));
  };
  return { fetcher, calls, count: (url: string) => calls.filter((call) => call.url === url).length };
}

const ok = (body: BodyInit) => () => Promise.resolve(new Response(body));
const status = (code: number) => () => Promise.resolve(new Response('', { status: code }));

async function encryptedSegment() {
  return encrypt(transportStream(ADTS), RAW_KEY, IV);
}

beforeEach(() => {
  vi.stubGlobal('window', { location: { href: `${ORIGIN}/album/a1` } });
});
afterEach(() => vi.unstubAllGlobals());

describe('SongLoader', () => {
  it('asks for the playlist, the key and the first segment the server named at once, before the playlist answers', () => {
    const never = () => new Promise<Response>(() => undefined);
    const server = fakeServer({ [PLAYLIST_URL]: never, [KEY_URL]: never, [segmentUrl(0)]: never });
    new SongLoader(PLAYLIST_URL, new AbortController().signal, {
      firstSegmentUrl: segmentUrl(0),
      fetcher: server.fetcher,
    });
    expect(server.calls.map((call) => call.url).sort()).toEqual(
      [KEY_URL, PLAYLIST_URL, segmentUrl(0)].sort(),
    );
    const byUrl = Object.fromEntries(server.calls.map((call) => [call.url, call.init]));
    expect(byUrl[KEY_URL]).toMatchObject({ credentials: 'same-origin', cache: 'no-store' });
    expect(byUrl[PLAYLIST_URL]).toMatchObject({ credentials: 'same-origin', cache: 'no-store' });
  });

  it('decrypts and unwraps segments to AAC frames, using the first segment it asked for up front', async () => {
    const segment = await encryptedSegment();
    const server = fakeServer({
      [PLAYLIST_URL]: ok(servedPlaylist([6, 6])),
      [KEY_URL]: ok(RAW_KEY),
      [segmentUrl(0)]: ok(segment),
      [segmentUrl(1)]: ok(segment),
    });
    const loader = new SongLoader(PLAYLIST_URL, new AbortController().signal, {
      firstSegmentUrl: segmentUrl(0),
      fetcher: server.fetcher,
    });
    const first = await loader.loadSegment(0);
    expect(first).toMatchObject({ index: 0, frames: 12, bytes: segment.byteLength });
    expect(first.adts).toEqual(ADTS);
    await expect(loader.loadSegment(1)).resolves.toMatchObject({ index: 1, frames: 12 });
    expect(server.count(segmentUrl(0))).toBe(1);
    expect(server.count(KEY_URL)).toBe(1);
  });

  it('fetches the first segment the playlist names when the address given up front is another', async () => {
    const segment = await encryptedSegment();
    const elsewhere = `${ORIGIN}/media/songs/s1/v0/seg_0000.ts`;
    const server = fakeServer({
      [PLAYLIST_URL]: ok(servedPlaylist([6])),
      [KEY_URL]: ok(RAW_KEY),
      [segmentUrl(0)]: ok(segment),
      [elsewhere]: ok(segment),
    });
    const loader = new SongLoader(PLAYLIST_URL, new AbortController().signal, {
      firstSegmentUrl: '/media/songs/s1/v0/seg_0000.ts',
      fetcher: server.fetcher,
    });
    await expect(loader.loadSegment(0)).resolves.toMatchObject({ frames: 12 });
    expect(server.count(elsewhere)).toBe(1);
    expect(server.count(segmentUrl(0))).toBe(1);
  });

  it('never retries a key: a refusal is final and reaches every segment', async () => {
    const server = fakeServer({
      [PLAYLIST_URL]: ok(servedPlaylist([6])),
      [KEY_URL]: status(403),
      [segmentUrl(0)]: ok(await encryptedSegment()),
    });
    const loader = new SongLoader(PLAYLIST_URL, new AbortController().signal, {
      firstSegmentUrl: segmentUrl(0),
      fetcher: server.fetcher,
    });
    await expect(loader.keyReady()).rejects.toMatchObject({ type: 'networkError', status: 403 });
    await expect(loader.loadSegment(0)).rejects.toBeInstanceOf(PlaybackError);
    expect(server.count(KEY_URL)).toBe(1);
    // Asking again is a new request, which the server checks again.
    await expect(loader.refreshKey()).rejects.toMatchObject({ status: 403 });
    expect(server.count(KEY_URL)).toBe(2);
  });

  it('retries a segment after a server error but not after a refusal', async () => {
    const segment = await encryptedSegment();
    const server = fakeServer({
      [PLAYLIST_URL]: ok(servedPlaylist([6, 6])),
      [KEY_URL]: ok(RAW_KEY),
      [segmentUrl(0)]: [status(503), ok(segment)],
      [segmentUrl(1)]: [status(404), ok(segment)],
    });
    const loader = new SongLoader(PLAYLIST_URL, new AbortController().signal, {
      firstSegmentUrl: null,
      fetcher: server.fetcher,
    });
    await expect(loader.loadSegment(0)).resolves.toMatchObject({ frames: 12 });
    expect(server.count(segmentUrl(0))).toBe(2);
    await expect(loader.loadSegment(1)).rejects.toMatchObject({ type: 'networkError', status: 404 });
    expect(server.count(segmentUrl(1))).toBe(1);
  });

  it('reports media it cannot read as a media error, and stops when the song is dropped', async () => {
    const server = fakeServer({
      [PLAYLIST_URL]: ok(servedPlaylist([6])),
      [KEY_URL]: ok(RAW_KEY),
      [segmentUrl(0)]: ok(await encrypt(new Uint8Array(400), RAW_KEY, IV)),
    });
    const loader = new SongLoader(PLAYLIST_URL, new AbortController().signal, {
      firstSegmentUrl: segmentUrl(0),
      fetcher: server.fetcher,
    });
    await expect(loader.loadSegment(0)).rejects.toMatchObject({ type: 'mediaError' });

    const abort = new AbortController();
    const dropped = new SongLoader(PLAYLIST_URL, abort.signal, {
      firstSegmentUrl: null,
      fetcher: fakeServer({ [PLAYLIST_URL]: status(503), [KEY_URL]: ok(RAW_KEY) }).fetcher,
    });
    abort.abort(new DOMException('gone', 'AbortError'));
    await expect(dropped.playlist).rejects.toMatchObject({ name: 'AbortError' });
  });
});
