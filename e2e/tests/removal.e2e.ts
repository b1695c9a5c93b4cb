import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { APIRequestContext, Browser } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demo, expectPath, expectToast, loginViaApi, signedInListener } from '../support/session';
import { sineWav } from '../support/wav';

/**
 * A purchase is forever: the artist deletes a song someone bought; the studio says the buyer keeps it, and the
 * buyer still finds it (marked) in their purchases, while the catalogue no longer shows it.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

async function json<T>(response: { ok(): boolean; status(): number; text(): Promise<string> }, what: string) {
  if (!response.ok()) throw new Error(`${what}: ${response.status()} ${await response.text()}`);
  return JSON.parse(await response.text()) as T;
}

/** Uploads a short purchase-only song to the demo artist's own profile and waits until it is ready. */
async function uploadSong(request: APIRequestContext, title: string): Promise<string> {
  const created = await json<{ song: { _id: string } }>(
    await request.post(`${baseUrl}/api/songs`, {
      multipart: {
        title,
        accessType: 'purchase-only',
        price: '0.99',
        audio: { name: 'kept.wav', mimeType: 'audio/wav', buffer: sineWav(6) },
      },
    }),
    'upload',
  );
  const id = created.song._id;
  await expect
    .poll(
      async () =>
        (await json<{ status: string }>(await request.get(`${baseUrl}/api/songs/${id}/status`), 'status'))
          .status,
      { timeout: 90_000, interval: 500 },
    )
    .toBe('ready');
  return id;
}

/** Buys through the demo checkout's API (the checkout pages are commerce.e2e.ts's). */
async function buySong(request: APIRequestContext, songId: string) {
  const created = await json<{ order: { _id: string } }>(
    await request.post(`${baseUrl}/api/payments/sandbox/create-order`, {
      data: { itemType: 'song', itemId: songId, amount: 99 },
    }),
    'create order',
  );
  await json(
    await request.post(`${baseUrl}/api/payments/sandbox/orders/${created.order._id}/confirm`, {
      data: { outcome: 'pay' },
    }),
    'confirm',
  );
}

describe('deleting a sold song', () => {
  it('tells the artist the buyer keeps it, and the buyer keeps it', async () => {
    const title = `Kept Forever ${Date.now().toString(36)}`;
    const artist = await openPage(browser, viewports.desktop);
    const buyerDesktop = await openPage(browser, viewports.desktop);
    const buyerPhone = await openPage(browser, viewports.mobile);
    try {
      await loginViaApi(artist.context, demo.artist);
      const songId = await uploadSong(artist.context.request, title);
      const buyer = await signedInListener(buyerDesktop.context);
      await loginViaApi(buyerPhone.context, buyer);
      await buySong(buyerDesktop.context.request, songId);

      // The studio's confirm names what happens to the buyer.
      const { page } = artist;
      await page.goto(`${baseUrl}/studio`);
      const row = page
        .getByRole('list', { name: 'Your songs' })
        .getByRole('listitem')
        .filter({ hasText: title });
      await row.getByRole('button', { name: `Delete song ${title}` }).click();
      const dialog = page.getByRole('dialog', { name: `Delete “${title}”?` });
      await dialog
        .getByText(/^1 person bought this song \(on its own or with its album\) and keeps it/)
        .waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await screenshot(page, 'studio-delete-sold-song-desktop');
      await dialog.getByRole('button', { name: 'Delete song' }).click();
      await expectToast(page, 'Song deleted successfully');
      await row.waitFor({ state: 'detached' });

      // Gone from the catalogue and search...
      const search = await json<{ songs: Array<{ _id: string }> }>(
        await buyerDesktop.context.request.get(`${baseUrl}/api/search?q=${encodeURIComponent(title)}`),
        'search',
      );
      expect(search.songs.map((song) => song._id)).not.toContain(songId);
      // ...still the buyer's, marked as such, on a wide screen and a phone.
      for (const [session, name] of [
        [buyerDesktop, 'purchases-removed-song-desktop'],
        [buyerPhone, 'purchases-removed-song-mobile'],
      ] as const) {
        await session.page.goto(`${baseUrl}/purchases`);
        await expectPath(session.page, '/purchases');
        const bought = session.page.getByRole('listitem').filter({ hasText: title });
        const mark = session === buyerPhone ? 'Removed' : 'No longer in the catalogue';
        await bought.getByText(mark, { exact: true }).waitFor();
        expect(await seriousA11yViolations(session.page)).toEqual([]);
        await screenshot(session.page, name);
      }
      for (const session of [artist, buyerDesktop, buyerPhone]) {
        expect(session.consoleErrors, session.consoleErrors.join('\n')).toEqual([]);
      }
    } finally {
      for (const session of [artist, buyerDesktop, buyerPhone]) await session.context.close();
    }
  });
});
