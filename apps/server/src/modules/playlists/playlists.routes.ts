import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddPlaylistSongBody,
  CreatePlaylistBody,
  MessageResponse,
  PlaylistMutationResponse,
  PlaylistParams,
  PlaylistResponse,
  PlaylistSongParams,
  PlaylistSongsMutationResponse,
  PlaylistsResponse,
  ReorderPlaylistBody,
  UpdatePlaylistBody,
} from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import { errorAnswers, routeGroup } from '../../platform/route-docs';
import type { PlaylistService } from './playlists.service';

const route = routeGroup(['playlists'], errorAnswers(400, 401, 403, 404));
const writeRoute = routeGroup(['playlists'], errorAnswers(400, 401, 403, 404, 409));

/** The signed-in user's own playlists; another user's playlist answers 404. */
export const playlistRoutes: FastifyPluginAsyncZod<{ playlists: PlaylistService }> = async (
  app,
  { playlists },
) => {
  app.get(
    '/playlists',
    route(
      { summary: "The signed-in user's playlists, most recently changed first" },
      { 200: PlaylistsResponse },
    ),
    async (request) => ({ playlists: await playlists.list(await requireUser(request)) }),
  );

  app.post(
    '/playlists',
    writeRoute(
      { summary: 'Create a playlist (at most 200 per user)', body: CreatePlaylistBody },
      { 201: PlaylistMutationResponse },
    ),
    async (request, reply) => {
      const playlist = await playlists.create(await requireUser(request), request.body);
      return reply.status(201).send({ message: 'Playlist created', playlist });
    },
  );

  app.get(
    '/playlists/:id',
    route(
      { summary: 'A playlist with its songs in order', params: PlaylistParams },
      { 200: PlaylistResponse },
    ),
    async (request) => ({ playlist: await playlists.get(await requireUser(request), request.params.id) }),
  );

  app.put(
    '/playlists/:id',
    route(
      {
        summary: 'Rename a playlist and/or change its description',
        params: PlaylistParams,
        body: UpdatePlaylistBody,
      },
      { 200: PlaylistMutationResponse },
    ),
    async (request) => {
      const playlist = await playlists.update(await requireUser(request), request.params.id, request.body);
      return { message: 'Playlist updated', playlist };
    },
  );

  app.delete(
    '/playlists/:id',
    route({ params: PlaylistParams }, { 200: MessageResponse }),
    async (request) => {
      await playlists.delete(await requireUser(request), request.params.id);
      return { message: 'Playlist deleted' };
    },
  );

  app.post(
    '/playlists/:id/songs',
    writeRoute(
      {
        summary: 'Append a ready song (at most 500 per playlist; a song already in it answers 409)',
        params: PlaylistParams,
        body: AddPlaylistSongBody,
      },
      { 201: PlaylistSongsMutationResponse },
    ),
    async (request, reply) => {
      const user = await requireUser(request);
      const playlist = await playlists.addSong(user, request.params.id, request.body.songId);
      return reply.status(201).send({ message: 'Song added to playlist', playlist });
    },
  );

  app.delete(
    '/playlists/:id/songs/:songId',
    route(
      { summary: 'Remove a song from the playlist', params: PlaylistSongParams },
      { 200: PlaylistSongsMutationResponse },
    ),
    async (request) => {
      const { id, songId } = request.params;
      const playlist = await playlists.removeSong(await requireUser(request), id, songId);
      return { message: 'Song removed from playlist', playlist };
    },
  );

  app.put(
    '/playlists/:id/order',
    route(
      {
        summary: 'Reorder the songs: songIds must list every current song exactly once',
        params: PlaylistParams,
        body: ReorderPlaylistBody,
      },
      { 200: PlaylistSongsMutationResponse },
    ),
    async (request) => {
      const user = await requireUser(request);
      const playlist = await playlists.reorder(user, request.params.id, request.body.songIds);
      return { message: 'Playlist order saved', playlist };
    },
  );
};
