/*
 * `@backbeat/server/media`: the ffmpeg helpers benches and browser journeys make their audio with, as the media
 * pipeline itself uses them.
 */
export {
  cutPreviewClip,
  encodeFlacMaster,
  encodeMp3,
  locateFfmpeg,
  transcodeToEncryptedHls,
  type FfmpegTools,
} from '../modules/media';
export { LocalMediaStore, S3MediaStore } from '../storage';
export { formatBytes, migrateMedia, type MigrateResult } from '../ops/media-migrate';
