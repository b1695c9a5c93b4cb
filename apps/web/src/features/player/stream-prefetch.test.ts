import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ALBUM_PREFETCH_TTL_MS,
  claimAlbumPrefetch,
  clearPrefetchedAddresses,
  holdPrefetch,
  releaseAlbumPrefetch,
  PREFETCH_TTL_MS,
  prefetchSongAddress,
  takePrefetchedAddress,
} from './stream-prefetch';
import { fetchSongStream, streamReducer } from './stream.slice';
import { makeSong } from './player.test-fixtures';

function respond(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(() =>
      Promise.resolve(
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
      ),
    );
}

afterEach(() => {
  clearPrefetchedAddresses();
  vi.restoreAllMocks();
});

describe('stream address prefetch on intent', () => {
  it('asks once per song, and hands the answer over exactly once', async () => {
    const fetchMock = respond(200, { url: '/hls/s1.m3u8?token=t', audioUrl: '/audio/s1?token=t' });
    prefetchSongAddress('s1', 1000);
    prefetchSongAddress('s1', 1100);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(takePrefetchedAddress('s1', 1200)).resolves.toEqual({
      url: '/hls/s1.m3u8?token=t',
      audioUrl: '/audio/s1?token=t',
    });
    expect(takePrefetchedAddress('s1', 1300)).toBeUndefined();
  });

  it('asks nothing while held (an account signing out), and again once let go', () => {
    const fetchMock = respond(200, { url: '/hls/s1.m3u8?token=t', audioUrl: '/audio/s1?token=t' });
    holdPrefetch(true);
    prefetchSongAddress('s1', 0);
    expect(claimAlbumPrefetch('a1', 0)).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
    holdPrefetch(false);
    prefetchSongAddress('s1', 0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(claimAlbumPrefetch('a1', 0)).toBe(true);
  });

  it('cancels the address requests under way when a sign-out starts, without an error to show', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const store = configureStore({ reducer: { stream: streamReducer } });
    const asked = store.dispatch(fetchSongStream({ songId: 's1' }));
    holdPrefetch(true);
    const result = await asked;
    expect(fetchSongStream.rejected.match(result) && result.payload?.cancelled).toBe(true);
    expect(store.getState().stream).toMatchObject({ loading: false, fetchingSongId: null, error: null });
    holdPrefetch(false);
  });

  it('drops an answer older than its time to live, and everything on clear', () => {
    respond(200, { url: '/hls/s1.m3u8?token=t', audioUrl: '/audio/s1?token=t' });
    prefetchSongAddress('s1', 0);
    expect(takePrefetchedAddress('s1', PREFETCH_TTL_MS + 1)).toBeUndefined();
    prefetchSongAddress('s2', 0);
    clearPrefetchedAddresses();
    expect(takePrefetchedAddress('s2', 1)).toBeUndefined();
  });

  it('lets the play request use the prefetched answer instead of asking again', async () => {
    const fetchMock = respond(200, { url: '/hls/s1.m3u8?token=t', audioUrl: '/audio/s1?token=t' });
    prefetchSongAddress('s1');
    const store = configureStore({ reducer: { stream: streamReducer } });
    await store.dispatch(fetchSongStream({ songId: 's1' }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(store.getState().stream.urls.s1).toBe('/hls/s1.m3u8?token=t');
  });

  it("words a prefetched refusal with the song's SPEC message when play is pressed", async () => {
    respond(403, { message: 'no', code: 'ACCESS_DENIED', reason: 'purchase-required' });
    prefetchSongAddress('s1');
    const store = configureStore({ reducer: { stream: streamReducer } });
    await store.dispatch(
      fetchSongStream({ songId: 's1', song: makeSong('s1', { accessType: 'purchase-only' }) }),
    );
    expect(store.getState().stream.error).toEqual({
      songId: 's1',
      message: 'You need to purchase this song to play it.',
    });
  });
});

describe('album address prefetch', () => {
  it('lets one caller ask per album and period, again after a failure, and forgets on sign-out', () => {
    expect(claimAlbumPrefetch('al1', 1000)).toBe(true);
    expect(claimAlbumPrefetch('al1', 2000)).toBe(false);
    expect(claimAlbumPrefetch('al2', 2000)).toBe(true);
    expect(claimAlbumPrefetch('al1', 1000 + ALBUM_PREFETCH_TTL_MS)).toBe(true);
    releaseAlbumPrefetch('al2');
    expect(claimAlbumPrefetch('al2', 3000)).toBe(true);
    clearPrefetchedAddresses();
    expect(claimAlbumPrefetch('al1', 3000)).toBe(true);
  });
});
