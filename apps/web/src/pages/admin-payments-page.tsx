import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { PageHeader, buttonClasses } from '../components/ui';
import { useGetArtistQuery } from '../features/catalog';
import { ArtistDashboard } from '../features/dashboard';

export default function AdminPaymentsPage() {
  const { artistId = '' } = useParams();
  const artist = useGetArtistQuery(artistId);
  return (
    <>
      <title>{`${artist.data?.name ?? 'Artist'} payments · Admin · Backbeat`}</title>
      <Link to="/admin" className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'mb-4 -ml-3' })}>
        <ArrowLeft size={16} strokeWidth={1.75} aria-hidden="true" />
        Dashboard
      </Link>
      <PageHeader
        eyebrow="Artist payments"
        title={artist.data?.name ?? (artist.isLoading ? 'Loading…' : 'Artist')}
        description="Revenue, subscribers, plays and purchases for this artist."
      />
      <ArtistDashboard key={artistId} artistId={artistId} canRefund />
    </>
  );
}
