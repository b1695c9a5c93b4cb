import { useState } from 'react';
import {
  StudioEditorFrame,
  StudioProfileFirst,
  StudioItemNotFound,
  useStudioEditor,
} from '../app/layout/studio-editor-frame';
import { QueryErrorState, Skeleton } from '../components/ui';
import type { Song } from '../features/catalog';
import {
  SongForm,
  SongStatusPanel,
  pickArtist,
  rememberUpload,
  studioPaths,
  useEditedSong,
  useSongStatus,
} from '../features/studio';

/** /studio/songs/new and /studio/songs/:songId/edit, with the upload's processing status. */
export default function StudioSongPage() {
  const { id: songId, mode, params, navigate, managed } = useStudioEditor('songId');
  const artist = pickArtist(managed.artists, params.get('artist'));
  const edited = useEditedSong(
    songId,
    artist?._id,
    managed.artists.map((entry) => entry._id),
  );
  const [saved, setSaved] = useState<Song | null>(null);
  const song =
    edited.fromList ?? (saved && saved._id === songId ? saved : null) ?? edited.fetched ?? edited.known;
  const status = useSongStatus(song?._id ?? null);
  const title = mode === 'create' ? 'Upload a song' : 'Edit song';

  let body;
  if (managed.isLoading || (mode === 'edit' && !song && edited.isLoading)) {
    body = <Skeleton className="h-[32rem] rounded-card" />;
  } else if (managed.isError || edited.isError) {
    body = (
      <QueryErrorState
        error={managed.error ?? edited.error}
        fallback="Fetching songs by artist failed"
        onRetry={() => {
          void managed.refetch();
          if (artist) edited.refetch();
        }}
      />
    );
  } else if (!artist) {
    body = <StudioProfileFirst items="Songs" />;
  } else if (mode === 'edit' && !song) {
    body = (
      <StudioItemNotFound
        title="Song not found"
        description="This song does not exist, or your account does not manage it."
        backTo={studioPaths.overview(artist._id)}
      />
    );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        {song ? <SongStatusPanel view={status} songTitle={song.title} /> : null}
        <SongForm
          key={song?._id ?? `new-${artist._id}`}
          mode={mode}
          song={song}
          artists={managed.artists}
          defaultArtistId={artist._id}
          onSaved={(next, sentAudio) => {
            if (sentAudio) rememberUpload(next);
            if (mode === 'create') {
              // Continue on the new song's page, where its processing status shows.
              void navigate(studioPaths.editSong(next._id, next.artist._id), {
                replace: true,
                state: { song: next },
              });
              return;
            }
            setSaved(next);
            if (sentAudio) status.refresh();
          }}
        />
      </div>
    );
  }

  return (
    <StudioEditorFrame
      title={title}
      backTo={studioPaths.overview(song?.artist._id ?? artist?._id)}
      description={
        mode === 'create'
          ? `Upload audio for ${artist?.name ?? 'your artist profile'}. It is transcoded for streaming and goes live when ready.`
          : song
            ? `${song.title} by ${song.artist.name}`
            : undefined
      }
      deletes={mode === 'edit' && song ? { entity: 'song', id: song._id, name: song.title } : null}
    >
      {body}
    </StudioEditorFrame>
  );
}
