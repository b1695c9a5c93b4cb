import { Compass, Library, Music, Tags } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import {
  Button,
  EmptyState,
  PageHeader,
  Pager,
  QueryErrorState,
  Section,
  buttonClasses,
  cx,
} from '../components/ui';
import { selectUser, useSongLikes } from '../features/auth';
import {
  AlbumCard,
  CoverGrid,
  CoverGridSkeleton,
  SONG_PAGE_SIZE,
  SongList,
  SongListSkeleton,
  fetchMatchingGenreSongs,
  fetchSongs,
  useGetAlbumsQuery,
} from '../features/catalog';
import { usePageParam } from '../lib/use-page-param';

function greeting(hour: number): string {
  if (hour < 5) return 'Good night';
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

const NEW_ALBUMS_SHOWN = 6;

/** The newest releases (`GET /albums`), with the full list one click away. */
function NewAlbums() {
  const { data, isLoading, isError, error, refetch } = useGetAlbumsQuery({ page: 1 });
  const albums = data?.albums.slice(0, NEW_ALBUMS_SHOWN) ?? [];
  if (!isLoading && !isError && albums.length === 0) return null;
  return (
    <Section
      title="New albums"
      headingId="home-albums"
      action={
        <Link to="/albums" className="text-meta font-medium text-muted hover:text-text hover:underline">
          See all
        </Link>
      }
    >
      {isLoading ? (
        <CoverGridSkeleton count={NEW_ALBUMS_SHOWN} />
      ) : isError ? (
        <QueryErrorState error={error} fallback="Failed to fetch albums" onRetry={() => void refetch()} />
      ) : (
        <CoverGrid label="New albums">
          {albums.map((album) => (
            <AlbumCard key={album._id} album={album} />
          ))}
        </CoverGrid>
      )}
    </Section>
  );
}

export default function HomePage() {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const [page, setPage] = usePageParam();
  const matching = useAppSelector((state) => state.songs.matchingGenreSongs);
  const matchingRequest = useAppSelector((state) => state.songs.requests.matchingGenre);
  const allSongs = useAppSelector((state) => state.songs.allSongs);
  const library = useAppSelector((state) => state.songs.pagination);
  const libraryRequest = useAppSelector((state) => state.songs.requests.library);
  // Fresh cached pages (5 minutes) are shown without a request.
  useEffect(() => {
    void dispatch(fetchMatchingGenreSongs(page));
  }, [dispatch, page]);
  useEffect(() => {
    void dispatch(fetchSongs(1));
  }, [dispatch]);
  const { likedIds, toggleLike } = useSongLikes();
  const data =
    matching.pagination.page === page && matchingRequest.status !== 'idle'
      ? {
          songs: matching.songs,
          total: matching.pagination.total,
          page: matching.pagination.page,
          pages: matching.pagination.totalPages,
        }
      : undefined;
  const isFetching = matchingRequest.status === 'loading';
  const isLoading = !data && matchingRequest.status !== 'failed';
  const isError = !data && matchingRequest.status === 'failed';
  const genres = matching.matchingGenres.length ? matching.matchingGenres : (user?.preferredGenres ?? []);
  const libraryLoading = libraryRequest.status === 'loading';
  const hasMoreLibrary = library.page < library.totalPages;
  const firstName = user?.name.split(' ')[0];

  return (
    <>
      <title>Home · Backbeat</title>
      <PageHeader
        eyebrow="Home"
        title={`${greeting(new Date().getHours())}${firstName ? `, ${firstName}` : ''}`}
        description="Fresh picks from the genres you love."
        actions={
          <>
            <Link to="/discover" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
              <Compass size={16} strokeWidth={1.75} aria-hidden="true" />
              Discover
            </Link>
            <Link to="/genres" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
              <Tags size={16} strokeWidth={1.75} aria-hidden="true" />
              Edit genres
            </Link>
          </>
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
            error={null}
            fallback={matchingRequest.error ?? 'Fetching songs matching user genres failed'}
            onRetry={() => void dispatch(fetchMatchingGenreSongs(page))}
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
              startIndex={(page - 1) * SONG_PAGE_SIZE.matchingGenre + 1}
              label="Songs for you"
              playContext={{ type: 'matching-genre' }}
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
      <NewAlbums />
      <Section
        title="All songs"
        headingId="home-library"
        action={
          library.total > 0 ? (
            <span className="text-meta text-muted tabular-nums">
              {library.total.toLocaleString()} {library.total === 1 ? 'song' : 'songs'}
            </span>
          ) : null
        }
      >
        {allSongs.length === 0 && libraryRequest.status === 'failed' ? (
          <QueryErrorState
            error={null}
            fallback={libraryRequest.error ?? 'Fetching songs failed'}
            onRetry={() => void dispatch(fetchSongs(1))}
          />
        ) : allSongs.length === 0 && libraryRequest.status !== 'succeeded' ? (
          <SongListSkeleton count={SONG_PAGE_SIZE.songs} />
        ) : allSongs.length === 0 ? (
          <EmptyState
            icon={<Library size={22} strokeWidth={1.75} />}
            title="No songs yet"
            description="Nothing has been published yet."
          />
        ) : (
          <div aria-busy={libraryLoading}>
            <SongList
              songs={allSongs}
              likedIds={likedIds}
              onToggleLike={toggleLike}
              label="All songs"
              playContext={{ type: 'all' }}
            />
            {libraryRequest.status === 'failed' ? (
              <p role="alert" className="mt-4 text-center text-meta text-danger">
                {libraryRequest.error}
              </p>
            ) : null}
            {hasMoreLibrary ? (
              <div className="mt-6 flex justify-center">
                <Button
                  variant="secondary"
                  loading={libraryLoading}
                  onClick={() => void dispatch(fetchSongs(library.page + 1))}
                >
                  Load more
                </Button>
              </div>
            ) : null}
          </div>
        )}
      </Section>
    </>
  );
}
