/**
 * Why a media operation failed, as a stable code the HTTP layer can map to a status
 * (415 for NOT_AN_IMAGE / NOT_AUDIO, 422 for UNDECODABLE_AUDIO / NO_AUDIO_STREAM, 507 for STORAGE_FULL, 500 for
 * the rest).
 * The message is written for the person who uploaded the file.
 */
export type MediaErrorCode =
  | 'FFMPEG_NOT_FOUND'
  | 'FFMPEG_FAILED'
  | 'FFMPEG_TIMEOUT'
  | 'INPUT_NOT_FOUND'
  | 'UNDECODABLE_AUDIO'
  | 'NO_AUDIO_STREAM'
  | 'AUDIO_TOO_LONG'
  | 'NOT_AN_IMAGE'
  | 'STORAGE_FULL'
  | 'INVALID_ARGUMENT';

export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MediaError';
  }
}
