import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { DownloadFormat } from '@backbeat/contract';
import { readMedia, type MediaStore } from '../../storage';
import { coverJpeg, id3v2Tag, taggedFlac, taggedMp3, type AudioTags, type FfmpegTools } from '../media';
import type { DownloadAlbumRow, DownloadSongRow } from './downloads.repository';
import { safeFileName, trackFileName, uniqueNames } from './file-names';

/** A response body ready to send: its name, type, length when known in advance, and the stream itself. */
export interface DownloadBody {
  fileName: string;
  contentType: string;
  size: number | null;
  stream: Readable;
}

/** One song of a download and the stored file (MP3 or FLAC master) its data comes from. */
export interface DownloadTrack {
  song: DownloadSongRow;
  mediaKey: string;
}

export interface DownloadFileDeps {
  mediaStore: MediaStore;
  ffmpeg: () => Promise<FfmpegTools>;
  log?: { warn: (object: object, message: string) => void };
}

const CONTENT_TYPES: Record<DownloadFormat, string> = { mp3: 'audio/mpeg', flac: 'audio/flac' };

/** Tags from the catalogue as it is now (the stored files carry none, so an edited title is never stale). */
function tagsFor(song: DownloadSongRow, position: number | null): AudioTags {
  return {
    title: song.title,
    artist: song.singer || song.artistName,
    album: song.albumTitle,
    albumArtist: song.albumId ? song.artistName : null,
    trackNumber: song.albumId ? (song.trackNumber ?? position) : null,
    trackTotal: song.albumTrackCount,
    year: song.albumReleaseDate?.getUTCFullYear() ?? null,
    genre: song.genreName,
  };
}

/** JPEG covers by image key, converted once per download. A cover that cannot be read is left out. */
function coverCache(deps: DownloadFileDeps) {
  const covers = new Map<string, Promise<Buffer | null>>();
  return (key: string | null): Promise<Buffer | null> => {
    if (!key) return Promise.resolve(null);
    let cover = covers.get(key);
    if (!cover) {
      cover = readMedia(deps.mediaStore, key)
        .then(coverJpeg)
        .catch((error: unknown) => {
          deps.log?.warn({ err: error, key }, 'cover art left out of a download');
          return null;
        });
      covers.set(key, cover);
    }
    return cover;
  };
}

/** One tagged audio file: its stream and, for MP3, its exact length. */
async function trackBody(
  deps: DownloadFileDeps,
  track: DownloadTrack,
  format: DownloadFormat,
  tags: AudioTags,
  cover: Buffer | null,
): Promise<{ size: number | null; open: () => Promise<Readable> }> {
  if (format === 'mp3') {
    const tag = id3v2Tag(tags, cover);
    const info = await deps.mediaStore.stat(track.mediaKey);
    if (!info) throw new Error(`Download file missing: ${track.mediaKey}`);
    return {
      size: tag.length + info.size,
      open: () => Promise.resolve(taggedMp3(deps.mediaStore.read(track.mediaKey), tag)),
    };
  }
  return {
    size: null,
    open: async () => taggedFlac(await deps.ffmpeg(), deps.mediaStore.read(track.mediaKey), tags, cover),
  };
}

/** "Artist - Title.mp3" */
export const songFileName = (song: DownloadSongRow, format: DownloadFormat) =>
  `${safeFileName(`${song.singer || song.artistName} - ${song.title}`)}.${format}`;
/** "Artist - Album.zip" */
export const albumFileName = (album: DownloadAlbumRow) =>
  `${safeFileName(`${album.artistName} - ${album.title}`)}.zip`;

/** A single song: "Artist - Title.mp3". */
export async function songDownload(
  deps: DownloadFileDeps,
  track: DownloadTrack,
  format: DownloadFormat,
): Promise<DownloadBody> {
  const cover = await coverCache(deps)(track.song.coverImage);
  const body = await trackBody(deps, track, format, tagsFor(track.song, null), cover);
  return {
    fileName: songFileName(track.song, format),
    contentType: CONTENT_TYPES[format],
    size: body.size,
    stream: await body.open(),
  };
}

/**
 * An album as one ZIP, streamed as it is built: entries are stored (audio does not deflate), each file is opened
 * only when the archive reaches it (one ffmpeg at a time for FLAC), and nothing is written to disk or held whole
 * in memory. With MP3 every length is known, so the ZIP's length is too (the browser shows real progress).
 * Entries: "01 - Title.mp3" in track order, and the album cover as cover.jpg.
 */
export async function albumDownload(
  deps: DownloadFileDeps,
  album: DownloadAlbumRow,
  tracks: DownloadTrack[],
  format: DownloadFormat,
): Promise<DownloadBody> {
  const covers = coverCache(deps);
  const zip = new ZipFile();
  const opened = new Set<Readable>();
  const names = uniqueNames(
    tracks.map((track, index) =>
      trackFileName(track.song.trackNumber ?? index + 1, track.song.title, format),
    ),
  );
  const mtime = new Date();
  for (const [index, track] of tracks.entries()) {
    const cover = await covers(track.song.coverImage);
    const body = await trackBody(deps, track, format, tagsFor(track.song, index + 1), cover);
    zip.addReadStreamLazy(
      names[index]!,
      { compress: false, mtime, ...(body.size !== null && { size: body.size }) },
      (callback) => {
        body.open().then(
          (stream) => {
            opened.add(stream);
            stream.once('close', () => opened.delete(stream));
            callback(null, stream);
          },
          (error: Error) => callback(error, undefined as unknown as Readable),
        );
      },
    );
  }
  const albumCover = await covers(album.cover);
  if (albumCover) zip.addBuffer(albumCover, 'cover.jpg', { compress: false, mtime });

  let size: number | null = null;
  // yazl reports the archive's final length to this callback (-1 when unknown); @types/yazl omits the argument.
  const end = zip.end.bind(zip) as (options: undefined, onSize: (total: number) => void) => void;
  end(undefined, (total) => {
    size = total >= 0 ? total : null;
  });
  const stream = zip.outputStream as Readable;
  // A failing entry (ffmpeg) ends the response; a client that goes away stops the entry being read.
  zip.on('error', (error: Error) => stream.destroy(error));
  stream.once('close', () => {
    for (const entry of opened) entry.destroy();
  });
  return {
    fileName: albumFileName(album),
    contentType: 'application/zip',
    size,
    stream,
  };
}
