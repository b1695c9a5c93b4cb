import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '..';
import { loadEntitlements } from '../access';
import { SongView } from '../catalog/song-view';
import { playlistRoutes } from './playlists.routes';
import { createPlaylistTransactor, PlaylistRepository } from './playlists.repository';
import { PlaylistService } from './playlists.service';

/** Wires playlists: repository -> service -> routes under /playlists. */
export async function registerPlaylists(
  api: FastifyInstance,
  { database, services }: ModuleContext,
): Promise<void> {
  const db = database.db;
  const playlists = new PlaylistService({
    playlists: new PlaylistRepository(db),
    transaction: createPlaylistTransactor(db),
    songView: new SongView((userId, scope, now) => loadEntitlements(db, userId, scope, now), services.clock),
  });
  await api.register(playlistRoutes, { playlists });
}
