import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeSong } from './player.test-fixtures';
import { selectActivePreview, selectCurrentStream } from './player.selectors';
import { playerReducer, playFromList, setCurrentTime, setDuration } from './player.slice';
import { leavePreview, playNext, previewSong } from './player.thunks';
import { previewReducer } from './preview.slice';
import { fetchSongStream, streamReducer } from './stream.slice';

const locked = makeSong('locked', { canPlay: false, accessType: 'purchase-only' });
const open = makeSong('open');
const songs = [open, locked, makeSong('after')];
const context = { type: 'album' as const, id: 'album-1' };

function makeStore() {
  return configureStore({
    reducer: { player: playerReducer, stream: streamReducer, preview: previewReducer },
  });
}

function respond(body: unknown, status = 200) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );
}

const requested = (spy: ReturnType<typeof respond>) =>
  spy.mock.calls.map(([input]) => new URL(String(input), 'http://x').pathname);

afterEach(() => vi.restoreAllMocks());

describe('preview mode', () => {
  it('previews a song within its list, and the stream it fetches is the preview’s', async () => {
    const store = makeStore();
    store.dispatch(previewSong({ songs, index: 1, context }));
    const state = store.getState();
    expect(state.player.selectedSong?._id).toBe('locked');
    expect(state.player.isPlaying).toBe(true);
    expect(state.player.playbackContext).toMatchObject({ type: 'album', id: 'album-1' });
    expect(selectActivePreview(state)).toMatchObject({ songId: 'locked', ended: false });

    const spy = respond({
      url: '/api/stream/preview/locked/index.m3u8?token=p',
      audioUrl: '/api/stream/preview/locked/audio?token=p',
      startSec: 30,
      durationSec: 30,
    });
    await store.dispatch(fetchSongStream({ songId: 'locked', song: locked }));
    expect(requested(spy)).toEqual(['/api/stream/song/locked/preview']);
    expect(selectCurrentStream(store.getState())).toMatchObject({
      url: '/api/stream/preview/locked/index.m3u8?token=p',
      fetched: true,
    });
    expect(selectActivePreview(store.getState())?.window).toEqual({ startSec: 30, durationSec: 30 });
  });

  it('never serves a preview address for the song itself, nor the reverse', async () => {
    const store = makeStore();
    store.dispatch(previewSong({ songs, index: 1, context }));
    respond({ url: '/preview', audioUrl: '/preview-audio', startSec: 0, durationSec: 30 });
    await store.dispatch(fetchSongStream({ songId: 'locked', song: locked }));

    // Selected again by its play button: preview mode ends, and the preview's address is not the song's.
    store.dispatch(playFromList({ songs, index: 1, context }));
    expect(selectActivePreview(store.getState())).toBeNull();
    expect(selectCurrentStream(store.getState())).toMatchObject({ url: null, fetched: false });
    vi.restoreAllMocks();
    const spy = respond(
      {
        message: 'You need to purchase this song to play it.',
        code: 'ACCESS_DENIED',
        reason: 'song_purchase_required',
      },
      403,
    );
    await store.dispatch(fetchSongStream({ songId: 'locked', song: locked }));
    expect(requested(spy)).toEqual(['/api/stream/song/locked']);
    expect(selectCurrentStream(store.getState()).error).toBe('You need to purchase this song to play it.');
  });

  it('stops at the end of the preview instead of moving on, and only there', () => {
    const store = makeStore();
    store.dispatch(previewSong({ songs, index: 1, context }));
    store.dispatch(setDuration(30));
    store.dispatch(setCurrentTime(12));
    store.dispatch(playNext());
    // Next in the middle of a preview is next: the listener moved on.
    expect(store.getState().player.selectedSong?._id).toBe('after');
    expect(selectActivePreview(store.getState())).toBeNull();

    store.dispatch(previewSong({ songs, index: 1, context }));
    store.dispatch(setDuration(30));
    store.dispatch(setCurrentTime(29.6));
    store.dispatch(playNext());
    const state = store.getState();
    expect(state.player.selectedSong?._id).toBe('locked');
    expect(state.player.isPlaying).toBe(false);
    expect(selectActivePreview(state)?.ended).toBe(true);
  });

  it('leaves preview mode paused at the start (the prompt closed, or the song was bought)', () => {
    const store = makeStore();
    store.dispatch(previewSong({ songs, index: 1, context }));
    store.dispatch(setCurrentTime(20));
    store.dispatch(leavePreview());
    const state = store.getState();
    expect(selectActivePreview(state)).toBeNull();
    expect(state.player).toMatchObject({ isPlaying: false, currentTime: 0, selectedSong: { _id: 'locked' } });
  });

  it('previewing the current song starts it again as a preview', () => {
    const store = makeStore();
    store.dispatch(playFromList({ songs, index: 1, context }));
    const first = store.getState().player.lastSelectedAt;
    vi.spyOn(Date, 'now').mockReturnValue((first ?? 0) + 1000);
    store.dispatch(previewSong({ songs, index: 1, context }));
    const state = store.getState();
    expect(state.player.lastSelectedAt).not.toBe(first);
    expect(selectActivePreview(state)?.songId).toBe('locked');
  });
});
