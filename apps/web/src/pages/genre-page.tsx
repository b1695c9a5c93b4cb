import { Music } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { EmptyState, PageHeader, Pager, QueryErrorState, buttonClasses, cx } from '../components/ui';
import { useSongLikes } from '../features/auth';
import { PAGE_SIZE, SongList, SongListSkeleton, useGetGenreSongsQuery } from '../features/catalog';
import { usePageParam } from '../lib/use-page-param';

export default function GenrePage() {
  const { genre = '' } = useParams();
  const [page, setPage] = usePageParam();
  const { data, isLoading, isFetching, isError, error, refetch } = useGetGenreSongsQuery({ genre, page });
  const { likedIds, toggleLike } = useSongLikes();
  return (
    <>
      <title>{`${genre} · Backbeat`}</title>
      <PageHeader
        eyebrow="Genre"
        title={<span className="capitalize">{genre}</span>}
        description={
          data && data.total > 0
            ? `${data.total.toLocaleString()} ${data.total === 1 ? 'song' : 'songs'}`
            : 'Songs in this genre.'
        }
      />
      {isLoading ? (
        <SongListSkeleton count={10} />
      ) : isError ? (
        <QueryErrorState
          error={error}
          fallback="Fetching songs by genre failed"
          onRetry={() => void refetch()}
        />
      ) : !data || data.songs.length === 0 ? (
        <EmptyState
          icon={<Music size={22} strokeWidth={1.75} />}
          title={`No ${genre} songs yet`}
          description="Nothing has been published in this genre yet."
          action={
            <Link to="/home" className={buttonClasses({ variant: 'secondary' })}>
              Back to home
            </Link>
          }
        />
      ) : (
        <div
          className={cx('transition-opacity duration-150', isFetching && 'opacity-60')}
          aria-busy={isFetching}
        >
          <SongList
            songs={data.songs}
            likedIds={likedIds}
            onToggleLike={toggleLike}
            startIndex={(page - 1) * PAGE_SIZE.genreSongs + 1}
            label={`${genre} songs`}
          />
          <Pager page={data.page || page} pages={data.pages} onChange={setPage} label="Genre pages" />
        </div>
      )}
    </>
  );
}
