import { randomBytes, randomUUID } from 'node:crypto';
import {
  CreateSongBody,
  UpdateSongBody,
  type CatalogBuyersResponse,
  type CatalogDeleteResponse,
  type Song,
  type SongMutationResponse,
} from '@backbeat/contract';
import { assertCanManageArtist, type Viewer } from '../access';
import { AppError, badRequest, notFound } from '../../platform/errors';
import { measureAudioSeconds, MediaError, probeAudio, type FfmpegTools } from '../media';
import { enqueuePreview, TRANSCODE_JOB, TRANSCODE_MAX_ATTEMPTS } from '../renditions';
import type { AlbumRow } from './album.repository';
import type { CatalogRepositories } from './catalog.repositories';
import { checkGenreName, uploadError, type WriteSupport } from './catalog-write.support';
import { titleSearchText } from './search-text';
import type { SongChanges } from './song.repository';
import type { SongView } from './song-view';
import type { ReceivedFile, ReceivedForm } from './upload-form';

export interface SongWriteDeps {
  support: WriteSupport;
  songView: SongView;
  jobs: {
    /** Starts queued jobs at once after the transaction that queued them committed. */
    notify(): Promise<void>;
    enqueue(
      type: string,
      payload: Record<string, unknown>,
      options?: { maxAttempts?: number; dedupeKey?: string },
    ): Promise<string | null>;
  };
  ffmpeg: () => Promise<FfmpegTools>;
  /** Longest audio accepted, in seconds (UPLOAD_MAX_AUDIO_MINUTES). */
  maxAudioSeconds: number;
}

/** Media-store prefixes a song owns (besides its cover): HLS versions and uploaded originals. */
export const songMediaPrefixes = (songId: string) => [`songs/${songId}`, `uploads/${songId}`];

/**
 * Song uploads and edits. Everything is validated (fields, rights, file content) before anything is written; the
 * row is written in one transaction; the audio is transcoded afterwards by a durable job.
 */
export class SongWriteService {
  constructor(private readonly deps: SongWriteDeps) {}

  private get repos() {
    return this.deps.support.deps.repos;
  }

  async create(viewer: Viewer, form: ReceivedForm): Promise<SongMutationResponse> {
    const input = CreateSongBody.parse(form.fields);
    const artist = await this.deps.support.managedArtist(viewer, input.artist);
    checkGenreName(input.genre);
    const album = input.album ? await this.albumOf(input.album, artist.id) : null;
    const audio = form.files.audio;
    if (!audio) throw badRequest('audio: an audio file is required');
    const { durationSec } = await this.checkAudio(audio);
    checkPreviewStart(input.previewStart, durationSec);

    const songId = randomUUID();
    const sourceKey = `uploads/${songId}/${randomBytes(8).toString('hex')}`;
    const coverKey = await this.deps.support.storeImage(form.files.coverImage, 'song');
    try {
      await this.deps.support.deps.mediaStore.put(sourceKey, audio.path);
      await this.deps.support.transaction(async (repos) => {
        await repos.songs.insert({
          id: songId,
          artistId: artist.id,
          albumId: album?.id ?? null,
          trackNumber: album ? await repos.songs.nextTrackNumber(album.id) : null,
          title: input.title,
          singer: input.singer || artist.name,
          genreId: (await this.deps.support.genreId(repos, input.genre)) ?? album?.genreId ?? artist.genreId,
          accessType: input.accessType,
          freeToStream: input.freeToStream,
          price: input.price,
          currency: artist.currency,
          coverImage: coverKey ?? null,
          status: 'processing',
          sourceKey,
          previewStartSec: input.previewStart ?? null,
          searchText: titleSearchText(input.title, artist.name),
        });
        await this.queueTranscode(repos, songId, sourceKey);
      });
    } catch (error) {
      await this.deps.support.discard([
        this.deps.support.imagePrefix(coverKey, 'song'),
        ...songMediaPrefixes(songId),
      ]);
      throw error;
    }
    await this.deps.jobs.notify();
    return { message: 'Song created successfully', song: await this.present(viewer, songId) };
  }

  async update(viewer: Viewer, songId: string, form: ReceivedForm): Promise<SongMutationResponse> {
    const song = await this.repos.songs.findById(songId);
    // A removed song left the catalogue for good: its buyers keep it as it was when they bought it.
    if (!song || song.status === 'removed') throw notFound('Song not found', 'SONG_NOT_FOUND');
    assertCanManageArtist(viewer, { ownerUserId: song.artistOwnerUserId });
    const input = UpdateSongBody.parse(form.fields);
    const movesArtist = input.artist && input.artist !== song.artistId;
    const artist = movesArtist
      ? await this.deps.support.managedArtist(viewer, input.artist)
      : { id: song.artistId, name: song.artistName };
    checkGenreName(input.genre);
    let album: AlbumRow | null | undefined;
    if (input.album !== undefined) album = input.album ? await this.albumOf(input.album, artist.id) : null;
    else if (movesArtist && song.albumId) album = null; // the old album belongs to the old artist
    const audio = form.files.audio;
    const uploaded = audio ? await this.checkAudio(audio) : null;
    // A new file is checked against its own length; otherwise the song's, once it is known.
    checkPreviewStart(
      input.previewStart,
      uploaded?.durationSec ?? (song.status === 'ready' ? song.durationSec : 0),
    );
    const movesPreview =
      !audio && input.previewStart !== undefined && input.previewStart !== song.previewStartSec;

    const sourceKey = audio ? `uploads/${songId}/${randomBytes(8).toString('hex')}` : undefined;
    const coverKey = await this.deps.support.storeImage(form.files.coverImage, 'song');
    const discardOnFailure = [this.deps.support.imagePrefix(coverKey, 'song'), sourceKey];
    try {
      if (audio && sourceKey) await this.deps.support.deps.mediaStore.put(sourceKey, audio.path);
      await this.deps.support.transaction(async (repos) => {
        const changes: SongChanges = {
          artistId: artist.id,
          title: input.title,
          singer: input.singer === '' ? artist.name : input.singer,
          genreId: await this.deps.support.genreId(repos, input.genre),
          accessType: input.accessType,
          freeToStream: input.freeToStream,
          price: input.price,
          coverImage: coverKey,
          previewStartSec: input.previewStart,
          searchText: titleSearchText(input.title ?? song.title, artist.name),
        };
        if (album !== undefined && album?.id !== song.albumId) {
          changes.albumId = album?.id ?? null;
          changes.trackNumber = album ? await repos.songs.nextTrackNumber(album.id) : null;
        }
        // A new upload hides the song until its transcode is ready (the job swaps the HLS version).
        if (sourceKey) Object.assign(changes, { sourceKey, status: 'processing', failureReason: null });
        await repos.songs.update(songId, withoutUndefined(changes));
        if (sourceKey) await this.queueTranscode(repos, songId, sourceKey);
      });
    } catch (error) {
      await this.deps.support.discard(discardOnFailure);
      throw error;
    }
    if (coverKey) await this.deps.support.discard([this.deps.support.imagePrefix(song.coverImage, 'song')]);
    if (sourceKey) {
      if (song.sourceKey) await this.deps.support.discard([song.sourceKey]);
      await this.deps.jobs.notify();
    }
    // A ready song's preview is made again from the new start (a new upload's transcode queues its own).
    if (movesPreview && song.status === 'ready') await enqueuePreview(this.deps, songId);
    return { message: 'Song updated successfully', song: await this.present(viewer, songId) };
  }

  /** How many accounts keep the song if it is deleted (the studio's confirm asks before deleting). */
  async buyers(viewer: Viewer, songId: string): Promise<CatalogBuyersResponse> {
    const song = await this.repos.songs.findById(songId);
    if (!song || song.status === 'removed') throw notFound('Song not found', 'SONG_NOT_FOUND');
    assertCanManageArtist(viewer, { ownerUserId: song.artistOwnerUserId });
    return { buyers: await this.repos.holdings.countSongHolders(songId, song.albumId) };
  }

  /**
   * A purchase is forever. An unsold song is deleted with its media. A sold one (bought on its own or with its
   * album) leaves the catalogue, search and its album, and is never sold again, but stays playable and
   * downloadable by its buyers (and by subscribers until the end of the period they had paid for): its row and
   * media are kept (status `removed`), its album's buyers get it recorded as theirs, orders stay as they were.
   */
  async delete(viewer: Viewer, songId: string): Promise<CatalogDeleteResponse> {
    const song = await this.repos.songs.findById(songId);
    if (!song || song.status === 'removed') throw notFound('Song not found', 'SONG_NOT_FOUND');
    assertCanManageArtist(viewer, { ownerUserId: song.artistOwnerUserId });
    const buyers = await this.deps.support.transaction(async (repos) => {
      const holders = await repos.holdings.countSongHolders(songId, song.albumId);
      if (holders === 0) {
        await repos.songs.delete(songId);
        return 0;
      }
      if (song.albumId) await repos.holdings.grantTracksToAlbumHolders(song.albumId, [songId]);
      await repos.songs.markRemoved(songId, this.deps.support.now());
      return holders;
    });
    if (buyers === 0) {
      await this.deps.support.discard([
        ...songMediaPrefixes(songId),
        this.deps.support.imagePrefix(song.coverImage, 'song'),
      ]);
      return { message: 'Song deleted successfully', buyers };
    }
    // Only an upload still waiting for its transcode goes; what the buyers play stays.
    await this.deps.support.discard([song.sourceKey]);
    return { message: `Song deleted successfully. ${keptBy(buyers)}`, buyers };
  }

  private async albumOf(albumId: string, artistId: string): Promise<AlbumRow> {
    const album = await this.repos.albums.findById(albumId);
    if (!album || album.deletedAt) throw badRequest('album: no album with this id');
    if (album.artistId !== artistId) throw badRequest('album: the album belongs to another artist');
    return album;
  }

  /**
   * The first bytes already looked like audio; ffprobe now confirms there is an audio stream to decode, and that it
   * is no longer than the limit: a small file can hold hours of audio, and transcoding costs by the second.
   */
  private async checkAudio(audio: ReceivedFile) {
    const limit = this.deps.maxAudioSeconds;
    let probe: Awaited<ReturnType<typeof probeAudio>>;
    let seconds: number;
    try {
      const tools = await this.deps.ffmpeg();
      probe = await probeAudio(tools, audio.path);
      if (!probe.hasAudio) throw new MediaError('NO_AUDIO_STREAM', 'The file contains no audio track');
      // A container that states no length (a FLAC written to a pipe) is measured by decoding, up to the limit.
      seconds =
        probe.durationSec > 0 ? probe.durationSec : await measureAudioSeconds(tools, audio.path, limit);
    } catch (error) {
      throw uploadError(audio.field, error);
    }
    if (seconds > limit) {
      const length = probe.durationSec > 0 ? `${clock(seconds)} long` : `longer than ${clock(limit)}`;
      throw new AppError(
        413,
        'AUDIO_TOO_LONG',
        `${audio.field}: the audio is ${length}; songs may be at most ${clock(limit)}`,
      );
    }
    return { ...probe, durationSec: seconds };
  }

  /** In the song's own transaction: a song in `processing` always has its job, even if the process dies. */
  private async queueTranscode(repos: CatalogRepositories, songId: string, sourceKey: string) {
    await repos.jobs.add(TRANSCODE_JOB, { songId, sourceKey }, { maxAttempts: TRANSCODE_MAX_ATTEMPTS });
  }

  private async present(viewer: Viewer, songId: string): Promise<Song> {
    const [song] = await this.deps.songView.present(viewer, await this.repos.songs.listByIds([songId]));
    return song!;
  }
}

/** What the artist is told when a deleted song or album stays with its buyers. */
export function keptBy(buyers: number): string {
  const who = buyers === 1 ? '1 buyer keeps it' : `${buyers} buyers keep it`;
  return `${who}: it left the catalogue, and still plays and downloads for them.`;
}

/** "3:05" for 185 s, "1:02:05" past an hour. */
function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  const [hours, minutes, secs] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(secs)}` : `${minutes}:${pad(secs)}`;
}

/**
 * A preview must start inside the song (its length is known from the upload's probe or the finished transcode;
 * 0 when unknown, which skips the check). Songs too short for a whole window from there are clamped when the
 * preview is made (see previewWindow), so any start inside the song is accepted.
 */
function checkPreviewStart(start: number | null | undefined, durationSec: number) {
  if (start === null || start === undefined || !(durationSec > 0)) return;
  if (start >= durationSec) {
    throw badRequest(`previewStart: must be within the song (before ${clock(durationSec)})`);
  }
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
