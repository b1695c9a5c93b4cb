import { Music, Tags } from 'lucide-react';
import { Link } from 'react-router';
import { useAppSelector } from '../app/hooks';
import { EmptyState, PageHeader, Pager, QueryErrorState, Section, buttonClasses, cx } from '../components/ui';
import { selectUser, useSongLikes } from '../features/auth';
import { PAGE_SIZE, SongList, SongListSkeleton, useGetMatchingGenreSongsQuery } from '../features/catalog';
import { usePageParam } from '../lib/use-page-param';

function greeting(hour: number): string {
  if (hour < 5) return 'Good night';
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

export default function HomePage() {
  const user = useAppSelector(selectUser);
  const [page, setPage] = usePageParam();
  const { data, isLoading, isFetching, isError, error, refetch } = useGetMatchingGenreSongsQuery({ page });
  const { likedIds, toggleLike } = useSongLikes();
  const genres = data?.matchingGenres?.length ? data.matchingGenres : (user?.preferredGenres ?? []);
  const firstName = user?.name.split(' ')[0];

  return (
    <>
      <title>Home · Backbeat</title>
      <PageHeader
        eyebrow="Home"
        title={`${greeting(new Date().getHours())}${firstName ? `, ${firstName}` : ''}`}
        description="Fresh picks from the genres you love."
        actions={
          <Link to="/genres" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
            <Tags size={16} strokeWidth={1.75} aria-hidden="true" />
            Edit genres
          </Link>
        }
      />
      {genres.length > 0 ? (
        <nav aria-label="Your genres" className="mb-8 flex flex-wrap gap-2">
          {genres.map((genre) => (
            <Link
              key={genre}
              to={`/genre/${encodeURIComponent(genre)}`}
              className="rounded-pill border border-line bg-surface px-4 py-1.5 text-body font-medium text-text transition-colors duration-150 hover:border-accent hover:text-accent"
            >
              {genre}
            </Link>
          ))}
        </nav>
      ) : null}
      <Section
        title="Songs for you"
        headingId="home-songs"
        action={
          data && data.total > 0 ? (
            <span className="text-meta text-muted tabular-nums">
              {data.total.toLocaleString()} {data.total === 1 ? 'song' : 'songs'}
            </span>
          ) : null
        }
      >
        {isLoading ? (
          <SongListSkeleton count={10} />
        ) : isError ? (
          <QueryErrorState
            error={error}
            fallback="Fetching songs matching user genres failed"
            onRetry={() => void refetch()}
          />
        ) : !data || data.songs.length === 0 ? (
          <EmptyState
            icon={<Music size={22} strokeWidth={1.75} />}
            title="Nothing in your genres yet"
            description="No songs match your genres right now. Try adding a few more genres, or browse all artists."
            action={
              <Link to="/artists" className={buttonClasses()}>
                Browse artists
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
              startIndex={(page - 1) * PAGE_SIZE.matchingGenre + 1}
              label="Songs for you"
            />
            <Pager
              page={data.page || page}
              pages={data.pages}
              onChange={setPage}
              label="Songs for you pages"
            />
          </div>
        )}
      </Section>
    </>
  );
}
