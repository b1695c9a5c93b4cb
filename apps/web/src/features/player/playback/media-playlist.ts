/**
 * The HLS media playlists our server writes for a song (RFC 8216): a VOD list of AES-128 encrypted MPEG-TS segments
 * under one key, plus the transcoder's gapless tag with the exact encoder priming and sample count.
 */

/** Our own tag (unknown tags are ignored by other HLS clients): `#EXT-X-BACKBEAT-GAPLESS:PRIMING-SAMPLES=…`. */
export const GAPLESS_TAG = '#EXT-X-BACKBEAT-GAPLESS:';

export class PlaylistError extends Error {
  override name = 'PlaylistError';
}

export interface PlaylistKey {
  /** Absolute address of the key. */
  uri: string;
  /** The 16-byte IV; null means "the segment's media sequence number" (RFC 8216 section 5.2). */
  iv: Uint8Array<ArrayBuffer> | null;
}

export interface PlaylistSegment {
  /** Absolute address. */
  uri: string;
  /** Seconds, as the playlist states them (EXTINF). */
  duration: number;
  /** Seconds from the start of the song, the sum of the durations before it. */
  start: number;
  /** Media sequence number (the default IV). */
  sequence: number;
}

export interface GaplessInfo {
  /** Samples the encoder put before the first real sample (ffmpeg's AAC encoder: 1024). */
  primingSamples: number;
  /** Real samples per channel: what remains once priming and the last frame's padding are cut. */
  totalSamples: number;
  sampleRate: number;
}

export interface MediaPlaylist {
  segments: PlaylistSegment[];
  key: PlaylistKey;
  /** Null for media transcoded before the tag existed. */
  gapless: GaplessInfo | null;
}

/** `KEY=value,KEY="quoted, value"` attribute lists. */
function parseAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;
  for (const match of text.matchAll(pattern)) {
    const value = match[2]!;
    attributes.set(match[1]!, value.startsWith('"') ? value.slice(1, -1) : value);
  }
  return attributes;
}

function parseIv(text: string | undefined): Uint8Array<ArrayBuffer> | null {
  if (text === undefined) return null;
  if (!/^0x[0-9a-f]{32}$/i.test(text)) throw new PlaylistError(`invalid IV ${text}`);
  const iv = new Uint8Array(16);
  for (let i = 0; i < 16; i += 1) iv[i] = parseInt(text.slice(2 + i * 2, 4 + i * 2), 16);
  return iv;
}

function positiveInteger(attributes: Map<string, string>, name: string): number {
  const value = Number(attributes.get(name));
  if (!Number.isInteger(value) || value <= 0)
    throw new PlaylistError(`${GAPLESS_TAG} without a valid ${name}`);
  return value;
}

function parseGapless(text: string): GaplessInfo {
  const attributes = parseAttributes(text);
  const primingSamples = Number(attributes.get('PRIMING-SAMPLES'));
  if (!Number.isInteger(primingSamples) || primingSamples < 0) {
    throw new PlaylistError(`${GAPLESS_TAG} without a valid PRIMING-SAMPLES`);
  }
  return {
    primingSamples,
    totalSamples: positiveInteger(attributes, 'TOTAL-SAMPLES'),
    sampleRate: positiveInteger(attributes, 'SAMPLE-RATE'),
  };
}

/**
 * Parses a song's playlist; relative addresses are resolved against `playlistUrl`. Throws PlaylistError for
 * anything this player does not play: a live list, no segments, no AES-128 key, several keys.
 */
export function parseMediaPlaylist(text: string, playlistUrl: string): MediaPlaylist {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  if (lines[0] !== '#EXTM3U') throw new PlaylistError('not an HLS playlist');
  const resolve = (uri: string) => new URL(uri, playlistUrl).href;
  const segments: PlaylistSegment[] = [];
  let key: PlaylistKey | null = null;
  let gapless: GaplessInfo | null = null;
  let sequence = 0;
  let pendingDuration: number | null = null;
  let start = 0;
  let ended = false;

  for (const line of lines) {
    if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) {
      sequence = Number(line.slice('#EXT-X-MEDIA-SEQUENCE:'.length));
      if (!Number.isInteger(sequence) || sequence < 0) throw new PlaylistError('invalid media sequence');
    } else if (line.startsWith('#EXT-X-KEY:')) {
      const attributes = parseAttributes(line.slice('#EXT-X-KEY:'.length));
      const method = attributes.get('METHOD');
      const uri = attributes.get('URI');
      if (method !== 'AES-128' || !uri) throw new PlaylistError(`unsupported key method ${method ?? '?'}`);
      const next = { uri: resolve(uri), iv: parseIv(attributes.get('IV')) };
      if (key && key.uri !== next.uri) throw new PlaylistError('more than one key in a song');
      key = next;
    } else if (line.startsWith(GAPLESS_TAG)) {
      gapless = parseGapless(line.slice(GAPLESS_TAG.length));
    } else if (line.startsWith('#EXTINF:')) {
      pendingDuration = parseFloat(line.slice('#EXTINF:'.length));
      if (!(pendingDuration >= 0)) throw new PlaylistError(`invalid ${line}`);
    } else if (line === '#EXT-X-ENDLIST') {
      ended = true;
    } else if (line !== '' && !line.startsWith('#')) {
      if (pendingDuration === null) throw new PlaylistError(`segment ${line} without #EXTINF`);
      if (!key) throw new PlaylistError('a segment before the key: refusing unencrypted media');
      segments.push({ uri: resolve(line), duration: pendingDuration, start, sequence });
      start += pendingDuration;
      sequence += 1;
      pendingDuration = null;
    }
  }
  if (!ended) throw new PlaylistError('not a complete (VOD) playlist');
  if (segments.length === 0) throw new PlaylistError('no segments');
  if (!key) throw new PlaylistError('no AES-128 key: refusing unencrypted media');
  return { segments, key, gapless };
}
