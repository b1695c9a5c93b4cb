import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readAudioTap, measureJoins, startAudioTap } from '../support/audio-tap';
import { launchBrowser, openPage } from '../support/browser';
import { selfCheck } from '../support/gap-analysis';
import { demo, loginViaApi } from '../support/session';
import { uploadToneAlbum, type ToneAlbum } from '../support/tone-album';

const baseUrl = inject('baseUrl');
let browser: Browser;
let album: ToneAlbum;

beforeAll(async () => {
  browser = await launchBrowser();
  // The demo artist uploads one continuous tone, cut into four songs, through the normal upload pipeline.
  const { context } = await openPage(browser);
  await loginViaApi(context, demo.artist);
  album = await uploadToneAlbum(context.request, baseUrl, 'Gapless Tone');
  await context.close();
});
afterAll(() => browser.close());

describe('gapless playback', () => {
  it('plays an album across its song boundaries without a gap or an overlap', async () => {
    selfCheck();
    // The recording tap's worklet module is a blob: URL, which the app's CSP would refuse.
    const { context, page, consoleErrors } = await openPage(browser, undefined, { bypassCSP: true });
    await loginViaApi(context, demo.admin);
    await page.goto(`${baseUrl}/album/${album.albumId}`);
    await startAudioTap(page);
    const [first, second] = album.songs;
    await page.getByRole('button', { name: `Play ${first!.title}`, exact: true }).click();
    // The player moves on by itself: two joins have played once the third song is 1.5 s in.
    const thirdStarts = await page.waitForFunction(
      ({ title, seconds }) => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
        const shown = document.querySelector('[data-testid="player-title"]')?.textContent;
        const offset = Number(audio?.dataset.songOffset);
        // A second into the first song its offset (where it starts on the timeline) is surely up to date.
        return shown === title && audio && audio.currentTime - offset > 1 ? offset + seconds : null;
      },
      { title: first!.title, seconds: (first!.samples + second!.samples) / 44100 },
      { timeout: 30_000, polling: 100 },
    );
    await page.waitForFunction(
      (start) => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
        return audio !== null && audio.currentTime > start + 1.5;
      },
      (await thirdStarts.jsonValue())!,
      { timeout: 30_000, polling: 100 },
    );
    const recording = await readAudioTap(page);
    const joins = measureJoins(recording);
    for (const join of joins) {
      console.log(
        `gapless join at ${join.at.toFixed(3)} s: gap ${join.gapMs.toFixed(3)} ms ` +
          `(tone offset ${join.offsetMs.toFixed(3)} ms, silence ${join.silentMs.toFixed(3)} ms)`,
      );
    }
    expect(joins).toHaveLength(2);
    for (const join of joins) {
      // The tone is really there on both sides (at the player's volume), as loud after the join as before.
      join.amplitudes.before.forEach((before, k) => {
        expect(before).toBeGreaterThan(0.05);
        expect(Math.abs(join.amplitudes.after[k]! / before - 1)).toBeLessThan(0.1);
      });
      expect(join.gapMs).toBeLessThanOrEqual(5);
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
