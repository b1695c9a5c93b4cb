import type { ReactNode } from 'react';
import { Pencil } from 'lucide-react';
import { Link } from 'react-router';
import { iconButtonClasses } from '../../../components/ui';
import { formatMoney, pluralize } from '../../../lib/format';
import { CoverArt } from '../../catalog';
import { studioPaths } from '../use-managed-artists';
import { useSongStatus } from '../use-song-status';
import type { Album, Song } from '../studio.types';
import { DeleteAction } from './delete-action';
import { StatusBadge } from './status-badge';

function Row({
  cover,
  title,
  meta,
  status,
  actions,
}: {
  cover: ReactNode;
  title: ReactNode;
  meta: ReactNode;
  status?: ReactNode;
  actions: ReactNode;
}) {
  return (
    <li className="flex items-center gap-3 rounded-card border border-line bg-surface p-2 pr-3 transition-colors hover:bg-surface-2">
      {cover}
      <div className="min-w-0 flex-1">
        <p className="truncate text-body font-semibold">{title}</p>
        <p className="truncate text-meta text-muted tabular-nums">{meta}</p>
      </div>
      {status ? <div className="shrink-0">{status}</div> : null}
      <div className="flex shrink-0 items-center gap-1">{actions}</div>
    </li>
  );
}

function EditLink({ to, label, state }: { to: string; label: string; state?: unknown }) {
  return (
    <Link
      to={to}
      state={state}
      aria-label={label}
      title={label}
      className={iconButtonClasses({ size: 'sm' })}
    >
      <Pencil size={18} strokeWidth={1.75} aria-hidden="true" />
    </Link>
  );
}

const accessLabel = (song: Song) =>
  `${song.freeToStream ? 'Free to stream · ' : ''}${song.accessType === 'subscription' ? 'Subscribers' : 'Purchase only'}`;

function songMeta(song: Song) {
  return [
    song.album?.title ?? 'Single',
    accessLabel(song),
    song.price > 0 ? formatMoney(song.price, song.currency) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A song of the studio list; `live` rows (recent uploads) poll their processing status. */
export function StudioSongRow({ song, live = false }: { song: Song; live?: boolean }) {
  const view = useSongStatus(live ? song._id : null);
  const status = live ? (view.status ?? song.status) : song.status;
  return (
    <Row
      cover={<CoverArt src={song.coverImage} alt={song.title} small iconSize={18} className="size-12" />}
      title={song.title}
      meta={
        status === 'failed' && view.failureReason
          ? `Processing failed: ${view.failureReason}`
          : songMeta(song)
      }
      status={<StatusBadge status={status} />}
      actions={
        <>
          <EditLink
            to={studioPaths.editSong(song._id, song.artist._id)}
            state={{ song }}
            label={`Edit song ${song.title}`}
          />
          <DeleteAction entity="song" id={song._id} name={song.title} compact />
        </>
      }
    />
  );
}

export function StudioAlbumRow({ album }: { album: Album }) {
  return (
    <Row
      cover={
        <CoverArt src={album.cover} alt={album.title} kind="album" small iconSize={18} className="size-12" />
      }
      title={album.title}
      meta={[
        pluralize(album.songCount, 'song'),
        album.price > 0 ? formatMoney(album.price, album.currency) : 'Not sold as an album',
        album.isPremium ? 'Premium' : null,
      ]
        .filter(Boolean)
        .join(' · ')}
      actions={
        <>
          <EditLink to={studioPaths.editAlbum(album._id)} label={`Edit album ${album.title}`} />
          <DeleteAction entity="album" id={album._id} name={album.title} compact />
        </>
      }
    />
  );
}
