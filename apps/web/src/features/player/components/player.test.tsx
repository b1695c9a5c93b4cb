import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authReducer } from '../../auth/auth.slice';
import { playerReducer, playFromList } from '../player.slice';
import { makeSong } from '../player.test-fixtures';
import { streamReducer } from '../stream.slice';
import { Player } from './player';

const toastMock = vi.hoisted(() => {
  const toast = Object.assign(vi.fn(), { warning: vi.fn(), error: vi.fn(), success: vi.fn() });
  return toast;
});
vi.mock('sonner', () => ({ toast: toastMock }));

const songs = [
  makeSong('s1', { title: 'Harbour Lights' }),
  makeSong('s2', { title: 'Tidal Memory' }),
  makeSong('s3', { title: 'Low Orbit' }),
];

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function renderPlayer() {
  const store = configureStore({
    reducer: { auth: authReducer, player: playerReducer, stream: streamReducer },
  });
  render(
    <Provider store={store}>
      <MemoryRouter>
        <Player />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

const fetchMock = vi.fn<typeof fetch>();
let play: ReturnType<typeof vi.fn>;

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => ({ matches: false, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
  );
  play = vi.fn(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play as () => Promise<void>);
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  toastMock.mockClear();
  toastMock.warning.mockClear();
  toastMock.error.mockClear();
});

describe('Player', () => {
  it('renders nothing but the audio element until a song is selected', () => {
    renderPlayer();
    expect(screen.queryByRole('region', { name: 'Player' })).toBeNull();
    expect(screen.getByTestId('player-audio')).toBeTruthy();
  });

  it('fetches the stream once and plays it (the fallback file where HLS is unavailable)', async () => {
    fetchMock.mockImplementation((input) =>
      Promise.resolve(
        String(input).startsWith('/api/stream/album/')
          ? jsonResponse(200, { urls: [{ songId: 's2', url: '/hls/s2.m3u8?token=t' }] })
          : jsonResponse(200, { url: '/hls/s1.m3u8?token=t', audioUrl: '/audio/s1?token=t' }),
      ),
    );
    const store = renderPlayer();
    act(() => {
      store.dispatch(playFromList({ songs, index: 0, context: { type: 'album', id: 'album-1' } }));
    });
    expect(screen.getByRole('region', { name: 'Player' })).toBeTruthy();
    expect(screen.getByTestId('player-title').textContent).toBe('Harbour Lights');
    await waitFor(() =>
      expect(screen.getByTestId('player-audio').getAttribute('src')).toBe('/audio/s1?token=t'),
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/stream/song/s1');
    await waitFor(() => expect(play).toHaveBeenCalled());
    // In an album, the rest of its addresses come in one call, once the first song sounds.
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/stream/song/s1']);
    fireEvent(screen.getByTestId('player-audio'), new Event('playing'));
    await waitFor(() => expect(store.getState().stream.urls.s2).toBe('/hls/s2.m3u8?token=t'));
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/api/stream/song/s1',
      '/api/stream/album/album-1',
    ]);
  });

  it("shows the song's 403 message: a warning toast (2 s on desktop), the text, and a disabled play button", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(403, {
        message: 'x',
        code: 'ACCESS_DENIED',
        reason: 'subscription_required',
        accessType: 'subscription',
        artistName: 'Nova Reyes',
        albumTitle: 'Neon Tides',
        isPremium: false,
      }),
    );
    const store = renderPlayer();
    act(() => {
      store.dispatch(playFromList({ songs, index: 1, context: { type: 'album', id: 'album-1' } }));
    });
    const message = 'Subscribe to Nova Reyes to play this song.';
    await waitFor(() => expect(screen.getByTestId('player-stream-error').textContent).toBe(message));
    expect(toastMock.warning).toHaveBeenCalledTimes(1);
    expect(toastMock.warning).toHaveBeenCalledWith(message, { id: 'stream-warning-s2', duration: 2000 });
    const toggle = screen.getByRole('button', { name: `Cannot play: ${message}` });
    expect((toggle as HTMLButtonElement).disabled).toBe(true);
    expect(play).not.toHaveBeenCalled();
  });

  it('shows the placeholder toast for lossless, reset master and the decorative button', () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(200, { url: '/a', audioUrl: '/b' })));
    const store = renderPlayer();
    act(() => {
      store.dispatch(playFromList({ songs, index: 0, context: { type: 'album', id: 'album-1' } }));
    });
    for (const name of ['Lossless', 'Reset master', 'Audio effects']) {
      fireEvent.click(screen.getByRole('button', { name }));
    }
    expect(toastMock).toHaveBeenCalledTimes(3);
    expect(toastMock).toHaveBeenCalledWith('This feature will be available soon');
  });

  it('lists the songs playing next and plays one when chosen', () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(200, { url: '/a', audioUrl: '/b' })));
    const store = renderPlayer();
    act(() => {
      store.dispatch(playFromList({ songs, index: 0, context: { type: 'album', id: 'album-1' } }));
    });
    const toggle = screen.getByRole('button', { name: 'Show playing next' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const region = screen.getByRole('region', { name: 'Playing next' });
    expect(region.querySelectorAll('li')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Play Low Orbit by Nova Reyes' }));
    expect(store.getState().player.selectedSong?._id).toBe('s3');
  });

  it('mutes and unmutes from the mute toggle, and the volume slider moves the volume', () => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(200, { url: '/a', audioUrl: '/b' })));
    const store = renderPlayer();
    act(() => {
      store.dispatch(playFromList({ songs, index: 0, context: { type: 'album', id: 'album-1' } }));
    });
    fireEvent.change(screen.getByRole('slider', { name: 'Volume' }), { target: { value: '30' } });
    expect(store.getState().player.volume).toBe(0.3);
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(store.getState().player.volume).toBe(0);
    expect((screen.getByTestId('player-audio') as HTMLAudioElement).volume).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(store.getState().player.volume).toBe(0.3);
  });

  it('opens the keyboard shortcuts help with ?', () => {
    renderPlayer();
    fireEvent.keyDown(window, { key: '?', shiftKey: true });
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
