import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Artist, Song } from '@backbeat/contract';
import { backbeatApi } from '../../../lib/api-query';
import { AlbumForm } from './album-form';
import { SongForm } from './song-form';

const artist: Artist = {
  _id: '11111111-1111-4111-8111-111111111111',
  name: 'Nova Reyes',
  bio: '',
  image: null,
  genres: [],
  subscriptionPrice: 499,
  currency: 'USD',
  ownerId: 'user-1',
  songCount: 2,
  albumCount: 0,
  allowSubscriberDownloads: false,
  createdAt: '2025-01-01T00:00:00.000Z',
};

function song(id: string, title: string): Song {
  return {
    _id: id,
    title,
    singer: 'Nova Reyes',
    coverImage: null,
    audioUrl: null,
    duration: 60,
    accessType: 'subscription',
    freeToStream: false,
    price: 0,
    currency: 'USD',
    genre: null,
    artist: { _id: artist._id, name: artist.name },
    album: null,
    status: 'ready',
    canPlay: true,
    previewStartSec: null,
    canDownload: false,
    createdAt: '2025-01-01T00:00:00.000Z',
  };
}

/** The XMLHttpRequest the upload helper creates; the test answers it. */
class FakeRequest {
  static last: FakeRequest | null = null;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  withCredentials = false;
  timeout = 0;
  body: FormData | null = null;
  url = '';
  constructor() {
    FakeRequest.last = this;
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
  }
  abort() {}
}

function jsonResponse(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  FakeRequest.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = String(input);
      if (url.startsWith('/api/genres')) return Promise.resolve(jsonResponse({ genres: [] }));
      if (url.startsWith('/api/albums/artist/')) {
        return Promise.resolve(
          jsonResponse({ albums: [], pagination: { page: 1, limit: 100, total: 0, totalPages: 1 }, artist }),
        );
      }
      if (url.startsWith('/api/songs/artist/')) {
        return Promise.resolve(
          jsonResponse({
            songs: [song('s1', 'First Light'), song('s2', 'Low Tide')],
            total: 2,
            page: 1,
            pages: 1,
            artist,
          }),
        );
      }
      return Promise.resolve(new Response('{}', { status: 404 }));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderWithStore(element: React.ReactElement) {
  const store = configureStore({
    reducer: { [backbeatApi.reducerPath]: backbeatApi.reducer },
    middleware: (getDefault) => getDefault().concat(backbeatApi.middleware),
  });
  return render(
    <Provider store={store}>
      <MemoryRouter>{element}</MemoryRouter>
    </Provider>,
  );
}

describe('SongForm', () => {
  it('shows inline errors and sends nothing when required fields are missing', () => {
    renderWithStore(
      <SongForm
        mode="create"
        song={null}
        artists={[artist]}
        defaultArtistId={artist._id}
        onSaved={vi.fn()}
      />,
    );
    fireEvent.change(screen.getByLabelText(/^Price/), { target: { value: '1.999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload song' }));
    expect(screen.getByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Choose an audio file')).toBeTruthy();
    expect(screen.getByText('Price must be an amount such as 1.99 (at most two decimals)')).toBeTruthy();
    expect(screen.getByLabelText(/^Title/).getAttribute('aria-invalid')).toBe('true');
    expect(FakeRequest.last).toBeNull();
  });

  it('sends "free to stream" when the artist ticks it', () => {
    renderWithStore(
      <SongForm
        mode="create"
        song={null}
        artists={[artist]}
        defaultArtistId={artist._id}
        onSaved={vi.fn()}
      />,
    );
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Open Door' } });
    fireEvent.click(screen.getByLabelText(/^Free to stream/));
    const take = new File([new Uint8Array(1000)], 'take.wav', { type: 'audio/wav' });
    fireEvent.change(screen.getByLabelText(/^Audio file/), { target: { files: [take] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload song' }));
    expect(FakeRequest.last?.body?.get('freeToStream')).toBe('true');
    expect(FakeRequest.last?.body?.get('accessType')).toBe('subscription');
  });

  it('shows per-file progress while uploading, then hands over the saved song', async () => {
    const onSaved = vi.fn();
    renderWithStore(
      <SongForm
        mode="create"
        song={null}
        artists={[artist]}
        defaultArtistId={artist._id}
        onSaved={onSaved}
      />,
    );
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Night Drive' } });
    fireEvent.change(screen.getByLabelText(/^Who can play it/), { target: { value: 'purchase-only' } });
    fireEvent.change(screen.getByLabelText(/^Price/), { target: { value: '1.99' } });
    const take = new File([new Uint8Array(1000)], 'take.wav', { type: 'audio/wav' });
    fireEvent.change(screen.getByLabelText(/^Audio file/), { target: { files: [take] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload song' }));

    const request = FakeRequest.last;
    expect(request?.url).toBe('/api/songs');
    expect(request?.withCredentials).toBe(true);
    expect(request?.body?.get('title')).toBe('Night Drive');
    expect(request?.body?.get('accessType')).toBe('purchase-only');
    expect(request?.body?.get('freeToStream')).toBe('false');
    expect(request?.body?.get('price')).toBe('1.99');

    act(() => {
      request?.upload.onprogress?.(
        new ProgressEvent('progress', { lengthComputable: true, loaded: 600, total: 1100 }),
      );
    });
    const bar = await screen.findByRole('progressbar', { name: /Uploading audio: take\.wav/ });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');

    const saved = { ...song('new-song', 'Night Drive'), status: 'processing' as const };
    await act(async () => {
      request!.status = 201;
      request!.responseText = JSON.stringify({ message: 'Song created successfully', song: saved });
      request!.onload?.();
      await Promise.resolve();
    });
    expect(onSaved).toHaveBeenCalledWith(saved, true);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it("puts the server's field error on the field", async () => {
    renderWithStore(
      <SongForm
        mode="create"
        song={null}
        artists={[artist]}
        defaultArtistId={artist._id}
        onSaved={vi.fn()}
      />,
    );
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Night Drive' } });
    const take = new File([new Uint8Array(10)], 'take.wav', { type: 'audio/wav' });
    fireEvent.change(screen.getByLabelText(/^Audio file/), { target: { files: [take] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload song' }));
    await act(async () => {
      const request = FakeRequest.last!;
      request.status = 422;
      request.responseText = JSON.stringify({
        message: 'audio: the audio could not be decoded',
        code: 'UNPROCESSABLE_MEDIA',
      });
      request.onload?.();
      await Promise.resolve();
    });
    expect(await screen.findByText('The audio could not be decoded')).toBeTruthy();
  });
});

describe('AlbumForm', () => {
  it('starts with one empty song entry, adds and removes rows, and resets after create', async () => {
    const onSaved = vi.fn();
    renderWithStore(
      <AlbumForm
        mode="create"
        album={null}
        artists={[artist]}
        defaultArtistId={artist._id}
        onSaved={onSaved}
      />,
    );
    expect(screen.getAllByRole('combobox', { name: /^Track/ })).toHaveLength(1);
    // The artist's songs load into the entries.
    await screen.findByRole('option', { name: 'First Light' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Track 1' }), { target: { value: 's1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add song' }));
    const second = screen.getByRole('combobox', { name: 'Track 2' });
    // A song chosen in one row is not offered in another.
    expect(within(second).queryByRole('option', { name: 'First Light' })).toBeNull();
    fireEvent.change(second, { target: { value: 's2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove track 1' }));
    expect(screen.getAllByRole('combobox', { name: /^Track/ })).toHaveLength(1);

    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Blue Hours' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create album' }));
    const request = FakeRequest.last!;
    expect(request.body?.get('songs')).toBe('["s2"]');
    await act(async () => {
      request.status = 201;
      request.responseText = JSON.stringify({ message: 'Album created successfully', album: { _id: 'a1' } });
      request.onload?.();
      await Promise.resolve();
    });
    expect(onSaved).toHaveBeenCalled();
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('');
    const tracks = screen.getAllByRole('combobox', { name: /^Track/ });
    expect(tracks).toHaveLength(1);
    expect((tracks[0] as HTMLSelectElement).value).toBe('');
  });
});
