import { Disc3, Music } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button, EmptyState, NotFoundState, QueryErrorState, Section } from '../components/ui';
import { useSongLikes } from '../features/auth';
import {
  AlbumCard,
  ArtistHeader,
  ArtistHeaderSkeleton,
  CoverGrid,
  CoverGridSkeleton,
  PagedSongList,
  SongListSkeleton,
  loadedSongs,
  useGetArtistAlbumsQuery,
  useGetArtistSongPagesInfiniteQuery,
  useGetArtistQuery,
  type ArtistAlbumsResponse,
} from '../features/catalog';
import { ArtistSubscription } from '../features/commerce';
import { PlayAllButtons } from '../features/player';
import { isMissingResource } from '../lib/api-query';
import { formatMoney } from '../lib/format';
import { mergePages } from '../lib/merge-by-id';

/**
 * Loads one further page of an artist's albums and hands it to the page, which merges every page into one grid
 * (SPEC: later pages merge without duplicate ids). Renders nothing but its own failure.
 */
function AlbumPageLoader({
  artistId,
  page,
  onLoaded,
}: {
  artistId: string;
  page: number;
  onLoaded: (page: number, data: ArtistAlbumsResponse) => void;
}) {
  const albums = useGetArtistAlbumsQuery({ id: artistId, page });
  useEffect(() => {
    if (albums.data) onLoaded(page, albums.data);
  }, [albums.data, page, onLoaded]);
  if (!albums.isError) return null;
  return (
    <li className="col-span-full">
      <QueryErrorState query={albums} fallback="Failed to fetch albums for artist" />
    </li>
  );
}

export default function ArtistPage() {
  const { artistId = '' } = useParams();
  const artist = useGetArtistQuery(artistId);
  const songPages = useGetArtistSongPagesInfiniteQuery(artistId, { skip: !artistId });
  const loaded = songPages.currentData;
  const songs = loaded ? { songs: loadedSongs(loaded), total: loaded.pages[0]?.total ?? 0 } : undefined;
  const albums = useGetArtistAlbumsQuery({ id: artistId, page: 1 });
  // Pages past the first, loaded on demand and merged with the first into one list.
  const [albumPages, setAlbumPages] = useState(1);
  const [laterAlbums, setLaterAlbums] = useState<Record<number, ArtistAlbumsResponse>>({});
  useEffect(() => {
    setAlbumPages(1);
    setLaterAlbums({});
  }, [artistId]);
  const onAlbumPage = useCallback(
    (page: number, data: ArtistAlbumsResponse) =>
      setLaterAlbums((loaded) => (loaded[page] === data ? loaded : { ...loaded, [page]: data })),
    [],
  );
  const loadedPages = Object.keys(laterAlbums).map(Number);
  const lastLoaded = loadedPages.length ? laterAlbums[Math.max(...loadedPages)] : albums.data;
  const albumTotalPages = lastLoaded?.pagination.totalPages ?? 1;
  const hasMoreAlbums = albumPages < albumTotalPages;
  const albumsLoading = albumPages > 1 && !laterAlbums[albumPages];
  const allAlbums = useMemo(
    () =>
      mergePages([
        albums.data?.albums ?? [],
        ...Array.from({ length: albumPages - 1 }, (_, index) => laterAlbums[index + 2]?.albums ?? []),
      ]),
    [albums.data, laterAlbums, albumPages],
  );
  const { likedIds, toggleLike } = useSongLikes();
  const data = artist.data;

  if (artist.isError && isMissingResource(artist.error)) {
    return (
      <>
        <title>Artist not found · Backbeat</title>
        <NotFoundState
          title="Artist not found"
          description="This artist does not exist, or the profile was removed. Find something else to play."
        />
      </>
    );
  }

  // The artist, the first albums and the first songs arrive separately: the page shows its skeleton until all three
  // have answered, then everything at once, so no section moves as another one fills in.
  const firstLoad = artist.isLoading || albums.isLoading || (!songs && !songPages.isError);
  if (firstLoad) {
    return (
      <>
        <title>Artist · Backbeat</title>
        {/* Its own element, so the loaded page replaces it instead of moving its sections (layout shift). */}
        <div aria-hidden="true">
          <ArtistHeaderSkeleton eyebrowWidth="w-16" />
          <Section title="Albums">
            <CoverGridSkeleton count={5} />
          </Section>
          <Section title="Songs">
            <SongListSkeleton count={8} />
          </Section>
        </div>
      </>
    );
  }

  return (
    <>
      <title>{`${data?.name ?? 'Artist'} · Backbeat`}</title>
      {artist.isError || !data ? (
        <div className="mb-10">
          <QueryErrorState query={artist} fallback="Failed to fetch artist" title="Artist unavailable" />
        </div>
      ) : (
        <ArtistHeader
          artist={data}
          eyebrow="Artist"
          heading="h1"
          glowClassName="-right-20 bg-accent/15"
          after={data.bio ? <p className="relative mt-6 max-w-3xl text-body text-muted">{data.bio}</p> : null}
        >
          <p className="mt-2 text-body text-muted tabular-nums">
            {data.songCount ?? 0} {data.songCount === 1 ? 'song' : 'songs'} · {data.albumCount ?? 0}{' '}
            {data.albumCount === 1 ? 'album' : 'albums'}
            {data.subscriptionPrice > 0 ? (
              <>
                {' · '}
                {/* The price and its period stay together when the line wraps on a phone. */}
                <span className="whitespace-nowrap">
                  Subscription {formatMoney(data.subscriptionPrice, data.currency)} / month
                </span>
              </>
            ) : null}
          </p>
          {data.genres?.length ? (
            <ul className="mt-3 flex flex-wrap justify-center gap-2 md:justify-start" aria-label="Genres">
              {data.genres.map((genre) => (
                <li key={genre}>
                  <Link
                    to={`/genre/${encodeURIComponent(genre)}`}
                    className="rounded-pill border border-line px-3 py-1 text-meta font-medium text-muted transition-colors hover:border-accent hover:text-accent"
                  >
                    {genre}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="mt-5 flex flex-col items-center gap-4 md:items-start">
            <PlayAllButtons
              songs={songs?.songs ?? []}
              context={{ type: 'artist', id: artistId }}
              what="artist"
            />
            <ArtistSubscription artist={data} />
          </div>
        </ArtistHeader>
      )}

      <Section title="Albums" headingId="artist-albums">
        {albums.isLoading ? (
          <CoverGridSkeleton count={5} />
        ) : albums.isError ? (
          <QueryErrorState query={albums} fallback="Failed to fetch albums for artist" />
        ) : !albums.data || albums.data.albums.length === 0 ? (
          <EmptyState icon={<Disc3 size={22} strokeWidth={1.75} />} title="No albums yet" />
        ) : (
          <>
            <CoverGrid label="Albums">
              {allAlbums.map((album) => (
                <AlbumCard key={album._id} album={album} showArtist={false} />
              ))}
              {Array.from({ length: albumPages - 1 }, (_, index) => (
                <AlbumPageLoader
                  key={index + 2}
                  artistId={artistId}
                  page={index + 2}
                  onLoaded={onAlbumPage}
                />
              ))}
            </CoverGrid>
            {hasMoreAlbums ? (
              <div className="mt-6 flex justify-center">
                <Button
                  variant="secondary"
                  loading={albumsLoading}
                  onClick={() => setAlbumPages((pages) => pages + 1)}
                >
                  More albums
                </Button>
              </div>
            ) : null}
          </>
        )}
      </Section>

      <Section
        title="Songs"
        headingId="artist-songs"
        action={
          songs && songs.total > 0 ? (
            <span className="text-meta text-muted tabular-nums">{songs.total.toLocaleString()} in total</span>
          ) : null
        }
      >
        {!songs && songPages.isError ? (
          <QueryErrorState query={songPages} fallback="Fetching songs by artist failed" />
        ) : !songs ? (
          <SongListSkeleton count={8} />
        ) : songs.songs.length === 0 ? (
          <EmptyState icon={<Music size={22} strokeWidth={1.75} />} title="No songs yet" />
        ) : (
          <PagedSongList
            pages={songPages}
            failedText="Fetching songs by artist failed"
            songs={songs.songs}
            likedIds={likedIds}
            onToggleLike={toggleLike}
            label={`Songs by ${data?.name ?? 'this artist'}`}
            playContext={{ type: 'artist', id: artistId }}
          />
        )}
      </Section>
    </>
  );
}
