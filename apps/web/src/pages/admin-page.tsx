import { ArrowRight, Mic2, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import { ArtistPortrait } from '../components/artist-portrait';
import {
  LinkEmptyState,
  PageHeader,
  QueryErrorState,
  Section,
  Skeleton,
  buttonClasses,
} from '../components/ui';
import { useGetAllArtistsQuery } from '../features/catalog';
import { DashboardView, PaymentsHealth } from '../features/dashboard';
import { pluralize } from '../lib/format';

export default function AdminPage() {
  const artists = useGetAllArtistsQuery();

  return (
    <>
      <title>Admin · Backbeat</title>
      <PageHeader
        eyebrow="Admin"
        title="Dashboard"
        description="Sales, subscribers and plays across the platform over time, and each artist's payments."
        actions={
          <Link to="/studio" className={buttonClasses({ variant: 'secondary' })}>
            <Mic2 size={18} strokeWidth={1.75} aria-hidden="true" />
            Manage catalogue
          </Link>
        }
      />
      <DashboardView
        artists={(artists.data ?? []).map((artist) => ({ _id: artist._id, name: artist.name }))}
        canRefund
      />

      <PaymentsHealth />

      <Section title="Artists" headingId="admin-artists">
        {artists.isLoading ? (
          <div className="flex flex-col gap-2" aria-hidden="true">
            {Array.from({ length: 5 }, (_, index) => (
              <Skeleton key={index} className="h-14" />
            ))}
          </div>
        ) : artists.isError ? (
          <QueryErrorState query={artists} fallback="Failed to fetch all artists" />
        ) : !artists.data || artists.data.length === 0 ? (
          <LinkEmptyState
            icon={UsersRound}
            title="No artists yet"
            description="Create the first artist profile in the Studio."
            to="/studio/artists/new"
            linkLabel="New artist"
            linkSize="sm"
          />
        ) : (
          <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
            {artists.data.map((artist) => (
              <li key={artist._id}>
                <Link
                  to={`/admin/payments/${encodeURIComponent(artist._id)}`}
                  className="group flex items-center gap-3 rounded-card border border-line bg-surface p-3 transition-colors hover:bg-surface-2"
                >
                  <ArtistPortrait image={artist.image} name={artist.name} iconSize={20} className="size-12" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-body font-semibold">{artist.name}</p>
                    <p className="truncate text-meta text-muted tabular-nums">
                      {pluralize(artist.songCount ?? 0, 'song')} ·{' '}
                      {pluralize(artist.albumCount ?? 0, 'album')}
                    </p>
                  </div>
                  <span className="flex items-center gap-1 text-meta font-medium text-muted group-hover:text-text">
                    Payments
                    <ArrowRight size={16} strokeWidth={1.75} aria-hidden="true" />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
