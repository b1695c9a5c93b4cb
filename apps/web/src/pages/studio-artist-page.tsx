import { Mic2 } from 'lucide-react';
import { useAppDispatch } from '../app/hooks';
import { StudioEditorFrame, StudioItemNotFound, useStudioEditor } from '../app/layout/studio-editor-frame';
import { LinkEmptyState, QueryErrorState, Skeleton } from '../components/ui';
import { fetchProfile } from '../features/auth';
import { ArtistForm, studioPaths } from '../features/studio';

/** /studio/artists/new and /studio/artists/:artistId/edit. */
export default function StudioArtistPage() {
  const { id: artistId, mode, navigate, managed } = useStudioEditor('artistId');
  const { artists, isAdmin, isLoading, isError, error, refetch } = managed;
  const dispatch = useAppDispatch();
  const artist = artistId ? (artists.find((entry) => entry._id === artistId) ?? null) : null;
  // An artist account has one profile; the server refuses a second.
  const ownProfile = !isAdmin ? artists[0] : undefined;

  /** The account's own profile changed: refresh the signed-in user (it carries the profile id). */
  const refreshOwnProfile = () => {
    if (!isAdmin) void dispatch(fetchProfile());
  };

  const title = mode === 'create' ? (isAdmin ? 'New artist' : 'Create your artist profile') : 'Edit artist';

  let body;
  if (isLoading) {
    body = <Skeleton className="h-96 rounded-card" />;
  } else if (isError) {
    body = <QueryErrorState error={error} fallback="Failed to fetch artist" onRetry={() => void refetch()} />;
  } else if (mode === 'create' && ownProfile) {
    body = (
      <LinkEmptyState
        icon={Mic2}
        title="You already have an artist profile"
        description={`Your account manages ${ownProfile.name}.`}
        to={studioPaths.editArtist(ownProfile._id)}
        linkLabel="Edit your profile"
      />
    );
  } else if (mode === 'edit' && !artist) {
    body = (
      <StudioItemNotFound
        title="Artist not found"
        description="This profile does not exist, or your account does not manage it."
        backTo="/studio"
      />
    );
  } else {
    body = (
      <ArtistForm
        key={artist?._id ?? 'new'}
        mode={mode}
        artist={artist}
        canSetOwner={isAdmin}
        onSaved={(saved) => {
          refreshOwnProfile();
          if (mode === 'create') void navigate(studioPaths.overview(saved._id));
        }}
      />
    );
  }

  return (
    <StudioEditorFrame
      title={title}
      backTo="/studio"
      description={
        mode === 'create'
          ? 'The profile listeners see, follow and subscribe to.'
          : artist
            ? `Changes show on ${artist.name}'s public page at once.`
            : undefined
      }
      deletes={artist ? { entity: 'artist', id: artist._id, name: artist.name } : null}
      onDeleted={refreshOwnProfile}
    >
      {body}
    </StudioEditorFrame>
  );
}
