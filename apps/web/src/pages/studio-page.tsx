import type { ReactNode } from 'react';
import { Disc3, ExternalLink, Mic2, Music, Pencil, Plus, Upload } from 'lucide-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ArtistPortrait } from '../components/artist-portrait';
import {
  EmptyState,
  LinkEmptyState,
  PageHeader,
  Pager,
  QueryErrorState,
  Section,
  Skeleton,
  buttonClasses,
  cx,
} from '../components/ui';
import { useGetArtistAlbumsQuery, useGetArtistSongsQuery } from '../features/catalog';
import type { Artist } from '../features/catalog';
import {
  DeleteAction,
  StudioAlbumRow,
  StudioSongRow,
  pickArtist,
  studioPaths,
  useManagedArtists,
  useRecentUploads,
} from '../features/studio';
import { formatMoney, pluralize } from '../lib/format';
import { usePageParam } from '../lib/use-page-param';

function RowsSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className="flex flex-col gap-2" aria-hidden="true">
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-16" />
      ))}
    </div>
  );
}

/** A part of the artist's catalogue, with the link that adds to it in its heading. */
function CatalogueSection({
  title,
  headingId,
  add: { to, icon: Icon, label },
  children,
}: {
  title: string;
  headingId: string;
  add: { to: string; icon: typeof Plus; label: string };
  children: ReactNode;
}) {
  return (
    <Section
      title={title}
      headingId={headingId}
      action={
        <Link to={to} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          <Icon size={16} strokeWidth={1.75} aria-hidden="true" />
          {label}
        </Link>
      }
    >
      {children}
    </Section>
  );
}

function ArtistSummary({ artist, onDeleted }: { artist: Artist; onDeleted: () => void }) {
  return (
    <section
      aria-label="Artist profile"
      className="relative mb-10 overflow-hidden rounded-card border border-line bg-surface p-4 md:p-6"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -right-16 -top-20 size-64 rounded-pill bg-accent/10 blur-[80px]"
      />
      <div className="relative flex flex-col gap-4 sm:flex-row sm:items-center">
        <ArtistPortrait
          image={artist.image}
          name={artist.name}
          iconSize={32}
          className="size-20 md:size-24"
        />
        <div className="min-w-0 flex-1">
          <p className="text-meta font-semibold uppercase tracking-wider text-accent">Artist profile</p>
          <h2 className="mt-1 truncate text-h3 font-bold tracking-tight">{artist.name}</h2>
          <p className="mt-1 text-body text-muted tabular-nums">
            {pluralize(artist.songCount, 'song')} · {pluralize(artist.albumCount, 'album')}
            {artist.subscriptionPrice > 0
              ? ` · ${formatMoney(artist.subscriptionPrice, artist.currency)} / month`
              : ''}
            {artist.genres[0] ? ` · ${artist.genres[0]}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={studioPaths.editArtist(artist._id)} className={buttonClasses({ variant: 'secondary' })}>
            <Pencil size={18} strokeWidth={1.75} aria-hidden="true" />
            Edit profile
          </Link>
          <Link
            to={`/artist/${encodeURIComponent(artist._id)}`}
            className={buttonClasses({ variant: 'ghost' })}
          >
            <ExternalLink size={18} strokeWidth={1.75} aria-hidden="true" />
            Public page
          </Link>
          <DeleteAction entity="artist" id={artist._id} name={artist.name} onDeleted={onDeleted} />
        </div>
      </div>
    </section>
  );
}

function ArtistCatalogue({ artist }: { artist: Artist }) {
  const [page, setPage] = usePageParam();
  const albums = useGetArtistAlbumsQuery({ id: artist._id, page: 1 });
  const songs = useGetArtistSongsQuery({ id: artist._id, page });
  const recent = useRecentUploads(artist._id);
  const listedIds = new Set(songs.data?.songs.map((song) => song._id));
  // Uploads still processing (or failed) are not in the catalogue lists yet.
  const pending = recent.filter((song) => !listedIds.has(song._id));

  return (
    <>
      <CatalogueSection
        title="Albums"
        headingId="studio-albums"
        add={{ to: studioPaths.newAlbum(artist._id), icon: Plus, label: 'New album' }}
      >
        {albums.isLoading ? (
          <RowsSkeleton rows={3} />
        ) : albums.isError ? (
          <QueryErrorState query={albums} fallback="Failed to fetch albums for artist" />
        ) : !albums.data || albums.data.albums.length === 0 ? (
          <EmptyState
            icon={<Disc3 size={22} strokeWidth={1.75} />}
            title="No albums yet"
            description="Group songs into an album, with its own cover and price."
          />
        ) : (
          <ul aria-label="Your albums" className="grid gap-2 lg:grid-cols-2">
            {albums.data.albums.map((album) => (
              <StudioAlbumRow key={album._id} album={album} />
            ))}
          </ul>
        )}
      </CatalogueSection>

      <CatalogueSection
        title="Songs"
        headingId="studio-songs"
        add={{ to: studioPaths.newSong(artist._id), icon: Upload, label: 'Upload song' }}
      >
        {pending.length > 0 ? (
          <ul aria-label="Recent uploads" className="mb-4 flex flex-col gap-2">
            {pending.map((song) => (
              <StudioSongRow key={song._id} song={song} live />
            ))}
          </ul>
        ) : null}
        {songs.isLoading ? (
          <RowsSkeleton />
        ) : songs.isError ? (
          <QueryErrorState query={songs} fallback="Fetching songs by artist failed" />
        ) : !songs.data || songs.data.songs.length === 0 ? (
          pending.length > 0 ? null : (
            <EmptyState
              icon={<Music size={22} strokeWidth={1.75} />}
              title="No songs yet"
              description="Upload a song: it is transcoded for streaming and goes live when ready."
            />
          )
        ) : (
          <div className={cx('transition-opacity duration-150', songs.isFetching && 'opacity-60')}>
            <ul aria-label="Your songs" className="flex flex-col gap-2">
              {songs.data.songs.map((song) => (
                <StudioSongRow key={song._id} song={song} />
              ))}
            </ul>
            <Pager
              page={songs.data.page || page}
              pages={songs.data.pages}
              onChange={setPage}
              label="Song pages"
            />
          </div>
        )}
      </CatalogueSection>
    </>
  );
}

/** The studio: the artist's profile, albums and songs with their processing status (admins pick any artist). */
export default function StudioPage() {
  const { artists, isAdmin, isLoading, isError, error, refetch } = useManagedArtists();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const artist = pickArtist(artists, params.get('artist'));

  return (
    <>
      <title>Studio · Backbeat</title>
      <PageHeader
        eyebrow={isAdmin ? 'Admin studio' : 'Studio'}
        title={isAdmin ? 'Catalogue studio' : 'Your studio'}
        description={
          isAdmin
            ? 'Manage every artist profile, album and song.'
            : 'Manage your artist profile, albums and songs. Uploads are transcoded for streaming.'
        }
        actions={
          <>
            {artist ? (
              <Link to={studioPaths.newSong(artist._id)} className={buttonClasses()}>
                <Upload size={18} strokeWidth={1.75} aria-hidden="true" />
                Upload song
              </Link>
            ) : null}
            {isAdmin ? (
              <Link to={studioPaths.newArtist()} className={buttonClasses({ variant: 'secondary' })}>
                <Plus size={18} strokeWidth={1.75} aria-hidden="true" />
                New artist
              </Link>
            ) : null}
            {isAdmin ? (
              <Link to="/admin" className={buttonClasses({ variant: 'ghost' })}>
                Admin dashboard
              </Link>
            ) : (
              <Link to="/studio/dashboard" className={buttonClasses({ variant: 'secondary' })}>
                Your dashboard
              </Link>
            )}
          </>
        }
      />

      {isLoading ? (
        <>
          <Skeleton className="mb-10 h-32 rounded-card" />
          <RowsSkeleton />
        </>
      ) : isError ? (
        <QueryErrorState
          error={error}
          fallback="Failed to fetch all artists"
          onRetry={() => void refetch()}
        />
      ) : !artist ? (
        <LinkEmptyState
          icon={Mic2}
          title={isAdmin ? 'No artists yet' : 'Set up your artist profile'}
          description={
            isAdmin
              ? 'Create the first artist profile to start adding albums and songs.'
              : 'Your profile is what listeners see and subscribe to. Create it to upload songs and albums.'
          }
          to={studioPaths.newArtist()}
          linkLabel={isAdmin ? 'Create an artist' : 'Create your profile'}
        />
      ) : (
        <>
          {artists.length > 1 ? (
            <div className="mb-6 flex max-w-sm flex-col gap-1.5">
              <label htmlFor="studio-artist" className="text-body font-medium">
                Artist
              </label>
              <select
                id="studio-artist"
                value={artist._id}
                onChange={(event) => setParams({ artist: event.target.value })}
                className="h-11 rounded-control border border-line bg-surface-2 px-3 text-body text-text hover:border-muted/60 focus-visible:outline-2"
              >
                {artists.map((entry) => (
                  <option key={entry._id} value={entry._id}>
                    {entry.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <ArtistSummary artist={artist} onDeleted={() => void navigate('/studio', { replace: true })} />
          <ArtistCatalogue key={artist._id} artist={artist} />
        </>
      )}
    </>
  );
}
