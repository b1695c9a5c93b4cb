import type { FastifyInstance } from 'fastify';
import type { ModuleContext } from '..';
import { createSongView } from '../catalog';
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
    songView: createSongView(db, services.clock),
  });
  await api.register(playlistRoutes, { playlists });
}
