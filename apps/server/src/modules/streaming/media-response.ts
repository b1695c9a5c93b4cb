import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, parseByteRange, strongEtag } from './byte-range';
import type { MediaFile, StreamMedia } from './stream-media';

export interface MediaResponseOptions {
  contentType: string;
  cacheControl: string;
}

/**
 * Sends a media file with validators and byte ranges: strong ETag (size + mtime), `If-None-Match` -> 304,
 * `Range` -> 206 (416 when unsatisfiable; `If-Range` honoured). The body is streamed from the store in 64 KiB
 * chunks, never buffered whole, except small files (segments) that the hot cache keeps in memory.
 */
export async function sendMediaFile(
  request: FastifyRequest,
  reply: FastifyReply,
  media: StreamMedia,
  file: MediaFile,
  options: MediaResponseOptions,
) {
  const etag = strongEtag(file);
  reply.header('cache-control', options.cacheControl).header('etag', etag).header('accept-ranges', 'bytes');
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();

  const ifRange = request.headers['if-range'];
  const range = parseByteRange(ifRange && ifRange !== etag ? undefined : request.headers.range, file.size);
  if (range === 'unsatisfiable') {
    return reply
      .code(416)
      .header('content-range', `bytes */${file.size}`)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ message: 'Range not satisfiable', code: 'RANGE_NOT_SATISFIABLE' }));
  }

  reply.header('content-type', options.contentType);
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', file.size);
  }
  if (request.method === 'HEAD' || file.size === 0) return reply.send();
  return reply.send(await media.body(file, range ?? undefined));
}
