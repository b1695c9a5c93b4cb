import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accessTypeEnum, playKindEnum, processingStatusEnum, renditionKindEnum } from './enums';
import { userIdColumn, users } from './users';

export const genres = pgTable(
  'genres',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Lower-case key used in URLs and lookups (`/genre/hip-hop`). */
    slug: text('slug').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('genres_name_key').on(t.name), uniqueIndex('genres_slug_key').on(t.slug)],
);

export const artists = pgTable(
  'artists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    bio: text('bio').notNull().default(''),
    /** Media-store key of the artist image (webp variants share this stem). */
    image: text('image'),
    genreId: uuid('genre_id').references(() => genres.id, { onDelete: 'set null' }),
    /** The artist account that manages this profile (one profile per account); admins manage all. */
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Monthly subscription price in minor units. */
    subscriptionPrice: integer('subscription_price').notNull().default(499),
    /** Subscribers may download the artist's subscription songs (buyers always may download what they bought). */
    allowSubscriberDownloads: boolean('allow_subscriber_downloads').notNull().default(false),
    currency: text('currency').notNull().default('USD'),
    /** Lower-cased, accent-folded name for trigram search. */
    searchText: text('search_text').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('artists_name_idx').on(t.name, t.id),
    index('artists_created_idx').on(t.createdAt, t.id),
    // An artist account is linked to exactly one artist: its dashboard and studio are that artist's.
    uniqueIndex('artists_owner_key')
      .on(t.ownerUserId)
      .where(sql`${t.ownerUserId} is not null`),
    index('artists_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

export const albums = pgTable(
  'albums',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    cover: text('cover'),
    genreId: uuid('genre_id').references(() => genres.id, { onDelete: 'set null' }),
    /** Album price in minor units. */
    price: integer('price').notNull().default(0),
    currency: text('currency').notNull().default('USD'),
    /** Songs on a premium album need the album purchased. */
    isPremium: boolean('is_premium').notNull().default(false),
    releaseDate: timestamp('release_date', { withTimezone: true }).notNull().defaultNow(),
    searchText: text('search_text').notNull().default(''),
    /**
     * Set when its artist deleted the album after it was sold: it left the catalogue, and its buyers keep it with
     * the tracks it held then (`deletedTrackIds`, in track order; the songs themselves left the album).
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedTrackIds: uuid('deleted_track_ids').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('albums_artist_idx').on(t.artistId, t.releaseDate),
    // The catalogue's album pages read ids from the index alone; deleted albums are not in it.
    index('albums_created_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('albums_genre_idx').on(t.genreId),
    index('albums_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

export const songs = pgTable(
  'songs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    artistId: uuid('artist_id')
      .notNull()
      .references(() => artists.id, { onDelete: 'cascade' }),
    albumId: uuid('album_id').references(() => albums.id, { onDelete: 'set null' }),
    trackNumber: integer('track_number'),
    title: text('title').notNull(),
    /** Display credit; defaults to the artist's name. */
    singer: text('singer').notNull(),
    genreId: uuid('genre_id').references(() => genres.id, { onDelete: 'set null' }),
    accessType: accessTypeEnum('access_type').notNull().default('subscription'),
    /**
     * Free to stream: any signed-in listener plays the whole song (guests still hear the preview). Buying it still
     * gives the download and supports the artist; the access type and price stay what the artist set.
     */
    freeToStream: boolean('free_to_stream').notNull().default(false),
    /** Song price in minor units. */
    price: integer('price').notNull().default(0),
    currency: text('currency').notNull().default('USD'),
    durationSec: real('duration_sec').notNull().default(0),
    coverImage: text('cover_image'),
    status: processingStatusEnum('status').notNull().default('processing'),
    failureReason: text('failure_reason'),
    /** Media-store key of the uploaded original (kept until transcoded). */
    sourceKey: text('source_key'),
    /** Media-store prefix holding index.m3u8, enc.key, seg_*.ts and audio.m4a. */
    hlsPrefix: text('hls_prefix'),
    /** Where the preview starts, as the artist picked it (seconds); null for the default. */
    previewStartSec: real('preview_start_sec'),
    /** When its artist deleted it, if it was sold then (status `removed`); unsold songs are deleted outright. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    searchText: text('search_text').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('songs_status_created_idx').on(t.status, t.createdAt, t.id),
    index('songs_artist_idx').on(t.artistId, t.createdAt),
    index('songs_album_idx').on(t.albumId, t.trackNumber),
    index('songs_genre_idx').on(t.genreId, t.createdAt),
    // Home's "free to stream" shelf: the newest free songs.
    index('songs_free_created_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.freeToStream} and ${t.status} = 'ready'`),
    index('songs_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
  ],
);

/** `song_id`, the song a row is about: required, and deleted with the song. */
const songIdColumn = () =>
  uuid('song_id')
    .notNull()
    .references(() => songs.id, { onDelete: 'cascade' });

export const likes = pgTable(
  'likes',
  {
    userId: userIdColumn(),
    songId: songIdColumn(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.songId] }),
    index('likes_user_created_idx').on(t.userId, t.createdAt),
  ],
);

export const playlists = pgTable(
  'playlists',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: userIdColumn(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('playlists_user_idx').on(t.userId, t.createdAt)],
);

export const playlistEntries = pgTable(
  'playlist_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    playlistId: uuid('playlist_id')
      .notNull()
      .references(() => playlists.id, { onDelete: 'cascade' }),
    songId: songIdColumn(),
    position: integer('position').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('playlist_entries_playlist_idx').on(t.playlistId, t.position),
    // A song appears at most once per playlist; the song index serves cascades when a song is deleted.
    uniqueIndex('playlist_entries_song_key').on(t.playlistId, t.songId),
    index('playlist_entries_song_idx').on(t.songId),
  ],
);

/** One row per listen, for dashboards and "recently played". */
export const plays = pgTable(
  'plays',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    songId: songIdColumn(),
    secondsListened: real('seconds_listened').notNull().default(0),
    /** Dashboards count full plays as plays and previews on their own; "recently played" lists full plays only. */
    kind: playKindEnum('kind').notNull().default('full'),
    playedAt: timestamp('played_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('plays_song_idx').on(t.songId, t.playedAt), index('plays_user_idx').on(t.userId, t.playedAt)],
);

/**
 * Files made from one HLS version of a song (`hls_prefix`): its preview, and its download formats. A row whose
 * `hls_prefix` is no longer the song's belongs to a replaced upload and is ignored (then removed with its files).
 */
export const songRenditions = pgTable(
  'song_renditions',
  {
    songId: songIdColumn(),
    kind: renditionKindEnum('kind').notNull(),
    /** The song's HLS version this was made for. */
    hlsPrefix: text('hls_prefix').notNull(),
    /** Media-store key: the preview's folder (an HLS version of its own), or the download file. */
    mediaKey: text('media_key').notNull(),
    /** The window of the song it covers (the whole song for downloads). */
    startSec: real('start_sec').notNull().default(0),
    durationSec: real('duration_sec').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.songId, t.kind] })],
);

/**
 * Audio served to a listener, per song: the last time its AES key or fallback file went out through one of their
 * stream tokens, and the last time a full play of it was counted. A play counts only for audio fetched since the
 * last counted play, and at most once per song length (see StreamingService.recordPlay).
 */
export const audioFetches = pgTable(
  'audio_fetches',
  {
    userId: userIdColumn(),
    songId: songIdColumn(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
    countedAt: timestamp('counted_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.songId] })],
);

/** The genres a listener picked in preferences; here beside `genres` so that users.ts needs no catalogue import. */
export const userPreferredGenres = pgTable(
  'user_preferred_genres',
  {
    userId: userIdColumn(),
    genreId: uuid('genre_id')
      .notNull()
      .references(() => genres.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.genreId] }),
    index('user_preferred_genres_genre_idx').on(t.genreId),
  ],
);
