import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { probeAudioBytes, unzip } from '@backbeat/server/testing';
import { seriousA11yViolations } from '../support/a11y';
import { artifactsDir, launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demoAlbumId, getJson } from '../support/catalogue';
import { expectPath, loginViaApi, signedInListener, type Credentials } from '../support/session';

/*
 * Downloads in real Chromium: a new listener buys the premium album "Acoustic Confessions" (Sol Marín) through the
 * demo checkout, then downloads it from the album page as one ZIP. The browser's own download is saved and read
 * back: every file is an MP3 that ffprobe reads with the right tags. A listener who did not buy gets 403.
 */

const baseUrl = inject('baseUrl');
const ARTIST = 'Sol Marín';
const ALBUM = 'Acoustic Confessions';

let browser: Browser;
let albumId: string;
let tracks: Array<{ _id: string; title: string }>;

beforeAll(async () => {
  browser = await launchBrowser();
  albumId = await demoAlbumId(ARTIST, ALBUM);
  tracks = await getJson<Array<{ _id: string; title: string }>>(`/songs/album/${albumId}`);
});
afterAll(() => browser.close());

/** Buys the album from its page through the demo checkout and comes back to it. */
async function buyAlbum(page: Page) {
  await page.goto(`${baseUrl}/album/${albumId}`);
  // The page's own "Buy album" (the locked rows offer the same album after it).
  await page
    .getByRole('button', { name: new RegExp(`^Buy album .+, ${ALBUM}$`) })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: `Buy ${ALBUM}` });
  await dialog.waitFor();
  await dialog.locator('label', { hasText: 'Demo checkout' }).click();
  await page.getByRole('button', { name: 'Continue to the demo checkout' }).click();
  await expectPath(page, /^\/checkout\/sandbox\/[^/]+$/);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expectPath(page, '/payment-success');
  await page.goto(`${baseUrl}/album/${albumId}`);
}

describe('downloads of a bought album', () => {
  let context: BrowserContext;
  let page: Page;
  let person: Credentials;

  beforeAll(async () => {
    ({ context, page } = await openPage(browser, viewports.desktop, { acceptDownloads: true }));
    person = await signedInListener(context, ['Pop']);
  });
  afterAll(() => context.close());

  it('downloads the album as one ZIP whose files ffprobe reads with the right tags', async () => {
    await buyAlbum(page);
    const download = page.getByRole('button', { name: `Download ${ALBUM}` });
    await download.click();
    const menu = page.getByRole('menu', { name: `Download ${ALBUM}` });
    // The demo songs were uploaded lossless: FLAC is offered beside MP3.
    await menu.getByRole('menuitem', { name: /FLAC/ }).waitFor();
    await screenshot(page, 'album-download-menu-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The demo seed leaves MP3s to the first download: "Preparing..." shows, then the browser downloads.
    const saved = page.waitForEvent('download', { timeout: 90_000 });
    await menu.getByRole('menuitem', { name: /MP3/ }).click();
    const file = await saved;
    expect(file.suggestedFilename()).toBe(`${ARTIST} - ${ALBUM}.zip`);
    const target = path.join(artifactsDir, 'downloaded-album.zip');
    await file.saveAs(target);
    const entries = await unzip(await readFile(target));

    const names = [...entries.keys()];
    expect(names).toEqual([
      ...tracks.map((track, index) => `0${index + 1} - ${track.title}.mp3`),
      'cover.jpg',
    ]);
    for (const [index, track] of tracks.entries()) {
      const probe = await probeAudioBytes(entries.get(names[index]!)!, 'mp3');
      expect(probe).toMatchObject({ codec: 'mp3', bitRate: 320_000, hasCover: true });
      expect(probe.tags).toMatchObject({
        title: track.title,
        artist: ARTIST,
        album: ALBUM,
        track: `${index + 1}/${tracks.length}`,
        genre: 'Pop',
      });
    }
  });

  it('shows the download buttons among the purchases: the album, and a song bought on its own', async () => {
    // "Summer Patch Notes" (Corazón Digital) is a purchase-only song: bought from its row.
    const single = await demoAlbumId(ARTIST, 'Corazón Digital');
    await page.goto(`${baseUrl}/album/${single}`);
    await page.getByRole('button', { name: /^Buy song .+, Summer Patch Notes$/ }).click();
    await page.getByRole('dialog').locator('label', { hasText: 'Demo checkout' }).click();
    await page.getByRole('button', { name: 'Continue to the demo checkout' }).click();
    await expectPath(page, /^\/checkout\/sandbox\/[^/]+$/);
    await page.getByRole('button', { name: /^Pay / }).click();
    await expectPath(page, '/payment-success');

    await page.goto(`${baseUrl}/purchases`);
    await page.getByRole('button', { name: `Download ${ALBUM}` }).waitFor();
    const song = page.getByRole('button', { name: 'Download Summer Patch Notes' });
    await song.click();
    await page
      .getByRole('menu', { name: 'Download Summer Patch Notes' })
      .getByRole('menuitem', { name: /MP3/ })
      .waitFor();
    await screenshot(page, 'purchases-downloads-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });

    // On a phone: the album's download button under its header, and the purchases.
    const phone = await openPage(browser, viewports.mobile);
    try {
      await loginViaApi(phone.context, person);
      await phone.page.goto(`${baseUrl}/album/${albumId}`);
      await phone.page.getByRole('button', { name: `Download ${ALBUM}` }).click();
      await phone.page.getByRole('menuitem', { name: /MP3/ }).waitFor();
      await screenshot(phone.page, 'album-download-menu-mobile');
      expect(await seriousA11yViolations(phone.page)).toEqual([]);
      await phone.page.goto(`${baseUrl}/purchases`);
      await phone.page.getByRole('button', { name: 'Download Summer Patch Notes' }).waitFor();
      await screenshot(phone.page, 'purchases-downloads-mobile');
      expect(await seriousA11yViolations(phone.page)).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });

  it('refuses a listener who did not buy (403), for the album, a song and the buyer’s own link', async () => {
    const link = await context.request.post(`${baseUrl}/api/downloads/album/${albumId}`, {
      data: { format: 'mp3' },
    });
    expect(link.status()).toBe(201);
    const { url } = (await link.json()) as { url: string };

    const other = await browser.newContext();
    try {
      await signedInListener(other, ['Pop']);
      const album = await other.request.post(`${baseUrl}/api/downloads/album/${albumId}`, {
        data: { format: 'mp3' },
      });
      expect(album.status()).toBe(403);
      expect(await album.json()).toEqual({
        message: 'You need to purchase this album to download it.',
        code: 'DOWNLOAD_DENIED',
      });
      const song = await other.request.post(`${baseUrl}/api/downloads/song/${tracks[0]!._id}`, {
        data: { format: 'mp3' },
      });
      expect(song.status()).toBe(403);
      const borrowed = await other.request.get(`${baseUrl}${url}`);
      expect(borrowed.status()).toBe(403);
      const page2 = await other.newPage();
      await page2.goto(`${baseUrl}/album/${albumId}`);
      await page2.getByRole('heading', { name: ALBUM, level: 1 }).waitFor();
      expect(await page2.getByRole('button', { name: `Download ${ALBUM}` }).count()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
