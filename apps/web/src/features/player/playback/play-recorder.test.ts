import { describe, expect, it, vi } from 'vitest';
import { countsAsPlay, createPlayRecorder } from './play-recorder';

describe('play recorder', () => {
  it('counts a listen after 30 s, or half of a shorter song', () => {
    expect(countsAsPlay(29, 200)).toBe(false);
    expect(countsAsPlay(30, 200)).toBe(true);
    expect(countsAsPlay(20, 40)).toBe(true);
    expect(countsAsPlay(19, 40)).toBe(false);
    expect(countsAsPlay(0.5, 1)).toBe(false);
  });

  it('adds up heard seconds, ignoring seeks and paused progress, and sends once per song', () => {
    const send = vi.fn(() => Promise.resolve());
    const recorder = createPlayRecorder(send);
    for (let time = 0; time <= 25; time += 0.25) recorder.progress('s1', time, 40, true);
    recorder.progress('s1', 35, 40, true); // a seek: not heard
    recorder.progress('s1', 35.25, 40, false); // paused
    recorder.flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith('s1', 25);
    recorder.flush();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('flushes the previous song when another one reports progress, and skips short listens', () => {
    const send = vi.fn(() => Promise.resolve());
    const recorder = createPlayRecorder(send);
    for (let time = 0; time <= 5; time += 0.25) recorder.progress('short', time, 200, true);
    recorder.progress('other', 0, 200, true);
    expect(send).not.toHaveBeenCalled();
  });
});
