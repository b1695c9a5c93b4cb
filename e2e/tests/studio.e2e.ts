import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demo, expectPath, expectToast, loginViaApi, loginViaUi } from '../support/session';
import { sineWav } from '../support/wav';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Records every value the upload progress bars show, so a fast upload cannot slip past the test. */
async function recordProgressValues(page: Page) {
  await page.addInitScript(() => {
    const seen: number[] = [];
    (window as unknown as { __uploadProgress: number[] }).__uploadProgress = seen;
    new MutationObserver(() => {
      document.querySelectorAll('[role="progressbar"]').forEach((bar) => {
        const value = Number(bar.getAttribute('aria-valuenow'));
        if (seen.at(-1) !== value) seen.push(value);
      });
    }).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
}

const songList = (page: Page) => page.getByRole('list', { name: 'Your songs' });

describe('studio', () => {
  it('lets the artist create an album, upload a song into it, watch it process, edit and delete it', async () => {
    const { context, page, consoleErrors } = await openPage(browser, viewports.desktop);
    try {
      await recordProgressValues(page);
      const stamp = Date.now().toString(36);
      const albumTitle = `Studio Album ${stamp}`;
      const songTitle = `Studio Song ${stamp}`;
      const renamed = `${songTitle} (edit)`;

      await page.goto(`${baseUrl}/login`);
      await loginViaUi(page, demo.artist);
      await expectPath(page, /^\/(home|genres)$/);

      // The account menu (main layout) leads to the studio; the demo artist has no genres, so start at /search.
      // Full page loads wait for a quiet network: a request cut off by unloading counts as an ended session.
      await page.waitForLoadState('networkidle');
      await page.goto(`${baseUrl}/search`);
      await page.getByRole('button', { name: /Account menu/ }).click();
      await page.getByRole('link', { name: 'Studio', exact: true }).click();
      await expectPath(page, '/studio');
      await page.getByRole('heading', { name: 'Your studio' }).waitFor();
      await page.getByRole('heading', { name: 'Nova Reyes' }).waitFor();

      // Create an album; the form resets afterwards.
      await page.getByRole('link', { name: 'New album' }).click();
      await expectPath(page, '/studio/albums/new');
      const albumForm = page.getByRole('form', { name: 'Create an album' });
      await albumForm.getByRole('button', { name: 'Create album' }).click();
      await albumForm.getByText('Title is required').waitFor();
      await albumForm.getByLabel(/^Title/).fill(albumTitle);
      await albumForm.getByLabel(/^Price/).fill('4.99');
      await albumForm.getByRole('button', { name: 'Create album' }).click();
      await expectToast(page, 'Album created successfully');
      expect(await albumForm.getByLabel(/^Title/).inputValue()).toBe('');
      await page
        .getByRole('status')
        .filter({ hasText: `“${albumTitle}” was created.` })
        .waitFor();

      // Upload a song into it with a throttled upload, so the progress bar is visible on its way.
      await page.getByRole('link', { name: 'Studio', exact: true }).first().click();
      await expectPath(page, '/studio');
      await page.getByRole('link', { name: 'Upload song' }).first().click();
      await expectPath(page, '/studio/songs/new');
      const songForm = page.getByRole('form', { name: 'Upload a song' });
      await songForm.getByLabel(/^Title/).fill(songTitle);
      await songForm.getByLabel(/^Album/).selectOption({ label: albumTitle });
      await songForm.getByLabel(/^Who can play it/).selectOption('purchase-only');
      await songForm.getByLabel(/^Price/).fill('0.99');
      await songForm.getByLabel(/^Audio file/).setInputFiles({
        name: 'studio-tone.wav',
        mimeType: 'audio/wav',
        buffer: sineWav(12),
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: 256 * 1024,
      });
      await songForm.getByRole('button', { name: 'Upload song' }).click();
      const bar = page.getByRole('progressbar', { name: /Uploading audio: studio-tone\.wav/ });
      await bar.waitFor({ state: 'visible' });
      await screenshot(page, 'studio-upload-progress');

      // The new song's page shows its processing status until it is ready.
      await expectPath(page, /^\/studio\/songs\/[^/]+\/edit$/, 60_000);
      await expectToast(page, 'Song created successfully');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      const progress = await page.evaluate(
        () => (window as unknown as { __uploadProgress: number[] }).__uploadProgress,
      );
      expect(
        progress.some((value) => value > 0 && value < 100),
        progress.join(','),
      ).toBe(true);
      const status = page.getByRole('region', { name: 'Processing status' });
      await status.getByText('Ready: the song is live in the catalogue.').waitFor({ timeout: 90_000 });
      await screenshot(page, 'studio-song-ready');

      // Listed among the artist's songs, in the new album.
      await page.getByRole('link', { name: 'Studio', exact: true }).first().click();
      await expectPath(page, '/studio');
      const row = songList(page).getByRole('listitem').filter({ hasText: songTitle });
      await row.waitFor();
      await row.getByText(albumTitle).waitFor();
      await row.getByText('Ready').waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'studio-overview');

      // Edit its title.
      await row.getByRole('link', { name: `Edit song ${songTitle}` }).click();
      await expectPath(page, /^\/studio\/songs\/[^/]+\/edit$/);
      const editForm = page.getByRole('form', { name: 'Edit song' });
      await editForm.getByLabel(/^Title/).fill(renamed);
      await editForm.getByRole('button', { name: 'Save changes' }).click();
      await expectToast(page, 'Song updated successfully');
      await page.getByRole('link', { name: 'Studio', exact: true }).first().click();
      await expectPath(page, '/studio');
      const renamedRow = songList(page).getByRole('listitem').filter({ hasText: renamed });
      await renamedRow.waitFor();

      // Delete it, after confirming.
      await renamedRow.getByRole('button', { name: `Delete song ${renamed}` }).click();
      const dialog = page.getByRole('dialog', { name: `Delete “${renamed}”?` });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Delete song' }).click();
      await expectToast(page, 'Song deleted successfully');
      // exact: the row's confirm dialog, still in the row while it closes, names the song too.
      await songList(page).getByText(renamed, { exact: true }).waitFor({ state: 'detached' });

      const answer = await context.request.get(`${baseUrl}/api/search?q=${encodeURIComponent(renamed)}`);
      const found = (await answer.json()) as { songs: Array<{ title: string }> };
      expect(found.songs.map((song) => song.title)).not.toContain(renamed);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } catch (error) {
      await screenshot(page, 'failed-studio-artist-journey');
      throw error;
    } finally {
      await context.close();
    }
  });

  it('sends a listener who opens /studio to /home', async () => {
    const { context, page } = await openPage(browser, viewports.mobile);
    try {
      await loginViaApi(context, demo.listener);
      await page.goto(`${baseUrl}/studio`);
      await expectPath(page, '/home');
    } finally {
      await context.close();
    }
  });
});
