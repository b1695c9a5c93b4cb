import type { AccessType, Album, Artist, Song } from '@backbeat/contract';

export type { AccessType, Album, Artist, Song };

/** What the song form holds (SPEC section 3); prices are decimal strings in major units, like the server's. */
export interface SongFormValues {
  title: string;
  singer: string;
  genre: string;
  accessType: AccessType;
  /** Any signed-in listener plays it in full; buying it still gives the download. */
  freeToStream: boolean;
  price: string;
  /** Album id of the same artist, or '' for none. */
  album: string;
  /** Artist id ('' lets an artist account use its own profile). */
  artist: string;
  /** Where the 30-second preview starts: seconds or m:ss, '' for the default (0:30). */
  previewStart: string;
  audio: File | null;
  coverImage: File | null;
}

/** The album form of SPEC section 3: title, description, artist, cover, genre, songs, price. */
export interface AlbumFormValues {
  title: string;
  description: string;
  artist: string;
  genre: string;
  /** Song ids in track order; '' is an entry not chosen yet (the form starts with one). */
  songs: string[];
  price: string;
  isPremium: boolean;
  cover: File | null;
}

export interface ArtistFormValues {
  name: string;
  bio: string;
  genre: string;
  subscriptionPrice: string;
  /** Admin only: the artist account that manages the profile, or ''. */
  ownerId: string;
  /** Subscribers may download the artist's subscription songs. */
  allowSubscriberDownloads: boolean;
  image: File | null;
}

export type FormMode = 'create' | 'edit';

/** Inline errors by field name; the `form` key holds an error that belongs to no single field. */
export type FieldErrors<Field extends string> = Partial<Record<Field | 'form', string>>;

export type SongField = keyof SongFormValues;
export type AlbumField = keyof AlbumFormValues;
export type ArtistField = keyof ArtistFormValues;
