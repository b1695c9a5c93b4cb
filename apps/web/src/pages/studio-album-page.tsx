import { useState } from 'react';
import { Link } from 'react-router';
import { StudioEditorFrame, StudioProfileFirst, useStudioEditor } from '../app/layout/studio-editor-frame';
import { EmptyState, FormAlert, QueryErrorState, Skeleton } from '../components/ui';
import { useGetAlbumQuery, useGetAlbumSongsQuery, type Album } from '../features/catalog';
import { AlbumForm, pickArtist, studioPaths } from '../features/studio';

const NO_TRACKS: string[] = [];

/** /studio/albums/new and /studio/albums/:albumId/edit. */
export default function StudioAlbumPage() {
  const { id: albumId, mode, params, managed } = useStudioEditor('albumId');
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
        <StudioProfileFirst items="Albums" />
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
      deletes={
        mode === 'edit' && album.data && artist
          ? { entity: 'album', id: album.data._id, name: album.data.title }
          : null
      }
    >
      {body}
    </StudioEditorFrame>
  );
}
