import {
  CreateArtistBody,
  UpdateArtistBody,
  type Artist,
  type ArtistMutationResponse,
} from '@backbeat/contract';
import { assertCanManageArtist, type Viewer } from '../access';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { checkGenreName, type WriteSupport } from './catalog-write.support';
import { presentArtist } from './catalog.presenter';
import { titleSearchText, toSearchText } from './search-text';
import { songMediaPrefixes } from './song-write.service';
import type { ReceivedForm } from './upload-form';

/**
 * An artist account manages one profile (artists_owner_key): a second one written at the same moment as the first
 * (two requests racing past the check) is refused like one written after it.
 */
function ownerTaken(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const { code, constraint, cause } = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (code === '23505' && constraint === 'artists_owner_key') {
      return conflict('This account already manages an artist profile', 'ARTIST_PROFILE_EXISTS');
    }
    current = cause;
  }
  return error;
}

/** Artist profiles: admins manage all; an artist account creates and manages its own (one) profile. */
export class ArtistWriteService {
  constructor(private readonly support: WriteSupport) {}

  private get repos() {
    return this.support.deps.repos;
  }

  async create(viewer: Viewer, form: ReceivedForm): Promise<ArtistMutationResponse> {
    const input = CreateArtistBody.parse(form.fields);
    const ownerId = await this.ownerFor(viewer, input.ownerId);
    checkGenreName(input.genre);
    const image = await this.support.storeImage(form.files.image, 'artist');
    let artistId: string;
    try {
      artistId = await this.support.transaction(async (repos) =>
        repos.artists.insert({
          name: input.name,
          bio: input.bio ?? '',
          image: image ?? null,
          genreId: (await this.support.genreId(repos, input.genre)) ?? null,
          ownerUserId: ownerId,
          subscriptionPrice: input.subscriptionPrice,
          allowSubscriberDownloads: input.allowSubscriberDownloads ?? false,
          searchText: toSearchText(input.name),
        }),
      );
    } catch (error) {
      await this.support.discard([this.support.imagePrefix(image, 'artist')]);
      throw ownerTaken(error);
    }
    return { message: 'Artist created successfully', artist: await this.present(artistId) };
  }

  async update(viewer: Viewer, artistId: string, form: ReceivedForm): Promise<ArtistMutationResponse> {
    const artist = await this.repos.artists.findById(artistId);
    if (!artist) throw notFound('Artist not found', 'ARTIST_NOT_FOUND');
    assertCanManageArtist(viewer, artist);
    const input = UpdateArtistBody.parse(form.fields);
    const ownerChanges = input.ownerId !== undefined && input.ownerId !== artist.ownerUserId;
    if (ownerChanges && viewer.role !== 'admin')
      throw forbidden('Only an admin can change who manages an artist');
    if (ownerChanges && input.ownerId) await this.checkOwner(input.ownerId, artistId);
    checkGenreName(input.genre);
    const image = await this.support.storeImage(form.files.image, 'artist');
    const renamed = input.name !== undefined && input.name !== artist.name;
    try {
      await this.support.transaction(async (repos) => {
        await repos.artists.update(artistId, {
          ...(input.name !== undefined && { name: input.name, searchText: toSearchText(input.name) }),
          ...(input.bio !== undefined && { bio: input.bio }),
          ...(input.subscriptionPrice !== undefined && { subscriptionPrice: input.subscriptionPrice }),
          ...(input.allowSubscriberDownloads !== undefined && {
            allowSubscriberDownloads: input.allowSubscriberDownloads,
          }),
          ...(ownerChanges && { ownerUserId: input.ownerId ?? null }),
          ...(image && { image }),
          ...(input.genre !== undefined && { genreId: await this.support.genreId(repos, input.genre) }),
        });
        if (renamed) {
          const searchText = (title: string) => titleSearchText(title, input.name!);
          await repos.songs.refreshSearchTextOfArtist(artistId, searchText);
          await repos.albums.refreshSearchTextOfArtist(artistId, searchText);
        }
      });
    } catch (error) {
      await this.support.discard([this.support.imagePrefix(image, 'artist')]);
      throw ownerTaken(error);
    }
    if (image) await this.support.discard([this.support.imagePrefix(artist.image, 'artist')]);
    return { message: 'Artist updated successfully', artist: await this.present(artistId) };
  }

  /**
   * Deletes the artist with their songs and albums (rows cascade), then their media files. Not while anyone holds
   * music of theirs (a purchase is forever, and a bought song cannot outlive its artist's row): 409, and the
   * artist deletes the unsold music first; what sold stays, out of the catalogue, with its buyers.
   */
  async delete(viewer: Viewer, artistId: string): Promise<{ message: string }> {
    const artist = await this.repos.artists.findById(artistId);
    if (!artist) throw notFound('Artist not found', 'ARTIST_NOT_FOUND');
    assertCanManageArtist(viewer, artist);
    const { songMedia, albumMedia } = await this.support.transaction(async (repos) => {
      const holders = await repos.holdings.countArtistHolders(artistId);
      if (holders > 0) {
        throw conflict(
          `${holders === 1 ? '1 buyer holds' : `${holders} buyers hold`} music of this artist, which they keep: ` +
            'the profile stays. Delete their songs and albums instead (sold ones leave the catalogue but stay ' +
            'with their buyers).',
          'ARTIST_HAS_BUYERS',
        );
      }
      const media = {
        songMedia: await repos.songs.listMediaOfArtist(artistId),
        albumMedia: await repos.albums.listMediaOfArtist(artistId),
      };
      await repos.artists.delete(artistId);
      return media;
    });
    await this.support.discard([
      this.support.imagePrefix(artist.image, 'artist'),
      ...songMedia.flatMap((song) => [
        ...songMediaPrefixes(song.id),
        this.support.imagePrefix(song.coverImage, 'song'),
      ]),
      ...albumMedia.map((album) => this.support.imagePrefix(album.cover, 'album')),
    ]);
    return { message: 'Artist deleted successfully' };
  }

  /** Who will manage a new profile: an artist account itself (one profile each); an admin may name an account. */
  private async ownerFor(viewer: Viewer, requested: string | null | undefined): Promise<string | null> {
    if (viewer.role !== 'admin') {
      if (requested && requested !== viewer.id)
        throw forbidden('Only an admin can create a profile for someone else');
      if (await this.repos.artists.findByOwner(viewer.id)) {
        throw conflict('You already have an artist profile', 'ARTIST_PROFILE_EXISTS');
      }
      return viewer.id;
    }
    if (requested) await this.checkOwner(requested, null);
    return requested ?? null;
  }

  private async checkOwner(userId: string, exceptArtistId: string | null) {
    const role = await this.repos.artists.findUserRole(userId);
    if (role !== 'artist') throw badRequest('ownerId: must be the id of an artist account');
    const existing = await this.repos.artists.findByOwner(userId);
    if (existing && existing.id !== exceptArtistId) {
      throw conflict('ownerId: this account already manages an artist profile', 'ARTIST_PROFILE_EXISTS');
    }
  }

  private async present(artistId: string): Promise<Artist> {
    return presentArtist((await this.repos.artists.findById(artistId))!);
  }
}
