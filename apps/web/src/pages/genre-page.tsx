import { Music } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { Button, EmptyState, PageHeader, QueryErrorState, buttonClasses } from '../components/ui';
import { useSongLikes } from '../features/auth';
import {
  SongList,
  SongListSkeleton,
  fetchSongsByGenre,
  genreKey,
  useGetGenresQuery,
} from '../features/catalog';

export default function GenrePage() {
  const { genre = '' } = useParams();
  const dispatch = useAppDispatch();
  const shown = useAppSelector((state) => state.songs.genreSongs);
  const request = useAppSelector((state) => state.songs.requests.genre);
  // A fresh cached genre (5 minutes, per lowercased genre) is shown without a request.
  useEffect(() => {
    if (genre) void dispatch(fetchSongsByGenre({ genre, page: 1 }));
  }, [dispatch, genre]);
  const { likedIds, toggleLike } = useSongLikes();
  // The genre as the catalogue spells it ("/genre/electronic" is "Electronic", "/genre/hip-hop" "Hip-Hop").
  const { data: genres } = useGetGenresQuery();
  const key = genreKey(genre);
  const name = genres?.find((known) => known.slug === key || known.name.toLowerCase() === key)?.name ?? genre;
  const data = shown.genre === genreKey(genre) ? shown : null;
  const loading = request.status === 'loading';
  const hasMore = data !== null && data.page < data.pages;
  const loadMore = () => {
    if (data) void dispatch(fetchSongsByGenre({ genre, page: data.page + 1, append: true }));
  };
  return (
    <>
      <title>{`${name} · Backbeat`}</title>
      <PageHeader
        eyebrow="Genre"
        title={<span className={name === genre ? 'capitalize' : undefined}>{name}</span>}
        description={
          data && data.total > 0
            ? `${data.total.toLocaleString()} ${data.total === 1 ? 'song' : 'songs'}`
            : 'Songs in this genre.'
        }
      />
      {!data && request.status === 'failed' ? (
        <QueryErrorState
          error={null}
          fallback={request.error ?? 'Fetching songs by genre failed'}
          onRetry={() => void dispatch(fetchSongsByGenre({ genre, page: 1 }))}
        />
      ) : !data ? (
        <SongListSkeleton count={10} />
      ) : data.songs.length === 0 ? (
        <EmptyState
          icon={<Music size={22} strokeWidth={1.75} />}
          title={`No ${name} songs yet`}
          description="Nothing has been published in this genre yet."
          action={
            <Link to="/home" className={buttonClasses({ variant: 'secondary' })}>
              Back to home
            </Link>
          }
        />
      ) : (
        <div aria-busy={loading}>
          <SongList
            songs={data.songs}
            likedIds={likedIds}
            onToggleLike={toggleLike}
            label={`${name} songs`}
            playContext={{ type: 'genre', id: genre }}
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
