import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionEnded } from '../auth';
import { ApiError } from '../../lib/api';
import { makeSong } from './player.test-fixtures';
import {
  albumStreamErrorMessage,
  songDeniedMessage,
  songStreamErrorMessage,
  STREAM_MESSAGES,
} from './stream.messages';
import {
  clearStreams,
  fetchAlbumStream,
  fetchSongStream,
  forgetSongStream,
  initialStreamState,
  prefetchAlbumStream,
  streamReducer,
} from './stream.slice';

function makeStore() {
  return configureStore({ reducer: { stream: streamReducer } });
}

function respond(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );
}

const denied = (extra: Record<string, unknown>) => ({
  message: 'server text',
  code: 'ACCESS_DENIED',
  artistName: 'Nova Reyes',
  albumTitle: 'Neon Tides',
  isPremium: false,
  ...extra,
});

afterEach(() => vi.restoreAllMocks());

describe('song 403 messages (SPEC section 8)', () => {
  it('asks for a subscription to the artist, or "this artist" when unnamed', () => {
    expect(songDeniedMessage({ accessType: 'subscription', artistName: 'Kairo Beats' })).toBe(
      'Subscribe to Kairo Beats to play this song.',
    );
    expect(songDeniedMessage({ accessType: 'subscription', artistName: '' })).toBe(
      'Subscribe to this artist to play this song.',
    );
    expect(songDeniedMessage({ accessType: 'subscription' })).toBe(
      'Subscribe to this artist to play this song.',
    );
  });

  it('asks for the album when a purchase-only song is on a premium album', () => {
    expect(
      songDeniedMessage({ accessType: 'purchase-only', isPremium: true, albumTitle: 'Midnight Protocol' }),
    ).toBe('Purchase the album "Midnight Protocol" to play this song.');
  });

  it('asks for the song otherwise', () => {
    expect(songDeniedMessage({ accessType: 'purchase-only', isPremium: false })).toBe(
      'You need to purchase this song to play it.',
    );
    expect(songDeniedMessage({})).toBe('You need to purchase this song to play it.');
  });

  it("lets the server's reason pick the text when it gives one", () => {
    expect(
      songDeniedMessage({
        accessType: 'subscription',
        isPremium: true,
        albumTitle: 'Deluxe',
        reason: 'album_purchase_required',
      }),
    ).toBe('Purchase the album "Deluxe" to play this song.');
    expect(songDeniedMessage({ accessType: 'purchase-only', reason: 'song_purchase_required' })).toBe(
      STREAM_MESSAGES.purchaseSong,
    );
    expect(
      songDeniedMessage({ accessType: 'purchase-only', artistName: 'X', reason: 'subscription_required' }),
    ).toBe('Subscribe to X to play this song.');
  });

  it("uses the song's facts first, then the 403 body's", () => {
    const error = new ApiError(
      403,
      'server text',
      'ACCESS_DENIED',
      denied({ accessType: 'subscription' }),
      '/x',
    );
    expect(songStreamErrorMessage(error)).toBe('Subscribe to Nova Reyes to play this song.');
    expect(songStreamErrorMessage(error, { accessType: 'subscription', artistName: 'Sol Marín' })).toBe(
      'Subscribe to Sol Marín to play this song.',
    );
  });

  it("other failures show the server's message, else 'Failed to fetch streaming URL'", () => {
    expect(
      songStreamErrorMessage(
        new ApiError(409, 'x', 'SONG_PROCESSING', { message: 'Still processing' }, '/x'),
      ),
    ).toBe('Still processing');
    expect(songStreamErrorMessage(new ApiError(0, 'Network error', 'NETWORK_ERROR', null, '/x'))).toBe(
      'Failed to fetch streaming URL',
    );
    expect(songStreamErrorMessage(new Error('boom'))).toBe('Failed to fetch streaming URL');
  });

  it("album: 403 asks to purchase the album; others show the server's message or 'Failed to stream album'", () => {
    expect(albumStreamErrorMessage(new ApiError(403, 'x', 'ACCESS_DENIED', { message: 'nope' }, '/x'))).toBe(
      'You need to purchase this album to stream it.',
    );
    expect(
      albumStreamErrorMessage(new ApiError(404, 'x', 'NOT_FOUND', { message: 'Album not found' }, '/x')),
    ).toBe('Album not found');
    expect(albumStreamErrorMessage(new ApiError(500, 'x', 'HTTP_500', null, '/x'))).toBe(
      'Failed to stream album',
    );
  });
});

describe('stream slice', () => {
  it('fetching sets loading and clears the error; success stores the URLs and marks the id fetched', async () => {
    const store = makeStore();
    const fetchMock = respond(200, { url: '/hls/s1.m3u8?token=t', audioUrl: '/audio/s1?token=t' });
    const pending = store.dispatch(fetchSongStream({ songId: 's1' }));
    expect(store.getState().stream.loading).toBe(true);
    expect(store.getState().stream.fetchingSongId).toBe('s1');
    await pending;
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/stream/song/s1',
      expect.objectContaining({ credentials: 'include' }),
    );
    const state = store.getState().stream;
    expect(state.urls).toEqual({ s1: '/hls/s1.m3u8?token=t' });
    expect(state.audioUrls).toEqual({ s1: '/audio/s1?token=t' });
    expect(state.fetchedIds).toEqual(['s1']);
    expect(state.loading).toBe(false);
    expect(state.error).toBeNull();
  });

  it("skips an already-fetched id with a silent 'Already fetched' rejection", async () => {
    const store = makeStore();
    respond(200, { url: '/a', audioUrl: '/b' });
    await store.dispatch(fetchSongStream({ songId: 's1' }));
    const fetchMock = respond(200, { url: '/c', audioUrl: '/d' });
    fetchMock.mockClear();
    const before = store.getState().stream;
    const result = await store.dispatch(fetchSongStream({ songId: 's1' }));
    expect(fetchSongStream.rejected.match(result)).toBe(true);
    expect(result.payload).toEqual({ message: 'Already fetched', skipped: true });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(store.getState().stream).toEqual(before);
  });

  it('sends one request while the same song is being fetched', async () => {
    const store = makeStore();
    const fetchMock = respond(200, { url: '/a', audioUrl: '/b' });
    await Promise.all([
      store.dispatch(fetchSongStream({ songId: 's1' })),
      store.dispatch(fetchSongStream({ songId: 's1' })),
    ]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a 403 stores the SPEC message for the song', async () => {
    const store = makeStore();
    respond(403, denied({ accessType: 'purchase-only', isPremium: true, albumTitle: 'Midnight Protocol' }));
    const song = makeSong('s2', {
      accessType: 'purchase-only',
      album: { _id: 'al', title: 'Midnight Protocol', isPremium: true },
    });
    await store.dispatch(fetchSongStream({ songId: 's2', song }));
    const state = store.getState().stream;
    expect(state.error).toEqual({
      songId: 's2',
      message: 'Purchase the album "Midnight Protocol" to play this song.',
    });
    expect(state.fetchedIds).toEqual([]);
    expect(state.loading).toBe(false);
  });

  it('a failed song can be fetched again, and a new fetch clears the old error', async () => {
    const store = makeStore();
    respond(500, {});
    await store.dispatch(fetchSongStream({ songId: 's3' }));
    expect(store.getState().stream.error).toEqual({ songId: 's3', message: 'Failed to fetch streaming URL' });
    respond(200, { url: '/a', audioUrl: '/b' });
    const pending = store.dispatch(fetchSongStream({ songId: 's3' }));
    expect(store.getState().stream.error).toBeNull();
    await pending;
    expect(store.getState().stream.urls.s3).toBe('/a');
  });

  it('album stream stores every URL, keyed by song id or by index', async () => {
    const store = makeStore();
    respond(200, {
      urls: [
        { songId: 'x1', url: '/x1' },
        { songId: '', url: '/second' },
      ],
    });
    await store.dispatch(fetchAlbumStream('al1'));
    const state = store.getState().stream;
    expect(state.urls).toEqual({ x1: '/x1', '1': '/second' });
    expect(state.fetchedIds).toEqual(['x1', '1']);
    expect(state.loading).toBe(false);
  });

  it('album 403 stores the album message with the album id', async () => {
    const store = makeStore();
    respond(403, { message: 'nope', code: 'ACCESS_DENIED', reason: 'album_purchase_required' });
    await store.dispatch(fetchAlbumStream('al2'));
    expect(store.getState().stream.error).toEqual({
      albumId: 'al2',
      message: 'You need to purchase this album to stream it.',
    });
  });

  it('an album prefetch stores addresses it lacks, keeps those it has, and stays silent when refused', async () => {
    const store = makeStore();
    respond(200, { url: '/own-x1', audioUrl: '/file-x1' });
    await store.dispatch(fetchSongStream({ songId: 'x1' }));
    respond(403, { message: 'refused', code: 'INVALID' });
    await store.dispatch(fetchSongStream({ songId: 'x3' }));
    const songError = store.getState().stream.error;
    respond(200, {
      urls: [
        { songId: 'x1', url: '/album-x1' },
        { songId: 'x2', url: '/album-x2' },
      ],
    });
    await store.dispatch(prefetchAlbumStream('al1'));
    expect(store.getState().stream.urls).toEqual({ x1: '/own-x1', x2: '/album-x2' });
    expect(store.getState().stream.error).toEqual(songError);
    respond(403, { message: 'nope', code: 'ACCESS_DENIED', reason: 'album_purchase_required' });
    await store.dispatch(prefetchAlbumStream('al2'));
    expect(store.getState().stream.error).toEqual(songError);
    expect(store.getState().stream.loading).toBe(false);
  });

  it('clearing empties URLs, fetched ids and errors; forgetting drops one song', () => {
    const filled = {
      ...initialStreamState,
      urls: { a: '/a', b: '/b' },
      audioUrls: { a: '/aa' },
      fetchedIds: ['a', 'b'],
      error: { songId: 'c', message: 'x' },
    };
    expect(streamReducer(filled, clearStreams())).toEqual(initialStreamState);
    const forgot = streamReducer(filled, forgetSongStream('a'));
    expect(forgot.urls).toEqual({ b: '/b' });
    expect(forgot.audioUrls).toEqual({});
    expect(forgot.fetchedIds).toEqual(['b']);
    expect(streamReducer(filled, sessionEnded())).toEqual(initialStreamState);
  });
});
