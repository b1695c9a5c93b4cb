import { Search, SearchX, Tags } from 'lucide-react';
import { Link } from 'react-router';
import { CoverShelf, SongShelf } from './parts/shelves';
import {
  EmptyState,
  LinkEmptyState,
  PageHeader,
  QueryErrorState,
  Section,
  Spinner,
  cx,
} from '../components/ui';
import {
  AlbumCard,
  ArtistCard,
  CoverGridSkeleton,
  SearchBox,
  useAddressSearch,
  SongListSkeleton,
  useSearchQuery,
} from '../features/catalog';

export default function SearchPage() {
  const search = useAddressSearch();
  const { query, text } = search;
  const { data, currentData, isFetching, isError, error, refetch } = useSearchQuery(query, { skip: !query });

  const total = data ? data.artists.length + data.albums.length + data.songs.length + data.genres.length : 0;
  const loadingFirst = isFetching && !data;
  // What shows belongs to an earlier query while the new one is typed (the pause before it is asked) or answered.
  const pending = text.trim();
  const stale =
    Boolean(data) && ((isFetching && currentData === undefined) || (pending !== '' && pending !== query));

  return (
    <>
      <title>{query ? `“${query}” · Search · Backbeat` : 'Search · Backbeat'}</title>
      <PageHeader eyebrow="Search" title="Find your next favourite" />
      <SearchBox
        search={search}
        label="Artists, albums, songs or genres"
        placeholder="Try an artist, a song or a genre"
        clearLabel="Clear search"
        size="lg"
      />

      <div aria-live="polite" className="sr-only">
        {query && data && !isFetching ? `${total} ${total === 1 ? 'result' : 'results'} for ${query}` : ''}
      </div>
      {/* In flow and always there, so results never jump when it appears. */}
      <p
        data-testid="search-status"
        className={cx(
          'mb-4 flex h-5 items-center gap-2 text-meta text-muted',
          stale ? 'visible' : 'invisible',
        )}
      >
        <Spinner size="sm" />
        Searching for “{pending || query}”…
      </p>

      {!query ? (
        <EmptyState
          icon={<Search size={22} strokeWidth={1.75} />}
          title="Search the catalogue"
          description="Type a name to search artists, albums, songs and genres at once. Small typos are fine."
        />
      ) : loadingFirst ? (
        <>
          <Section title="Artists">
            <CoverGridSkeleton count={5} round />
          </Section>
          <Section title="Songs">
            <SongListSkeleton count={5} />
          </Section>
        </>
      ) : isError ? (
        <QueryErrorState error={error} fallback="Search failed" onRetry={() => void refetch()} />
      ) : !data || total === 0 ? (
        <LinkEmptyState
          icon={SearchX}
          title={`No results for “${query}”`}
          description="Check the spelling, or try a shorter or different name."
          to="/artists"
          linkLabel="Browse all artists"
          linkVariant="secondary"
        />
      ) : (
        <div
          className={cx('transition-opacity duration-150', stale && 'opacity-50')}
          aria-busy={stale}
          data-stale={stale || undefined}
        >
          {data.genres.length > 0 ? (
            <Section title="Genres" headingId="search-genres">
              <ul aria-label="Genres" className="flex flex-wrap gap-2">
                {data.genres.map((genre) => (
                  <li key={genre._id}>
                    <Link
                      to={`/genre/${encodeURIComponent(genre.name)}`}
                      className="inline-flex h-10 items-center gap-2 rounded-pill border border-line bg-surface px-4 text-body font-medium text-text transition-colors duration-150 hover:border-accent hover:text-accent"
                    >
                      <Tags size={16} strokeWidth={1.75} aria-hidden="true" />
                      {genre.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
          <CoverShelf title="Artists" headingId="search-artists" items={data.artists}>
            {(artist) => <ArtistCard key={artist._id} artist={artist} />}
          </CoverShelf>
          <SongShelf
            title="Songs"
            headingId="search-songs"
            songs={data.songs}
            playContext={{ type: 'search', id: query }}
          />
          <CoverShelf title="Albums" headingId="search-albums" items={data.albums}>
            {(album) => <AlbumCard key={album._id} album={album} />}
          </CoverShelf>
        </div>
      )}
    </>
  );
}
