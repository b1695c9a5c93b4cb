import { MAX_PRICE_MINOR } from '@backbeat/contract/constants';
import type {
  AlbumField,
  AlbumFormValues,
  ArtistField,
  ArtistFormValues,
  FieldErrors,
  FormMode,
  SongField,
  SongFormValues,
} from './studio.types';

/**
 * Client checks that mirror the server's (packages/contract catalog.ts and the upload limits in app.ts), so most
 * mistakes are caught before a 200 MB upload starts. The server stays the judge; its answers map back to fields
 * with `serverFieldErrors`.
 */

export const UPLOAD_LIMITS = { audioBytes: 200 * 1024 * 1024, imageBytes: 10 * 1024 * 1024 };

export const AUDIO_ACCEPT = 'audio/*,.mp3,.m4a,.aac,.wav,.flac,.ogg,.oga,.opus,.aif,.aiff,.webm';
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/avif';
/** What the image inputs accept, in words. */
export const IMAGE_HINT = 'JPEG, PNG, WebP, GIF or AVIF, up to 10 MB.';

const AUDIO_EXTENSIONS = /\.(mp3|m4a|mp4|aac|wav|flac|ogg|oga|opus|aif|aiff|webm)$/i;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);
const IMAGE_EXTENSIONS = /\.(jpe?g|png|webp|gif|avif)$/i;
const PRICE_PATTERN = /^\d{1,4}(\.\d{1,2})?$/;

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** `text` required and at most `max` characters (after trimming, as the server counts). */
function checkText(label: string, value: string, max: number, required: boolean): string | undefined {
  const text = value.trim();
  if (!text) return required ? `${label} is required` : undefined;
  if (text.length > max) return `${label} must be at most ${max} characters`;
  return undefined;
}

/** A decimal amount in major units: '' means 0; at most two decimals; 0 to 1000.00. */
export function checkPrice(label: string, value: string): string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  if (!PRICE_PATTERN.test(text)) return `${label} must be an amount such as 1.99 (at most two decimals)`;
  if (priceToMinor(text) > MAX_PRICE_MINOR) return `${label} must be at most 1000.00`;
  return undefined;
}

export function priceToMinor(text: string): number {
  const [whole = '0', fraction = ''] = text.trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Minor units as the form's decimal string ("1.99"). */
export function minorToPrice(minor: number): string {
  return (minor / 100).toFixed(2);
}

const PREVIEW_START_PATTERN = /^\d{1,5}(\.\d{1,2})?$|^\d{1,3}:[0-5]\d(\.\d{1,2})?$/;

/** Seconds as the form shows them: "1:05", "0:30", "1:05.5" (the server keeps hundredths). */
export function clockText(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round((seconds - minutes * 60) * 100) / 100;
  const [whole = '0', fraction] = String(rest).split('.');
  return `${minutes}:${whole.padStart(2, '0')}${fraction ? `.${fraction}` : ''}`;
}

/** The preview start: '' (the default), seconds ("45") or minutes:seconds ("1:05"), inside the song when known. */
export function checkPreviewStart(value: string, durationSec: number | null): string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  if (!PREVIEW_START_PATTERN.test(text)) return 'Preview start must be a time such as 45 or 1:05';
  const [minutes, seconds] = text.includes(':') ? text.split(':') : ['0', text];
  const start = Number(minutes) * 60 + Number(seconds);
  if (durationSec && durationSec > 0 && start >= durationSec) {
    return `Preview start must be within the song (before ${clockText(Math.floor(durationSec))})`;
  }
  return undefined;
}

function checkGenre(value: string): string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  if (text.length > 50) return 'Genre must be at most 50 characters';
  if (!/[\p{L}\p{N}]/u.test(text)) return 'Genre must contain letters or digits';
  return undefined;
}

export function checkAudioFile(file: File | null, required: boolean): string | undefined {
  if (!file) return required ? 'Choose an audio file' : undefined;
  if (file.size === 0) return 'The audio file is empty';
  if (file.size > UPLOAD_LIMITS.audioBytes) {
    return `The audio file must be at most ${megabytes(UPLOAD_LIMITS.audioBytes)} MB`;
  }
  const looksLikeAudio =
    file.type.startsWith('audio/') ||
    file.type === 'video/webm' ||
    file.type === 'application/ogg' ||
    AUDIO_EXTENSIONS.test(file.name);
  if (!looksLikeAudio) return 'Choose an audio file (MP3, AAC, M4A, WAV, FLAC, OGG, AIFF or WebM)';
  return undefined;
}

export function checkImageFile(label: string, file: File | null): string | undefined {
  if (!file) return undefined;
  if (file.size === 0) return `The ${label.toLowerCase()} file is empty`;
  if (file.size > UPLOAD_LIMITS.imageBytes) {
    return `The ${label.toLowerCase()} must be at most ${megabytes(UPLOAD_LIMITS.imageBytes)} MB`;
  }
  const looksLikeImage = file.type ? IMAGE_TYPES.has(file.type) : IMAGE_EXTENSIONS.test(file.name);
  if (!looksLikeImage) return `The ${label.toLowerCase()} must be a JPEG, PNG, WebP, GIF or AVIF image`;
  return undefined;
}

/** Drops undefined entries so `Object.keys(errors).length` says whether the form may be sent. */
function compact<Field extends string>(errors: FieldErrors<Field>): FieldErrors<Field> {
  return Object.fromEntries(
    Object.entries(errors).filter(([, message]) => message !== undefined),
  ) as FieldErrors<Field>;
}

export const hasErrors = (errors: object) => Object.keys(errors).length > 0;

/** `durationSec`: the song's length when editing a ready song whose audio stays (null otherwise). */
export function validateSongForm(
  values: SongFormValues,
  mode: FormMode,
  durationSec: number | null = null,
): FieldErrors<SongField> {
  return compact<SongField>({
    title: checkText('Title', values.title, 200, true),
    previewStart: checkPreviewStart(values.previewStart, values.audio ? null : durationSec),
    singer: checkText('Singer', values.singer, 200, false),
    genre: checkGenre(values.genre),
    price: checkPrice('Price', values.price),
    audio: checkAudioFile(values.audio, mode === 'create'),
    coverImage: checkImageFile('Cover', values.coverImage),
  });
}

export function validateAlbumForm(values: AlbumFormValues): FieldErrors<AlbumField> {
  const chosen = values.songs.filter(Boolean);
  return compact<AlbumField>({
    title: checkText('Title', values.title, 200, true),
    description: checkText('Description', values.description, 5000, false),
    genre: checkGenre(values.genre),
    price: checkPrice('Price', values.price),
    songs:
      new Set(chosen).size !== chosen.length
        ? 'A song is listed twice'
        : chosen.length > 500
          ? 'An album lists at most 500 songs'
          : undefined,
    cover: checkImageFile('Cover', values.cover),
  });
}

export function validateArtistForm(values: ArtistFormValues): FieldErrors<ArtistField> {
  return compact<ArtistField>({
    name: checkText('Name', values.name, 200, true),
    bio: checkText('Bio', values.bio, 5000, false),
    genre: checkGenre(values.genre),
    subscriptionPrice: checkPrice('Subscription price', values.subscriptionPrice),
    image: checkImageFile('Image', values.image),
  });
}

/**
 * The server names the field first (`"price: must be an amount..."`, `"audio: the file is not audio"`). Such a
 * message becomes that field's inline error, read naturally ("Price must be..."); any other message is the
 * form's. `labels` maps the server's field names to the form's (e.g. `songs.0` -> `songs`).
 */
export function serverFieldErrors<Field extends string>(
  message: string,
  labels: Record<Field, string>,
  aliases: Partial<Record<string, Field>> = {},
): FieldErrors<Field> {
  const match = /^([\w.[\]]+): (.+)$/s.exec(message.trim());
  if (match?.[1] && match[2]) {
    const serverField = match[1].split(/[.[]/)[0] ?? '';
    const field = (aliases[serverField] ?? serverField) as Field;
    const label = labels[field];
    if (label !== undefined) {
      const text = match[2];
      const readable = /^(is|must|may|can)\b/.test(text)
        ? `${label} ${text}`
        : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
      return { [field]: readable } as FieldErrors<Field>;
    }
  }
  return { form: message } as FieldErrors<Field>;
}

export const SONG_FIELD_LABELS: Record<SongField, string> = {
  title: 'Title',
  singer: 'Singer',
  genre: 'Genre',
  accessType: 'Access',
  freeToStream: 'Free to stream',
  price: 'Price',
  album: 'Album',
  artist: 'Artist',
  previewStart: 'Preview start',
  audio: 'Audio file',
  coverImage: 'Cover',
};

export const ALBUM_FIELD_LABELS: Record<AlbumField, string> = {
  title: 'Title',
  description: 'Description',
  artist: 'Artist',
  genre: 'Genre',
  songs: 'Songs',
  price: 'Price',
  isPremium: 'Premium',
  cover: 'Cover',
};

export const ARTIST_FIELD_LABELS: Record<ArtistField, string> = {
  name: 'Name',
  bio: 'Bio',
  genre: 'Genre',
  subscriptionPrice: 'Subscription price',
  ownerId: 'Managing account',
  allowSubscriberDownloads: 'Subscriber downloads',
  image: 'Image',
};
