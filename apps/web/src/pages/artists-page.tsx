import { Search, SearchX, UsersRound, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState, IconButton, PageHeader, Pager, QueryErrorState, cx } from '../components/ui';
import {
  ArtistCard,
  CoverGrid,
  CoverGridSkeleton,
  useGetArtistsQuery,
  useSearchArtistsQuery,
  type Artist,
} from '../features/catalog';
import { usePageParam } from '../lib/use-page-param';

const DEBOUNCE_MS = 300;

interface ArtistPage {
  artists: Artist[];
  page: number;
  pages: number;
  total: number;
}

/** All artists, alphabetical; with a name typed, the typo-tolerant `GET /artists?q` search of the same list. */
export default function ArtistsPage() {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = usePageParam();
  const query = params.get('q')?.trim() ?? '';
  const [text, setText] = useState(query);
  const inputId = useId();

  // The URL holds the query (shareable, back/forward); typing updates it after a short pause, back to page 1.
  useEffect(() => {
    const next = text.trim();
    if (next === query) return;
    const timer = window.setTimeout(() => {
      setParams(next ? { q: next } : {}, { replace: true });
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, query, setParams]);

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
      <form
        role="search"
        aria-label="Artists"
        className="mb-8 max-w-md"
        onSubmit={(event) => {
          event.preventDefault();
          const next = text.trim();
          setParams(next ? { q: next } : {}, { replace: true });
        }}
      >
        <label htmlFor={inputId} className="sr-only">
          Find an artist
        </label>
        <div className="relative">
          <Search
            size={18}
            strokeWidth={1.75}
            aria-hidden="true"
            className="pointer-events-none absolute left-3.5 top-1/2 -translate-y-1/2 text-muted"
          />
          <input
            id={inputId}
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Find an artist"
            autoComplete="off"
            enterKeyHint="search"
            className="h-11 w-full rounded-pill border border-line bg-surface-2 pl-10 pr-11 text-body text-text placeholder:text-muted/70 hover:border-muted/60 [&::-webkit-search-cancel-button]:hidden"
          />
          {text ? (
            <IconButton
              label="Clear artist search"
              size="sm"
              className="absolute right-1.5 top-1/2 -translate-y-1/2"
              onClick={() => {
                setText('');
                setParams({}, { replace: true });
              }}
            >
              <X size={16} strokeWidth={1.75} aria-hidden="true" />
            </IconButton>
          ) : null}
        </div>
      </form>
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
