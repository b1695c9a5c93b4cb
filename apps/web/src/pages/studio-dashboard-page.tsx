import { Mic2 } from 'lucide-react';
import { useAppSelector } from '../app/hooks';
import { BackLink, LinkEmptyState, PageHeader } from '../components/ui';
import { selectUser } from '../features/auth';
import { useGetArtistQuery } from '../features/catalog';
import { ArtistDashboard } from '../features/dashboard';

/** An artist account's own dashboard: the same figures an admin sees on its artist's page, for its artist only. */
export default function StudioDashboardPage() {
  const user = useAppSelector(selectUser);
  const artistId = user?.artistId ?? '';
  const artist = useGetArtistQuery(artistId, { skip: !artistId });
  return (
    <>
      <title>Your dashboard · Studio · Backbeat</title>
      <BackLink to="/studio" className="mb-4 -ml-3">
        Studio
      </BackLink>
      <PageHeader
        eyebrow="Your dashboard"
        title={artist.data?.name ?? (artistId ? 'Loading…' : 'Your dashboard')}
        description="What your music earned, who subscribes and what is played, over any range of days."
      />
      {artistId ? (
        <ArtistDashboard artistId={artistId} />
      ) : (
        <LinkEmptyState
          icon={Mic2}
          title="No artist profile yet"
          description="Create your artist profile in the Studio; sales, subscribers and plays of your music appear here."
          to="/studio/artists/new"
          linkLabel="Create your profile"
          linkSize="sm"
        />
      )}
    </>
  );
}
