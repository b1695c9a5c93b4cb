import {
  CreateAlbumBody,
  UpdateAlbumBody,
  type Album,
  type AlbumMutationResponse,
  type CatalogBuyersResponse,
  type CatalogDeleteResponse,
} from '@backbeat/contract';
import { assertCanManageArtist, type Viewer } from '../access';
import { badRequest, notFound } from '../../platform/errors';
import { checkGenreName, type WriteSupport } from './catalog-write.support';
import { presentAlbum } from './catalog.presenter';
import { titleSearchText } from './search-text';
import { keptBy } from './song-write.service';
import type { ReceivedForm } from './upload-form';

/**
 * The album form sends `songs` as repeated fields, `songs[]`, or one JSON array; the form starts with one empty
 * entry, so empty entries are dropped.
 */
export function albumFormFields(fields: ReceivedForm['fields']): Record<string, unknown> {
  const raw = fields.songs;
  if (raw === undefined) return fields;
  let entries: unknown = raw;
  if (typeof raw === 'string' && raw.trim().startsWith('[')) {
    try {
      entries = JSON.parse(raw);
    } catch {
      throw badRequest('songs: must be a list of song ids');
    }
  }
  const list = (Array.isArray(entries) ? entries : [entries]).filter(
    (entry) => entry !== '' && entry !== null,
  );
  return { ...fields, songs: list.map((entry) => (typeof entry === 'string' ? entry.trim() : entry)) };
}

export class AlbumWriteService {
  constructor(private readonly support: WriteSupport) {}

  private get repos() {
    return this.support.deps.repos;
  }

  async create(viewer: Viewer, form: ReceivedForm): Promise<AlbumMutationResponse> {
    const input = CreateAlbumBody.parse(albumFormFields(form.fields));
    const artist = await this.support.managedArtist(viewer, input.artist);
    checkGenreName(input.genre);
    if (input.songs) await this.checkTracks(input.songs, artist.id);
    const cover = await this.support.storeImage(form.files.cover, 'album');
    let albumId: string;
    try {
      albumId = await this.support.transaction(async (repos) => {
        const id = await repos.albums.insert({
          artistId: artist.id,
          title: input.title,
          description: input.description ?? '',
          cover: cover ?? null,
          genreId: (await this.support.genreId(repos, input.genre)) ?? artist.genreId,
          price: input.price,
          currency: artist.currency,
          isPremium: input.isPremium,
          searchText: titleSearchText(input.title, artist.name),
        });
        if (input.songs) await repos.songs.setAlbumTracks(id, input.songs);
        return id;
      });
    } catch (error) {
      await this.support.discard([this.support.imagePrefix(cover, 'album')]);
      throw error;
    }
    return { message: 'Album created successfully', album: await this.present(albumId) };
  }

  async update(viewer: Viewer, albumId: string, form: ReceivedForm): Promise<AlbumMutationResponse> {
    const album = await this.repos.albums.findById(albumId);
    if (!album || album.deletedAt) throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    assertCanManageArtist(viewer, { ownerUserId: album.artistOwnerUserId });
    const input = UpdateAlbumBody.parse(albumFormFields(form.fields));
    if (input.artist && input.artist !== album.artistId) {
      throw badRequest('artist: an album cannot move to another artist');
    }
    checkGenreName(input.genre);
    if (input.songs) await this.checkTracks(input.songs, album.artistId);
    const cover = await this.support.storeImage(form.files.cover, 'album');
    try {
      await this.support.transaction(async (repos) => {
        await repos.albums.update(albumId, {
          ...(input.title !== undefined && {
            title: input.title,
            searchText: titleSearchText(input.title, album.artistName),
          }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.price !== undefined && { price: input.price }),
          ...(input.isPremium !== undefined && { isPremium: input.isPremium }),
          ...(cover && { cover }),
          ...(input.genre !== undefined && { genreId: await this.support.genreId(repos, input.genre) }),
        });
        if (input.songs) await repos.songs.setAlbumTracks(albumId, input.songs);
      });
    } catch (error) {
      await this.support.discard([this.support.imagePrefix(cover, 'album')]);
      throw error;
    }
    if (cover) await this.support.discard([this.support.imagePrefix(album.cover, 'album')]);
    return { message: 'Album updated successfully', album: await this.present(albumId) };
  }

  /** How many accounts keep the album if it is deleted (the studio's confirm asks before deleting). */
  async buyers(viewer: Viewer, albumId: string): Promise<CatalogBuyersResponse> {
    const album = await this.repos.albums.findById(albumId);
    if (!album || album.deletedAt) throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    assertCanManageArtist(viewer, { ownerUserId: album.artistOwnerUserId });
    return { buyers: await this.repos.holdings.countAlbumHolders(albumId) };
  }

  /**
   * Its songs stay in the catalogue without an album, either way. An unsold album is deleted with its cover. A
   * sold one leaves the catalogue and is never sold again, but its buyers keep it as they bought it: the tracks it
   * holds now are recorded as theirs and as the album's track list (so moving or deleting a song later takes
   * nothing from them), and its row and cover stay.
   */
  async delete(viewer: Viewer, albumId: string): Promise<CatalogDeleteResponse> {
    const album = await this.repos.albums.findById(albumId);
    if (!album || album.deletedAt) throw notFound('Album not found', 'ALBUM_NOT_FOUND');
    assertCanManageArtist(viewer, { ownerUserId: album.artistOwnerUserId });
    const buyers = await this.support.transaction(async (repos) => {
      const holders = await repos.holdings.countAlbumHolders(albumId);
      if (holders === 0) {
        // Songs that show the album's cover as their own must not keep a key whose files are about to go.
        if (album.cover) await repos.songs.clearCoverOfAlbum(albumId, album.cover);
        await repos.albums.delete(albumId);
        return 0;
      }
      const tracks = await repos.songs.listTrackIds(albumId);
      await repos.holdings.grantTracksToAlbumHolders(albumId, tracks);
      await repos.albums.markDeleted(albumId, this.support.now(), tracks);
      await repos.songs.setAlbumTracks(albumId, []);
      return holders;
    });
    if (buyers > 0) return { message: `Album deleted successfully. ${keptBy(buyers)}`, buyers };
    await this.support.discard([this.support.imagePrefix(album.cover, 'album')]);
    return { message: 'Album deleted successfully', buyers };
  }

  /** Every listed song exists, belongs to the album's artist, and appears once. */
  private async checkTracks(songIds: string[], artistId: string) {
    if (new Set(songIds).size !== songIds.length) throw badRequest('songs: a song is listed twice');
    const found = await this.repos.songs.listOwnership(songIds);
    if (found.length !== songIds.length) throw badRequest('songs: no song with one of these ids');
    if (found.some((song) => song.artistId !== artistId)) {
      throw badRequest('songs: every song must belong to the album artist');
    }
  }

  private async present(albumId: string): Promise<Album> {
    return presentAlbum((await this.repos.albums.findById(albumId))!);
  }
}
