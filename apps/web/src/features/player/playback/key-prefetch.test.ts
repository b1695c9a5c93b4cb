import { describe, expect, it, vi } from 'vitest';
import type {
  HlsConfig,
  Loader,
  LoaderCallbacks,
  LoaderConfiguration,
  LoaderContext,
  LoaderStats,
} from 'hls.js';
import { keyAddressFor, keyPrefetchingLoader } from './key-prefetch';

const KEY = 'http://app.test/api/stream/hls/s1/key?token=a%2Bb';

function makeStats(): LoaderStats {
  return {
    aborted: false,
    loaded: 0,
    retry: 0,
    total: 0,
    chunkCount: 0,
    bwEstimate: 0,
    loading: { start: 0, first: 0, end: 0 },
    parsing: { start: 0, end: 0 },
    buffering: { start: 0, first: 0, end: 0 },
  };
}

/** Stands in for hls.js's own loader: records what reached the network. */
function baseLoader() {
  const requested: string[] = [];
  class BaseLoader implements Loader<LoaderContext> {
    context: LoaderContext | null = null;
    stats = makeStats();
    constructor(_config: HlsConfig) {}
    load(context: LoaderContext, _config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>) {
      requested.push(context.url);
      callbacks.onSuccess({ url: context.url, data: new ArrayBuffer(1) }, this.stats, context, null);
    }
    abort() {}
    destroy() {}
    getCacheAge() {
      return null;
    }
    getResponseHeader() {
      return null;
    }
  }
  return { BaseLoader, requested };
}

const keyContext = (url = KEY) =>
  ({ type: 'key', url, responseType: 'arraybuffer' }) as unknown as LoaderContext;
const loaderConfig = {} as LoaderConfiguration;
const config = {} as HlsConfig;

function callbacks() {
  const onSuccess = vi.fn();
  return { onSuccess, onError: vi.fn(), onTimeout: vi.fn() } as unknown as LoaderCallbacks<LoaderContext> & {
    onSuccess: typeof onSuccess;
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('key address of a playlist address', () => {
  it('is the key endpoint of the same song with the same token, absolute', () => {
    expect(
      keyAddressFor('/api/stream/hls/s1/index.m3u8?token=a%2Bb&nocache=5', 'http://app.test/album/1'),
    ).toBe(KEY);
  });

  it('is null for anything else', () => {
    expect(keyAddressFor('/api/stream/audio/s1?token=t', 'http://app.test/')).toBeNull();
    expect(keyAddressFor('/api/stream/hls/s1/index.m3u8', 'http://app.test/')).toBeNull();
    expect(keyAddressFor('http://[bad', 'http://app.test/')).toBeNull();
  });
});

describe('key-prefetching loader', () => {
  it("answers the song's key request from the prefetch, once; later requests use the network", async () => {
    const { BaseLoader, requested } = baseLoader();
    const key = new Uint8Array(16).fill(7).buffer;
    const fetcher = vi.fn(() => Promise.resolve(key));
    const Prefetching = keyPrefetchingLoader(BaseLoader, KEY, fetcher);
    expect(fetcher).toHaveBeenCalledWith(KEY);

    const first = callbacks();
    new Prefetching(config).load(keyContext(), loaderConfig, first);
    await flush();
    expect(first.onSuccess).toHaveBeenCalledTimes(1);
    expect(first.onSuccess.mock.calls[0]?.[0]).toEqual({ url: KEY, data: key });
    expect(requested).toEqual([]);

    new Prefetching(config).load(keyContext(), loaderConfig, callbacks());
    expect(requested).toEqual([KEY]);
  });

  it('sends playlists, segments and other keys through the network', () => {
    const { BaseLoader, requested } = baseLoader();
    const Prefetching = keyPrefetchingLoader(BaseLoader, KEY, () => Promise.resolve(new ArrayBuffer(16)));
    const segment = { type: undefined, url: 'http://app.test/api/stream/hls/s1/seg_0000.ts' };
    new Prefetching(config).load(segment as unknown as LoaderContext, loaderConfig, callbacks());
    new Prefetching(config).load(keyContext(`${KEY}x`), loaderConfig, callbacks());
    expect(requested).toEqual([segment.url, `${KEY}x`]);
  });

  it('lets a refused prefetch go to the network, where hls.js sees the refusal itself', async () => {
    const { BaseLoader, requested } = baseLoader();
    const Prefetching = keyPrefetchingLoader(BaseLoader, KEY, () => Promise.resolve(null));
    const handlers = callbacks();
    new Prefetching(config).load(keyContext(), loaderConfig, handlers);
    await flush();
    expect(requested).toEqual([KEY]);
    expect(handlers.onSuccess).toHaveBeenCalledTimes(1);
  });

  it('reports nothing once aborted or destroyed', async () => {
    const { BaseLoader, requested } = baseLoader();
    let resolve: (value: ArrayBuffer | null) => void = () => undefined;
    const Prefetching = keyPrefetchingLoader(
      BaseLoader,
      KEY,
      () => new Promise((settle) => (resolve = settle)),
    );
    const handlers = callbacks();
    const loader = new Prefetching(config);
    loader.load(keyContext(), loaderConfig, handlers);
    loader.destroy();
    resolve(new ArrayBuffer(16));
    await flush();
    expect(handlers.onSuccess).not.toHaveBeenCalled();
    expect(requested).toEqual([]);
  });
});
