import type HlsClass from 'hls.js';
import type { HlsConfig, LoaderConfig } from 'hls.js';

export type Hls = HlsClass;
export type HlsConstructor = typeof HlsClass;

const noRetry = { maxNumRetry: 0, retryDelayMs: 0, maxRetryDelayMs: 0 };
const keyLoadPolicy: LoaderConfig = {
  maxTimeToFirstByteMs: 8000,
  maxLoadTimeMs: 20_000,
  timeoutRetry: noRetry,
  errorRetry: noRetry,
};

/**
 * SPEC section 9: 30 s buffer target, 600 s maximum, 60 MB, 0.5 s hole tolerance; a refused key is final
 * (the access policy said no), so key loading never retries.
 */
export const HLS_CONFIG: Partial<HlsConfig> = {
  maxBufferLength: 30,
  maxMaxBufferLength: 600,
  maxBufferSize: 60 * 1000 * 1000,
  maxBufferHole: 0.5,
  keyLoadPolicy: { default: keyLoadPolicy },
  // AAC-only segments transmux in well under a millisecond; a worker per song costs more to start than it saves.
  enableWorker: false,
  // The first key and segment load while the MediaSource is still opening, instead of waiting for hls.js's next
  // 100 ms tick after it opens: about 100 ms off the time to first audio.
  startFragPrefetch: true,
};

let hlsModule: Promise<HlsConstructor> | null = null;

/** hls.js is loaded on first use (or when the player warms it up), never with the first route's JavaScript. */
export function loadHls(): Promise<HlsConstructor> {
  hlsModule ??= import('hls.js').then((module) => module.default);
  hlsModule.catch(() => {
    hlsModule = null;
  });
  return hlsModule;
}
