import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SANDBOX_GATEWAYS,
  jsonResponse,
  makeAlbum,
  makeArtist,
  renderWithStore,
} from '../features/commerce/commerce.test-fixtures';
import ArtistPage from './artist-page';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const artist = makeArtist({ albumCount: 13 });
const albums = Array.from({ length: 13 }, (_, i) =>
  makeAlbum({ _id: `album-${i + 1}`, title: `Record ${i + 1}`, isPremium: false }),
);

function serve() {
  fetchMock.mockImplementation((input) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname;
    if (path.startsWith('/api/albums/artist/')) {
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 10);
      return Promise.resolve(
        jsonResponse(200, {
          albums: albums.slice((page - 1) * limit, page * limit),
          artist,
          pagination: { page, limit, total: albums.length, totalPages: Math.ceil(albums.length / limit) },
        }),
      );
    }
    if (path.startsWith('/api/artists/')) return Promise.resolve(jsonResponse(200, { artist }));
    if (path.startsWith('/api/songs/artist/')) {
      return Promise.resolve(
        jsonResponse(200, { songs: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } }),
      );
    }
    if (path.startsWith('/api/payments/gateways'))
      return Promise.resolve(jsonResponse(200, SANDBOX_GATEWAYS));
    return Promise.resolve(jsonResponse(404, { message: 'Not found', code: 'NOT_FOUND' }));
  });
}

describe('ArtistPage albums', () => {
  it('shows the first 10 albums and loads the rest with "More albums"', async () => {
    serve();
    renderWithStore(<ArtistPage />, { path: `/artist/${artist._id}`, pattern: '/artist/:artistId' });
    const grid = await screen.findByRole('list', { name: 'Albums' });
    await within(grid).findByText('Record 10');
    expect(within(grid).queryByText('Record 11')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'More albums' }));
    await within(grid).findByText('Record 13');
    expect(within(grid).getAllByRole('link')).toHaveLength(13);
    expect(screen.queryByRole('button', { name: 'More albums' })).toBeNull();
  });
});
