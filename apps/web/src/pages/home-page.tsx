import type { ComponentProps } from 'react';
import { Compass, Music, Tags } from 'lucide-react';
import { Link } from 'react-router';
import { useAppSelector } from '../app/hooks';
import { CoverShelf, SongShelf } from './parts/shelves';
import { LinkEmptyState, PageHeader, QueryErrorState, Skeleton, buttonClasses } from '../components/ui';
import { selectUser } from '../features/auth';
import {
  AlbumCard,
  ArtistCard,
  CoverGridSkeleton,
  SongListSkeleton,
  useGetHomeQuery,
} from '../features/catalog';
import { usePlayerLibrary } from '../features/player';

function greeting(hour: number): string {
  if (hour < 5) return 'Good night';
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

const seeAll = 'text-meta font-medium text-muted hover:text-text hover:underline';

/** A shelf of songs: shown only with songs in it (the page never shows an empty shelf). */
function HomeShelf({ id, ...shelf }: { id: string } & Omit<ComponentProps<typeof SongShelf>, 'headingId'>) {
  return <SongShelf headingId={`home-${id}`} playContext={{ type: 'home', id }} {...shelf} />;
}

/** What the page looks like while `/home` answers: the shelves' shapes, no words that could be untrue. */
function HomeSkeleton() {
  return (
    <div aria-hidden="true" data-testid="home-skeleton">
      <div className="mb-8 flex flex-wrap gap-2">
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} className="h-9 w-24 rounded-pill" />
        ))}
      </div>
      {[5, 5].map((rows, index) => (
        <div key={index} className="mb-10">
          <Skeleton className="mb-4 h-7 w-48" />
          <SongListSkeleton count={rows} />
        </div>
      ))}
      <Skeleton className="mb-4 h-7 w-40" />
      <CoverGridSkeleton count={6} />
    </div>
  );
}

/**
 * Home: shelves that change with the listener, from one call (`GET /home`): jump back in, free to stream, popular
 * this week, their genres, new albums and the artists they back. No song is on two shelves (the server decides),
 * and nothing claims emptiness before the answer is in: skeletons until then.
 */
export default function HomePage() {
  const user = useAppSelector(selectUser);
  const { data, isLoading, isError, error, refetch } = useGetHomeQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  // The library the player falls back on (SPEC section 4: with none selected, its first song is selected).
  usePlayerLibrary();
  const firstName = user?.name.split(' ')[0];
  const genres = data?.matchingGenres.length ? data.matchingGenres : (user?.preferredGenres ?? []);
  const nothing =
    data &&
    [data.recentlyPlayed, data.freeToStream, data.popularThisWeek, data.forYourGenres, data.newAlbums].every(
      (shelf) => shelf.length === 0,
    );

  return (
    <>
      <title>Home · Backbeat</title>
      <PageHeader
        eyebrow="Home"
        title={`${greeting(new Date().getHours())}${firstName ? `, ${firstName}` : ''}`}
        description="Picked from what you play, your genres and the artists you back."
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
      {isLoading ? (
        <HomeSkeleton />
      ) : isError || !data ? (
        <QueryErrorState error={error} fallback="Something went wrong" onRetry={() => void refetch()} />
      ) : (
        <>
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
          {nothing ? (
            <LinkEmptyState
              icon={Music}
              title="Nothing here yet"
              description="No music has been published yet. Browse the artists to see who is coming."
              to="/artists"
              linkLabel="Browse artists"
            />
          ) : null}
          <HomeShelf id="recently-played" title="Jump back in" songs={data.recentlyPlayed} />
          <HomeShelf
            id="free"
            title="Free to stream"
            note="Whole songs, free for everyone signed in. Buy one to download it and support the artist."
            songs={data.freeToStream}
          />
          <HomeShelf id="popular" title="Popular this week" songs={data.popularThisWeek} />
          <HomeShelf
            id="genres"
            title="For your genres"
            songs={data.forYourGenres}
            action={
              genres[0] ? (
                <Link to={`/genre/${encodeURIComponent(genres[0])}`} className={seeAll}>
                  More {genres[0]}
                </Link>
              ) : null
            }
          />
          <CoverShelf
            title="New albums"
            headingId="home-albums"
            items={data.newAlbums}
            action={
              <Link to="/albums" className={seeAll}>
                See all
              </Link>
            }
          >
            {(album) => <AlbumCard key={album._id} album={album} />}
          </CoverShelf>
          <CoverShelf title="Artists you back" headingId="home-artists" items={data.yourArtists}>
            {(artist) => <ArtistCard key={artist._id} artist={artist} />}
          </CoverShelf>
        </>
      )}
    </>
  );
}
