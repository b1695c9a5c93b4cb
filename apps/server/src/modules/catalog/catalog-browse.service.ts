import { randomUUID } from 'node:crypto';
import type {
  AlbumResponse,
  AlbumsResponse,
  AllArtistsResponse,
  ArtistAlbumsResponse,
  ArtistResponse,
  ArtistSearchResponse,
  ArtistsResponse,
  GenresResponse,
  PageQuery,
  RandomArtistResponse,
  SearchResponse,
} from '@backbeat/contract';
import type { HoldingsRepository, Viewer } from '../access';
import { notFound } from '../../platform/errors';
import { TtlCache } from '../../platform/ttl-cache';
import type { AlbumRepository } from './album.repository';
import type { ArtistRepository } from './artist.repository';
import { pageCount, pageWindow, pagination } from '../../platform/pagination';
import { presentAlbum, presentArtist, presentGenre } from './catalog.presenter';
import type { GenreRepository, GenreRow } from './genre.repository';
import { genresNamedBy } from './genre-match';
import { dedupeShelves } from './home-shelves';
import { similarOnce, type SearchRepository } from './search.repository';
import { toSearchText } from './search-text';
import type { SongRepository } from './song.repository';
import type { SongView } from './song-view';

export interface BrowseDeps {
  /** The viewer-independent matches of search terms. */
  searchMatches?: SearchMatchesCache;
  songs: SongRepository;
  artists: ArtistRepository;
  albums: AlbumRepository;
  genres: GenreRepository;
  search: SearchRepository;
  holdings: HoldingsRepository;
  songView: SongView;
}

type SearchMatches = {
  artists: Awaited<ReturnType<SearchRepository['artists']>>;
  songs: Awaited<ReturnType<SearchRepository['songs']>>;
  albums: Awaited<ReturnType<SearchRepository['albums']>>;
  genres: GenreRow[];
};

/** The direct matches, then the rows of the named genres that are not among them, `limit` in all. */
function thenGenreRows<T extends { id: string }>(direct: T[], ofGenres: T[], limit: number): T[] {
  return dedupeShelves([
    { rows: direct, limit },
    { rows: ofGenres, limit },
  ])
    .flat()
    .slice(0, limit);
}

/**
 * The matches of recent search terms (popular searches repeat across listeners). An entry belongs to one version of
 * the catalogue (`version`: the catalogue cache's generation, bumped by every write here or on another instance), so
 * a write makes every entry stale at once, and one computed across a write is never served.
 */
export class SearchMatchesCache {
  private readonly entries = new TtlCache<string, { version: number; matches: SearchMatches }>(2_000, 30_000);

  constructor(private readonly version: () => number) {}

  async get(term: string, load: () => Promise<SearchMatches>): Promise<SearchMatches> {
    const version = this.version();
    const hit = this.entries.get(term);
    if (hit && hit.version === version) return hit.matches;
    const matches = await load();
    this.entries.set(term, { version, matches });
    return matches;
  }
}

/** Each list of the combined search answer holds at most this many entries. */
export const SEARCH_LIMIT = 20;

/** Artists, albums, genres, discovery and search: all public reads. */
export class CatalogBrowseService {
  constructor(private readonly deps: BrowseDeps) {}

  async artists(query: PageQuery): Promise<ArtistsResponse> {
    const { rows, total } = await this.deps.artists.list(pageWindow(query.page, query.limit));
    return { artists: rows.map(presentArtist), pagination: pagination(query.page, query.limit, total) };
  }

  async searchArtists(q: string, query: PageQuery): Promise<ArtistSearchResponse> {
    const term = toSearchText(q);
    if (!term) return { results: [], page: query.page, total: 0, pages: 0 };
    const { rows, total } = await this.deps.search.artistsPage(term, pageWindow(query.page, query.limit));
    return {
      results: rows.map(presentArtist),
      page: query.page,
      total,
      pages: pageCount(total, query.limit),
    };
  }

  async allArtists(): Promise<AllArtistsResponse> {
    return { artists: (await this.deps.artists.listAll()).map(presentArtist) };
  }

  async artist(id: string): Promise<ArtistResponse> {
    const row = await this.deps.artists.findById(id);
    if (!row) throw notFound('Artist not found', 'ARTIST_NOT_FOUND');
    return { artist: presentArtist(row) };
  }

  /** A random artist that has playable songs, with a page of those songs. */
  async randomArtist(viewer: Viewer | null, query: PageQuery): Promise<RandomArtistResponse> {
    const artist = await this.deps.artists.findRandomWithSongs(randomUUID());
    if (!artist) return { artist: null, songs: [], pagination: pagination(query.page, query.limit, 0) };
    const { rows, total } = await this.deps.songs.listByArtist(
      artist.id,
      pageWindow(query.page, query.limit),
    );
    return {
      artist: presentArtist(artist),
      songs: await this.deps.songView.present(viewer, rows),
      pagination: pagination(query.page, query.limit, total),
    };
  }

  async albums(query: PageQuery): Promise<AlbumsResponse> {
    const { rows, total } = await this.deps.albums.list(pageWindow(query.page, query.limit));
    return { albums: rows.map(presentAlbum), pagination: pagination(query.page, query.limit, total) };
  }

  async albumsOfArtist(artistId: string, query: PageQuery): Promise<ArtistAlbumsResponse> {
    const artist = await this.deps.artists.findById(artistId);
    if (!artist) throw notFound('Artist not found', 'ARTIST_NOT_FOUND');
    const { rows, total } = await this.deps.albums.listByArtist(
      artistId,
      pageWindow(query.page, query.limit),
    );
    return {
      albums: rows.map(presentAlbum),
      pagination: pagination(query.page, query.limit, total),
      artist: presentArtist(artist),
    };
  }

  /**
   * One album. A deleted album (sold, then deleted by its artist) exists for its buyers only (`removed: true`);
   * for anyone else it is a 404, as for an unknown id.
   */
  async album(viewer: Viewer | null, id: string): Promise<AlbumResponse> {
    const row = await this.deps.albums.findById(id);
    if (!row) throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    if (row.deletedAt && !(viewer && (await this.deps.holdings.holdsAlbum(viewer.id, id)))) {
      throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    }
    return { album: presentAlbum(row) };
  }

  async genres(): Promise<GenresResponse> {
    return { genres: (await this.deps.genres.listAll()).map(presentGenre) };
  }

  /**
   * Typo-tolerant search over artists, songs and albums, best match first; genres are results too: the genres the
   * term names, whose newest songs and albums follow the songs and albums that match by title or artist.
   */
  async search(viewer: Viewer | null, q: string): Promise<SearchResponse> {
    const term = toSearchText(q);
    if (!term) return { artists: [], songs: [], albums: [], genres: [] };
    const load = async (): Promise<SearchMatches> => {
      // The query's similar catalogue words are looked up once for the three lists.
      const similar = similarOnce(term);
      const [artists, songs, albums, allGenres] = await Promise.all([
        this.deps.search.artists(term, SEARCH_LIMIT, similar),
        this.deps.search.songs(term, SEARCH_LIMIT, similar),
        this.deps.search.albums(term, SEARCH_LIMIT, similar),
        this.deps.genres.listAll(),
      ]);
      const genres = genresNamedBy(term, allGenres);
      if (genres.length === 0) return { artists, songs, albums, genres };
      const genreIds = genres.map((genre) => genre.id);
      const [genreSongs, genreAlbums] = await Promise.all([
        this.deps.songs.listByGenres(genreIds, { limit: SEARCH_LIMIT, offset: 0 }),
        this.deps.albums.listByGenres(genreIds, SEARCH_LIMIT),
      ]);
      return {
        artists,
        songs: thenGenreRows(songs, genreSongs.rows, SEARCH_LIMIT),
        albums: thenGenreRows(albums, genreAlbums, SEARCH_LIMIT),
        genres,
      };
    };
    // The matches are the same for everyone; only what each viewer may play (songView) is per viewer.
    const {
      artists,
      songs: songRows,
      albums,
      genres,
    } = this.deps.searchMatches ? await this.deps.searchMatches.get(term, load) : await load();
    return {
      artists: artists.map(presentArtist),
      songs: await this.deps.songView.present(viewer, songRows),
      albums: albums.map(presentAlbum),
      genres: genres.map(presentGenre),
    };
  }
}
