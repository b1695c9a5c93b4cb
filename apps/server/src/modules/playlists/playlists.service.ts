import {
  PLAYLIST_LIMITS,
  type CreatePlaylistBody,
  type PlaylistDetail,
  type PlaylistSummary,
  type UpdatePlaylistBody,
} from '@backbeat/contract';
import type { Viewer } from '../access';
import type { SongView } from '../catalog';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { presentPlaylist, presentPlaylistDetail } from './playlist.presenter';
import type { PlaylistRepository, PlaylistTransactor, SongState } from './playlists.repository';

export interface PlaylistDeps {
  playlists: PlaylistRepository;
  transaction: PlaylistTransactor;
  songView: SongView;
}

/** Another user's playlist answers exactly like a missing one: its existence is not revealed. */
const playlistNotFound = () => notFound('Playlist not found', 'PLAYLIST_NOT_FOUND');

function assertAddable(state: SongState | null): void {
  // A removed song left the catalogue: it stays in the playlists of those who hold it, and is added to no other.
  if (state === null || state === 'removed') throw notFound('Song not found', 'SONG_NOT_FOUND');
  if (state === 'processing') {
    throw conflict('This song is still processing; add it once it is ready', 'SONG_NOT_READY');
  }
  if (state === 'failed') throw conflict('This song failed to process and cannot be added', 'SONG_NOT_READY');
}

/** True when `next` holds exactly the songs of `current`, each once. */
export function isPermutation(current: readonly string[], next: readonly string[]): boolean {
  if (current.length !== next.length) return false;
  const remaining = new Set(current);
  for (const id of next) {
    if (!remaining.delete(id)) return false;
  }
  return remaining.size === 0;
}

/**
 * A user's own playlists. Every write runs in one transaction that first locks the playlist (or, on create, the
 * user), so limits hold under concurrent requests and nothing is half-written. Songs keep their catalogue view,
 * `canPlay` included; songs re-processing after a new upload stay listed with their `status`.
 */
export class PlaylistService {
  constructor(private readonly deps: PlaylistDeps) {}

  async list(viewer: Viewer): Promise<PlaylistSummary[]> {
    return (await this.deps.playlists.listByUser(viewer.id)).map(presentPlaylist);
  }

  async get(viewer: Viewer, id: string): Promise<PlaylistDetail> {
    const row = await this.deps.playlists.findOwned(id, viewer.id);
    if (!row) throw playlistNotFound();
    const songs = await this.deps.songView.present(viewer, await this.deps.playlists.listSongs(id));
    return presentPlaylistDetail(row, songs);
  }

  async create(viewer: Viewer, body: CreatePlaylistBody): Promise<PlaylistSummary> {
    const id = await this.deps.transaction(async (repo) => {
      await repo.lockUser(viewer.id);
      if ((await repo.countByUser(viewer.id)) >= PLAYLIST_LIMITS.playlistsPerUser) {
        throw conflict(
          `You can have at most ${PLAYLIST_LIMITS.playlistsPerUser} playlists`,
          'PLAYLIST_LIMIT_REACHED',
        );
      }
      return repo.insert({ userId: viewer.id, name: body.name, description: body.description ?? '' });
    });
    return this.summary(viewer, id);
  }

  async update(viewer: Viewer, id: string, body: UpdatePlaylistBody): Promise<PlaylistSummary> {
    await this.deps.transaction(async (repo) => {
      await this.lockOwn(repo, viewer, id);
      await repo.update(id, { name: body.name, description: body.description });
    });
    return this.summary(viewer, id);
  }

  async delete(viewer: Viewer, id: string): Promise<void> {
    if (!(await this.deps.playlists.delete(id, viewer.id))) throw playlistNotFound();
  }

  /** A song already in the playlist is refused with 409 (the playlist is a set in a chosen order). */
  async addSong(viewer: Viewer, id: string, songId: string): Promise<PlaylistDetail> {
    await this.deps.transaction(async (repo) => {
      await this.lockOwn(repo, viewer, id);
      assertAddable(await repo.songState(songId));
      const current = await repo.songIds(id);
      if (current.includes(songId)) {
        throw conflict('This song is already in the playlist', 'ALREADY_IN_PLAYLIST');
      }
      if (current.length >= PLAYLIST_LIMITS.songsPerPlaylist) {
        throw conflict(
          `A playlist can hold at most ${PLAYLIST_LIMITS.songsPerPlaylist} songs`,
          'PLAYLIST_FULL',
        );
      }
      if (!(await repo.append(id, songId))) {
        throw conflict('This song is already in the playlist', 'ALREADY_IN_PLAYLIST');
      }
      await repo.update(id);
    });
    return this.get(viewer, id);
  }

  async removeSong(viewer: Viewer, id: string, songId: string): Promise<PlaylistDetail> {
    await this.deps.transaction(async (repo) => {
      await this.lockOwn(repo, viewer, id);
      if (!(await repo.remove(id, songId)))
        throw notFound('This song is not in the playlist', 'NOT_IN_PLAYLIST');
      await repo.update(id);
    });
    return this.get(viewer, id);
  }

  async reorder(viewer: Viewer, id: string, songIds: string[]): Promise<PlaylistDetail> {
    await this.deps.transaction(async (repo) => {
      await this.lockOwn(repo, viewer, id);
      if (!isPermutation(await repo.songIds(id), songIds)) {
        throw badRequest(
          'songIds must list every song of the playlist exactly once',
          'PLAYLIST_ORDER_MISMATCH',
        );
      }
      await repo.setOrder(id, songIds);
      await repo.update(id);
    });
    return this.get(viewer, id);
  }

  /** The permission check of every write: the playlist exists and is the viewer's (locked until commit). */
  private async lockOwn(repo: PlaylistRepository, viewer: Viewer, id: string): Promise<void> {
    if (!(await repo.lockOwned(id, viewer.id))) throw playlistNotFound();
  }

  private async summary(viewer: Viewer, id: string): Promise<PlaylistSummary> {
    const row = await this.deps.playlists.findOwned(id, viewer.id);
    if (!row) throw playlistNotFound();
    return presentPlaylist(row);
  }
}
