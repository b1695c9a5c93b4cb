import { useState } from 'react';
import { ListMusic, Pencil, Plus, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from '../lib/toast';
import { Button, EmptyState, IconButton, PageHeader, QueryErrorState } from '../components/ui';
import { CoverGridSkeleton } from '../features/catalog';
import {
  ConfirmDeleteDialog,
  PLAYLIST_LIMITS,
  PLAYLIST_MESSAGES,
  PlaylistCover,
  PlaylistFormDialog,
  useCreatePlaylistMutation,
  useDeletePlaylistMutation,
  useGetPlaylistsQuery,
  useUpdatePlaylistMutation,
  type PlaylistFormValues,
  type PlaylistSummary,
} from '../features/playlists';
import { queryErrorText } from '../lib/api-query';

const gridClasses =
  'grid grid-cols-2 gap-4 md:grid-cols-3 md:gap-6 lg:grid-cols-4 xl:grid-cols-5 2xl:grid-cols-6 3xl:grid-cols-8';

const songCountText = (count: number) => `${count.toLocaleString()} ${count === 1 ? 'song' : 'songs'}`;

type Dialog = { kind: 'create' } | { kind: 'edit' | 'delete'; playlist: PlaylistSummary } | null;

function PlaylistCard({
  playlist,
  onEdit,
  onDelete,
}: {
  playlist: PlaylistSummary;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <li className="group relative min-w-0">
      <Link
        to={`/playlist/${encodeURIComponent(playlist._id)}`}
        className="-m-2 flex flex-col gap-2 rounded-card p-2 transition-colors duration-150 ease-out hover:bg-surface"
      >
        <div className="w-full transition-transform duration-150 ease-out group-hover:scale-[1.02]">
          <PlaylistCover covers={playlist.covers} className="w-full" iconSize={40} />
        </div>
        <div className="min-w-0 pr-16">
          <p className="truncate text-body font-semibold text-text">{playlist.name}</p>
          <p className="truncate text-meta text-muted tabular-nums">{songCountText(playlist.songCount)}</p>
        </div>
      </Link>
      <div className="absolute right-0 bottom-0 flex">
        <IconButton size="sm" label={`Rename ${playlist.name}`} onClick={onEdit}>
          <Pencil size={16} strokeWidth={1.75} aria-hidden="true" />
        </IconButton>
        <IconButton size="sm" label={`Delete ${playlist.name}`} onClick={onDelete}>
          <Trash2 size={16} strokeWidth={1.75} aria-hidden="true" />
        </IconButton>
      </div>
    </li>
  );
}

export default function PlaylistsPage() {
  const playlists = useGetPlaylistsQuery();
  const [createPlaylist] = useCreatePlaylistMutation();
  const [updatePlaylist] = useUpdatePlaylistMutation();
  const [deletePlaylist, deleting] = useDeletePlaylistMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const list = playlists.data ?? [];
  const atLimit = list.length >= PLAYLIST_LIMITS.playlistsPerUser;

  async function create(values: PlaylistFormValues): Promise<string | null> {
    const result = await createPlaylist(values);
    if ('error' in result && result.error)
      return queryErrorText(result.error, PLAYLIST_MESSAGES.createFailed);
    toast.success(result.data?.message ?? PLAYLIST_MESSAGES.created);
    return null;
  }

  async function update(id: string, values: PlaylistFormValues): Promise<string | null> {
    const result = await updatePlaylist({ id, ...values });
    if ('error' in result && result.error)
      return queryErrorText(result.error, PLAYLIST_MESSAGES.updateFailed);
    toast.success(result.data?.message ?? PLAYLIST_MESSAGES.updated);
    return null;
  }

  async function remove(playlist: PlaylistSummary) {
    const result = await deletePlaylist(playlist._id);
    if ('error' in result && result.error) {
      toast.error(queryErrorText(result.error, PLAYLIST_MESSAGES.deleteFailed));
      return;
    }
    setDialog(null);
    toast.success(result.data?.message ?? PLAYLIST_MESSAGES.deleted);
  }

  const newButton = (
    <Button
      icon={<Plus size={18} strokeWidth={1.75} aria-hidden="true" />}
      onClick={() => setDialog({ kind: 'create' })}
      disabled={atLimit}
      title={atLimit ? `You can have at most ${PLAYLIST_LIMITS.playlistsPerUser} playlists` : undefined}
    >
      New playlist
    </Button>
  );

  return (
    <>
      <title>Playlists · Backbeat</title>
      <PageHeader
        eyebrow="Your library"
        title="Playlists"
        description={
          list.length > 0
            ? `${list.length.toLocaleString()} ${list.length === 1 ? 'playlist' : 'playlists'}`
            : 'Collect songs in the order you want to hear them.'
        }
        actions={list.length > 0 ? newButton : undefined}
      />
      {playlists.isLoading ? (
        <CoverGridSkeleton count={6} />
      ) : playlists.isError ? (
        <QueryErrorState query={playlists} fallback={PLAYLIST_MESSAGES.fetchListFailed} />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<ListMusic size={22} strokeWidth={1.75} />}
          title="No playlists yet"
          description="Create one here, or use “Add to playlist” on any song."
          action={newButton}
        />
      ) : (
        <ul aria-label="Your playlists" className={gridClasses}>
          {list.map((playlist) => (
            <PlaylistCard
              key={playlist._id}
              playlist={playlist}
              onEdit={() => setDialog({ kind: 'edit', playlist })}
              onDelete={() => setDialog({ kind: 'delete', playlist })}
            />
          ))}
        </ul>
      )}

      <PlaylistFormDialog
        open={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        mode={dialog?.kind === 'edit' ? 'edit' : 'create'}
        initial={
          dialog?.kind === 'edit'
            ? { name: dialog.playlist.name, description: dialog.playlist.description }
            : undefined
        }
        onSubmit={(values) =>
          dialog?.kind === 'edit' ? update(dialog.playlist._id, values) : create(values)
        }
        onClose={() => setDialog(null)}
      />
      <ConfirmDeleteDialog
        open={dialog?.kind === 'delete'}
        name={dialog?.kind === 'delete' ? dialog.playlist.name : ''}
        busy={deleting.isLoading}
        onConfirm={() => {
          if (dialog?.kind === 'delete') void remove(dialog.playlist);
        }}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
