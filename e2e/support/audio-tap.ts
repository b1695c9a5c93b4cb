/**
 * Records what the player's <audio> element plays, in the page: the element is routed through an AudioWorklet that
 * copies channel 0 in 2048-sample chunks (and passes the sound on). Each chunk is stamped with the element's media
 * time and current song offset when it arrives, so a media time (a song's start) can be found in the recording.
 * The worklet module is a blob: URL, so the page's context needs `bypassCSP: true`.
 */
import type { Page } from 'playwright-core';
import { allowNamedFunctions } from './browser';
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

export async function startAudioTap(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="player-audio"]', { state: 'attached' });
  await allowNamedFunctions(page);
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
  /** How far playback jumped at the join instead of running on (0 for a join that played through), in ms. */
  jumpMs: number;
}

/** Playback jumps (seeks) of more than this between two recording chunks are not mark jitter. */
const JUMP_TOLERANCE_S = 0.06;

/**
 * Measures the joins at media times `joins` (where each next song starts). Playback must have run through each:
 * a jump there (a seek, such as a skip to the next song) is reported as such, with the gap it made.
 */
export function measureJoins(recording: TapRecording, joins: number[]): SongJoin[] {
  const { marks, rate, samples } = recording;
  return joins.map((at) => {
    const after = marks.findIndex((mark) => mark.mediaTime >= at);
    const before = marks[after - 1];
    if (after < 1 || !before) throw new Error(`the recording does not reach the join at ${at} s`);
    const jump = marks[after]!.mediaTime - before.mediaTime - (marks[after]!.index - before.index) / rate;
    if (Math.abs(jump) > JUMP_TOLERANCE_S) {
      const jumpMs = jump * 1000;
      const none = { before: [], after: [] };
      return { at, jumpMs, offsetMs: -jumpMs, silentMs: 0, gapMs: Math.abs(jumpMs), amplitudes: none };
    }
    const index = recordingIndexOf(recording, at)!;
    const margin = Math.round(0.45 * rate);
    if (index < margin || index > samples.length - margin) {
      throw new Error(`the join at ${at} s is too near the recording's ends to measure`);
    }
    return { at, jumpMs: 0, ...measureJoin(samples, index, rate) };
  });
}
