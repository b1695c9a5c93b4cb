// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { PlaybackController, type PlaybackEvents } from './playback-controller';

function events() {
  return {
    onDuration: vi.fn(),
    onEnded: vi.fn(),
    onJoin: vi.fn(),
    onStreamError: vi.fn(),
    onFallbackMissing: vi.fn(),
    onSourceFailed: vi.fn(),
    onSourceAttached: vi.fn(),
  } satisfies PlaybackEvents;
}

/** An element whose media length is `seconds`, announcing it as the browser does. */
function announceDuration(audio: HTMLAudioElement, seconds: number) {
  Object.defineProperty(audio, 'duration', { configurable: true, get: () => seconds });
  audio.dispatchEvent(new Event('durationchange'));
}

describe('PlaybackController: whose duration it reports', () => {
  it('reports nothing while no song is attached (a warmed MediaSource is 1e9 s long)', () => {
    const audio = document.createElement('audio');
    const handlers = events();
    const controller = new PlaybackController(audio, handlers, false);
    announceDuration(audio, 1e9);
    expect(handlers.onDuration).not.toHaveBeenCalled();
    controller.destroy();
  });
});
