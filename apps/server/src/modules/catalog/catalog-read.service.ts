import type {
  ArtistSongsResponse,
  MatchingGenreSongsResponse,
  PageQuery,
  PagedSongsResponse,
  Song,
  SongStatusResponse,
  SongsResponse,
} from '@backbeat/contract';
import { assertCanManageArtist, canManageArtist, type HoldingsRepository, type Viewer } from '../access';
import { notFound } from '../../platform/errors';
import type { AlbumRepository } from './album.repository';
import type { ArtistRepository } from './artist.repository';
import { pageCount, pageWindow } from '../../platform/pagination';
import { presentArtist } from './catalog.presenter';
import type { GenreRepository } from './genre.repository';
import type { SongRepository } from './song.repository';
import type { SongView } from './song-view';

export interface SongReadDeps {
  songs: SongRepository;
  artists: ArtistRepository;
  albums: AlbumRepository;
  genres: GenreRepository;
  holdings: HoldingsRepository;
  songView: SongView;
}

/** The song lists of SPEC section 7: only `ready` songs, newest first, each with `canPlay` for the viewer. */
export class SongReadService {
  constructor(private readonly deps: SongReadDeps) {}

  async list(viewer: Viewer | null, query: PageQuery): Promise<SongsResponse> {
    const { rows, total } = await this.deps.songs.listReady(pageWindow(query.page, query.limit));
    const songs = await this.deps.songView.present(viewer, rows);
    return { songs, totalPages: pageCount(total, query.limit), total, page: query.page };
  }

  async liked(viewer: Viewer, query: PageQuery): Promise<PagedSongsResponse> {
    const { rows, total } = await this.deps.songs.listLiked(viewer.id, pageWindow(query.page, query.limit));
    return this.paged(viewer, rows, total, query);
  }

  async matchingGenre(viewer: Viewer, query: PageQuery): Promise<MatchingGenreSongsResponse> {
    const preferred = await this.deps.genres.listPreferredBy(viewer.id);
    const { rows, total } = await this.deps.songs.listByGenres(
      preferred.map((genre) => genre.id),
      pageWindow(query.page, query.limit),
    );
    const page = await this.paged(viewer, rows, total, query);
    return { ...page, matchingGenres: preferred.map((genre) => genre.name) };
  }

  /**
   * An album's songs in track order. A deleted album (sold, then deleted by its artist) is its buyers' alone: they
   * get the tracks it held then; anyone else a 404, as for an unknown id.
   */
  async byAlbum(viewer: Viewer | null, albumId: string): Promise<Song[]> {
    const album = await this.deps.albums.findById(albumId);
    if (!album) throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    if (album.deletedAt && !(viewer && (await this.deps.holdings.holdsAlbum(viewer.id, albumId)))) {
      throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    }
    return this.deps.songView.present(viewer, await this.deps.songs.listByAlbum(album));
  }

  async byArtist(viewer: Viewer | null, artistId: string, query: PageQuery): Promise<ArtistSongsResponse> {
    const artist = await this.deps.artists.findById(artistId);
    if (!artist) throw notFound('Artist not found', 'ARTIST_NOT_FOUND');
    const { rows, total } = await this.deps.songs.listByArtist(artistId, pageWindow(query.page, query.limit));
    return { ...(await this.paged(viewer, rows, total, query)), artist: presentArtist(artist) };
  }

  /** `genre` is a genre's name or slug, in any case. */
  async byGenre(viewer: Viewer | null, genre: string, query: PageQuery): Promise<PagedSongsResponse> {
    const found = await this.deps.genres.findByNameOrSlug(genre);
    if (!found) throw notFound('Genre not found', 'GENRE_NOT_FOUND');
    const { rows, total } = await this.deps.songs.listByGenres(
      [found.id],
      pageWindow(query.page, query.limit),
    );
    return this.paged(viewer, rows, total, query);
  }

  /**
   * One song as the lists show it. A `ready` song is public; one still `processing` (or `failed`) exists only for
   * its artist's account and admins, and a removed one only for those who hold it (SongView drops it for anyone
   * else), so anyone else gets the same 404 as for an unknown id.
   */
  async one(viewer: Viewer | null, songId: string): Promise<Song> {
    const song = await this.deps.songs.findById(songId);
    const visible =
      song !== null &&
      (song.status === 'ready' ||
        song.status === 'removed' ||
        (viewer !== null && canManageArtist(viewer, { ownerUserId: song.artistOwnerUserId })));
    const [presented] = visible ? await this.deps.songView.present(viewer, [song]) : [];
    if (!presented) throw notFound('Song not found', 'SONG_NOT_FOUND');
    return presented;
  }

  /** Processing state of an upload; only its artist's account and admins may see it. */
  async status(viewer: Viewer, songId: string): Promise<SongStatusResponse> {
    const song = await this.deps.songs.findById(songId);
    if (!song || song.status === 'removed') throw notFound('Song not found', 'SONG_NOT_FOUND');
    assertCanManageArtist(viewer, { ownerUserId: song.artistOwnerUserId });
    return { status: song.status, failureReason: song.failureReason };
  }

  private async paged(
    viewer: Viewer | null,
    rows: Parameters<SongView['present']>[1],
    total: number,
    query: PageQuery,
  ): Promise<PagedSongsResponse> {
    const songs = await this.deps.songView.present(viewer, rows);
    return { songs, total, page: query.page, pages: pageCount(total, query.limit) };
  }
}
