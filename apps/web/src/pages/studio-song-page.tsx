import { useState } from 'react';
import { Mic2 } from 'lucide-react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { StudioEditorFrame } from '../app/layout/studio-editor-frame';
import { LinkEmptyState, QueryErrorState, Skeleton } from '../components/ui';
import type { Song } from '../features/catalog';
import {
  DeleteAction,
  SongForm,
  SongStatusPanel,
  pickArtist,
  rememberUpload,
  studioPaths,
  useEditedSong,
  useManagedArtists,
  useSongStatus,
} from '../features/studio';

/** /studio/songs/new and /studio/songs/:songId/edit, with the upload's processing status. */
export default function StudioSongPage() {
  const { songId } = useParams();
  const mode = songId ? 'edit' : 'create';
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const managed = useManagedArtists();
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
    body = (
      <LinkEmptyState
        icon={Mic2}
        title="Create your artist profile first"
        description="Songs belong to an artist profile."
        to={studioPaths.newArtist()}
        linkLabel="Create your profile"
      />
    );
  } else if (mode === 'edit' && !song) {
    body = (
      <LinkEmptyState
        tone="error"
        title="Song not found"
        description="This song does not exist, or your account does not manage it."
        to={studioPaths.overview(artist._id)}
        linkLabel="Back to the studio"
        linkVariant="secondary"
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
      actions={
        mode === 'edit' && song ? (
          <DeleteAction
            entity="song"
            id={song._id}
            name={song.title}
            onDeleted={() => void navigate(studioPaths.overview(song.artist._id), { replace: true })}
          />
        ) : undefined
      }
    >
      {body}
    </StudioEditorFrame>
  );
}
