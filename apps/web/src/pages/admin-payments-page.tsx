import { useParams } from 'react-router';
import { BackLink, NotFoundState, PageHeader, QueryErrorState } from '../components/ui';
import { useGetArtistQuery } from '../features/catalog';
import { ArtistDashboard } from '../features/dashboard';
import { isMissingResource } from '../lib/api-query';

export default function AdminPaymentsPage() {
  const { artistId = '' } = useParams();
  const artist = useGetArtistQuery(artistId);
  return (
    <>
      <title>{`${artist.data?.name ?? 'Artist'} payments · Admin · Backbeat`}</title>
      <BackLink to="/admin" className="mb-4 -ml-3">
        Dashboard
      </BackLink>
      <PageHeader
        eyebrow="Artist payments"
        title={artist.data?.name ?? (artist.isFetching ? 'Loading…' : 'Artist')}
        description="Revenue, subscribers, plays and purchases for this artist."
      />
      {/* The dashboard's many calls start once the artist is known: a bad id makes one request, not ten. */}
      {artist.data ? (
        <ArtistDashboard key={artistId} artistId={artistId} canRefund />
      ) : artist.isError && isMissingResource(artist.error) ? (
        <NotFoundState
          title="No artist with this id"
          description="The artist may have been deleted. Pick one from the admin dashboard."
        />
      ) : artist.isError ? (
        <QueryErrorState query={artist} fallback="Failed to fetch artist" />
      ) : null}
    </>
  );
}
