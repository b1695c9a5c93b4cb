import { spawn } from 'node:child_process';
import { PassThrough, Readable, type Writable } from 'node:stream';
import NodeID3 from 'node-id3';
import sharp from 'sharp';
import type { FfmpegTools } from './ffmpeg';
import { lastStderrLines } from './process';

/** What a downloaded file is tagged with. */
export interface AudioTags {
  title: string;
  artist: string;
  album: string | null;
  albumArtist: string | null;
  trackNumber: number | null;
  trackTotal: number | null;
  year: number | null;
  genre: string | null;
}

/** Cover art for tags: a JPEG (every player reads it; WebP in ID3 is not), at most 600 px square. */
export async function coverJpeg(imageFile: string | Buffer): Promise<Buffer> {
  return sharp(imageFile)
    .resize(600, 600, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 88, mozjpeg: true })
    .toBuffer();
}

const trackText = (tags: AudioTags) =>
  tags.trackNumber === null
    ? undefined
    : `${tags.trackNumber}${tags.trackTotal ? `/${tags.trackTotal}` : ''}`;

/** An ID3v2.3 tag (title, artist, album, album artist, track n/total, year, genre, front cover). */
export function id3v2Tag(tags: AudioTags, cover: Buffer | null): Buffer {
  return NodeID3.create({
    title: tags.title,
    artist: tags.artist,
    ...(tags.album ? { album: tags.album } : {}),
    ...(tags.albumArtist ? { performerInfo: tags.albumArtist } : {}),
    ...(trackText(tags) ? { trackNumber: trackText(tags) } : {}),
    ...(tags.year ? { year: String(tags.year) } : {}),
    ...(tags.genre ? { genre: tags.genre } : {}),
    ...(cover
      ? {
          image: {
            mime: 'image/jpeg',
            type: { id: 3, name: 'front cover' },
            description: 'Cover',
            imageBuffer: cover,
          },
        }
      : {}),
  });
}

/**
 * A tagged MP3 as a stream: the ID3v2 tag (from `id3v2Tag`), then the untagged file as stored (its LAME header
 * first). Nothing is re-encoded or written to disk; the file is read in the store's chunks, and the length is
 * known in advance (the tag's plus the file's).
 */
export function taggedMp3(file: Readable, tag: Buffer): Readable {
  const out = Readable.from(
    (async function* () {
      yield tag;
      yield* file;
    })(),
  );
  out.on('close', () => file.destroy());
  return out;
}

/** Vorbis comments as ffmpeg's FLAC muxer writes them (TRACKNUMBER, TRACKTOTAL, ALBUMARTIST, DATE...). */
function flacMetadataArgs(tags: AudioTags): string[] {
  const entries: Array<[string, string | number | null]> = [
    ['title', tags.title],
    ['artist', tags.artist],
    ['album', tags.album],
    ['album_artist', tags.albumArtist],
    ['track', tags.trackNumber],
    ['TRACKTOTAL', tags.trackTotal],
    ['date', tags.year],
    ['genre', tags.genre],
  ];
  return entries.flatMap(([key, value]) =>
    value === null || value === '' ? [] : ['-metadata', `${key}=${String(value)}`],
  );
}

/**
 * A tagged FLAC as a stream: ffmpeg copies the stored master's frames (no re-encode) behind fresh Vorbis comments
 * and a front-cover PICTURE block, writing to its stdout. The master comes in on file descriptor 3 (streamed
 * from the media store, local disk or a bucket) and the cover on stdin, so nothing touches the disk. The FLAC
 * header comes from the master's own STREAMINFO, complete because the master was written to a file. Destroying
 * the stream stops ffmpeg; ffmpeg or the master's stream failing destroys it with the reason.
 */
export function taggedFlac(
  tools: Pick<FfmpegTools, 'ffmpeg'>,
  master: Readable,
  tags: AudioTags,
  cover: Buffer | null,
): Readable {
  const args = [
    ...['-hide_banner', '-nostdin', '-v', 'error'],
    ...['-f', 'flac', '-i', 'pipe:3'],
    ...(cover ? ['-f', 'jpeg_pipe', '-i', 'pipe:0'] : []),
    ...['-map', '0:a:0', ...(cover ? ['-map', '1:v:0'] : [])],
    ...['-map_metadata', '-1', '-c', 'copy'],
    ...flacMetadataArgs(tags),
    ...(cover
      ? [
          ...['-disposition:v', 'attached_pic'],
          ...['-metadata:s:v', 'title=Cover', '-metadata:s:v', 'comment=Cover (front)'],
        ]
      : []),
    ...['-f', 'flac', 'pipe:1'],
  ];
  const child = spawn(tools.ffmpeg, args, {
    stdio: [cover ? 'pipe' : 'ignore', 'pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const out = new PassThrough();
  const masterIn = child.stdio[3] as Writable;
  masterIn.on('error', () => undefined); // ffmpeg may exit before reading it all; its exit code says why
  master.on('error', (error) => out.destroy(error));
  master.pipe(masterIn);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (stderr.length < 16_384) stderr += chunk;
  });
  if (cover && child.stdin) {
    child.stdin.on('error', () => undefined); // ffmpeg may exit before reading it all; its exit code says why
    child.stdin.end(cover);
  }
  child.stdout?.pipe(out, { end: false });
  child.on('error', (error) => out.destroy(error));
  child.on('close', (code) => {
    if (code === 0) out.end();
    else
      out.destroy(
        new Error(`ffmpeg could not tag the FLAC file: ${lastStderrLines(stderr, 2).join(' ') || code}`),
      );
  });
  out.on('close', () => {
    master.destroy();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return out;
}
