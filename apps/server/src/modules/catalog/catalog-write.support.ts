import type { FastifyBaseLogger } from 'fastify';
import { assertCanManageArtist, type Viewer } from '../access';
import { AppError, badRequest, forbidden } from '../../platform/errors';
import type { MediaStore } from '../../storage';
import { MediaError } from '../media';
import type { ArtistRow } from './artist.repository';
import type { CatalogRepositories, Transactor } from './catalog.repositories';
import { imageFolder, type CoverKind } from '../../platform/media-url';
import { storeCoverImage } from './cover-images';
import { toSlug } from './search-text';
import type { ReceivedFile } from './upload-form';

export interface WriteDeps {
  repos: CatalogRepositories;
  transaction: Transactor;
  mediaStore: MediaStore;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** Called after every committed catalogue change: every instance drops its cached lists and totals. */
  onCatalogChange: () => Promise<void>;
  /** The app's clock (services.clock): when a sold song or album was removed. */
  clock?: () => Date;
}

/** A media failure caused by the upload itself, as the HTTP answer the uploader should see. */
export function uploadError(field: string, error: unknown): unknown {
  if (!(error instanceof MediaError)) return error;
  if (error.code === 'NOT_AN_IMAGE')
    return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `${field}: ${error.message}`);
  if (error.code === 'UNDECODABLE_AUDIO' || error.code === 'NO_AUDIO_STREAM') {
    return new AppError(422, 'UNPROCESSABLE_MEDIA', `${field}: ${error.message}`);
  }
  return error;
}

/** Checks a genre name can become a slug before anything is written; '' means "no genre". */
export function checkGenreName(name: string | undefined): void {
  if (name && !toSlug(name)) throw badRequest('genre: must contain letters or digits');
}

/** What the song, album and artist writers share: whose artist it is, genres, images, cleanup. */
export class WriteSupport {
  constructor(readonly deps: WriteDeps) {}

  now(): Date {
    return (this.deps.clock ?? (() => new Date()))();
  }

  /** One write transaction; cached list totals are dropped once it has committed. */
  async transaction<T>(work: (repos: CatalogRepositories) => Promise<T>): Promise<T> {
    const result = await this.deps.transaction(work);
    await this.deps.onCatalogChange();
    return result;
  }

  /**
   * The artist a new song or album goes to, after the permission check: admins name any artist; an artist
   * account names its own profile or leaves the field empty to use it.
   */
  async managedArtist(viewer: Viewer, artistId: string | null | undefined): Promise<ArtistRow> {
    if (!artistId) {
      if (viewer.role === 'admin') throw badRequest('artist: is required');
      const own = await this.deps.repos.artists.findByOwner(viewer.id);
      if (!own) throw forbidden('Create your artist profile first', 'NO_ARTIST_PROFILE');
      return own;
    }
    const artist = await this.deps.repos.artists.findById(artistId);
    if (!artist) throw badRequest('artist: no artist with this id');
    assertCanManageArtist(viewer, artist);
    return artist;
  }

  /** The genre id for a form value: undefined keeps the current one, '' clears it, a name is found or created. */
  async genreId(repos: CatalogRepositories, name: string | undefined): Promise<string | null | undefined> {
    if (name === undefined) return undefined;
    if (!name) return null;
    return (await repos.genres.findOrCreate(name, toSlug(name))).id;
  }

  /** Converts an uploaded image into WebP variants in the media store; returns the key to keep. */
  async storeImage(file: ReceivedFile | undefined, kind: CoverKind): Promise<string | undefined> {
    if (!file) return undefined;
    try {
      return await storeCoverImage(this.deps.mediaStore, file.path, kind);
    } catch (error) {
      throw uploadError(file.field, error);
    }
  }

  /** Removes media after the rows that pointed at it are gone; a failure only leaves an orphan file behind. */
  async discard(prefixes: Array<string | null | undefined>): Promise<void> {
    for (const prefix of prefixes) {
      if (!prefix) continue;
      try {
        await this.deps.mediaStore.removePrefix(prefix);
      } catch (error) {
        this.deps.log.warn({ err: error, prefix }, 'could not remove media');
      }
    }
  }

  /**
   * The media prefix (all variants) of an image this kind of entity owns. Seeded songs point at their album's
   * cover, so a song only ever removes song images, an album album images, an artist artist images.
   */
  imagePrefix(key: string | null | undefined, kind: CoverKind): string | null {
    return key && key.startsWith(`images/${kind}/`) ? imageFolder(key) : null;
  }
}
