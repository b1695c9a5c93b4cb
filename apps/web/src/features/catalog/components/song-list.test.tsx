import { configureStore } from '@reduxjs/toolkit';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Song } from '@backbeat/contract';
import { backbeatApi } from '../../../lib/api-query';
import { authReducer, createInitialAuthState } from '../../auth';
import { previewReducer, selectActivePreview, selectSelectedSong, streamReducer } from '../../player';
// The player's plain reducer (the app registers its persisted wrapper).
import { playerReducer } from '../../player/player.slice';
import { SongList } from './song-list';
import { SongLockActionContext, type SongLockAction } from '../../../components/song-lock-action';

const song = (id: string, overrides: Partial<Song> = {}): Song => ({
  _id: id,
  title: `Song ${id}`,
  singer: 'Nova Reyes',
  coverImage: null,
  audioUrl: null,
  duration: 185,
  accessType: 'subscription',
  freeToStream: false,
  price: 99,
  currency: 'USD',
  genre: 'Jazz',
  artist: { _id: 'artist-1', name: 'Nova Reyes' },
  album: { _id: 'album-1', title: 'Night Shift', isPremium: false },
  status: 'ready',
  canPlay: true,
  previewStartSec: null,
  canDownload: false,
  createdAt: '2024-01-01T00:00:00.000Z',
  ...overrides,
});

afterEach(cleanup);

function renderList(songs: Song[], showAlbum = true, lockAction: SongLockAction | null = null) {
  const store = configureStore({
    reducer: {
      auth: authReducer,
      stream: streamReducer,
      player: playerReducer,
      preview: previewReducer,
      [backbeatApi.reducerPath]: backbeatApi.reducer,
    },
    preloadedState: { auth: createInitialAuthState(null) },
    middleware: (getDefault) => getDefault().concat(backbeatApi.middleware),
  });
  render(
    <Provider store={store}>
      <MemoryRouter>
        <SongLockActionContext value={lockAction}>
          <SongList songs={songs} showAlbum={showAlbum} />
        </SongLockActionContext>
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

describe('SongList album link', () => {
  it('puts the album in the secondary line on narrow screens, beside the wide-screen column', () => {
    renderList([song('a'), song('b', { album: null })]);
    const [first, second] = screen.getAllByRole('listitem');
    const links = within(first!).getAllByRole('link', { name: 'Night Shift' });
    expect(links).toHaveLength(2);
    // One shows below `lg` only, the other in the album column from `lg` only: never both at once.
    const narrow = links.find((link) => link.closest('.lg\\:hidden'));
    const wide = links.find((link) => link.closest('.lg\\:block'));
    expect(narrow?.getAttribute('href')).toBe('/album/album-1');
    expect(wide?.getAttribute('href')).toBe('/album/album-1');
    // On phones the time joins the line too (the duration column is left out there).
    expect(narrow?.closest('p')?.textContent).toBe('Nova Reyes · Night Shift · Duration 3:05');
    // The separator is decoration, not part of any name.
    expect(narrow?.previousElementSibling?.getAttribute('aria-hidden')).toBe('true');
    expect(within(second!).queryByRole('link', { name: 'Night Shift' })).toBeNull();
    expect(within(second!).getByText('Nova Reyes').closest('p')?.textContent).toBe(
      'Nova Reyes · Duration 3:05',
    );
  });

  it('leaves the album out where the list hides it (album pages)', () => {
    renderList([song('a')], false);
    expect(screen.queryByRole('link', { name: 'Night Shift' })).toBeNull();
  });

  it('plays on a tap anywhere in the row except the links', () => {
    const store = renderList([song('a')]);
    const row = screen.getByRole('listitem');
    const narrow = within(row)
      .getAllByRole('link', { name: 'Night Shift' })
      .find((link) => link.closest('.lg\\:hidden'))!;
    fireEvent.click(narrow);
    expect(selectSelectedSong(store.getState())).toBeFalsy();
    fireEvent.click(within(row).getByText('Song a'));
    expect(selectSelectedSong(store.getState())?._id).toBe('a');
  });
});

describe('SongList previews', () => {
  it('offers "Preview" on locked, ready songs only, and starts the preview within the list', () => {
    const songs = [
      song('open'),
      song('locked', { canPlay: false }),
      song('busy', { canPlay: false, status: 'processing' }),
    ];
    const store = renderList(songs);
    const buttons = screen.getAllByRole('button', { name: /^Preview / });
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Preview Song locked (30 seconds)',
    ]);
    fireEvent.click(buttons[0]!);
    expect(selectSelectedSong(store.getState())?._id).toBe('locked');
    expect(selectActivePreview(store.getState())?.songId).toBe('locked');
    expect(screen.getByRole('button', { name: 'Pause preview of Song locked' })).toBeTruthy();
  });
});

describe('songs free to stream', () => {
  it('marks a free song with text, plays it like any playable song, and shows no lock', () => {
    renderList([song('free', { freeToStream: true, title: 'Open Door' }), song('paid', { canPlay: false })]);
    const rows = screen.getAllByRole('listitem');
    expect(within(rows[0]!).getByText('Free')).toBeTruthy();
    expect(within(rows[0]!).queryByText(/Locked/)).toBeNull();
    expect(within(rows[1]!).queryByText('Free')).toBeNull();
    expect(within(rows[1]!).getByText(/Locked/)).toBeTruthy();
  });
});

describe('a checkout opened from a row', () => {
  /** A lock action that opens a dialog (as the checkout does), inside the row. */
  const OpensDialog: SongLockAction = ({ song: locked }) => (
    <dialog open aria-label={`Buy ${locked.title}`}>
      <p>Pay for {locked.title}</p>
      <span>Test mode notice</span>
    </dialog>
  );

  it('keeps its clicks to itself: the locked song behind it is not played', () => {
    const store = renderList([song('locked', { canPlay: false, title: 'Behind' })], true, OpensDialog);
    fireEvent.click(screen.getByText('Pay for Behind'));
    fireEvent.click(screen.getByText('Test mode notice'));
    expect(selectSelectedSong(store.getState())).toBeFalsy();
  });
});
