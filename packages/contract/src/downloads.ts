import { z } from 'zod';

/*
 * Downloads of bought music (and, where the artist allows it, of subscription songs for subscribers): MP3 at
 * 320 kbit/s always, FLAC when the upload was lossless. A link is asked for first (POST), then fetched by the
 * browser; it is signed, bound to the account and session that asked, and valid for a few minutes.
 */

export const DownloadFormat = z.enum(['mp3', 'flac']);
export type DownloadFormat = z.infer<typeof DownloadFormat>;

export const DownloadItemType = z.enum(['song', 'album']);
export type DownloadItemType = z.infer<typeof DownloadItemType>;

/** GET /downloads/:itemType/:id: what the viewer may download of the song or album. */
export const DownloadOptionsResponse = z.object({
  itemType: DownloadItemType,
  itemId: z.string(),
  title: z.string(),
  /** Formats on offer: `mp3` always; `flac` when every song was uploaded lossless. */
  formats: z.array(DownloadFormat),
  /** Songs a download contains (1 for a song). */
  songCount: z.number().int(),
});
export type DownloadOptionsResponse = z.infer<typeof DownloadOptionsResponse>;

export const DownloadParams = z.object({ itemType: DownloadItemType, id: z.string().uuid() });
export type DownloadParams = z.infer<typeof DownloadParams>;

/** POST /downloads/:itemType/:id */
export const DownloadLinkBody = z.object({ format: DownloadFormat.default('mp3') });
export type DownloadLinkBody = z.infer<typeof DownloadLinkBody>;

/** 201: the signed link (fetch it with the same session), when it stops working, and the file's name. */
export const DownloadLinkResponse = z.object({
  url: z.string(),
  expiresAt: z.string(),
  fileName: z.string(),
});
export type DownloadLinkResponse = z.infer<typeof DownloadLinkResponse>;

/** 202: the file is being made (queued once); ask again after `retryAfterSec`. */
export const DownloadPreparingResponse = z.object({
  message: z.string(),
  code: z.literal('DOWNLOAD_PREPARING'),
  retryAfterSec: z.number().int(),
});
export type DownloadPreparingResponse = z.infer<typeof DownloadPreparingResponse>;

/** GET /downloads/file?token=… */
export const DownloadFileQuery = z.object({ token: z.string().max(512).optional() });
export type DownloadFileQuery = z.infer<typeof DownloadFileQuery>;
