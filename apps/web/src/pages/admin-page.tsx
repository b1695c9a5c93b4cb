import { ArrowRight, Mic2, ReceiptText, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState, PageHeader, QueryErrorState, Section, Skeleton, buttonClasses } from '../components/ui';
import { CoverArt, useGetAllArtistsQuery } from '../features/catalog';
import { TransactionsList, useGetTransactionsQuery } from '../features/dashboard';
import { pluralize } from '../lib/format';

function ListSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <div className="flex flex-col gap-2" aria-hidden="true">
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-14" />
      ))}
    </div>
  );
}

export default function AdminPage() {
  const artists = useGetAllArtistsQuery();
  const transactions = useGetTransactionsQuery({ page: 1, limit: 20 }, { refetchOnMountOrArgChange: true });

  return (
    <>
      <title>Admin · Backbeat</title>
      <PageHeader
        eyebrow="Admin"
        title="Dashboard"
        description="Recent transactions across the platform, and each artist's payments and revenue."
        actions={
          <Link to="/studio" className={buttonClasses({ variant: 'secondary' })}>
            <Mic2 size={18} strokeWidth={1.75} aria-hidden="true" />
            Manage catalogue
          </Link>
        }
      />
      <Section title="Recent transactions" headingId="admin-transactions">
        {transactions.isLoading ? (
          <ListSkeleton rows={6} />
        ) : transactions.isError ? (
          <QueryErrorState
            error={transactions.error}
            fallback="Failed to fetch transactions"
            onRetry={() => void transactions.refetch()}
          />
        ) : !transactions.data || transactions.data.length === 0 ? (
          <EmptyState
            icon={<ReceiptText size={22} strokeWidth={1.75} />}
            title="No transactions yet"
            description="Every purchase and subscription paid on Backbeat is listed here as it happens."
          />
        ) : (
          <TransactionsList transactions={transactions.data} canRefund />
        )}
      </Section>

      <Section title="Artists" headingId="admin-artists">
        {artists.isLoading ? (
          <ListSkeleton />
        ) : artists.isError ? (
          <QueryErrorState
            error={artists.error}
            fallback="Failed to fetch all artists"
            onRetry={() => void artists.refetch()}
          />
        ) : !artists.data || artists.data.length === 0 ? (
          <EmptyState icon={<UsersRound size={22} strokeWidth={1.75} />} title="No artists yet" />
        ) : (
          <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
            {artists.data.map((artist) => (
              <li key={artist._id}>
                <Link
                  to={`/admin/payments/${encodeURIComponent(artist._id)}`}
                  className="group flex items-center gap-3 rounded-card border border-line bg-surface p-3 transition-colors hover:bg-surface-2"
                >
                  <CoverArt
                    src={artist.image}
                    alt={artist.name}
                    kind="artist"
                    round
                    iconSize={20}
                    className="size-12"
                  />
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
