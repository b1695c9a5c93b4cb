import { Heart } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState, PageHeader, Pager, QueryErrorState, buttonClasses, cx } from '../components/ui';
import { useSongLikes } from '../features/auth';
import { PAGE_SIZE, SongList, SongListSkeleton } from '../features/catalog';
import { useGetLikedSongsQuery } from '../features/library';
import { usePageParam } from '../lib/use-page-param';

export default function LikedSongsPage() {
  const [page, setPage] = usePageParam();
  const { data, isLoading, isFetching, isError, error, refetch } = useGetLikedSongsQuery(
    { page },
    { refetchOnMountOrArgChange: true },
  );
  const { likedIds, toggleLike } = useSongLikes();
  // Unliking removes the row at once; the refetch that follows settles the count and paging.
  const songs = data?.songs.filter((song) => likedIds.includes(song._id)) ?? [];

  return (
    <>
      <title>Liked songs · Backbeat</title>
      <PageHeader
        eyebrow="Your library"
        title="Liked songs"
        description={
          data && data.total > 0
            ? `${data.total.toLocaleString()} ${data.total === 1 ? 'song' : 'songs'} you love`
            : 'Everything you have liked, in one place.'
        }
      />
      {isLoading ? (
        <SongListSkeleton count={10} />
      ) : isError ? (
        <QueryErrorState
          error={error}
          fallback="Fetching liked songs failed"
          onRetry={() => void refetch()}
        />
      ) : songs.length === 0 ? (
        <EmptyState
          icon={<Heart size={22} strokeWidth={1.75} />}
          title="No liked songs yet"
          description="Tap the heart on any song and it will be waiting for you here."
          action={
            <Link to="/home" className={buttonClasses()}>
              Find something to like
            </Link>
          }
        />
      ) : (
        <div
          className={cx('transition-opacity duration-150', isFetching && 'opacity-60')}
          aria-busy={isFetching}
        >
          <SongList
            songs={songs}
            likedIds={likedIds}
            onToggleLike={toggleLike}
            startIndex={(page - 1) * PAGE_SIZE.liked + 1}
            label="Liked songs"
          />
          <Pager
            page={data?.page || page}
            pages={data?.pages ?? 1}
            onChange={setPage}
            label="Liked song pages"
          />
        </div>
      )}
    </>
  );
}
