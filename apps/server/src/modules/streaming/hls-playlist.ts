/** The names ffmpeg gives our segments (`seg_%04d.ts`); nothing else is served from an HLS prefix. */
export const SEGMENT_NAME = /^seg_\d{4}\.ts$/;

/**
 * The media a CDN may serve without the API: encrypted segments of songs and previews (`songs/<id>/<version>/
 * seg_NNNN.ts`). Their key, playlist, plain audio and masters stay private.
 */
export const isPublicMedia = (key: string) =>
  key.startsWith('songs/') && SEGMENT_NAME.test(key.slice(key.lastIndexOf('/') + 1));

export const HLS_FILES = { playlist: 'index.m3u8', key: 'enc.key', audio: 'audio.m4a' } as const;

export const hlsBasePath = (songId: string) => `/api/stream/hls/${songId}`;
/** Where a song's preview (its own playlist, key, segments and fallback file) is served. */
export const previewBasePath = (songId: string) => `/api/stream/preview/${songId}`;

/** Segments are written from 0 (`seg_%04d.ts`): the first one's name is known without reading the playlist. */
export const FIRST_SEGMENT = 'seg_0000.ts';

/**
 * A playlist rewritten for one song, split around the places the stream token goes, so that serving it to a
 * listener is a join rather than a parse.
 */
export class PlaylistTemplate {
  constructor(private readonly parts: readonly string[]) {}

  render(token: string): string {
    return this.parts.join(encodeURIComponent(token));
  }
}

const TOKEN_SLOT = '\u0000token\u0000';

/**
 * Where segment lines point when the segments are not served by the API: `baseUrl` (`SEGMENT_BASE_URL`, a path
 * or an absolute URL of nginx or a CDN serving the media root) followed by the song's immutable media prefix.
 */
export interface SegmentOrigin {
  baseUrl: string;
  prefix: string;
}

/**
 * Where a song's segment `name` is served: under `segments` (nginx, a CDN) when given, else by the API under
 * `base` (the song's HLS path, or its preview's).
 */
export function segmentAddress(
  songId: string,
  name: string,
  segments?: SegmentOrigin,
  base: string = hlsBasePath(songId),
): string {
  return `${segments ? `${segments.baseUrl}/${segments.prefix}` : base}/${name}`;
}

/**
 * Rewrites the transcoder's playlist for the API: the `#EXT-X-KEY` URI (`key://enc.key`) becomes the tokenised key
 * endpoint (always the API, which re-checks access) and each segment line an absolute path under the song's HLS
 * base, or under `segments` when they are served from the media root. Segments need no token: they are
 * ciphertext, public and cacheable. Any other entry means the files are not ours, and is an error.
 */
export function buildPlaylistTemplate(
  playlist: string,
  songId: string,
  segments?: SegmentOrigin,
  /** Where the key (and segments, unless `segments`) are served: the song's HLS path, or its preview's. */
  base: string = hlsBasePath(songId),
): PlaylistTemplate {
  let keys = 0;
  const lines = playlist.split(/\r?\n/).map((line) => {
    const trimmed = line.trim();
    if (trimmed.startsWith('#EXT-X-KEY:')) {
      keys += 1;
      return trimmed.replace(/URI="[^"]*"/, `URI="${base}/key?token=${TOKEN_SLOT}"`);
    }
    if (trimmed === '' || trimmed.startsWith('#')) return trimmed;
    if (!SEGMENT_NAME.test(trimmed))
      throw new Error(`Unexpected entry in HLS playlist: ${trimmed.slice(0, 80)}`);
    return segmentAddress(songId, trimmed, segments, base);
  });
  if (keys === 0) throw new Error('HLS playlist has no #EXT-X-KEY line: refusing to serve unencrypted media');
  return new PlaylistTemplate(lines.join('\n').split(TOKEN_SLOT));
}
