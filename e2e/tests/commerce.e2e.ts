import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demoAlbumId, getJson } from '../support/catalogue';
import { demo, expectPath, expectToast, loginViaApi } from '../support/session';
import { waitForPlayback } from '../support/playback';

/*
 * Buying through the sandbox gateway's demo checkout, as the demo listener. The songs are purchase-only songs on
 * albums that are not premium, and no other e2e file relies on them staying locked for the listener:
 * "Gravel & Grace" (The Velvet Static, Northbound) is bought, "Mixtape Weather" (Aurora Fields, Hip-Hop Sketches)
 * is declined.
 */

const baseUrl = inject('baseUrl');
const SANDBOX_LABEL = 'Demo payment - no money moves';
const PURCHASE_MESSAGE = 'You need to purchase this song to play it.';

interface Named {
  _id: string;
  name: string;
}
interface Titled {
  _id: string;
  title: string;
}

let browser: Browser;
const ids = { northbound: '', hipHopSketches: '', mixtapeWeather: '', midnightProtocol: '', nova: '' };

beforeAll(async () => {
  browser = await launchBrowser();
  const { artists } = await getJson<{ artists: Named[] }>('/artists/all');
  ids.northbound = await demoAlbumId('The Velvet Static', 'Northbound');
  ids.hipHopSketches = await demoAlbumId('Aurora Fields', 'Hip-Hop Sketches');
  ids.midnightProtocol = await demoAlbumId('Nova Reyes', 'Midnight Protocol');
  ids.nova = artists.find((artist) => artist.name === 'Nova Reyes')?._id ?? '';
  const songs = await getJson<Titled[]>(`/songs/album/${ids.hipHopSketches}`);
  const mixtape = songs.find((song) => song.title === 'Mixtape Weather');
  if (!mixtape) throw new Error('the demo song Mixtape Weather is missing');
  ids.mixtapeWeather = mixtape._id;
});
afterAll(() => browser.close());

/** The song row's buy button (the player offers the same unlock for the song it holds). */
const buyButton = (page: Page, title: string) =>
  page
    .locator('main')
    .getByRole('button', { name: new RegExp(`^Buy song .+, ${title.replace('&', '\\&')}$`) });

/** Opens the album, presses play on the locked song and checks the refusal the player shows. */
async function expectLocked(page: Page, album: string, title: string) {
  await page.goto(`${baseUrl}/album/${album}`);
  await page.getByRole('button', { name: `Play ${title}`, exact: true }).click();
  await expectToast(page, PURCHASE_MESSAGE);
  await page.waitForFunction(
    (message) => document.querySelector('[data-testid="player-stream-error"]')?.textContent === message,
    PURCHASE_MESSAGE,
  );
}

/** Buys from the song row (the checkout dialog, the demo gateway) and waits for the demo checkout to show the order. */
async function openCheckout(page: Page, title: string) {
  await buyButton(page, title).click();
  await page.getByRole('dialog', { name: `Buy ${title}` }).waitFor();
  // The gateway radios are visually hidden behind their cards: pick one by its label, as a user clicks it.
  await page.getByRole('dialog').locator('label', { hasText: 'Demo checkout' }).click();
  // Waits for the choice to be made (the radio checked), rather than reading it once right after the click.
  await page.getByRole('radio', { name: 'Demo checkout', checked: true }).waitFor();
  await page.getByRole('button', { name: 'Continue to the demo checkout' }).click();
  await expectPath(page, /^\/checkout\/sandbox\/[^/]+$/);
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  await page.getByText(SANDBOX_LABEL, { exact: true }).waitFor();
}

describe('commerce: the sandbox demo checkout (listener)', () => {
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];

  beforeAll(async () => {
    ({ context, page, consoleErrors } = await openPage(browser, viewports.desktop));
    await loginViaApi(context, demo.listener);
  });
  afterAll(() => context.close());

  it('buys a locked purchase-only song, lands on /payment-success, and then it plays', async () => {
    await expectLocked(page, ids.northbound, 'Gravel & Grace');
    await screenshot(page, 'album-locked-song-desktop');
    await openCheckout(page, 'Gravel & Grace');
    const pay = page.getByRole('button', { name: /^Pay / });
    await expect(pay.textContent()).resolves.toMatch(/^Pay \S+$/);
    await screenshot(page, 'checkout-sandbox-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await pay.click();
    await expectPath(page, '/payment-success');
    await page.getByRole('heading', { name: 'Payment complete' }).waitFor();

    await page.goBack();
    await expectPath(page, `/album/${ids.northbound}`);
    // The row is no longer locked, and the player no longer holds the refusal.
    const play = page.getByRole('button', { name: 'Play Gravel & Grace', exact: true });
    await play.waitFor();
    await buyButton(page, 'Gravel & Grace').waitFor({ state: 'detached' });
    await page.getByTestId('player-stream-error').waitFor({ state: 'detached' });
    // The refused song waits for the listener: pressing play now plays it.
    await expect(
      page.evaluate(() => document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')?.paused),
    ).resolves.toBe(true);
    await play.click();
    await waitForPlayback(page, 1);

    // The purchases page lists the song.
    await page.getByRole('link', { name: 'Purchases' }).first().click();
    await expectPath(page, '/purchases');
    await page
      .getByRole('list', { name: 'Purchased songs' })
      .getByText('Gravel & Grace', { exact: true })
      .waitFor();
    await screenshot(page, 'purchases-after-buying');
    expect(consoleErrors.filter((text) => !text.includes('403'))).toEqual([]);
  });

  it('declining lands on /payment-fail and the song stays locked', async () => {
    await page.goto(`${baseUrl}/album/${ids.hipHopSketches}`);
    await openCheckout(page, 'Mixtape Weather');
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await expectPath(page, '/payment-fail');
    await page.getByRole('heading', { name: 'Payment not completed' }).waitFor();

    await page.goto(`${baseUrl}/album/${ids.hipHopSketches}`);
    await buyButton(page, 'Mixtape Weather').waitFor();
    const stream = await context.request.get(`${baseUrl}/api/stream/song/${ids.mixtapeWeather}`);
    expect(stream.status()).toBe(403);
  });
});

describe('commerce: offers on album and artist pages (nothing bought)', () => {
  it('offers the premium album in its header and a subscription on the artist page', async () => {
    const { context, page } = await openPage(browser, viewports.desktop);
    await loginViaApi(context, demo.listener);
    await page.goto(`${baseUrl}/album/${ids.midnightProtocol}`);
    await page
      .getByRole('button', { name: /^Buy album .+, Midnight Protocol$/ })
      .first()
      .waitFor();
    await page.goto(`${baseUrl}/artist/${ids.nova}`);
    await page
      .getByRole('button', { name: /^Subscribe .+\/month, Nova Reyes$/ })
      .first()
      .waitFor();
    await screenshot(page, 'artist-subscribe-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('commerce: a checkout opened from a song row', () => {
  it('keeps its clicks: nothing loads behind it and no refusal toast appears', async () => {
    const { context, page, consoleErrors } = await openPage(browser, viewports.desktop);
    await loginViaApi(context, demo.listener);
    const streams: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/stream/song/')) streams.push(request.url());
    });
    await page.goto(`${baseUrl}/album/${ids.hipHopSketches}`);
    await buyButton(page, 'Mixtape Weather').click();
    const dialog = page.getByRole('dialog', { name: 'Buy Mixtape Weather' });
    await dialog.waitFor();
    // Clicks on the dialog's text, its notice and its gateway choices (none of them buttons of the row).
    await dialog.getByRole('heading', { name: 'Buy Mixtape Weather' }).click();
    await dialog.locator('label', { hasText: 'Demo checkout' }).click();
    await dialog
      .getByText(/no money moves|Test mode/)
      .first()
      .click();
    // Two frames later React has rendered whatever those clicks dispatched.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await expect(page.getByTestId('desktop-player').count()).resolves.toBe(0);
    await expect(page.locator('[data-sonner-toast]').count()).resolves.toBe(0);
    expect(streams).toEqual([]);
    await screenshot(page, 'checkout-from-row-desktop');
    await dialog.getByRole('button', { name: 'Not now' }).click();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe('commerce: the demo checkout at 390 px', () => {
  it('fits the narrow screen and shows a decided order with a way on', async () => {
    const { context, page } = await openPage(browser, viewports.mobile);
    await loginViaApi(context, demo.listener);
    await page.goto(`${baseUrl}/album/${ids.hipHopSketches}`);
    await buyButton(page, 'Mixtape Weather').waitFor();
    await screenshot(page, 'album-locked-song-mobile');
    await openCheckout(page, 'Mixtape Weather');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'checkout-sandbox-mobile');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Decide the order, then open its checkout again: it shows the outcome and a link on, no Pay button.
    const checkout = page.url();
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await expectPath(page, '/payment-fail');
    await page.goto(checkout);
    await page.getByText('This payment was declined. Nothing was charged.').waitFor();
    await page.getByRole('link', { name: 'Back to Backbeat' }).waitFor();
    await expect(page.getByRole('button', { name: /^Pay / }).count()).resolves.toBe(0);
    await context.close();
  });
});
