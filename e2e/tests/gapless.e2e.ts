import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readAudioTap, measureJoins, startAudioTap } from '../support/audio-tap';
import { launchBrowser, openPage, viewports } from '../support/browser';
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
    // Where the first song starts on the player's timeline; the next two follow it exactly.
    const firstStart = await page.waitForFunction(
      (title) => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
        const shown = document.querySelector('[data-testid="player-title"]')?.textContent;
        const offset = Number(audio?.dataset.songOffset);
        return shown === title && audio && audio.currentTime - offset > 0.5 ? offset : null;
      },
      first!.title,
      { timeout: 30_000, polling: 100 },
    );
    const start = (await firstStart.jsonValue())!;
    const joinTimes = [start + first!.samples / 44100, start + (first!.samples + second!.samples) / 44100];
    // The player moves on by itself: both joins have played once the third song is 1.5 s in.
    await page.waitForFunction(
      (last) => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
        return audio !== null && audio.currentTime > last + 1.5;
      },
      joinTimes.at(-1)!,
      { timeout: 30_000, polling: 100 },
    );
    const joins = measureJoins(await readAudioTap(page), joinTimes);
    for (const join of joins) {
      console.log(
        `gapless join at ${join.at.toFixed(3)} s: gap ${join.gapMs.toFixed(3)} ms ` +
          `(tone offset ${join.offsetMs.toFixed(3)} ms, silence ${join.silentMs.toFixed(3)} ms, ` +
          `playback jump ${join.jumpMs.toFixed(1)} ms)`,
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

  it('loops a song on mobile repeat, joined to itself, instead of moving on', async () => {
    const { context, page, consoleErrors } = await openPage(browser, viewports.mobile);
    await loginViaApi(context, demo.admin);
    await page.goto(`${baseUrl}/album/${album.albumId}`);
    const last = album.songs.at(-1)!;
    await page.getByRole('button', { name: `Play ${last.title}`, exact: true }).click();
    const mini = page.getByTestId('mobile-mini-player');
    await mini.getByRole('button', { name: new RegExp(`^Open now playing: ${last.title}`) }).click();
    const view = page.getByRole('dialog', { name: 'NOW PLAYING' });
    await view.getByRole('button', { name: 'Repeat song' }).click();
    const firstStart = await page.evaluate(() =>
      Number(document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')?.dataset.songOffset),
    );
    // The song's second time round starts exactly where the first ends on the timeline.
    const secondStart = firstStart + last.samples / 44100;
    await page.waitForFunction(
      (start) => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
        return audio !== null && !audio.paused && audio.currentTime > start + 0.5;
      },
      secondStart,
      { timeout: 20_000, polling: 100 },
    );
    await expect(page.getByTestId('player-title').first().textContent()).resolves.toBe(last.title);
    const offset = await page.evaluate(() =>
      Number(document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')?.dataset.songOffset),
    );
    expect(offset).toBeCloseTo(secondStart, 6);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
