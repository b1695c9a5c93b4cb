import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddPlaylistSongBody,
  CreatePlaylistBody,
  ErrorResponse,
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
import type { PlaylistService } from './playlists.service';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const writeErrors = { ...errors, 409: ErrorResponse };
const tags = ['playlists'];

/** The signed-in user's own playlists; another user's playlist answers 404. */
export const playlistRoutes: FastifyPluginAsyncZod<{ playlists: PlaylistService }> = async (
  app,
  { playlists },
) => {
  app.get(
    '/playlists',
    {
      schema: {
        tags,
        summary: "The signed-in user's playlists, most recently changed first",
        response: { 200: PlaylistsResponse, ...errors },
      },
    },
    async (request) => ({ playlists: await playlists.list(await requireUser(request)) }),
  );

  app.post(
    '/playlists',
    {
      schema: {
        tags,
        summary: 'Create a playlist (at most 200 per user)',
        body: CreatePlaylistBody,
        response: { 201: PlaylistMutationResponse, ...writeErrors },
      },
    },
    async (request, reply) => {
      const playlist = await playlists.create(await requireUser(request), request.body);
      return reply.status(201).send({ message: 'Playlist created', playlist });
    },
  );

  app.get(
    '/playlists/:id',
    {
      schema: {
        tags,
        summary: 'A playlist with its songs in order',
        params: PlaylistParams,
        response: { 200: PlaylistResponse, ...errors },
      },
    },
    async (request) => ({ playlist: await playlists.get(await requireUser(request), request.params.id) }),
  );

  app.put(
    '/playlists/:id',
    {
      schema: {
        tags,
        summary: 'Rename a playlist and/or change its description',
        params: PlaylistParams,
        body: UpdatePlaylistBody,
        response: { 200: PlaylistMutationResponse, ...errors },
      },
    },
    async (request) => {
      const playlist = await playlists.update(await requireUser(request), request.params.id, request.body);
      return { message: 'Playlist updated', playlist };
    },
  );

  app.delete(
    '/playlists/:id',
    {
      schema: { tags, params: PlaylistParams, response: { 200: MessageResponse, ...errors } },
    },
    async (request) => {
      await playlists.delete(await requireUser(request), request.params.id);
      return { message: 'Playlist deleted' };
    },
  );

  app.post(
    '/playlists/:id/songs',
    {
      schema: {
        tags,
        summary: 'Append a ready song (at most 500 per playlist; a song already in it answers 409)',
        params: PlaylistParams,
        body: AddPlaylistSongBody,
        response: { 201: PlaylistSongsMutationResponse, ...writeErrors },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const playlist = await playlists.addSong(user, request.params.id, request.body.songId);
      return reply.status(201).send({ message: 'Song added to playlist', playlist });
    },
  );

  app.delete(
    '/playlists/:id/songs/:songId',
    {
      schema: {
        tags,
        summary: 'Remove a song from the playlist',
        params: PlaylistSongParams,
        response: { 200: PlaylistSongsMutationResponse, ...errors },
      },
    },
    async (request) => {
      const { id, songId } = request.params;
      const playlist = await playlists.removeSong(await requireUser(request), id, songId);
      return { message: 'Song removed from playlist', playlist };
    },
  );

  app.put(
    '/playlists/:id/order',
    {
      schema: {
        tags,
        summary: 'Reorder the songs: songIds must list every current song exactly once',
        params: PlaylistParams,
        body: ReorderPlaylistBody,
        response: { 200: PlaylistSongsMutationResponse, ...errors },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const playlist = await playlists.reorder(user, request.params.id, request.body.songIds);
      return { message: 'Playlist order saved', playlist };
    },
  );
};
