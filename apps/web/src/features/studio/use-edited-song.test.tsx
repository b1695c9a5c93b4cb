import { configureStore } from '@reduxjs/toolkit';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Song } from '@backbeat/contract';
import { backbeatApi } from '../../lib/api-query';
import { useEditedSong } from './use-edited-song';

const NOVA = '11111111-1111-4111-8111-111111111111';
const ECHO = '22222222-2222-4222-8222-222222222222';

function song(id: string, overrides: Partial<Song> = {}): Song {
  return {
    _id: id,
    title: `Song ${id}`,
    singer: 'Nova Reyes',
    coverImage: null,
    audioUrl: null,
    duration: 60,
    accessType: 'subscription',
    freeToStream: false,
    price: 0,
    currency: 'USD',
    genre: null,
    artist: { _id: NOVA, name: 'Nova Reyes' },
    album: null,
    status: 'ready',
    canPlay: true,
    previewStartSec: null,
    canDownload: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const json = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

let single: Record<string, Song> = {};
const fetchMock = vi.fn((input: RequestInfo | URL) => {
  const url = String(input);
  if (url.startsWith('/api/songs/artist/')) {
    return json({ songs: [song('listed')], total: 1, page: 1, pages: 1 });
  }
  const id = /^\/api\/songs\/([^/?]+)$/.exec(url)?.[1];
  if (id && single[id]) return json(single[id]);
  if (id === 'broken') return json({ message: 'Server down', code: 'INTERNAL' }, 500);
  return json({ message: 'Song not found', code: 'SONG_NOT_FOUND' }, 404);
});

beforeEach(() => {
  single = {};
  fetchMock.mockClear();
  window.sessionStorage.clear();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderEdited(songId: string, managed: string[] = [NOVA]) {
  const store = configureStore({
    reducer: { [backbeatApi.reducerPath]: backbeatApi.reducer },
    middleware: (getDefault) => getDefault().concat(backbeatApi.middleware),
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={store}>
      <MemoryRouter>{children}</MemoryRouter>
    </Provider>
  );
  return renderHook(() => useEditedSong(songId, NOVA, managed), { wrapper });
}

const requested = () => fetchMock.mock.calls.map(([input]) => String(input));

describe('useEditedSong', () => {
  it('takes a listed song from the artist list without reading it on its own', async () => {
    const { result } = renderEdited('listed');
    await waitFor(() => expect(result.current.fromList?._id).toBe('listed'));
    expect(result.current.fetched).toBeNull();
    expect(requested().some((url) => url === '/api/songs/listed')).toBe(false);
  });

  it('reads a song that is still processing (uploaded in another tab) by id', async () => {
    single.fresh = song('fresh', { status: 'processing', title: 'Just Uploaded' });
    const { result } = renderEdited('fresh');
    expect(result.current.isLoading).toBe(true);
    await waitFor(() => expect(result.current.fetched?.title).toBe('Just Uploaded'));
    expect(result.current).toMatchObject({ fromList: null, isLoading: false, isError: false });
    expect(requested()).toContain('/api/songs/fresh');
  });

  it("treats a 404 or another artist's song as not found, and other failures as errors", async () => {
    single.foreign = song('foreign', { artist: { _id: ECHO, name: 'Echo Park' } });
    const foreign = renderEdited('foreign');
    await waitFor(() => expect(requested()).toContain('/api/songs/foreign'));
    await waitFor(() => expect(foreign.result.current.isLoading).toBe(false));
    expect(foreign.result.current).toMatchObject({ fetched: null, known: null, isError: false });
    // An admin who manages both artists gets it.
    const admin = renderEdited('foreign', [NOVA, ECHO]);
    await waitFor(() => expect(admin.result.current.fetched?._id).toBe('foreign'));

    const gone = renderEdited('gone');
    await waitFor(() => expect(requested()).toContain('/api/songs/gone'));
    await waitFor(() => expect(gone.result.current.isLoading).toBe(false));
    expect(gone.result.current).toMatchObject({ fetched: null, isError: false });

    const broken = renderEdited('broken');
    await waitFor(() => expect(broken.result.current.isError).toBe(true));
  });
});
