import type { JobHandler, JobLog } from '../../jobs/job-runner';
import type { MediaStore } from '../../storage';
import { sweepScratchSpace } from '../../storage';
import type { MediaReferencesRepository } from './media-references.repository';
import type { SongMediaRepository } from './song-media.repository';
import { parseHlsVersion, TRANSCODE_JOB } from './transcode.job';

/** Recurring housekeeping job (every hour, and at each start): see `cleanUpMedia`. */
export const MEDIA_CLEANUP_JOB = 'media-cleanup';
export const MEDIA_CLEANUP_EVERY_MS = 60 * 60 * 1000;
/**
 * Uploaded originals and images are written before the row that points at them commits; younger than this, an
 * unreferenced one may belong to an upload still in flight, so it is left alone.
 */
export const UNREFERENCED_MIN_AGE_MS = 60 * 60 * 1000;

const BATCH = 500;

export interface MediaCleanupDeps {
  mediaStore: MediaStore;
  references: MediaReferencesRepository;
  songs: SongMediaRepository;
  tmpRoot: string;
  onCatalogChange: () => Promise<void>;
  /** The job runner's log (read when the job runs: the API attaches its logger after registering). */
  log: () => JobLog;
}

export interface MediaCleanupReport {
  /** Media-store prefixes removed. */
  removed: string[];
  /** Scratch folders of dead processes removed, and their leftover children stopped. */
  scratch: string[];
  killedChildren: number[];
  /** Songs that waited for a transcode no job would do, now failed. */
  failedSongs: string[];
}

function batches<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += BATCH) out.push(items.slice(index, index + BATCH));
  return out;
}

/**
 * What a killed upload or transcode leaves behind, removed:
 * - HLS versions (`songs/<song>/<version>`) no song plays from and no queued or running job is writing, and
 *   preview and download folders (`songs/<song>/p…`, `m…`) no rendition row points at once old enough not to be
 *   in flight (and the song's folder once empty);
 * - uploaded originals (`uploads/<song>/<key>`) no song waits for, once older than UNREFERENCED_MIN_AGE_MS;
 * - images (`images/<kind>/<version>`) no row shows, once older than that;
 * - scratch folders (`DATA_DIR/tmp`) of processes that are gone;
 * and songs left in `processing` without a job to finish them are marked failed, with a message for the artist.
 */
export async function cleanUpMedia(deps: MediaCleanupDeps, now = Date.now()): Promise<MediaCleanupReport> {
  const { mediaStore, references } = deps;
  const report: MediaCleanupReport = { removed: [], scratch: [], killedChildren: [], failedSongs: [] };
  const remove = async (prefix: string) => {
    await mediaStore.removePrefix(prefix);
    report.removed.push(prefix);
  };
  const old = (mtime: Date) => now - mtime.getTime() > UNREFERENCED_MIN_AGE_MS;

  // Songs stuck first: their originals then count as unreferenced only once they are failed (they stay kept).
  for (const song of await references.songsProcessingWithoutJob(TRANSCODE_JOB)) {
    if (!song.sourceKey) continue;
    const failed = await deps.songs.finishProcessing(song.id, song.sourceKey, {
      status: 'failed',
      failureReason: 'Processing was interrupted; upload the file again',
    });
    if (failed) report.failedSongs.push(song.id);
  }
  if (report.failedSongs.length > 0) await deps.onCatalogChange();

  for (const group of batches(await mediaStore.list('songs'))) {
    const rows = await references.songs(group.map((entry) => entry.name));
    const versions = await Promise.all(
      group.map(async (entry) => ({
        songId: entry.name,
        versions: await mediaStore.list(`songs/${entry.name}`),
      })),
    );
    const jobIds = versions.flatMap(({ versions: list }) =>
      list.map((version) => parseHlsVersion(version.name)?.jobId).filter((id): id is string => Boolean(id)),
    );
    const pending = await references.pendingJobs([...new Set(jobIds)]);
    const renditions = await references.renditionFolders(group.map((entry) => entry.name));
    for (const { songId, versions: list } of versions) {
      const playing = rows.get(songId)?.hlsPrefix;
      let kept = 0;
      for (const version of list) {
        const prefix = `songs/${songId}/${version.name}`;
        const jobId = parseHlsVersion(version.name)?.jobId;
        if (prefix === playing || renditions.has(prefix) || (jobId && pending.has(jobId))) kept += 1;
        else if (jobId || old(version.mtime)) await remove(prefix);
        else kept += 1; // a rendition being stored, or an older naming, young: left for a later run
      }
      // An empty folder goes too, unless a transcode may be about to write into it.
      if (kept === 0 && rows.get(songId)?.status !== 'processing') await remove(`songs/${songId}`);
    }
  }

  for (const group of batches(await mediaStore.list('uploads'))) {
    const rows = await references.songs(group.map((entry) => entry.name));
    for (const entry of group) {
      const waitingFor = rows.get(entry.name)?.sourceKey;
      const originals = await mediaStore.list(`uploads/${entry.name}`);
      let kept = 0;
      for (const original of originals) {
        const key = `uploads/${entry.name}/${original.name}`;
        if (key !== waitingFor && old(original.mtime)) await remove(key);
        else kept += 1;
      }
      if (kept === 0 && old(entry.mtime)) await remove(`uploads/${entry.name}`);
    }
  }

  const shownImages = new Set(
    (await references.imageKeys()).map((key) => key.slice(0, key.lastIndexOf('/'))),
  );
  for (const kind of await mediaStore.list('images')) {
    for (const version of await mediaStore.list(`images/${kind.name}`)) {
      const prefix = `images/${kind.name}/${version.name}`;
      if (!shownImages.has(prefix) && old(version.mtime)) await remove(prefix);
    }
  }

  const scratch = await sweepScratchSpace(deps.tmpRoot, now);
  report.scratch = scratch.removed;
  report.killedChildren = scratch.killed;
  return report;
}

export function mediaCleanupHandler(deps: MediaCleanupDeps): JobHandler {
  return async () => {
    const report = await cleanUpMedia(deps);
    const total = report.removed.length + report.scratch.length + report.failedSongs.length;
    if (total > 0) deps.log().warn({ ...report }, 'media clean-up removed what interrupted work left behind');
  };
}
