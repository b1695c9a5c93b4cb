import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SANDBOX_GATEWAYS,
  jsonResponse,
  makeAlbum,
  makeArtist,
  renderWithStore,
} from '../features/commerce/commerce.test-fixtures';
import AlbumsPage from './albums-page';
import ArtistsPage from './artists-page';
import DiscoverPage from './discover-page';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const requested = () => fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost'));
const page = (total: number) => ({ page: 1, limit: 10, total, totalPages: Math.ceil(total / 10) });

function serve(routes: Record<string, (url: URL) => unknown>) {
  fetchMock.mockImplementation((input) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/payments/gateways')
      return Promise.resolve(jsonResponse(200, SANDBOX_GATEWAYS));
    const handler = routes[url.pathname];
    return Promise.resolve(
      handler
        ? jsonResponse(200, handler(url))
        : jsonResponse(404, { message: 'Not found', code: 'NOT_FOUND' }),
    );
  });
}

describe('ArtistsPage search', () => {
  it('searches artists with GET /artists?q once typing pauses, and shows the matches', async () => {
    const everyone = [
      makeArtist({ _id: 'a1', name: 'Aurora Lane' }),
      makeArtist({ _id: 'a2', name: 'Nova' }),
    ];
    serve({
      '/api/artists': (url) =>
        url.searchParams.get('q')
          ? { results: [everyone[1]], page: 1, total: 1, pages: 1 }
          : { artists: everyone, pagination: page(2) },
    });
    renderWithStore(<ArtistsPage />, { path: '/artists', pattern: '/artists' });
    await within(await screen.findByRole('list', { name: 'Artists' })).findByText('Aurora Lane');
    fireEvent.change(screen.getByLabelText('Find an artist'), { target: { value: 'nvoa' } });
    const matches = await screen.findByRole('list', { name: 'Artists matching nvoa' }, { timeout: 3000 });
    expect(within(matches).getByText('Nova')).toBeTruthy();
    expect(within(matches).queryByText('Aurora Lane')).toBeNull();
    const search = requested().find((url) => url.searchParams.get('q') === 'nvoa');
    expect(search?.pathname).toBe('/api/artists');
    expect(search?.searchParams.get('page')).toBe('1');
    expect(search?.searchParams.get('limit')).toBe('10');
  });

  it('says so when no artist matches', async () => {
    serve({ '/api/artists': () => ({ results: [], page: 1, total: 0, pages: 0 }) });
    renderWithStore(<ArtistsPage />, { path: '/artists?q=zzz', pattern: '/artists' });
    expect(await screen.findByText('No artist called “zzz”')).toBeTruthy();
  });
});

describe('AlbumsPage', () => {
  it('lists albums from GET /albums, ten to a page', async () => {
    const albums = Array.from({ length: 10 }, (_, i) => makeAlbum({ _id: `al${i}`, title: `Release ${i}` }));
    serve({ '/api/albums': () => ({ albums, pagination: page(14) }) });
    renderWithStore(<AlbumsPage />, { path: '/albums', pattern: '/albums' });
    const grid = await screen.findByRole('list', { name: 'Albums' });
    expect(within(grid).getAllByRole('link').length).toBeGreaterThanOrEqual(10);
    expect(screen.getByText('14 albums, newest first')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Album pages' })).toBeTruthy();
  });
});

describe('DiscoverPage', () => {
  it('shows a random artist with their songs, and draws another on request', async () => {
    const drawn = [
      makeArtist({ _id: 'r1', name: 'First Draw' }),
      makeArtist({ _id: 'r2', name: 'Second Draw' }),
    ];
    let draws = 0;
    serve({
      '/api/discover/random-artist': () => ({ artist: drawn[draws++ % 2], songs: [], pagination: page(0) }),
      '/api/albums/artist/r1': () => ({ albums: [], artist: drawn[0], pagination: page(0) }),
      '/api/albums/artist/r2': () => ({ albums: [], artist: drawn[1], pagination: page(0) }),
    });
    renderWithStore(<DiscoverPage />, { path: '/discover', pattern: '/discover' });
    expect(await screen.findByRole('heading', { name: 'First Draw' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Another artist' }));
    expect(await screen.findByRole('heading', { name: 'Second Draw' })).toBeTruthy();
    const discover = requested().filter((url) => url.pathname === '/api/discover/random-artist');
    expect(discover).toHaveLength(2);
    expect(discover[0]?.searchParams.get('limit')).toBe('10');
  });

  it('explains an empty catalogue', async () => {
    serve({ '/api/discover/random-artist': () => ({ artist: null, songs: [], pagination: page(0) }) });
    renderWithStore(<DiscoverPage />, { path: '/discover', pattern: '/discover' });
    expect(await screen.findByText('Nobody to discover yet')).toBeTruthy();
  });
});
