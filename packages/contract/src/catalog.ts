import { z } from 'zod';
import { Id, Pagination, PageQuery10, PageQuery20, pageQuery } from './common';
import { MAX_PRICE_MINOR } from './constants/catalog';

/** The highest price lives in ./constants (zod-free, for the web) and is exported here as before. */
export { MAX_PRICE_MINOR } from './constants/catalog';

export const AccessType = z.enum(['subscription', 'purchase-only']);
export type AccessType = z.infer<typeof AccessType>;

export const ProcessingStatus = z.enum(['processing', 'ready', 'failed']);
export type ProcessingStatus = z.infer<typeof ProcessingStatus>;

export const Genre = z.object({ _id: z.string(), name: z.string(), slug: z.string() });
export type Genre = z.infer<typeof Genre>;
export const GenresResponse = z.object({ genres: z.array(Genre) });
export type GenresResponse = z.infer<typeof GenresResponse>;

/** Prices are integer minor units plus an ISO currency. */
export const Money = z.object({ amount: z.number().int(), currency: z.string() });

/**
 * A song as every list shows it. Image fields are URLs under `/api/media/` (immutable WebP files).
 * `audioUrl` is always null: audio is never served as a public file; players ask `/api/stream/song/:id` for a
 * signed, expiring HLS address. `price` is in minor units (cents). `canPlay` is the access policy's answer for
 * the viewer who asked (always false for guests).
 */
export const Song = z.object({
  _id: z.string(),
  title: z.string(),
  singer: z.string(),
  coverImage: z.string().nullable(),
  audioUrl: z.string().nullable(),
  duration: z.number(),
  accessType: AccessType,
  /**
   * Free to stream: any signed-in listener plays the whole song (`canPlay`), whatever its access type; guests hear
   * the preview. Buying it (its price, when it has one) still gives the download and supports the artist.
   */
  freeToStream: z.boolean(),
  price: z.number().int(),
  currency: z.string(),
  genre: z.string().nullable(),
  artist: z.object({ _id: z.string(), name: z.string() }),
  album: z.object({ _id: z.string(), title: z.string(), isPremium: z.boolean() }).nullable(),
  status: ProcessingStatus,
  canPlay: z.boolean(),
  /**
   * Where the song's 30-second preview starts, in seconds, as the artist picked it; null for the default
   * (PREVIEW_DEFAULT_START_SEC). Songs shorter than the window clamp it (see `previewWindow`).
   */
  previewStartSec: z.number().nullable(),
  /** Whether the viewer may download the song (bought, or a subscriber where the artist allows downloads). */
  canDownload: z.boolean(),
  /**
   * True for a song its artist deleted after it was sold: it left the catalogue and is shown only to those who
   * hold it (its buyers, and subscribers until the end of the period they had paid for then).
   */
  removed: z.boolean().optional(),
  createdAt: z.string(),
});
export type Song = z.infer<typeof Song>;

export const SongsQuery = PageQuery10;
export const SongsResponse = z.object({
  songs: z.array(Song),
  totalPages: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
});
export type SongsResponse = z.infer<typeof SongsResponse>;

export const PagedSongsQuery = PageQuery20;
/** Liked, artist and genre lists: songs, total, page, pages. */
export const PagedSongsResponse = z.object({
  songs: z.array(Song),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});
export type PagedSongsResponse = z.infer<typeof PagedSongsResponse>;

export const Artist = z.object({
  _id: z.string(),
  name: z.string(),
  bio: z.string(),
  image: z.string().nullable(),
  genres: z.array(z.string()),
  /** Monthly subscription price in minor units. */
  subscriptionPrice: z.number().int(),
  currency: z.string(),
  ownerId: z.string().nullable(),
  songCount: z.number().int(),
  albumCount: z.number().int(),
  /** Subscribers may download the artist's subscription songs (buyers always may download what they bought). */
  allowSubscriberDownloads: z.boolean(),
  createdAt: z.string(),
});
export type Artist = z.infer<typeof Artist>;

export const Album = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  cover: z.string().nullable(),
  genre: z.string().nullable(),
  /** Minor units (cents). */
  price: z.number().int(),
  currency: z.string(),
  isPremium: z.boolean(),
  artist: z.object({ _id: z.string(), name: z.string() }),
  songCount: z.number().int(),
  releaseDate: z.string(),
  /** True for an album its artist deleted after it was sold: out of the catalogue, kept by its buyers. */
  removed: z.boolean().optional(),
  createdAt: z.string(),
});
export type Album = z.infer<typeof Album>;

// ---------------------------------------------------------------------------------------------------------------
// Read calls (SPEC section 7). Page sizes per SPEC section 9.

export const IdParams = z.object({ id: Id });
export type IdParams = z.infer<typeof IdParams>;
export const GenreParams = z.object({
  genre: z.string().trim().min(1, 'is required').max(100, 'is too long'),
});

export const MatchingGenreSongsResponse = PagedSongsResponse.extend({ matchingGenres: z.array(z.string()) });
export type MatchingGenreSongsResponse = z.infer<typeof MatchingGenreSongsResponse>;

/** GET /songs/album/:id answers a plain list in track order. */
export const AlbumSongsResponse = z.array(Song);
export type AlbumSongsResponse = z.infer<typeof AlbumSongsResponse>;

export const ArtistSongsResponse = PagedSongsResponse.extend({ artist: Artist });
export type ArtistSongsResponse = z.infer<typeof ArtistSongsResponse>;

export const SongStatusResponse = z.object({
  status: ProcessingStatus,
  failureReason: z.string().nullable(),
});
export type SongStatusResponse = z.infer<typeof SongStatusResponse>;

export const searchTerm = z.string().trim().max(200, 'must be at most 200 characters');

/** GET /artists: paged list, or with `q` a search answered as `{ results, page, total, pages }`. */
export const ArtistsQuery = pageQuery(10).extend({ q: searchTerm.optional() });
export type ArtistsQuery = z.infer<typeof ArtistsQuery>;
export const ArtistsResponse = z.object({ artists: z.array(Artist), pagination: Pagination });
export type ArtistsResponse = z.infer<typeof ArtistsResponse>;
export const ArtistSearchResponse = z.object({
  results: z.array(Artist),
  page: z.number().int(),
  total: z.number().int(),
  pages: z.number().int(),
});
export type ArtistSearchResponse = z.infer<typeof ArtistSearchResponse>;
export const AllArtistsResponse = z.object({ artists: z.array(Artist) });
export type AllArtistsResponse = z.infer<typeof AllArtistsResponse>;
export const ArtistResponse = z.object({ artist: Artist });
export type ArtistResponse = z.infer<typeof ArtistResponse>;

/** `artist` is null only when no artist has a playable song yet. */
export const RandomArtistResponse = z.object({
  artist: Artist.nullable(),
  songs: z.array(Song),
  pagination: Pagination,
});
export type RandomArtistResponse = z.infer<typeof RandomArtistResponse>;

export const AlbumsQuery = PageQuery10;
export const AlbumsResponse = z.object({ albums: z.array(Album), pagination: Pagination });
export type AlbumsResponse = z.infer<typeof AlbumsResponse>;
export const ArtistAlbumsResponse = AlbumsResponse.extend({ artist: Artist });
export type ArtistAlbumsResponse = z.infer<typeof ArtistAlbumsResponse>;
export const AlbumResponse = z.object({ album: Album });
export type AlbumResponse = z.infer<typeof AlbumResponse>;

/**
 * An empty `q` answers empty lists; each list holds at most 20 entries, best match first. Genres are results too:
 * a term that names a genre ("jazz", or a typo of it) lists that genre, and its songs and albums follow the songs
 * and albums that match by title or artist.
 */
export const SearchQuery = z.object({ q: searchTerm.default('') });
export type SearchQuery = z.infer<typeof SearchQuery>;
export const SearchResponse = z.object({
  artists: z.array(Artist),
  songs: z.array(Song),
  albums: z.array(Album),
  genres: z.array(Genre),
});
export type SearchResponse = z.infer<typeof SearchResponse>;
/** Name the web client uses for the search answer. */
export type SearchResults = SearchResponse;

/**
 * GET /home: the signed-in listener's home shelves in one call, each best first. No song is on two shelves: a song
 * goes to the first shelf that wants it, in this order. `matchingGenres` names the listener's preferred genres.
 */
export const HomeResponse = z.object({
  /** Songs the listener played in full lately, most recent first ("Jump back in"). */
  recentlyPlayed: z.array(Song),
  /** Songs free to stream, those in the listener's genres first. */
  freeToStream: z.array(Song),
  /** The most played songs of the last 7 days (full plays). */
  popularThisWeek: z.array(Song),
  /** Newest songs in the listener's preferred genres. */
  forYourGenres: z.array(Song),
  newAlbums: z.array(Album),
  /** Artists the listener subscribes to or bought from. */
  yourArtists: z.array(Artist),
  matchingGenres: z.array(z.string()),
});
export type HomeResponse = z.infer<typeof HomeResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Write calls: multipart/form-data (a JSON body is also accepted when no file is sent).

/**
 * Prices in forms are decimal strings in major units, e.g. "1.99" = 199 minor units; at most two decimals,
 * from 0 to 1000.00. Responses always carry integer minor units.
 */
export const PriceField = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .regex(/^\d{1,4}(\.\d{1,2})?$/, 'must be an amount such as 1.99 (at most two decimals)')
      .transform((text) => {
        const [whole, fraction = ''] = text.split('.');
        return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
      })
      .refine((minor) => minor <= MAX_PRICE_MINOR, 'must be at most 1000.00'),
  );

const booleanField = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on', 'off'], { error: 'must be true or false' })])
  .transform((value) => value === true || value === 'true' || value === '1' || value === 'on');
const text = (max: number) =>
  z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);
const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
/** An optional reference: an empty form value means "none". */
const optionalId = z
  .string()
  .trim()
  .transform((value) => value || null)
  .pipe(Id.nullable());
const genreName = z.string().trim().max(50, 'must be at most 50 characters');

export const MAX_PREVIEW_START_SEC = 24 * 60 * 60;
/**
 * Preview start in a form: seconds as a decimal ("45", "45.5") or minutes and seconds ("1:05"); empty means the
 * default. The song's own length is checked by the server (the start must fall inside the song).
 */
export const PreviewStartField = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .regex(
        /^$|^\d{1,5}(\.\d{1,2})?$|^\d{1,3}:[0-5]\d(\.\d{1,2})?$/,
        'must be a time such as 45 or 1:05 (seconds, or minutes:seconds)',
      )
      .transform((text) => {
        if (text === '') return null;
        const [minutes, seconds] = text.includes(':') ? text.split(':') : ['0', text];
        return Math.round((Number(minutes) * 60 + Number(seconds)) * 100) / 100;
      })
      .refine((seconds) => seconds === null || seconds <= MAX_PREVIEW_START_SEC, {
        message: 'must be at most 24 hours into the song',
      }),
  );

/** Song form fields; files: `audio` (required on create, at most 200 MB), `coverImage` (at most 10 MB). */
export const CreateSongBody = z.object({
  title: text(200),
  /** Display credit; defaults to the artist's name. */
  singer: optionalText(200).optional(),
  genre: genreName.optional(),
  accessType: AccessType.default('subscription'),
  /** Let any signed-in listener stream the whole song (off by default); buying it still gives the download. */
  freeToStream: booleanField.default(false),
  price: PriceField.default(0),
  /** Album id of the same artist, or empty. */
  album: optionalId.optional(),
  /** Artist id; may be omitted by an artist account (its own profile is used). */
  artist: optionalId.optional(),
  /** Where the 30-second preview starts; empty for the default (30 s in). */
  previewStart: PreviewStartField.optional(),
});
export type CreateSongBody = z.infer<typeof CreateSongBody>;
export const UpdateSongBody = CreateSongBody.partial().extend({
  accessType: AccessType.optional(),
  freeToStream: booleanField.optional(),
  price: PriceField.optional(),
});
export type UpdateSongBody = z.infer<typeof UpdateSongBody>;
export const SongMutationResponse = z.object({ message: z.string(), song: Song });
export type SongMutationResponse = z.infer<typeof SongMutationResponse>;

/** Artist form fields; file: `image` (at most 10 MB). */
export const CreateArtistBody = z.object({
  name: text(200),
  bio: optionalText(5000).optional(),
  genre: genreName.optional(),
  /** Monthly price, decimal major units like `price`. */
  subscriptionPrice: PriceField.optional(),
  /** Admin only: the artist account that manages this profile. */
  ownerId: optionalId.optional(),
  /** Let subscribers download the artist's subscription songs (off by default). */
  allowSubscriberDownloads: booleanField.optional(),
});
export type CreateArtistBody = z.infer<typeof CreateArtistBody>;
export const UpdateArtistBody = CreateArtistBody.partial();
export type UpdateArtistBody = z.infer<typeof UpdateArtistBody>;
export const ArtistMutationResponse = z.object({ message: z.string(), artist: Artist });
export type ArtistMutationResponse = z.infer<typeof ArtistMutationResponse>;

/**
 * Album form fields; file: `cover` (at most 10 MB). `songs` lists song ids of the same artist in track order
 * (repeated fields, `songs[]`, or one JSON array); empty entries are ignored.
 */
export const CreateAlbumBody = z.object({
  title: text(200),
  description: optionalText(5000).optional(),
  artist: optionalId.optional(),
  genre: genreName.optional(),
  songs: z.array(Id).max(500, 'must list at most 500 songs').optional(),
  price: PriceField.default(0),
  isPremium: booleanField.default(false),
});
export type CreateAlbumBody = z.infer<typeof CreateAlbumBody>;
export const UpdateAlbumBody = CreateAlbumBody.partial().extend({
  price: PriceField.optional(),
  isPremium: booleanField.optional(),
});
export type UpdateAlbumBody = z.infer<typeof UpdateAlbumBody>;
export const AlbumMutationResponse = z.object({ message: z.string(), album: Album });
export type AlbumMutationResponse = z.infer<typeof AlbumMutationResponse>;

/**
 * DELETE /songs/:id and /albums/:id. `buyers`: how many accounts bought it (a song: it or its album); when there
 * are any, it is taken out of the catalogue but kept for them (a purchase is forever), else deleted outright.
 */
export const CatalogDeleteResponse = z.object({ message: z.string(), buyers: z.number().int() });
export type CatalogDeleteResponse = z.infer<typeof CatalogDeleteResponse>;
/** GET /songs/:id/buyers and /albums/:id/buyers: what a delete would leave with its buyers (studio's confirm). */
export const CatalogBuyersResponse = z.object({ buyers: z.number().int() });
export type CatalogBuyersResponse = z.infer<typeof CatalogBuyersResponse>;
