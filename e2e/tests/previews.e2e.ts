import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demoAlbumId, demoCatalogue, getJson } from '../support/catalogue';
import { demo, expectToast, loginViaApi, signedInListener } from '../support/session';

/*
 * A 30-second preview of a locked song in real Chromium: a new listener (who owns nothing) previews a song of the
 * premium album "Collector's Edition: Late Standards" from its row. The preview plays its whole 30 seconds and
 * stops with the buy prompt; the song itself stays refused, its key too, even with the preview's token.
 */

const baseUrl = inject('baseUrl');
const ALBUM = 'Collector\u2019s Edition: Late Standards';
const SONG = 'Autumn, Again';
const REFUSAL = `Purchase the album "${ALBUM}" to play this song.`;

let browser: Browser;
let albumId: string;
let songId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  albumId = await demoAlbumId('Mira Okafor Quartet', ALBUM);
  const songs = await getJson<Array<{ _id: string; title: string }>>(`/songs/album/${albumId}`);
  songId = songs.find((song) => song.title === SONG)?._id ?? '';
  if (!songId) throw new Error(`the demo song ${SONG} is missing`);
});
afterAll(() => browser.close());

/**
 * The preview's own time and length. The gapless player lays songs on one MediaSource timeline: the song's second 0
 * is at `data-song-offset` there, and the element's duration is the session's, so the length is the player's.
 */
const audioState = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
    if (!audio) throw new Error('no player audio element');
    const shown = document.querySelector('[data-testid="player-duration"]')?.textContent ?? '';
    const [, minutes, seconds] = /(\d+):(\d\d)/.exec(shown) ?? [];
    return {
      currentTime: audio.currentTime - Number(audio.dataset.songOffset ?? 0),
      duration: Number(minutes) * 60 + Number(seconds),
      paused: audio.paused,
    };
  });

describe('previews of locked songs', () => {
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];

  beforeAll(async () => {
    ({ context, page, consoleErrors } = await openPage(browser, viewports.desktop));
    await signedInListener(context);
  });
  afterAll(() => context.close());

  it('plays 30 seconds from the row, says it is a preview, and stops with the buy prompt', async () => {
    const previewRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/api/stream/preview/${songId}/index.m3u8`))
        previewRequests.push(request.url());
    });
    await page.goto(`${baseUrl}/album/${albumId}`);
    const preview = page.getByRole('button', { name: `Preview ${SONG} (30 seconds)` });
    await preview.click();

    // It really plays: the element advances through the preview's own stream.
    await page.waitForFunction(
      () => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
        return (
          audio !== null && !audio.paused && audio.currentTime - Number(audio.dataset.songOffset ?? 0) > 1
        );
      },
      undefined,
      { timeout: 30_000, polling: 100 },
    );
    const badge = page.getByTestId('desktop-player').getByTestId('preview-badge');
    await expect(badge.textContent()).resolves.toMatch(/^Preview · of \d+:\d\d–\d+:\d\d$/);
    expect((await audioState(page)).duration).toBeCloseTo(30, 0);
    expect(previewRequests).toHaveLength(1);
    await screenshot(page, 'preview-playing-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The whole preview, in real time, then the prompt: nothing more of the song plays.
    const prompt = page.getByRole('region', { name: 'That was the preview' });
    await prompt.waitFor({ timeout: 45_000 });
    const ended = await audioState(page);
    expect(ended.paused).toBe(true);
    expect(ended.currentTime).toBeGreaterThan(29);
    await prompt
      .getByRole('button', { name: /^Buy album .+, Collector’s Edition: Late Standards$/ })
      .waitFor();
    await prompt.getByRole('button', { name: 'Play preview again' }).waitFor();
    await screenshot(page, 'preview-ended-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The song itself is refused with the SPEC message, and the preview's token opens nothing of it.
    const token = new URL(previewRequests[0]!).searchParams.get('token')!;
    const refusals = await page.evaluate(
      async ({ id, previewToken }) => {
        const song = await fetch(`/api/stream/song/${id}`);
        const key = await fetch(`/api/stream/hls/${id}/key?token=${encodeURIComponent(previewToken)}`);
        const playlist = await fetch(
          `/api/stream/hls/${id}/index.m3u8?token=${encodeURIComponent(previewToken)}`,
        );
        return {
          song: { status: song.status, body: (await song.json()) as { message: string } },
          key: { status: key.status, body: (await key.json()) as { code: string } },
          playlist: playlist.status,
        };
      },
      { id: songId, previewToken: token },
    );
    expect(refusals.song).toEqual({ status: 403, body: expect.objectContaining({ message: REFUSAL }) });
    expect(refusals.key).toEqual({
      status: 403,
      body: expect.objectContaining({ code: 'INVALID_STREAM_TOKEN' }),
    });
    expect(refusals.playlist).toBe(403);

    // Closing the prompt leaves preview mode: play now asks for the song and shows its refusal.
    await prompt.getByRole('button', { name: 'Close' }).click();
    await prompt.waitFor({ state: 'detached' });
    await badge.waitFor({ state: 'detached' });
    expect(consoleErrors.filter((error) => !error.includes('status of 403'))).toEqual([]);
  });

  it('offers the preview in the player for a locked song, on a phone too', async () => {
    const phone = await openPage(browser, viewports.mobile);
    try {
      await signedInListener(phone.context);
      await phone.page.goto(`${baseUrl}/album/${albumId}`);
      await phone.page.getByRole('button', { name: `Play ${SONG}`, exact: true }).click();
      const mini = phone.page.getByTestId('mobile-mini-player');
      await mini.getByTestId('player-stream-error').getByText(REFUSAL).waitFor();
      await mini.getByRole('button', { name: `Preview ${SONG} (30 seconds)` }).click();
      await mini.getByTestId('preview-badge').waitFor();
      await phone.page.waitForFunction(
        () => {
          const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
          return (
            audio !== null && !audio.paused && audio.currentTime - Number(audio.dataset.songOffset ?? 0) > 1
          );
        },
        undefined,
        { timeout: 30_000, polling: 100 },
      );
      await screenshot(phone.page, 'preview-playing-mobile');
      expect(await seriousA11yViolations(phone.page)).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('lets the artist pick where the preview starts in the studio song form; the next preview starts there', async () => {
    // A song long enough for a window starting at 0:12 (Harbour Lights is 30 s: any start clamps to 0).
    const { albumId } = await demoCatalogue();
    type Listed = Array<{ _id: string; title: string }>;
    const listing = await getJson<Listed | { songs: Listed }>(`/songs/album/${albumId}`);
    const songs = Array.isArray(listing) ? listing : listing.songs;
    const tidal = songs.find((song) => song.title === 'Tidal Memory')!._id;
    for (const viewport of [viewports.desktop, viewports.mobile]) {
      const studio = await openPage(browser, viewport);
      try {
        await loginViaApi(studio.context, demo.artist);
        await studio.page.goto(`${baseUrl}/studio/songs/${tidal}/edit`);
        const form = studio.page.getByRole('form', { name: 'Edit song' });
        const start = form.getByLabel(/^Preview starts at/);
        await start.waitFor();
        await start.fill('5:00');
        await form.getByRole('button', { name: 'Save changes' }).click();
        await form.getByText(/^Preview start must be within the song \(before \d:\d\d\)$/).waitFor();
        await start.fill(viewport === viewports.desktop ? '0:10' : '0:12');
        await screenshot(
          studio.page,
          `studio-preview-start-${viewport === viewports.desktop ? 'desktop' : 'mobile'}`,
        );
        expect(await seriousA11yViolations(studio.page)).toEqual([]);
        await form.getByRole('button', { name: 'Save changes' }).click();
        await expectToast(studio.page, 'Song updated successfully');
      } finally {
        await studio.context.close();
      }
    }
    // The preview is made again by the job queue; the next preview starts at the new point.
    const deadline = Date.now() + 60_000;
    let startSec = -1;
    while (Date.now() < deadline && startSec !== 12) {
      const res = await context.request.get(`${baseUrl}/api/stream/song/${tidal}/preview`);
      if (res.ok()) startSec = ((await res.json()) as { startSec: number }).startSec;
      if (startSec !== 12) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(startSec).toBe(12);
  });

  it('lets guests preview through the API, and never the song', async () => {
    const guest = await fetch(`${baseUrl}/api/stream/song/${songId}/preview`);
    expect(guest.status).toBe(200);
    const body = (await guest.json()) as { url: string; durationSec: number };
    expect(body.durationSec).toBe(30);
    expect((await fetch(`${baseUrl}${body.url}`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/api/stream/song/${songId}`)).status).toBe(401);
  });
});
