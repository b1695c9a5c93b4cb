import type { ReactNode } from 'react';
import { Archive, Music } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { CoverHeaderSkeleton, EmptyState, NotFoundState, QueryErrorState, Section } from '../components/ui';
import { SongLockActionContext } from '../components/song-lock-action';
import { isMissingResource } from '../lib/api-query';
import { useSongLikes } from '../features/auth';
import {
  CoverArt,
  SongList,
  SongListSkeleton,
  useGetAlbumQuery,
  useGetAlbumSongsQuery,
} from '../features/catalog';
import { AlbumPurchaseButton, AlbumTrackLock } from '../features/commerce';
import { PlayAllButtons } from '../features/player';
import { DownloadMenu } from '../features/downloads';
import { formatDuration } from '../lib/format';

/** One fact after the artist's name, with its separator dot: the row's gap spaces both sides evenly. */
function MetaItem({ children }: { children: ReactNode }) {
  return (
    <>
      <span aria-hidden="true">·</span>
      <span>{children}</span>
    </>
  );
}

export default function AlbumPage() {
  const { albumId = '' } = useParams();
  const album = useGetAlbumQuery(albumId);
  const songs = useGetAlbumSongsQuery(albumId);
  const { likedIds, toggleLike } = useSongLikes();
  const data = album.data;
  const totalSeconds = songs.data?.reduce((sum, song) => sum + (song.duration || 0), 0) ?? 0;
  const year = data?.releaseDate ? new Date(data.releaseDate).getFullYear() : null;

  if (album.isError && isMissingResource(album.error)) {
    // One clear answer: the track list's own 404 would only say it again.
    return (
      <>
        <title>Album not found · Backbeat</title>
        <NotFoundState
          title="Album not found"
          description="This album does not exist, or it was taken down. Find something else to play."
        />
      </>
    );
  }

  return (
    <>
      <title>{`${data?.title ?? 'Album'} · Backbeat`}</title>
      {album.isLoading ? (
        <CoverHeaderSkeleton />
      ) : album.isError || !data ? (
        <div className="mb-10">
          <QueryErrorState query={album} fallback="Failed to fetch album" title="Album unavailable" />
        </div>
      ) : (
        <header className="mb-10 flex flex-col gap-6 md:flex-row md:items-end">
          <CoverArt
            src={data.cover}
            alt={`${data.title} cover`}
            kind="album"
            eager
            iconSize={56}
            className="size-48 shadow-2xl shadow-black/50 md:size-56"
          />
          <div className="min-w-0">
            <p className="text-meta font-semibold uppercase tracking-wider text-accent">
              {data.isPremium ? 'Premium album' : 'Album'}
            </p>
            <h1 className="mt-1 break-words text-h2 font-bold tracking-tight md:text-h1">{data.title}</h1>
            <p className="mt-2 flex flex-wrap items-center gap-x-2 text-body text-muted tabular-nums">
              {data.artist?._id ? (
                <Link
                  to={`/artist/${encodeURIComponent(data.artist._id)}`}
                  className="font-semibold text-text hover:underline"
                >
                  {data.artist.name}
                </Link>
              ) : null}
              {year && !Number.isNaN(year) ? <MetaItem>{year}</MetaItem> : null}
              {data.genre ? <MetaItem>{data.genre}</MetaItem> : null}
              {songs.data ? (
                <MetaItem>
                  {songs.data.length} {songs.data.length === 1 ? 'song' : 'songs'},{' '}
                  {formatDuration(totalSeconds)}
                </MetaItem>
              ) : null}
            </p>
            <div className="mt-6 flex flex-wrap items-center gap-x-3 gap-y-3">
              <PlayAllButtons
                songs={songs.data ?? []}
                context={{ type: 'album', id: albumId }}
                what="album"
              />
              {data.removed ? null : <AlbumPurchaseButton album={data} />}
            </div>
            {data.removed ? (
              <p className="mt-4 flex max-w-2xl items-start gap-2 text-body text-muted">
                <Archive size={18} strokeWidth={1.75} aria-hidden="true" className="mt-0.5 shrink-0" />
                Its artist removed this album from the catalogue. It stays yours, with the songs it held then:
                they play and download as before.
              </p>
            ) : null}
            {songs.data?.length && songs.data.every((song) => song.canDownload) ? (
              <div className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-2">
                <DownloadMenu itemType="album" id={albumId} title={data.title} />
                <span className="text-meta text-muted">Yours to keep: every song, tagged, in one ZIP.</span>
              </div>
            ) : null}
            {data.description ? (
              <p className="mt-4 max-w-2xl text-body text-muted">{data.description}</p>
            ) : null}
          </div>
        </header>
      )}

      <Section title="Songs" headingId="album-songs">
        {songs.isLoading ? (
          <SongListSkeleton count={8} />
        ) : songs.isError ? (
          <QueryErrorState query={songs} fallback="Something went wrong" />
        ) : !songs.data || songs.data.length === 0 ? (
          <EmptyState icon={<Music size={22} strokeWidth={1.75} />} title="This album has no songs yet" />
        ) : (
          // A premium album is bought once, from the header: its rows say "Album only" instead of repeating it.
          <SongLockActionContext value={AlbumTrackLock}>
            <SongList
              songs={songs.data}
              likedIds={likedIds}
              onToggleLike={toggleLike}
              numbered
              showAlbum={false}
              label={`Songs on ${data?.title ?? 'this album'}`}
              playContext={{ type: 'album', id: albumId }}
            />
          </SongLockActionContext>
        )}
      </Section>
    </>
  );
}
