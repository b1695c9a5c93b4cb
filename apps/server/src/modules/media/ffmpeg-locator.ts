import { locateFfmpeg, type FfmpegTools } from './ffmpeg';

/** ffmpeg is looked up once, when first needed; a failed lookup is retried next time. */
export function ffmpegLocator(configuredPath: string | undefined): () => Promise<FfmpegTools> {
  let found: Promise<FfmpegTools> | null = null;
  return () => {
    found ??= locateFfmpeg(configuredPath).catch((error: unknown) => {
      found = null;
      throw error;
    });
    return found;
  };
}
