/**
 * Whether this browser can play the gapless way (gapless-player.ts, loaded on demand): Media Source Extensions for
 * ADTS AAC, and Web Crypto, which browsers give secure contexts only (https, or localhost).
 */
import { ADTS_MIME } from './adts';
import type * as GaplessPlayerModule from './gapless-player';

export function gaplessSupported(): boolean {
  return (
    typeof MediaSource !== 'undefined' &&
    MediaSource.isTypeSupported(ADTS_MIME) &&
    typeof crypto !== 'undefined' &&
    typeof crypto.subtle?.decrypt === 'function' &&
    typeof AbortSignal.any === 'function'
  );
}

export type GaplessModule = typeof GaplessPlayerModule;

let gaplessModule: Promise<GaplessModule> | null = null;

/** The gapless player's code, fetched once (when the page is idle, or at the first song), never with the first route. */
export function loadGapless(): Promise<GaplessModule> {
  gaplessModule ??= import('./gapless-player');
  gaplessModule.catch(() => {
    gaplessModule = null;
  });
  return gaplessModule;
}
