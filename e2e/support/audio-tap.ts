/**
 * Records what the player's <audio> element plays, in the page: the element is routed through an AudioWorklet that
 * copies channel 0 in 2048-sample chunks (and passes the sound on). Each chunk is stamped with the element's media
 * time and current song offset when it arrives, so a media time (a song's start) can be found in the recording.
 * The worklet module is a blob: URL, so the page's context needs `bypassCSP: true`.
 */
import type { Page } from 'playwright-core';
import { measureJoin, type JoinMeasurement } from './gap-analysis';

interface TapWindow {
  __audioTap?: {
    rate: number;
    chunks: Float32Array[];
    marks: Array<{ frame: number; mediaTime: number; songOffset: number }>;
    firstFrame: number | null;
    stop(): void;
  };
}

export interface TapRecording {
  rate: number;
  samples: Float32Array;
  /** Element media time at recording frames. */
  marks: Array<{ index: number; mediaTime: number; songOffset: number }>;
}

const WORKLET = `
class BackbeatTap extends AudioWorkletProcessor {
  constructor() {
    super();
    this.chunk = new Float32Array(2048);
    this.filled = 0;
    this.recording = true;
    this.port.onmessage = () => { this.recording = false; };
  }
  process(inputs, outputs) {
    const input = inputs[0] || [];
    const output = outputs[0] || [];
    for (let c = 0; c < output.length; c++) if (input[c]) output[c].set(input[c]);
    if (!this.recording) return true;
    const channel = input[0];
    const frames = channel ? channel.length : 128;
    for (let i = 0; i < frames; i++) {
      this.chunk[this.filled++] = channel ? channel[i] : 0;
      if (this.filled === this.chunk.length) {
        this.port.postMessage({ end: currentFrame + i + 1, data: this.chunk }, [this.chunk.buffer]);
        this.chunk = new Float32Array(2048);
        this.filled = 0;
      }
    }
    return true;
  }
}
registerProcessor('backbeat-tap', BackbeatTap);
`;

/**
 * tsx (the benches' runner) compiles with esbuild's keepNames, which wraps named functions in a `__name` helper that
 * does not exist in the page the function is sent to.
 */
async function defineNameHelper(page: Page): Promise<void> {
  await page.evaluate('globalThis.__name ??= (fn) => fn');
}

export async function startAudioTap(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="player-audio"]', { state: 'attached' });
  await defineNameHelper(page);
  await page.evaluate(async (code) => {
    const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
    if (!audio) throw new Error('no player audio element');
    const context = new AudioContext();
    await context.audioWorklet.addModule(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
    const source = context.createMediaElementSource(audio);
    const tap = new AudioWorkletNode(context, 'backbeat-tap', { outputChannelCount: [2] });
    source.connect(tap);
    tap.connect(context.destination);
    await context.resume();
    const state: NonNullable<TapWindow['__audioTap']> = {
      rate: context.sampleRate,
      chunks: [],
      marks: [],
      firstFrame: null,
      stop: () => tap.port.postMessage('stop'),
    };
    tap.port.onmessage = (event: MessageEvent<{ end: number; data: Float32Array }>) => {
      const { end, data } = event.data;
      state.firstFrame ??= end - data.length;
      state.chunks.push(data);
      state.marks.push({
        frame: end,
        mediaTime: audio.currentTime,
        songOffset: Number(audio.dataset.songOffset ?? 0),
      });
    };
    (window as TapWindow).__audioTap = state;
  }, WORKLET);
}

/** Stops recording and brings the recording over (as base64 of the float samples). */
export async function readAudioTap(page: Page): Promise<TapRecording> {
  const { rate, base64, marks } = await page.evaluate(() => {
    const tap = (window as TapWindow).__audioTap;
    if (!tap) throw new Error('no audio tap');
    tap.stop();
    const length = tap.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const all = new Float32Array(length);
    let at = 0;
    for (const chunk of tap.chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    const bytes = new Uint8Array(all.buffer);
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    const first = tap.firstFrame ?? 0;
    return {
      rate: tap.rate,
      base64: btoa(binary),
      marks: tap.marks.map((mark) => ({ ...mark, index: mark.frame - first })),
    };
  });
  const buffer = Buffer.from(base64, 'base64');
  const samples = new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4);
  return { rate, samples, marks };
}

/** Where media time `mediaTime` was played in the recording (to within the marks' precision, tens of ms). */
export function recordingIndexOf(recording: TapRecording, mediaTime: number): number | null {
  const before = recording.marks.filter((mark) => mark.mediaTime <= mediaTime).at(-1);
  if (!before) return null;
  return Math.round(before.index + (mediaTime - before.mediaTime) * recording.rate);
}

export interface SongJoin extends JoinMeasurement {
  /** Media time where the next song starts. */
  at: number;
}

/** Whether playback ran across media time `at` (rather than jumping to it: a song started by a click). */
function playedAcross(recording: TapRecording, at: number): boolean {
  const { marks } = recording;
  return marks.some(
    (mark, i) => mark.mediaTime < at && mark.mediaTime > at - 0.5 && (marks[i + 1]?.mediaTime ?? 0) >= at,
  );
}

/**
 * Every join the recording saw: a song's start (the offsets the player reported) that playback ran across. Joins
 * too close to the recording's ends to fit the tone on both sides are left out.
 */
export function measureJoins(recording: TapRecording): SongJoin[] {
  const offsets = [...new Set(recording.marks.map((mark) => mark.songOffset))];
  const joins: SongJoin[] = [];
  for (const at of offsets.filter((offset) => playedAcross(recording, offset))) {
    const index = recordingIndexOf(recording, at);
    const margin = Math.round(0.5 * recording.rate);
    if (index === null || index < margin || index > recording.samples.length - margin) continue;
    joins.push({ at, ...measureJoin(recording.samples, index, recording.rate) });
  }
  return joins;
}
