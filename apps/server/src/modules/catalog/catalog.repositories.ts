import type { AppDb } from '../../db/client';
import { JobQueue } from '../../jobs/job-queue';
import { HoldingsRepository } from '../access';
import { AlbumRepository } from './album.repository';
import type { CountSource } from './count-cache';
import { ArtistRepository } from './artist.repository';
import { GenreRepository } from './genre.repository';
import { SearchRepository } from './search.repository';
import { SongRepository } from './song.repository';

export interface CatalogRepositories {
  songs: SongRepository;
  artists: ArtistRepository;
  albums: AlbumRepository;
  genres: GenreRepository;
  search: SearchRepository;
  /** Jobs queued in the same transaction as the rows they are about. */
  jobs: JobQueue;
  /** Who holds sold songs and albums (the access module's): asked before a delete, written when tracks freeze. */
  holdings: HoldingsRepository;
}

/** `counts` caches list totals; transactions get none (they must see their own writes). */
export function createRepositories(db: AppDb, counts?: CountSource): CatalogRepositories {
  return {
    songs: new SongRepository(db, counts),
    artists: new ArtistRepository(db, counts),
    albums: new AlbumRepository(db, counts),
    genres: new GenreRepository(db),
    search: new SearchRepository(db),
    jobs: new JobQueue(db),
    holdings: new HoldingsRepository(db),
  };
}

/**
 * Runs work in one database transaction with repositories bound to it. Inside, use only the repositories
 * passed in: PGlite has one connection, so a query outside the transaction would wait for it forever.
 */
export type Transactor = <T>(work: (repos: CatalogRepositories) => Promise<T>) => Promise<T>;

export function createTransactor(db: AppDb): Transactor {
  return (work) => db.transaction((tx) => work(createRepositories(tx as unknown as AppDb)));
}
