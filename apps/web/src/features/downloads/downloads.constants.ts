import type { DownloadFormat } from '@backbeat/contract';

export const FORMAT_LABELS: Record<DownloadFormat, { name: string; detail: string }> = {
  mp3: { name: 'MP3', detail: '320 kbit/s' },
  flac: { name: 'FLAC', detail: 'Lossless' },
};

export const DOWNLOAD_MESSAGES = {
  started: (fileName: string) => `Downloading ${fileName}`,
  failed: 'The download could not start',
  optionsFailed: 'Failed to load the download formats',
  tookTooLong: 'The download is taking longer than usual. Try again in a minute.',
} as const;

/** How long the client keeps asking while the files are made (a long album's MP3s take a few seconds each). */
export const PREPARING_MAX_WAIT_MS = 3 * 60 * 1000;
