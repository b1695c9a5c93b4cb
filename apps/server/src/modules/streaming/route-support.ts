import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ErrorResponse, MediaBytes } from '@backbeat/contract';
import type { Requester } from './streaming.service';

export const signedIn: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];

/** A documented non-JSON answer: media bytes of one content type. */
export const mediaBody = (contentType: string, description: string) => ({
  description,
  content: { [contentType]: { schema: MediaBytes } },
});

/** Byte-range answers of the file endpoints (segments and fallback audio). */
export const rangeResponses = (contentType: string) => ({
  206: mediaBody(contentType, 'Partial content (Range)'),
  304: z.null().describe('Not modified (If-None-Match matched the ETag); no body'),
  416: {
    description: 'Range not satisfiable',
    content: { 'application/json': { schema: ErrorResponse } },
  },
});

/**
 * Media responses (playlists, keys, segments, audio) skip helmet's document headers: CSP and framing rules mean
 * nothing for them, and @fastify/helmet rebuilds its middleware on every request (~10% of a segment's CPU).
 * They keep `nosniff`, so a browser never reads one as a document.
 */
export const mediaResponse = {
  helmet: false as const,
  onRequest: (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.header('x-content-type-options', 'nosniff');
    done();
  },
};

/**
 * The session's user, if a media request carries one (browsers send the cookie; ffmpeg and CDNs do not).
 * Sign-in lookups go through the app's session cache, so a key fetch costs no session query.
 */
export const requesterOf =
  (request: FastifyRequest): Requester =>
  async () => {
    const user = await request.getUser();
    return user && { userId: user.id, sessionId: user.sessionId };
  };
