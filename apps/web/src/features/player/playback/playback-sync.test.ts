// @vitest-environment jsdom
import { configureStore } from '@reduxjs/toolkit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pause, play, playerReducer, playFromList, reconcileWithLibrary } from '../player.slice';
import { songsA } from '../player.test-fixtures';
import { playNext, previewSong } from '../player.thunks';
import { previewReducer } from '../preview.slice';
import { prefetchAlbumStream, streamReducer } from '../stream.slice';
import type { PlaybackController } from './playback-controller';
import { startPlaybackSync, type Handover } from './playback-sync';

function fakeController() {
  return {
    select: vi.fn(),
    clear: vi.fn(),
    songOffset: 7,
    hasSource: true,
  };
}

function setup(user: unknown = { _id: 'u1' }) {
  const store = configureStore({
    reducer: {
      player: playerReducer,
      stream: streamReducer,
      preview: previewReducer,
      auth: (state: { user: unknown } = { user }) => state,
    },
  });
  const controller = fakeController();
  const audio = document.createElement('audio');
  vi.spyOn(audio, 'pause').mockImplementation(() => undefined);
  const handover: Handover = { pending: false, key: null, awaitingSource: false };
  const requestPlay = vi.fn();
  const onSelection = vi.fn();
  const sync = startPlaybackSync({
    store,
    controller: controller as unknown as PlaybackController,
    audio,
    handover,
    requestPlay,
    onSelection,
  });
  return { store, controller, audio, handover, requestPlay, onSelection, sync };
}

/** The album's addresses, as the album prefetch stores them. */
const albumAddresses = {
  urls: songsA.map((song) => ({ songId: song._id, url: `/hls/${song._id}/index.m3u8?token=t` })),
};

/** The server: the album's addresses, or one song's. */
function answer(input: RequestInfo | URL): Promise<Response> {
  const url = String(input);
  const previewed = /\/stream\/song\/(\w+)\/preview/.exec(url)?.[1];
  if (previewed) {
    const base = `/preview/${previewed}`;
    const body = {
      url: `${base}/index.m3u8?token=p`,
      audioUrl: `${base}/audio?token=p`,
      firstSegmentUrl: `${base}/seg_0000.ts`,
      startSec: 30,
      durationSec: 30,
    };
    return Promise.resolve(new Response(JSON.stringify(body)));
  }
  const song = /\/stream\/song\/(\w+)/.exec(url)?.[1];
  const body = song
    ? { url: `/hls/${song}/index.m3u8?token=own`, audioUrl: `/audio/${song}` }
    : albumAddresses;
  return Promise.resolve(new Response(JSON.stringify(body)));
}

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(answer);
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('playback sync', () => {
  it('asks for the address of the song the library selects (paused) only while someone is signed in', async () => {
    const signedIn = setup();
    signedIn.store.dispatch(reconcileWithLibrary({ library: songsA }));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    signedIn.sync.stop();
    fetchMock.mockClear();
    // Just signed out, the library still on screen: nothing is asked of the stream API on a session that is gone.
    const signedOut = setup(null);
    signedOut.store.dispatch(reconcileWithLibrary({ library: songsA }));
    // The sync queues its fetch in a microtask; once that has run, a fetch would show as under way.
    await Promise.resolve();
    await Promise.resolve();
    expect(signedOut.store.getState().stream.fetchingSongId).toBeNull();
    expect(signedOut.store.getState().player.selectedSong?._id).toBe(songsA[0]!._id);
    expect(fetchMock).not.toHaveBeenCalled();
    // Pressing play still asks (and the server answers for itself).
    signedOut.store.dispatch(play());
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    signedOut.sync.stop();
  });

  it('starts a chosen song inside the dispatch that chose it, and plays it', async () => {
    const { store, controller, audio, requestPlay } = setup();
    await store.dispatch(prefetchAlbumStream('album-1'));
    store.dispatch(playFromList({ songs: songsA, index: 1, context: { type: 'album', id: 'album-1' } }));
    expect(controller.select).toHaveBeenCalledTimes(1);
    expect(controller.select).toHaveBeenCalledWith(
      expect.objectContaining({ songId: 'a2', url: '/hls/a2/index.m3u8?token=t', fallbackUrl: null }),
      { startPosition: 0, continuous: false },
    );
    expect(audio.dataset.songOffset).toBe('7');
    expect(requestPlay).toHaveBeenCalledTimes(1);
    store.dispatch(pause());
    expect(audio.pause).not.toHaveBeenCalled(); // the element was not playing
    store.dispatch(play());
    expect(requestPlay).toHaveBeenCalledTimes(2);
    // A listener's own next starts the next song at once.
    store.dispatch(playNext());
    expect(controller.select).toHaveBeenLastCalledWith(expect.objectContaining({ songId: 'a3' }), {
      startPosition: 0,
      continuous: false,
    });
  });

  it('continues the timeline into the song an automatic advance selects, even once its address arrives', async () => {
    const { store, controller, handover } = setup();
    store.dispatch(playFromList({ songs: songsA, index: 0, context: { type: 'album', id: 'album-1' } }));
    await vi.waitFor(() => expect(controller.select).toHaveBeenCalledTimes(1));

    controller.clear.mockClear();
    handover.pending = true;
    store.dispatch(playNext());
    handover.pending = false;
    // a2 has no address yet: the ending song plays on, and the player must not advance again meanwhile.
    expect(controller.clear).not.toHaveBeenCalled();
    expect(handover.awaitingSource).toBe(true);
    await vi.waitFor(() => expect(controller.select).toHaveBeenCalledTimes(2));
    expect(controller.select).toHaveBeenLastCalledWith(
      expect.objectContaining({ songId: 'a2', url: '/hls/a2/index.m3u8?token=own' }),
      { startPosition: 0, continuous: true },
    );
    expect(handover.awaitingSource).toBe(false);
  });

  it("asks for the selected song's address once per selection, and silences the player meanwhile", async () => {
    const { store, controller, onSelection } = setup();
    fetchMock.mockImplementation(() => new Promise<Response>(() => undefined));
    store.dispatch(playFromList({ songs: songsA, index: 2, context: { type: 'playlist', id: 'p1' } }));
    await Promise.resolve();
    store.dispatch(pause());
    store.dispatch(play());
    await Promise.resolve();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/stream/song/a3']);
    expect(controller.clear).toHaveBeenCalled();
    expect(onSelection).toHaveBeenLastCalledWith('none', false);
  });

  it("plays a preview from the preview's own addresses, and the song itself never from them", async () => {
    const { store, controller } = setup();
    store.dispatch(previewSong({ songs: songsA, index: 1, context: { type: 'album', id: 'album-1' } }));
    await vi.waitFor(() => expect(controller.select).toHaveBeenCalledTimes(1));
    expect(controller.select).toHaveBeenLastCalledWith(
      {
        songId: 'a2',
        url: '/preview/a2/index.m3u8?token=p',
        fallbackUrl: '/preview/a2/audio?token=p',
        firstSegmentUrl: '/preview/a2/seg_0000.ts',
        durationHint: 30,
      },
      { startPosition: 0, continuous: false },
    );
    // The album's addresses arriving meanwhile do not replace the preview's.
    await store.dispatch(prefetchAlbumStream('album-1'));
    expect(controller.select).toHaveBeenCalledTimes(1);

    // Chosen again (not as a preview), the song asks for its own address instead of playing the preview's.
    controller.clear.mockClear();
    store.dispatch(playFromList({ songs: songsA, index: 1, context: { type: 'album', id: 'album-1' } }));
    expect(controller.clear).toHaveBeenCalled();
    await vi.waitFor(() => expect(controller.select).toHaveBeenCalledTimes(2));
    expect(controller.select).toHaveBeenLastCalledWith(
      expect.objectContaining({ songId: 'a2', url: '/hls/a2/index.m3u8?token=own', firstSegmentUrl: null }),
      expect.anything(),
    );
  });
});
