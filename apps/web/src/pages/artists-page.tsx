import { SearchX, UsersRound } from 'lucide-react';
import { EmptyState, PageHeader, Pager, QueryErrorState, cx } from '../components/ui';
import {
  ArtistCard,
  CoverGrid,
  CoverGridSkeleton,
  SearchBox,
  useAddressSearch,
  useGetArtistsQuery,
  useSearchArtistsQuery,
  type Artist,
} from '../features/catalog';
import { usePageParam } from '../lib/use-page-param';

interface ArtistPage {
  artists: Artist[];
  page: number;
  pages: number;
  total: number;
}

/** All artists, alphabetical; with a name typed, the typo-tolerant `GET /artists?q` search of the same list. */
export default function ArtistsPage() {
  const addressSearch = useAddressSearch();
  const { query } = addressSearch;
  const [page, setPage] = usePageParam();

  const browse = useGetArtistsQuery({ page }, { skip: Boolean(query) });
  const search = useSearchArtistsQuery({ q: query, page }, { skip: !query });
  const active = query ? search : browse;
  const data: ArtistPage | undefined = query
    ? search.data && {
        artists: search.data.results,
        page: search.data.page,
        pages: search.data.pages,
        total: search.data.total,
      }
    : browse.data && {
        artists: browse.data.artists,
        page: browse.data.pagination.page,
        pages: browse.data.pagination.totalPages,
        total: browse.data.pagination.total,
      };
  const total = data?.total ?? 0;

  return (
    <>
      <title>{query ? `“${query}” · Artists · Backbeat` : 'Artists · Backbeat'}</title>
      <PageHeader
        eyebrow="Browse"
        title="Artists"
        description={
          query
            ? data
              ? `${total.toLocaleString()} ${total === 1 ? 'artist matches' : 'artists match'} “${query}”`
              : `Searching for “${query}”…`
            : total > 0
              ? `${total.toLocaleString()} artists on Backbeat`
              : 'Everyone making music on Backbeat.'
        }
      />
      <SearchBox
        search={addressSearch}
        formLabel="Artists"
        label="Find an artist"
        placeholder="Find an artist"
        clearLabel="Clear artist search"
        size="md"
      />
      <div aria-live="polite" className="sr-only">
        {query && data && !active.isFetching
          ? `${total} ${total === 1 ? 'artist' : 'artists'} for ${query}`
          : ''}
      </div>
      {active.isLoading || (query && !data && active.isFetching) ? (
        <CoverGridSkeleton count={10} round />
      ) : active.isError ? (
        <QueryErrorState
          query={active}
          fallback={query ? 'Failed to search artists' : 'Failed to fetch artists'}
        />
      ) : !data || data.artists.length === 0 ? (
        query ? (
          <EmptyState
            icon={<SearchX size={22} strokeWidth={1.75} />}
            title={`No artist called “${query}”`}
            description="Check the spelling, or try part of the name."
          />
        ) : (
          <EmptyState
            icon={<UsersRound size={22} strokeWidth={1.75} />}
            title="No artists yet"
            description="Artists appear here as soon as they publish their first release."
          />
        )
      ) : (
        <div
          className={cx('transition-opacity duration-150', active.isFetching && 'opacity-60')}
          aria-busy={active.isFetching}
        >
          <CoverGrid label={query ? `Artists matching ${query}` : 'Artists'}>
            {data.artists.map((artist) => (
              <ArtistCard key={artist._id} artist={artist} />
            ))}
          </CoverGrid>
          <Pager page={data.page || page} pages={data.pages || 1} onChange={setPage} label="Artist pages" />
        </div>
      )}
    </>
  );
}
