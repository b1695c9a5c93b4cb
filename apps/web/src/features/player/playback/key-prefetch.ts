import type {
  HlsConfig,
  Loader,
  LoaderCallbacks,
  LoaderConfiguration,
  LoaderContext,
  LoaderStats,
} from 'hls.js';

type LoaderClass = new (config: HlsConfig) => Loader<LoaderContext>;

/**
 * The key address the server writes into a song's playlist (`/api/stream/hls/{id}/key?token=…`, same token as the
 * playlist's own address), absolute; null for any other kind of address.
 */
export function keyAddressFor(playlistUrl: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(playlistUrl, base);
  } catch {
    return null;
  }
  const token = url.searchParams.get('token');
  if (!token || !url.pathname.endsWith('/index.m3u8')) return null;
  return `${url.origin}${url.pathname.replace(/index\.m3u8$/, 'key')}?token=${encodeURIComponent(token)}`;
}

/** Fetches the key; null when refused or unreachable (the real request then reports the failure to hls.js). */
export type KeyFetcher = (url: string) => Promise<ArrayBuffer | null>;

export const fetchKey: KeyFetcher = async (url) => {
  try {
    const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
    return response.ok ? await response.arrayBuffer() : null;
  } catch {
    return null;
  }
};

/**
 * A loader class for hls.js that asks for the song's key at once, in parallel with its playlist, instead of after
 * the playlist names it: one round trip less before the first sound. The key endpoint still checks the token and
 * the access policy on that request. The prefetched key answers only a key request for exactly that address, once;
 * every other request, and a refused prefetch, goes through hls.js's own loader.
 */
export function keyPrefetchingLoader(Base: LoaderClass, keyUrl: string, fetcher: KeyFetcher = fetchKey) {
  let pending: Promise<ArrayBuffer | null> | null = fetcher(keyUrl);

  return class KeyPrefetchingLoader extends Base {
    private settled = false;

    override load(
      context: LoaderContext,
      config: LoaderConfiguration,
      callbacks: LoaderCallbacks<LoaderContext>,
    ): void {
      const prefetched = context.type === 'key' && context.url === keyUrl ? pending : null;
      if (!prefetched) {
        super.load(context, config, callbacks);
        return;
      }
      pending = null;
      void prefetched.then((data) => {
        if (this.settled) return;
        if (!data) {
          super.load(context, config, callbacks);
          return;
        }
        this.settled = true;
        const stats: LoaderStats = this.stats;
        const now = performance.now();
        stats.loading.start = stats.loading.first = stats.loading.end = now;
        stats.loaded = stats.total = data.byteLength;
        callbacks.onSuccess({ url: context.url, data }, stats, context, null);
      });
    }

    override abort(): void {
      this.settled = true;
      super.abort();
    }

    override destroy(): void {
      this.settled = true;
      super.destroy();
    }
  };
}
