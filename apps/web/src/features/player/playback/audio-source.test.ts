// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import type { HlsConstructor } from './hls-loader';
import { HLS_CONFIG } from './hls-loader';
import { attachFile, attachStream, detachMedia } from './audio-source';

type ErrorHandler = (event: string, data: { fatal: boolean; type: string }) => void;

function fakeHls(supported: boolean) {
  const instances: FakeHls[] = [];
  class FakeHls {
    static Events = { ERROR: 'hlsError' };
    static isSupported = () => supported;
    config: Record<string, unknown>;
    source: string | null = null;
    media: HTMLMediaElement | null = null;
    destroyed = 0;
    onError: ErrorHandler | null = null;
    constructor(config: Record<string, unknown>) {
      this.config = config;
      instances.push(this);
    }
    on(event: string, handler: ErrorHandler) {
      if (event === 'hlsError') this.onError = handler;
    }
    loadSource(url: string) {
      this.source = url;
    }
    attachMedia(media: HTMLMediaElement) {
      this.media = media;
    }
    destroy() {
      this.destroyed += 1;
    }
  }
  return { Hls: FakeHls as unknown as HlsConstructor, instances };
}

describe('HLS configuration (SPEC section 9)', () => {
  it('buffers 30 s (600 s max, 60 MB), tolerates 0.5 s holes, and never retries a key', () => {
    expect(HLS_CONFIG).toMatchObject({
      maxBufferLength: 30,
      maxMaxBufferLength: 600,
      maxBufferSize: 60 * 1000 * 1000,
      maxBufferHole: 0.5,
    });
    const key = HLS_CONFIG.keyLoadPolicy?.default;
    expect(key?.errorRetry?.maxNumRetry).toBe(0);
    expect(key?.timeoutRetry?.maxNumRetry).toBe(0);
  });
});

describe('attachStream', () => {
  it('uses hls.js where supported, starting at the stored time', async () => {
    const { Hls, instances } = fakeHls(true);
    const audio = document.createElement('audio');
    const source = await attachStream(audio, {
      url: '/a.m3u8?nocache=1',
      startPosition: 42,
      onFatalError: vi.fn(),
      loadHlsClass: () => Promise.resolve(Hls),
    });
    expect(source?.kind).toBe('hls');
    const hls = instances[0]!;
    expect(hls.config).toMatchObject({ ...HLS_CONFIG, startPosition: 42 });
    expect(hls.source).toBe('/a.m3u8?nocache=1');
    expect(hls.media).toBe(audio);
  });

  it('starts from the beginning (-1) without a stored time', async () => {
    const { Hls, instances } = fakeHls(true);
    const audio = document.createElement('audio');
    await attachStream(audio, {
      url: '/a',
      startPosition: 0,
      onFatalError: vi.fn(),
      loadHlsClass: () => Promise.resolve(Hls),
    });
    expect(instances[0]!.config.startPosition).toBe(-1);
  });

  it('a fatal error destroys the player once and reports its type; other errors are left to hls.js', async () => {
    const { Hls, instances } = fakeHls(true);
    const onFatalError = vi.fn();
    const audio = document.createElement('audio');
    const source = await attachStream(audio, {
      url: '/a',
      startPosition: 0,
      onFatalError,
      loadHlsClass: () => Promise.resolve(Hls),
    });
    const hls = instances[0]!;
    hls.onError?.('hlsError', { fatal: false, type: 'networkError' });
    expect(onFatalError).not.toHaveBeenCalled();
    hls.onError?.('hlsError', { fatal: true, type: 'keySystemError' });
    expect(onFatalError).toHaveBeenCalledWith('keySystemError');
    source?.destroy();
    expect(hls.destroyed).toBe(1);
  });

  it('falls back to native HLS, then to nothing', async () => {
    const { Hls } = fakeHls(false);
    const audio = document.createElement('audio');
    vi.spyOn(audio, 'load').mockImplementation(() => undefined);
    vi.spyOn(audio, 'canPlayType').mockReturnValue('maybe');
    const native = await attachStream(audio, {
      url: 'http://localhost/a.m3u8',
      startPosition: 0,
      onFatalError: vi.fn(),
      loadHlsClass: () => Promise.resolve(Hls),
    });
    expect(native?.kind).toBe('native');
    expect(audio.src).toBe('http://localhost/a.m3u8');
    vi.spyOn(audio, 'canPlayType').mockReturnValue('');
    await expect(
      attachStream(audio, {
        url: '/b',
        startPosition: 0,
        onFatalError: vi.fn(),
        loadHlsClass: () => Promise.resolve(Hls),
      }),
    ).resolves.toBeNull();
  });
});

describe('attachFile and detachMedia', () => {
  it('plays a file from the stored time once its metadata is known, and detaching empties the element', () => {
    const audio = document.createElement('audio');
    vi.spyOn(audio, 'load').mockImplementation(() => undefined);
    vi.spyOn(audio, 'pause').mockImplementation(() => undefined);
    const source = attachFile(audio, 'http://localhost/file.m4a', 12);
    expect(source.kind).toBe('file');
    expect(audio.getAttribute('src')).toBe('http://localhost/file.m4a');
    audio.dispatchEvent(new Event('loadedmetadata'));
    expect(audio.currentTime).toBe(12);
    detachMedia(audio);
    expect(audio.hasAttribute('src')).toBe(false);
  });
});
