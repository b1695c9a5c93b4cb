import { lazy, Suspense, useEffect, useState } from 'react';
import { ListMusic, ListPlus, Plus } from 'lucide-react';
import { useSelector } from 'react-redux';
import { toast } from '../../../lib/toast';
import {
  IconButton,
  MenuError,
  MenuItem,
  MenuLoading,
  cx,
  focusMenuItem,
  useMenuPopover,
} from '../../../components/ui';
import { queryErrorText } from '../../../lib/api-query';
import { selectIsSignedIn } from '../../auth';
import type { PlaylistFormValues } from '../playlist-form';
import { MENU_HEIGHT, PLAYLIST_MESSAGES } from '../playlists.constants';
import {
  useAddSongToPlaylistMutation,
  useCreatePlaylistMutation,
  useGetPlaylistsQuery,
} from '../playlists.api';

/** The "New playlist" dialog (its form, the modal) is loaded when asked for: every song row carries this menu. */
const PlaylistFormDialog = lazy(() =>
  import('./playlist-form-dialog').then(({ PlaylistFormDialog }) => ({ default: PlaylistFormDialog })),
);

/**
 * "Add to playlist" for a song row: a menu button listing the user's playlists, plus "New playlist" that
 * creates one and adds the song to it. Keyboard: arrows move, Home/End jump, Escape closes. Signed-in users only.
 */
export function AddToPlaylistMenu({
  song,
  opened,
}: {
  song: { _id: string; title: string };
  /** Mounted open (the row's button was pressed before this code had loaded: add-to-playlist-entry.tsx). */
  opened?: { upwards: boolean };
}) {
  const signedIn = useSelector(selectIsSignedIn);
  const popover = useMenuPopover(opened !== undefined);
  const { open, setOpen, wrapper, menu, menuButton, close } = popover;
  const [upwards, setUpwards] = useState(opened?.upwards ?? false);
  const [creating, setCreating] = useState(false);
  const playlists = useGetPlaylistsQuery(undefined, { skip: !open && !creating });
  const [addSong, adding] = useAddSongToPlaylistMutation();
  const [createPlaylist] = useCreatePlaylistMutation();

  useEffect(() => {
    if (open) focusMenuItem(menu.current, () => 0);
  }, [open, menu]);

  // Once the playlists arrive, focus moves from "New playlist" only if nothing inside was chosen yet.
  useEffect(() => {
    if (open && playlists.isSuccess && !menu.current?.contains(document.activeElement)) {
      focusMenuItem(menu.current, () => 0);
    }
  }, [open, playlists.isSuccess, menu]);

  if (!signedIn) return null;

  function toggle() {
    if (!open && wrapper.current) {
      const below = window.innerHeight - wrapper.current.getBoundingClientRect().bottom;
      setUpwards(below < MENU_HEIGHT);
    }
    setOpen(!open);
  }

  async function addTo(playlist: { _id: string; name: string }) {
    close(true);
    const result = await addSong({ playlistId: playlist._id, songId: song._id });
    if ('error' in result && result.error)
      toast.error(queryErrorText(result.error, PLAYLIST_MESSAGES.addFailed));
    else toast.success(`Added to “${playlist.name}”`);
  }

  async function createAndAdd(values: PlaylistFormValues): Promise<string | null> {
    const created = await createPlaylist(values);
    if ('error' in created && created.error)
      return queryErrorText(created.error, PLAYLIST_MESSAGES.createFailed);
    if (created.data) await addTo(created.data.playlist);
    return null;
  }

  return (
    <div ref={wrapper} className="relative">
      <IconButton
        label={`Add ${song.title} to a playlist`}
        size="sm"
        {...popover.buttonProps}
        loading={adding.isLoading}
        onClick={toggle}
      >
        <ListPlus size={18} strokeWidth={1.75} aria-hidden="true" />
      </IconButton>
      {open ? (
        <div
          {...popover.menuProps}
          aria-label={`Add ${song.title} to a playlist`}
          className={cx(
            'absolute right-0 z-40 flex max-h-80 w-64 flex-col overflow-y-auto rounded-card border border-line bg-surface p-1.5 shadow-2xl shadow-black/60',
            upwards ? 'bottom-full mb-2' : 'top-full mt-2',
          )}
        >
          <MenuItem
            onClick={() => {
              close(false);
              setCreating(true);
            }}
          >
            <Plus size={18} strokeWidth={1.75} aria-hidden="true" className="text-accent" />
            New playlist…
          </MenuItem>
          <div role="separator" className="my-1 h-px bg-line" />
          {playlists.isLoading ? (
            <MenuLoading>Loading playlists…</MenuLoading>
          ) : playlists.isError ? (
            <MenuError>{queryErrorText(playlists.error, PLAYLIST_MESSAGES.fetchListFailed)}</MenuError>
          ) : playlists.data?.length ? (
            playlists.data.map((playlist) => (
              <MenuItem key={playlist._id} onClick={() => void addTo(playlist)}>
                <ListMusic size={18} strokeWidth={1.75} aria-hidden="true" className="shrink-0 text-muted" />
                <span className="min-w-0 flex-1 truncate">{playlist.name}</span>
                <span className="text-meta text-muted tabular-nums">{playlist.songCount}</span>
              </MenuItem>
            ))
          ) : (
            <p className="px-3 py-2 text-meta text-muted">No playlists yet.</p>
          )}
        </div>
      ) : null}
      {creating ? (
        <Suspense fallback={null}>
          <PlaylistFormDialog
            open
            mode="create"
            onSubmit={createAndAdd}
            onClose={() => {
              setCreating(false);
              menuButton()?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
