import { Compass, Disc3, Music, Shuffle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { SongShelf } from './parts/shelves';
import {
  Button,
  EmptyState,
  LinkEmptyState,
  PageHeader,
  QueryErrorState,
  Section,
  buttonClasses,
  cx,
} from '../components/ui';
import {
  AlbumCard,
  ArtistHeader,
  ArtistHeaderSkeleton,
  CoverGrid,
  CoverGridSkeleton,
  SongListSkeleton,
  useGetArtistAlbumsQuery,
  useGetRandomArtistQuery,
  type Artist,
} from '../features/catalog';
import { ArtistSubscription } from '../features/commerce';

function ArtistSpotlight({ artist }: { artist: Artist }) {
  return (
    <ArtistHeader artist={artist} eyebrow="Spotlight" heading="h2" glowClassName="-left-24 bg-accent-2/10">
      <p className="mt-2 text-body text-muted tabular-nums">
        {artist.songCount ?? 0} {artist.songCount === 1 ? 'song' : 'songs'} · {artist.albumCount ?? 0}{' '}
        {artist.albumCount === 1 ? 'album' : 'albums'}
        {artist.genres?.length ? ` · ${artist.genres.slice(0, 3).join(', ')}` : ''}
      </p>
      {artist.bio ? <p className="mt-3 line-clamp-3 max-w-2xl text-body text-muted">{artist.bio}</p> : null}
      <div className="mt-4 flex flex-wrap items-center justify-center gap-3 md:justify-start">
        <Link
          to={`/artist/${encodeURIComponent(artist._id)}`}
          className={buttonClasses({ variant: 'secondary', size: 'sm' })}
        >
          Open artist page
        </Link>
        <ArtistSubscription artist={artist} />
      </div>
    </ArtistHeader>
  );
}

function SpotlightAlbums({ artistId }: { artistId: string }) {
  const albums = useGetArtistAlbumsQuery({ id: artistId, page: 1 });
  if (albums.isLoading) return <CoverGridSkeleton count={5} />;
  if (albums.isError) {
    return <QueryErrorState query={albums} fallback="Failed to fetch albums for artist" />;
  }
  const list = albums.data?.albums ?? [];
  if (list.length === 0) {
    return <EmptyState icon={<Disc3 size={22} strokeWidth={1.75} />} title="No albums yet" />;
  }
  return (
    <CoverGrid label="Albums">
      {list.map((album) => (
        <AlbumCard key={album._id} album={album} showArtist={false} />
      ))}
    </CoverGrid>
  );
}

/** Discover (SPEC "random artist with songs"): one artist at a time, drawn by the server, with a new draw a click away. */
export default function DiscoverPage() {
  const [draw, setDraw] = useState(0);
  const { data, isLoading, isFetching, isError, error, refetch } = useGetRandomArtistQuery({ draw });
  const artist = data?.artist ?? null;
  const songs = data?.songs ?? [];
  const total = data?.pagination.total ?? 0;

  return (
    <>
      <title>Discover · Backbeat</title>
      <PageHeader
        eyebrow="Discover"
        title="Meet someone new"
        description="An artist picked at random from everyone with music to play. Not for you? Draw again."
        actions={
          <Button variant="secondary" size="sm" loading={isFetching} onClick={() => setDraw((n) => n + 1)}>
            <Shuffle size={16} strokeWidth={1.75} aria-hidden="true" />
            Another artist
          </Button>
        }
      />
      {isLoading ? (
        <>
          <ArtistHeaderSkeleton eyebrowWidth="w-24" />
          <SongListSkeleton count={6} />
        </>
      ) : isError ? (
        <QueryErrorState
          error={error}
          fallback="Failed to fetch random artist"
          onRetry={() => void refetch()}
        />
      ) : !artist ? (
        <LinkEmptyState
          icon={Compass}
          title="Nobody to discover yet"
          description="Artists appear here once they have a song ready to play."
          to="/artists"
          linkLabel="Browse artists"
        />
      ) : (
        <div
          className={cx('transition-opacity duration-150', isFetching && 'opacity-60')}
          aria-busy={isFetching}
        >
          <ArtistSpotlight artist={artist} />
          <SongShelf
            title={`Songs by ${artist.name}`}
            headingId="discover-songs"
            action={
              total > songs.length ? (
                <Link
                  to={`/artist/${encodeURIComponent(artist._id)}`}
                  className="text-meta font-medium text-muted hover:text-text hover:underline"
                >
                  All {total.toLocaleString()} songs
                </Link>
              ) : null
            }
            empty={<EmptyState icon={<Music size={22} strokeWidth={1.75} />} title="No songs yet" />}
            songs={songs}
            playContext={{ type: 'artist', id: artist._id }}
          />
          <Section title="Albums" headingId="discover-albums">
            <SpotlightAlbums artistId={artist._id} />
          </Section>
        </div>
      )}
    </>
  );
}
