import { HLS_CONFIG, loadHls, type HlsConstructor } from './hls-loader';
import { keyAddressFor, keyPrefetchingLoader, type KeyFetcher } from './key-prefetch';

export const HLS_MIME = 'application/vnd.apple.mpegurl';

export interface AttachedSource {
  /** 'hls' through hls.js, 'native' for a browser that plays HLS itself, 'file' for the plain audio fallback. */
  kind: 'hls' | 'native' | 'file';
  destroy(): void;
}

export interface AttachOptions {
  url: string;
  startPosition: number;
  /** A fatal hls.js error; the source is already destroyed when this runs. */
  onFatalError(type: string): void;
  /** For tests: how the key is prefetched. */
  fetchKey?: KeyFetcher;
  /** For tests: the hls.js class to use instead of loading the module. */
  loadHlsClass?: () => Promise<HlsConstructor>;
}

/** Plays a plain address, starting at `startPosition` once the metadata is known. */
export function attachFile(
  audio: HTMLAudioElement,
  url: string,
  startPosition: number,
  kind: 'native' | 'file' = 'file',
): AttachedSource {
  const seekToStart = () => {
    if (startPosition > 0 && Number.isFinite(startPosition)) audio.currentTime = startPosition;
  };
  audio.addEventListener('loadedmetadata', seekToStart, { once: true });
  audio.src = url;
  audio.load();
  return {
    kind,
    destroy() {
      audio.removeEventListener('loadedmetadata', seekToStart);
    },
  };
}

/** Clears whatever the element was playing. */
export function detachMedia(audio: HTMLAudioElement): void {
  audio.pause();
  if (audio.hasAttribute('src')) {
    audio.removeAttribute('src');
    audio.load();
  }
}

/**
 * Attaches an HLS address: hls.js where Media Source Extensions exist, else the browser's own HLS, else null
 * (the caller then plays the fallback file).
 */
export async function attachStream(
  audio: HTMLAudioElement,
  options: AttachOptions,
): Promise<AttachedSource | null> {
  const Hls = await (options.loadHlsClass ?? loadHls)();
  if (Hls.isSupported()) {
    const keyUrl = keyAddressFor(options.url, window.location.href);
    const baseLoader = Hls.DefaultConfig?.loader;
    const hls = new Hls({
      ...HLS_CONFIG,
      startPosition: options.startPosition > 0 ? options.startPosition : -1,
      ...(keyUrl && baseLoader ? { loader: keyPrefetchingLoader(baseLoader, keyUrl, options.fetchKey) } : {}),
    });
    let destroyed = false;
    const destroy = () => {
      if (destroyed) return;
      destroyed = true;
      hls.destroy();
    };
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      destroy();
      options.onFatalError(data.type);
    });
    hls.loadSource(options.url);
    hls.attachMedia(audio);
    return { kind: 'hls', destroy };
  }
  if (audio.canPlayType(HLS_MIME)) return attachFile(audio, options.url, options.startPosition, 'native');
  return null;
}
