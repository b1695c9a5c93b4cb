/** Catalogue shapes come from the shared contract (SPEC section 7 responses). */
export type {
  Album,
  AlbumsResponse,
  Artist,
  ArtistSearchResponse,
  ArtistAlbumsResponse,
  ArtistSongsResponse,
  ArtistsResponse,
  Genre,
  HomeResponse,
  MatchingGenreSongsResponse,
  PagedSongsResponse,
  Pagination,
  RandomArtistResponse,
  SearchResults,
  Song,
} from '@backbeat/contract';
