import { Disc3 } from 'lucide-react';
import { EmptyState, PageHeader, Pager, QueryErrorState, cx } from '../components/ui';
import { AlbumCard, CoverGrid, CoverGridSkeleton, useGetAlbumsQuery } from '../features/catalog';
import { usePageParam } from '../lib/use-page-param';

/** Every album, newest first (`GET /albums`), ten to a page. */
export default function AlbumsPage() {
  const [page, setPage] = usePageParam();
  const { data, isLoading, isFetching, isError, error, refetch } = useGetAlbumsQuery({ page });
  const total = data?.pagination.total ?? 0;
  return (
    <>
      <title>Albums · Backbeat</title>
      <PageHeader
        eyebrow="Browse"
        title="Albums"
        description={
          total > 0 ? `${total.toLocaleString()} albums, newest first` : 'Every release on Backbeat.'
        }
      />
      {isLoading ? (
        <CoverGridSkeleton count={10} />
      ) : isError ? (
        <QueryErrorState error={error} fallback="Failed to fetch albums" onRetry={() => void refetch()} />
      ) : !data || data.albums.length === 0 ? (
        <EmptyState
          icon={<Disc3 size={22} strokeWidth={1.75} />}
          title="No albums yet"
          description="Albums appear here as soon as an artist releases one."
        />
      ) : (
        <div
          className={cx('transition-opacity duration-150', isFetching && 'opacity-60')}
          aria-busy={isFetching}
        >
          <CoverGrid label="Albums">
            {data.albums.map((album) => (
              <AlbumCard key={album._id} album={album} />
            ))}
          </CoverGrid>
          <Pager
            page={data.pagination.page || page}
            pages={data.pagination.totalPages || 1}
            onChange={setPage}
            label="Album pages"
          />
        </div>
      )}
    </>
  );
}
