import { Heart } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { Button, EmptyState, PageHeader, QueryErrorState, buttonClasses } from '../components/ui';
import { useSongLikes } from '../features/auth';
import { SongList, SongListSkeleton, fetchLikedSongs } from '../features/catalog';

export default function LikedSongsPage() {
  const dispatch = useAppDispatch();
  const data = useAppSelector((state) => state.songs.likedSongs);
  const request = useAppSelector((state) => state.songs.requests.liked);
  // The liked list changes with every like, so each visit starts again from the first page.
  useEffect(() => {
    void dispatch(fetchLikedSongs(1));
  }, [dispatch]);
  const { likedIds, toggleLike } = useSongLikes();
  // The songs slice follows every like toggle, so the list is already current.
  const songs = data.songs;
  const loading = request.status === 'loading';
  const hasMore = data.page < data.pages;
  const loadMore = () => void dispatch(fetchLikedSongs(data.page + 1));

  return (
    <>
      <title>Liked songs · Backbeat</title>
      <PageHeader
        eyebrow="Your library"
        title="Liked songs"
        description={
          data.total > 0
            ? `${data.total.toLocaleString()} ${data.total === 1 ? 'song' : 'songs'} you love`
            : 'Everything you have liked, in one place.'
        }
      />
      {songs.length === 0 && (loading || request.status === 'idle') ? (
        <SongListSkeleton count={10} />
      ) : songs.length === 0 && request.status === 'failed' ? (
        <QueryErrorState
          error={null}
          fallback={request.error ?? 'Fetching liked songs failed'}
          onRetry={() => void dispatch(fetchLikedSongs(1))}
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
        <div aria-busy={loading}>
          <SongList
            songs={songs}
            likedIds={likedIds}
            onToggleLike={toggleLike}
            label="Liked songs"
            playContext={{ type: 'liked' }}
          />
          {request.status === 'failed' ? (
            <p role="alert" className="mt-4 text-center text-meta text-danger">
              {request.error}
            </p>
          ) : null}
          {hasMore ? (
            <div className="mt-6 flex justify-center">
              <Button variant="secondary" loading={loading} onClick={loadMore}>
                Load more
              </Button>
            </div>
          ) : null}
        </div>
      )}
    </>
  );
}
