import type { HomeResponse, Song } from '@backbeat/contract';
import type { Viewer } from '../access';
import type { AlbumRepository } from './album.repository';
import type { ArtistRepository } from './artist.repository';
import { presentAlbum, presentArtist } from './catalog.presenter';
import type { GenreRepository } from './genre.repository';
import { dedupeShelves } from './home-shelves';
import type { HomeRepository } from './home.repository';
import type { SongRepository, SongRow } from './song.repository';
import type { SongView } from './song-view';

/** How many entries each shelf shows; each asks for a few times more, so de-duplication leaves it full. */
export const HOME_SHELF_SIZE = {
  recentlyPlayed: 8,
  freeToStream: 10,
  forYourGenres: 10,
  popularThisWeek: 10,
  newAlbums: 6,
  yourArtists: 8,
} as const;
const CANDIDATES = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface HomeDeps {
  home: HomeRepository;
  songs: SongRepository;
  albums: AlbumRepository;
  artists: ArtistRepository;
  genres: GenreRepository;
  songView: SongView;
  clock: () => Date;
}

/** `ids`' rows in the order of `ids`, skipping songs that are gone or not ready. */
function inOrder(ids: string[], rows: SongRow[]): SongRow[] {
  const byId = new Map(rows.filter((row) => row.status === 'ready').map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The home page: shelves that change with the listener (what they played, their genres, what they back). */
export class HomeService {
  constructor(private readonly deps: HomeDeps) {}

  async home(viewer: Viewer): Promise<HomeResponse> {
    const { home, songs, albums, artists, genres, songView } = this.deps;
    const now = this.deps.clock();
    // The last 7 UTC days, today included.
    const since = new Date(now.getTime() - 6 * DAY_MS).toISOString().slice(0, 10);
    const preferred = await genres.listPreferredBy(viewer.id);
    const genreIds = preferred.map((genre) => genre.id);
    const [recentIds, free, forGenres, popularIds, newAlbums, artistIds] = await Promise.all([
      home.recentlyPlayedSongIds(viewer.id, HOME_SHELF_SIZE.recentlyPlayed),
      songs.listFreeToStream(genreIds, HOME_SHELF_SIZE.freeToStream * CANDIDATES),
      songs.listByGenres(genreIds, { limit: HOME_SHELF_SIZE.forYourGenres * CANDIDATES, offset: 0 }),
      home.popularSongIds(since, HOME_SHELF_SIZE.popularThisWeek * CANDIDATES),
      albums.list({ limit: HOME_SHELF_SIZE.newAlbums, offset: 0 }),
      home.supportedArtistIds(viewer.id, now, HOME_SHELF_SIZE.yourArtists),
    ]);
    const [listed, yourArtists] = await Promise.all([
      songs.listByIds([...recentIds, ...popularIds]),
      artists.listByIds(artistIds),
    ]);
    // The page's order; the genre shelf comes last: it has the most candidates to refill from.
    const shelves = dedupeShelves([
      { rows: inOrder(recentIds, listed), limit: HOME_SHELF_SIZE.recentlyPlayed },
      { rows: free, limit: HOME_SHELF_SIZE.freeToStream },
      { rows: inOrder(popularIds, listed), limit: HOME_SHELF_SIZE.popularThisWeek },
      { rows: forGenres.rows, limit: HOME_SHELF_SIZE.forYourGenres },
    ]);
    // One entitlement load for every song on the page.
    const presented = await songView.present(viewer, shelves.flat());
    const shelvesOfSongs: Song[][] = [];
    let offset = 0;
    for (const shelf of shelves) {
      shelvesOfSongs.push(presented.slice(offset, offset + shelf.length));
      offset += shelf.length;
    }
    const [recentlyPlayed, freeToStream, popularThisWeek, forYourGenres] = shelvesOfSongs;
    return {
      recentlyPlayed: recentlyPlayed!,
      freeToStream: freeToStream!,
      forYourGenres: forYourGenres!,
      popularThisWeek: popularThisWeek!,
      newAlbums: newAlbums.rows.map(presentAlbum),
      yourArtists: yourArtists.map(presentArtist),
      matchingGenres: preferred.map((genre) => genre.name),
    };
  }
}
