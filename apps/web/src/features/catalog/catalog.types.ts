/** Catalogue shapes come from the shared contract (SPEC section 7 responses). */
export type {
  Album,
  Artist,
  ArtistAlbumsResponse,
  ArtistSongsResponse,
  ArtistsResponse,
  Genre,
  MatchingGenreSongsResponse,
  PagedSongsResponse,
  Pagination,
  SearchResults,
  Song,
} from '@backbeat/contract';
