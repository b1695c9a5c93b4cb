import type { Album, Artist, Genre, Song } from '@backbeat/contract';
import { mediaUrl } from '../../platform/media-url';
import { songFacts, type SongDownloadFacts } from '../access';
import type { AlbumRow } from './album.repository';
import type { ArtistRow } from './artist.repository';
import type { GenreRow } from './genre.repository';
import type { SongRow } from './song.repository';

export function presentSong(row: SongRow, canPlay: boolean, canDownload = false): Song {
  return {
    _id: row.id,
    title: row.title,
    singer: row.singer,
    // A song without its own cover shows its album's.
    coverImage: mediaUrl(row.coverImage ?? row.albumCover),
    // Audio is only reachable through signed stream URLs (GET /api/stream/song/:id).
    audioUrl: null,
    duration: Math.round(row.durationSec * 100) / 100,
    accessType: row.accessType,
    freeToStream: row.freeToStream,
    price: row.price,
    currency: row.currency,
    genre: row.genreName,
    artist: { _id: row.artistId, name: row.artistName },
    album:
      row.albumId && row.albumTitle !== null
        ? { _id: row.albumId, title: row.albumTitle, isPremium: row.albumIsPremium ?? false }
        : null,
    // A removed song is shown only to those who hold it, for whom it is ready to play.
    status: row.status === 'removed' ? 'ready' : row.status,
    canPlay,
    previewStartSec: row.previewStartSec,
    canDownload,
    ...(row.status === 'removed' && { removed: true }),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The facts the access and download policies decide on, taken from a list row. */
export function songAccessFacts(row: SongRow): SongDownloadFacts {
  return {
    ...songFacts({ ...row, removedAt: row.deletedAt }),
    artistAllowsSubscriberDownloads: row.artistAllowsSubscriberDownloads ?? false,
  };
}

export function presentArtist(row: ArtistRow): Artist {
  return {
    _id: row.id,
    name: row.name,
    bio: row.bio,
    image: mediaUrl(row.image),
    genres: row.genreName ? [row.genreName] : [],
    subscriptionPrice: row.subscriptionPrice,
    currency: row.currency,
    ownerId: row.ownerUserId,
    songCount: row.songCount,
    albumCount: row.albumCount,
    allowSubscriberDownloads: row.allowSubscriberDownloads,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentAlbum(row: AlbumRow): Album {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    cover: mediaUrl(row.cover),
    genre: row.genreName,
    price: row.price,
    currency: row.currency,
    isPremium: row.isPremium,
    artist: { _id: row.artistId, name: row.artistName },
    songCount: row.songCount,
    releaseDate: row.releaseDate.toISOString(),
    ...(row.deletedAt && { removed: true }),
    createdAt: row.createdAt.toISOString(),
  };
}

export const presentGenre = (row: GenreRow): Genre => ({ _id: row.id, name: row.name, slug: row.slug });
