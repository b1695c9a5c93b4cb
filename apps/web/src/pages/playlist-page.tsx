import { useState } from 'react';
import { ListMusic, Pencil, Play, Search, Trash2 } from 'lucide-react';
import { useNavigate, useParams } from 'react-router';
import { toast } from '../lib/toast';
import {
  Button,
  CoverHeaderSkeleton,
  IconButton,
  LinkEmptyState,
  QueryErrorState,
  Section,
} from '../components/ui';
import { SongListSkeleton } from '../features/catalog';
import { SongPreviewButton, usePlaySongInList } from '../features/player';
import {
  ConfirmDeleteDialog,
  PLAYLIST_MESSAGES,
  PlaylistCover,
  PlaylistFormDialog,
  PlaylistTrackList,
  isPlayable,
  moveItem,
  useDeletePlaylistMutation,
  useGetPlaylistQuery,
  useRemoveSongFromPlaylistMutation,
  useReorderPlaylistMutation,
  useUpdatePlaylistMutation,
  type PlaylistDetail,
  type PlaylistFormValues,
} from '../features/playlists';
import { queryErrorText } from '../lib/api-query';
import { formatDuration } from '../lib/format';

type PlaylistSong = PlaylistDetail['songs'][number];

export default function PlaylistPage() {
  const { playlistId = '' } = useParams();
  const navigate = useNavigate();
  const playlist = useGetPlaylistQuery(playlistId);
  const [updatePlaylist] = useUpdatePlaylistMutation();
  const [deletePlaylist, deleting] = useDeletePlaylistMutation();
  const [removeSong] = useRemoveSongFromPlaylistMutation();
  const [reorder] = useReorderPlaylistMutation();
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const data = playlist.data;
  const songs = data?.songs ?? [];
  const playable = songs.filter(isPlayable);
  const totalSeconds = songs.reduce((sum, song) => sum + (song.duration || 0), 0);

  // The queue is the songs this listener can play, in playlist order: next and previous follow it.
  const player = usePlaySongInList(playable, { type: 'playlist', id: playlistId });
  const current = playable.find((song) => player.isCurrent(song));

  /** Plays `song` (toggles it when it is the current song), or the playlist from its first playable song. */
  function play(song?: PlaylistSong) {
    const index = song ? playable.findIndex((entry) => entry._id === song._id) : 0;
    if (index >= 0) player.play(index);
  }

  async function update(values: PlaylistFormValues): Promise<string | null> {
    const result = await updatePlaylist({ id: playlistId, ...values });
    if ('error' in result && result.error)
      return queryErrorText(result.error, PLAYLIST_MESSAGES.updateFailed);
    toast.success(result.data?.message ?? PLAYLIST_MESSAGES.updated);
    return null;
  }

  async function remove() {
    const result = await deletePlaylist(playlistId);
    if ('error' in result && result.error) {
      toast.error(queryErrorText(result.error, PLAYLIST_MESSAGES.deleteFailed));
      return;
    }
    setDialog(null);
    toast.success(result.data?.message ?? PLAYLIST_MESSAGES.deleted);
    await navigate('/playlists', { replace: true });
  }

  async function removeFromPlaylist(song: PlaylistSong) {
    const result = await removeSong({ playlistId, songId: song._id });
    if ('error' in result && result.error) {
      toast.error(queryErrorText(result.error, PLAYLIST_MESSAGES.removeFailed));
    } else {
      toast.success(`Removed “${song.title}”`);
    }
  }

  async function move(from: number, to: number) {
    const songIds = moveItem(
      songs.map((song) => song._id),
      from,
      to,
    );
    const result = await reorder({ playlistId, songIds });
    if ('error' in result && result.error) {
      toast.error(queryErrorText(result.error, PLAYLIST_MESSAGES.reorderFailed));
    }
  }

  return (
    <>
      <title>{`${data?.name ?? 'Playlist'} · Backbeat`}</title>
      {playlist.isLoading ? (
        <CoverHeaderSkeleton />
      ) : playlist.isError || !data ? (
        <QueryErrorState
          query={playlist}
          fallback={PLAYLIST_MESSAGES.fetchFailed}
          title="Playlist unavailable"
        />
      ) : (
        <header className="mb-10 flex flex-col gap-6 md:flex-row md:items-end">
          <PlaylistCover
            covers={data.covers}
            iconSize={56}
            className="size-48 shadow-2xl shadow-black/50 md:size-56"
          />
          <div className="min-w-0">
            <p className="text-meta font-semibold uppercase tracking-wider text-accent">Playlist</p>
            <h1 className="mt-1 break-words text-h2 font-bold tracking-tight md:text-h1">{data.name}</h1>
            {data.description ? (
              <p className="mt-2 max-w-2xl whitespace-pre-line text-body text-muted">{data.description}</p>
            ) : null}
            <p className="mt-2 text-body text-muted tabular-nums">
              {songs.length} {songs.length === 1 ? 'song' : 'songs'}
              {songs.length > 0 ? `, ${formatDuration(totalSeconds)}` : null}
              {playable.length < songs.length
                ? ` · ${songs.length - playable.length} locked or unavailable`
                : null}
            </p>
            <div className="mt-5 flex flex-wrap items-center gap-2">
              <Button
                size="lg"
                icon={<Play size={20} strokeWidth={1.75} fill="currentColor" aria-hidden="true" />}
                disabled={playable.length === 0}
                onClick={() => play()}
                title={
                  playable.length === 0 && songs.length > 0 ? 'No song here is playable for you' : undefined
                }
              >
                Play
              </Button>
              <IconButton label="Edit playlist" variant="surface" onClick={() => setDialog('edit')}>
                <Pencil size={18} strokeWidth={1.75} aria-hidden="true" />
              </IconButton>
              <IconButton label="Delete playlist" variant="surface" onClick={() => setDialog('delete')}>
                <Trash2 size={18} strokeWidth={1.75} aria-hidden="true" />
              </IconButton>
            </div>
          </div>
        </header>
      )}

      {playlist.isError ? null : (
        <Section title="Songs" headingId="playlist-songs">
          {playlist.isLoading ? (
            <SongListSkeleton count={6} />
          ) : songs.length === 0 ? (
            <LinkEmptyState
              icon={ListMusic}
              title="This playlist is empty"
              description="Use “Add to playlist” on any song to put it here."
              to="/search"
              linkLabel="Find songs"
              linkIcon={Search}
            />
          ) : (
            <PlaylistTrackList
              songs={songs}
              label={`Songs in ${data?.name ?? 'this playlist'}`}
              activeSongId={current?._id ?? null}
              playing={current ? player.isPlaying(current) : false}
              onPlay={play}
              onRemove={(song) => void removeFromPlaylist(song)}
              onMove={(from, to) => void move(from, to)}
              previewAction={(_song, index) => (
                <SongPreviewButton
                  songs={songs}
                  index={index}
                  context={{ type: 'playlist', id: playlistId }}
                  compact
                />
              )}
            />
          )}
        </Section>
      )}

      {data ? (
        <>
          <PlaylistFormDialog
            open={dialog === 'edit'}
            mode="edit"
            initial={{ name: data.name, description: data.description }}
            onSubmit={update}
            onClose={() => setDialog(null)}
          />
          <ConfirmDeleteDialog
            open={dialog === 'delete'}
            name={data.name}
            busy={deleting.isLoading}
            onConfirm={() => void remove()}
            onClose={() => setDialog(null)}
          />
        </>
      ) : null}
    </>
  );
}
