import { cleanup, createEvent, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlaylistDetail } from '../playlists.types';
import { validatePlaylistForm } from '../playlist-form';
import { SongLockActionContext } from '../../../components/song-lock-action';
import { PlaylistTrackList } from './playlist-track-list';

type PlaylistSong = PlaylistDetail['songs'][number];

const song = (id: string, overrides: Partial<PlaylistSong> = {}): PlaylistSong => ({
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
  album: null,
  status: 'ready',
  canPlay: true,
  previewStartSec: null,
  canDownload: false,
  createdAt: '2024-01-01T00:00:00.000Z',
  ...overrides,
});

afterEach(cleanup);

function renderList(songs: PlaylistSong[]) {
  const handlers = { onPlay: vi.fn(), onRemove: vi.fn(), onMove: vi.fn() };
  render(
    <MemoryRouter>
      <PlaylistTrackList songs={songs} label="Songs in Mix" {...handlers} />
    </MemoryRouter>,
  );
  return handlers;
}

describe('PlaylistTrackList', () => {
  const songs = [song('a'), song('b', { canPlay: false }), song('c', { status: 'processing' })];

  it('moves songs with the up and down buttons, disabled at the ends, and announces the move', () => {
    const { onMove } = renderList(songs);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Move Song a up' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Move Song c down' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Move Song a down' }).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Move Song a down' }));
    expect(onMove).toHaveBeenCalledWith(0, 1);
    expect(screen.getByText('Moved Song a to position 2 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Move Song c up' }));
    expect(onMove).toHaveBeenLastCalledWith(2, 1);
  });

  it('plays only playable songs, by button or row click', () => {
    const { onPlay } = renderList(songs);
    expect(screen.getAllByRole('button', { name: /^Play / })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Play Song a' }));
    expect(onPlay).toHaveBeenCalledWith(songs[0]);
    const rows = within(screen.getByRole('list', { name: 'Songs in Mix' })).getAllByRole('listitem');
    fireEvent.click(rows[1]!);
    fireEvent.click(rows[2]!);
    expect(onPlay).toHaveBeenCalledTimes(1);
    fireEvent.click(rows[0]!);
    expect(onPlay).toHaveBeenCalledTimes(2);
  });

  it('says in text why a song cannot be played', () => {
    renderList(songs);
    expect(screen.getByTitle('Cannot play: Subscribe')).toBeTruthy();
    expect(screen.getByTitle('Cannot play: Processing')).toBeTruthy();
  });

  it("shows the app's buy button for a locked song that is ready, and text for one still processing", () => {
    const BuyButton = ({ song: locked }: { song: PlaylistSong }) => (
      <button type="button">{`Buy ${locked.title}`}</button>
    );
    render(
      <MemoryRouter>
        <SongLockActionContext value={BuyButton}>
          <PlaylistTrackList
            songs={songs}
            label="Songs in Mix"
            onPlay={vi.fn()}
            onRemove={vi.fn()}
            onMove={vi.fn()}
          />
        </SongLockActionContext>
      </MemoryRouter>,
    );
    expect(screen.getAllByRole('button', { name: /^Buy / }).map((button) => button.textContent)).toEqual([
      'Buy Song b',
    ]);
    expect(screen.getByText('Processing')).toBeTruthy();
  });

  it('removes a song and does not play it', () => {
    const { onRemove, onPlay } = renderList(songs);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Song a from this playlist' }));
    expect(onRemove).toHaveBeenCalledWith(songs[0]);
    expect(onPlay).not.toHaveBeenCalled();
  });

  it('reorders by drag and drop onto the lower half of a row', () => {
    const { onMove } = renderList(songs);
    const rows = within(screen.getByRole('list', { name: 'Songs in Mix' })).getAllByRole('listitem');
    const dataTransfer = { setData: vi.fn(), effectAllowed: '', dropEffect: '' };
    rows[2]!.getBoundingClientRect = () => ({ top: 100, height: 50, bottom: 150 }) as DOMRect;
    fireEvent.dragStart(rows[0]!, { dataTransfer });
    // jsdom has no DragEvent, so the pointer position is set by hand.
    const over = createEvent.dragOver(rows[2]!, { dataTransfer });
    Object.defineProperty(over, 'clientY', { value: 140 });
    fireEvent(rows[2]!, over);
    fireEvent.drop(rows[2]!, { dataTransfer });
    expect(onMove).toHaveBeenCalledWith(0, 2);
  });
});

describe('validatePlaylistForm', () => {
  it('needs a name of at most 100 characters and a description of at most 500', () => {
    expect(validatePlaylistForm({ name: '  ', description: '' })).toEqual({
      name: 'Give the playlist a name',
    });
    expect(validatePlaylistForm({ name: 'x'.repeat(101), description: 'd'.repeat(501) })).toEqual({
      name: 'At most 100 characters',
      description: 'At most 500 characters',
    });
    expect(validatePlaylistForm({ name: ` ${'x'.repeat(100)} `, description: 'd'.repeat(500) })).toEqual({});
  });
});
