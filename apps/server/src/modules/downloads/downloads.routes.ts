import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DownloadFileQuery,
  DownloadLinkBody,
  DownloadLinkResponse,
  DownloadOptionsResponse,
  DownloadParams,
  DownloadPreparingResponse,
  ErrorResponse,
  MediaBytes,
} from '@backbeat/contract';
import { requireUser } from '../../platform/auth';
import type { DownloadsService } from './downloads.service';
import { attachmentHeader } from './file-names';

export interface DownloadsRoutesOptions {
  downloads: DownloadsService;
}

const tags = ['downloads'];
const signedIn: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];

/** Downloads: what may be downloaded, a signed link, and the file (tagged audio or an album ZIP) behind it. */
export const downloadsRoutes: FastifyPluginAsyncZod<DownloadsRoutesOptions> = async (app, { downloads }) => {
  app.get(
    '/downloads/:itemType/:id',
    {
      schema: {
        tags,
        summary:
          'The formats the viewer may download a bought song or album in (MP3 always, FLAC if lossless)',
        security: signedIn,
        params: DownloadParams,
        response: {
          200: DownloadOptionsResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return downloads.options(user, request.params.itemType, request.params.id);
    },
  );

  app.post(
    '/downloads/:itemType/:id',
    {
      schema: {
        tags,
        summary:
          'A signed download link (10 minutes, this account and session), or 202 while the files are made',
        security: signedIn,
        params: DownloadParams,
        body: DownloadLinkBody,
        response: {
          201: DownloadLinkResponse,
          202: DownloadPreparingResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const outcome = await downloads.link(
        user,
        request.params.itemType,
        request.params.id,
        request.body.format,
      );
      if (outcome.status === 202) {
        return reply.code(202).header('retry-after', String(outcome.body.retryAfterSec)).send(outcome.body);
      }
      return reply.code(201).send(outcome.body);
    },
  );

  app.get(
    '/downloads/file',
    {
      // A HEAD would run the whole download (counted, rate-limited, files opened) only to drop the body.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary:
          'The download behind a signed link: a tagged MP3 or FLAC, or an album ZIP streamed as it is built',
        querystring: DownloadFileQuery,
        response: {
          200: {
            description: 'The file, as an attachment',
            content: Object.fromEntries(
              ['audio/mpeg', 'audio/flac', 'application/zip'].map((type) => [type, { schema: MediaBytes }]),
            ),
          },
          400: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const file = await downloads.open(request.query.token, async () => {
        const user = await request.getUser();
        return user && { userId: user.id, sessionId: user.sessionId };
      });
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachmentHeader(file.fileName))
        .header('cache-control', 'private, no-store');
      if (file.size !== null) reply.header('content-length', file.size);
      return (reply as FastifyReply).send(file.stream);
    },
  );
};
