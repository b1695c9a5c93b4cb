import { UsersRound } from 'lucide-react';
import { EmptyState, PageHeader, Pager, QueryErrorState, cx } from '../components/ui';
import { ArtistCard, CoverGrid, CoverGridSkeleton, useGetArtistsQuery } from '../features/catalog';
import { usePageParam } from '../lib/use-page-param';

export default function ArtistsPage() {
  const [page, setPage] = usePageParam();
  const { data, isLoading, isFetching, isError, error, refetch } = useGetArtistsQuery({ page });
  const total = data?.pagination?.total ?? 0;
  return (
    <>
      <title>Artists · Backbeat</title>
      <PageHeader
        eyebrow="Browse"
        title="Artists"
        description={
          total > 0 ? `${total.toLocaleString()} artists on Backbeat` : 'Everyone making music on Backbeat.'
        }
      />
      {isLoading ? (
        <CoverGridSkeleton count={10} round />
      ) : isError ? (
        <QueryErrorState error={error} fallback="Failed to fetch artists" onRetry={() => void refetch()} />
      ) : !data || data.artists.length === 0 ? (
        <EmptyState
          icon={<UsersRound size={22} strokeWidth={1.75} />}
          title="No artists yet"
          description="Artists appear here as soon as they publish their first release."
        />
      ) : (
        <div
          className={cx('transition-opacity duration-150', isFetching && 'opacity-60')}
          aria-busy={isFetching}
        >
          <CoverGrid label="Artists">
            {data.artists.map((artist) => (
              <ArtistCard key={artist._id} artist={artist} />
            ))}
          </CoverGrid>
          <Pager
            page={data.pagination?.page ?? page}
            pages={data.pagination?.totalPages ?? 1}
            onChange={setPage}
            label="Artist pages"
          />
        </div>
      )}
    </>
  );
}
