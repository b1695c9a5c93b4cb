import { clockText, minorToPrice } from './studio.validation';
import type {
  Album,
  AlbumFormValues,
  Artist,
  ArtistFormValues,
  FormMode,
  Song,
  SongFormValues,
} from './studio.types';

/** Form values from an existing entity (edit) or empty ones (create), and the multipart bodies they become. */

export function songFormValues(song: Song | null, artistId = ''): SongFormValues {
  return {
    title: song?.title ?? '',
    singer: song?.singer ?? '',
    genre: song?.genre ?? '',
    accessType: song?.accessType ?? 'subscription',
    freeToStream: song?.freeToStream ?? false,
    price: song ? minorToPrice(song.price) : '0.00',
    album: song?.album?._id ?? '',
    artist: song?.artist._id ?? artistId,
    previewStart: song?.previewStartSec != null ? clockText(song.previewStartSec) : '',
    audio: null,
    coverImage: null,
  };
}

/** SPEC section 3: the songs list starts with one empty entry. */
export function albumFormValues(album: Album | null, songIds: string[] = [], artistId = ''): AlbumFormValues {
  return {
    title: album?.title ?? '',
    description: album?.description ?? '',
    artist: album?.artist._id ?? artistId,
    genre: album?.genre ?? '',
    songs: songIds.length > 0 ? [...songIds] : [''],
    price: album ? minorToPrice(album.price) : '0.00',
    isPremium: album?.isPremium ?? false,
    cover: null,
  };
}

export function artistFormValues(artist: Artist | null): ArtistFormValues {
  return {
    name: artist?.name ?? '',
    bio: artist?.bio ?? '',
    genre: artist?.genres[0] ?? '',
    subscriptionPrice: artist ? minorToPrice(artist.subscriptionPrice) : '0.00',
    ownerId: artist?.ownerId ?? '',
    allowSubscriberDownloads: artist?.allowSubscriberDownloads ?? false,
    image: null,
  };
}

const price = (value: string) => value.trim() || '0';

/**
 * Text fields first, files last: the progress bars split the request's bytes over the files in that order
 * (upload-request.ts). A file input left empty is simply not sent.
 */
function appendFiles(form: FormData, files: Record<string, File | null>) {
  for (const [field, file] of Object.entries(files)) {
    if (file) form.append(field, file, file.name);
  }
}

export function buildSongForm(values: SongFormValues): FormData {
  const form = new FormData();
  form.append('title', values.title.trim());
  form.append('singer', values.singer.trim());
  form.append('genre', values.genre.trim());
  form.append('accessType', values.accessType);
  form.append('freeToStream', String(values.freeToStream));
  form.append('price', price(values.price));
  form.append('album', values.album);
  // An artist account may leave the artist out: its own profile is used.
  if (values.artist) form.append('artist', values.artist);
  form.append('previewStart', values.previewStart.trim());
  appendFiles(form, { audio: values.audio, coverImage: values.coverImage });
  return form;
}

/**
 * `tracksBefore` (edit): the track list the form opened with. The list is only sent when it changed, so an edit
 * of the title cannot drop tracks the form does not show (songs still processing are not listed).
 */
export function buildAlbumForm(
  values: AlbumFormValues,
  mode: FormMode,
  tracksBefore: string[] = [],
): FormData {
  const form = new FormData();
  form.append('title', values.title.trim());
  form.append('description', values.description.trim());
  // The artist is fixed once the album exists (the server refuses a move).
  if (mode === 'create' && values.artist) form.append('artist', values.artist);
  form.append('genre', values.genre.trim());
  const tracks = values.songs.filter(Boolean);
  const changed =
    tracks.length !== tracksBefore.length || tracks.some((id, index) => id !== tracksBefore[index]);
  // One JSON list, so an edit that removes every track still says so (repeated fields could not send "none").
  if (mode === 'create' || changed) form.append('songs', JSON.stringify(tracks));
  form.append('price', price(values.price));
  form.append('isPremium', String(values.isPremium));
  appendFiles(form, { cover: values.cover });
  return form;
}

export function buildArtistForm(values: ArtistFormValues, options: { includeOwner: boolean }): FormData {
  const form = new FormData();
  form.append('name', values.name.trim());
  form.append('bio', values.bio.trim());
  form.append('genre', values.genre.trim());
  form.append('subscriptionPrice', price(values.subscriptionPrice));
  if (options.includeOwner) form.append('ownerId', values.ownerId.trim());
  form.append('allowSubscriberDownloads', String(values.allowSubscriberDownloads));
  appendFiles(form, { image: values.image });
  return form;
}
