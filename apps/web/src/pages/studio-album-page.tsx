import { useState } from 'react';
import { Mic2 } from 'lucide-react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { StudioEditorFrame } from '../app/layout/studio-editor-frame';
import { EmptyState, FormAlert, LinkEmptyState, QueryErrorState, Skeleton } from '../components/ui';
import { useGetAlbumQuery, useGetAlbumSongsQuery, type Album } from '../features/catalog';
import { AlbumForm, DeleteAction, pickArtist, studioPaths, useManagedArtists } from '../features/studio';

const NO_TRACKS: string[] = [];

/** /studio/albums/new and /studio/albums/:albumId/edit. */
export default function StudioAlbumPage() {
  const { albumId } = useParams();
  const mode = albumId ? 'edit' : 'create';
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const managed = useManagedArtists();
  const album = useGetAlbumQuery(albumId ?? '', { skip: !albumId });
  const tracks = useGetAlbumSongsQuery(albumId ?? '', { skip: !albumId });
  const [created, setCreated] = useState<Album | null>(null);

  const artist =
    mode === 'edit'
      ? (managed.artists.find((entry) => entry._id === album.data?.artist._id) ?? null)
      : pickArtist(managed.artists, params.get('artist'));
  const trackIds = tracks.data?.map((song) => song._id) ?? NO_TRACKS;
  const loading = managed.isLoading || (mode === 'edit' && (album.isLoading || tracks.isLoading));
  const title = mode === 'create' ? 'New album' : 'Edit album';

  let body;
  if (loading) {
    body = <Skeleton className="h-[32rem] rounded-card" />;
  } else if (managed.isError) {
    body = <QueryErrorState query={managed} fallback="Failed to fetch all artists" />;
  } else if (mode === 'edit' && (album.isError || tracks.isError)) {
    body = (
      <QueryErrorState
        error={album.error ?? tracks.error}
        fallback="Failed to fetch album"
        onRetry={() => {
          void album.refetch();
          void tracks.refetch();
        }}
      />
    );
  } else if (!artist) {
    body =
      mode === 'edit' ? (
        <EmptyState
          tone="error"
          title="Not your album"
          description="Your account does not manage the artist of this album."
        />
      ) : (
        <LinkEmptyState
          icon={Mic2}
          title="Create your artist profile first"
          description="Albums belong to an artist profile."
          to={studioPaths.newArtist()}
          linkLabel="Create your profile"
        />
      );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        {created ? (
          <FormAlert tone="success">
            “{created.title}” was created.{' '}
            <Link to={`/album/${encodeURIComponent(created._id)}`} className="font-semibold underline">
              View the album
            </Link>{' '}
            or{' '}
            <Link to={studioPaths.editAlbum(created._id)} className="font-semibold underline">
              edit it
            </Link>
            .
          </FormAlert>
        ) : null}
        <AlbumForm
          key={album.data?._id ?? `new-${artist._id}`}
          mode={mode}
          album={album.data ?? null}
          trackIds={trackIds}
          artists={managed.artists}
          defaultArtistId={artist._id}
          onSaved={(saved) => {
            if (mode === 'create') setCreated(saved);
          }}
        />
      </div>
    );
  }

  return (
    <StudioEditorFrame
      title={title}
      backTo={studioPaths.overview(artist?._id)}
      description={
        mode === 'create'
          ? `An album groups songs of ${artist?.name ?? 'an artist'} under one cover and price.`
          : album.data
            ? `${album.data.title} by ${album.data.artist.name}`
            : undefined
      }
      actions={
        mode === 'edit' && album.data && artist ? (
          <DeleteAction
            entity="album"
            id={album.data._id}
            name={album.data.title}
            onDeleted={() => void navigate(studioPaths.overview(artist._id), { replace: true })}
          />
        ) : undefined
      }
    >
      {body}
    </StudioEditorFrame>
  );
}
