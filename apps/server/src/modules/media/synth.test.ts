import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { locateFfmpeg, type FfmpegTools } from './ffmpeg';
import { probeAudio } from './probe';
import { synthesizeSong } from './synth';
import { songLoopExpressions } from './synth-expression';
import { songRecipe } from './synth-recipe';
import { meanVolumeDb, useTempDir } from './test-support';

let tools: FfmpegTools;
const tempDir = useTempDir('synth');
let dir: string;

beforeAll(async () => {
  tools = await locateFfmpeg();
  dir = tempDir();
});

describe('synthesizeSong', () => {
  it('writes a 44.1 kHz stereo WAV of the requested length that is audible and not clipped', async () => {
    const file = path.join(dir, 'five.wav');
    await synthesizeSong(tools, { seed: 1, durationSec: 5, outFile: file });
    const probe = await probeAudio(tools, file);
    expect(probe.codec).toBe('pcm_s16le');
    expect(Math.abs(probe.durationSec - 5)).toBeLessThanOrEqual(0.2);
    const header = await readFile(file);
    expect(header.readUInt16LE(22)).toBe(2); // channels
    expect(header.readUInt32LE(24)).toBe(44_100); // sample rate
    expect(await meanVolumeDb(tools.ffmpeg, file)).toBeGreaterThan(-40);
  });

  it('gives different seeds different songs, and the same seed the same song', async () => {
    const files = ['a', 'b', 'a-again'].map((name) => path.join(dir, `${name}.wav`));
    const seeds = [11, 12, 11];
    await Promise.all(
      files.map((outFile, i) => synthesizeSong(tools, { seed: seeds[i] ?? 0, durationSec: 2, outFile })),
    );
    const [a, b, again] = await Promise.all(files.map((file) => readFile(file)));
    expect(a?.equals(again as Buffer)).toBe(true);
    expect(a?.equals(b as Buffer)).toBe(false);
  });

  it('refuses a duration that is not positive', async () => {
    await expect(
      synthesizeSong(tools, { seed: 1, durationSec: 0, outFile: path.join(dir, 'x.wav') }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('song recipes', () => {
  it('vary tempo, key and progression across seeds', () => {
    const recipes = Array.from({ length: 40 }, (_, seed) => songRecipe(seed));
    expect(new Set(recipes.map((r) => r.bpm)).size).toBeGreaterThan(15);
    expect(new Set(recipes.map((r) => r.tonicHz.toFixed(1))).size).toBeGreaterThan(6);
    expect(new Set(recipes.map((r) => JSON.stringify(r.chords))).size).toBeGreaterThan(4);
  });

  it('produce expressions with no characters that would break the filtergraph quoting', () => {
    for (let seed = 0; seed < 40; seed++) {
      const { tonal, hats } = songLoopExpressions(songRecipe(seed));
      expect(tonal + hats).not.toMatch(/['\\[\]|]/);
    }
  });
});
