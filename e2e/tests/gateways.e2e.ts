import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demoAlbumId, getJson } from '../support/catalogue';
import { demo, expectPath, loginViaApi, signedInListener } from '../support/session';
import { waitForPlayback } from '../support/playback';

/*
 * Paying through Stripe, Razorpay and PayPal as a listener does, against the local gateway emulator: the web app
 * loads the providers' browser scripts (their stand-ins), the server talks to the providers through their
 * official SDKs, and the providers' signed webhooks settle the orders. Every test registers its own listener, so
 * the demo catalogue's locked songs are locked for each of them.
 *
 * Demo catalogue used: "Gravel & Grace" (purchase-only, The Velvet Static, Northbound), "Mile Marker 9"
 * (subscription, same album), the premium album "Midnight Protocol" (Nova Reyes).
 */

const baseUrl = inject('baseUrl');
type Gateway = 'Card (Stripe)' | 'Razorpay (UPI, cards, netbanking)' | 'PayPal';

interface Titled {
  _id: string;
  title: string;
}

let browser: Browser;
const ids = { northbound: '', midnightProtocol: '' };

beforeAll(async () => {
  browser = await launchBrowser();
  ids.northbound = await demoAlbumId('The Velvet Static', 'Northbound');
  ids.midnightProtocol = await demoAlbumId('Nova Reyes', 'Midnight Protocol');
});
afterAll(() => browser.close());

async function listener(): Promise<{
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
  name: string;
}> {
  const opened = await openPage(browser, viewports.desktop);
  const person = await signedInListener(opened.context);
  return { ...opened, name: person.name };
}

/** An admin refunds the buyer's song from the dashboard, through the order's gateway. */
async function refundFromDashboard(buyer: string, item: string) {
  const { context, page } = await openPage(browser, viewports.desktop);
  await loginViaApi(context, demo.admin);
  await page.goto(`${baseUrl}/admin`);
  await page.getByRole('button', { name: new RegExp(`^Refund ${item}, .+ to ${buyer}$`) }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`^Refund .+ to ${buyer}\\?$`) });
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  await context.close();
}

/** Picks a radio of the checkout dialog by its visible label (the inputs themselves are visually hidden). */
async function choose(page: Page, label: Gateway | RegExp) {
  await page.getByRole('dialog').locator('label', { hasText: label }).click();
  await page.getByRole('radio', { name: label, checked: true }).waitFor();
}

/** Opens the checkout dialog from a button and picks the gateway. */
async function openDialog(page: Page, button: RegExp, dialog: string, gateway: Gateway) {
  await page.getByRole('button', { name: button }).first().click();
  await page.getByRole('dialog', { name: dialog }).waitFor();
  await choose(page, gateway);
}

/** Stripe's Payment Element (the emulator's card frame) with a card, then Pay / Subscribe. */
async function payWithStripe(page: Page, card = '4242 4242 4242 4242') {
  const frame = page.frameLocator('iframe[title="Secure card payment input frame"], iframe').first();
  await frame.getByLabel('Card number').fill(card);
  await frame.getByLabel(/Expiry/).fill('12 / 34');
  await frame.getByLabel('CVC').fill('123');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^(Pay|Subscribe) / })
    .click();
}

/** Razorpay Checkout's modal: a test card, then Pay (or the simulated failure). */
async function payWithRazorpay(page: Page, amountLabel: RegExp, outcome: 'pay' | 'fail' = 'pay') {
  await page.getByRole('button', { name: amountLabel }).click();
  const frame = page.frameLocator('iframe[src*="/_checkout"]');
  await frame.locator('#card').waitFor();
  if (outcome === 'fail') {
    await frame.getByRole('button', { name: /^Failure/ }).click();
    return;
  }
  await frame.locator('#card').fill('4111 1111 1111 1111');
  await frame.getByRole('button', { name: /^Pay / }).click();
}

/** PayPal's buttons open the approval window (a popup); the buyer approves or is declined. */
async function payWithPaypal(page: Page, buyer: 'pays' | 'declined' = 'pays') {
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: /PayPal \(test mode\)$/ }).click(),
  ]);
  await popup.waitForLoadState();
  if (buyer === 'declined') await popup.getByLabel(/declined-buyer@example.com/).check();
  await popup.getByRole('button', { name: /^(Pay now|Agree & Subscribe)$/ }).click();
}

const pay: Record<Gateway, (page: Page, what: 'song' | 'album' | 'subscription') => Promise<void>> = {
  'Card (Stripe)': (page) => payWithStripe(page),
  'Razorpay (UPI, cards, netbanking)': (page) => payWithRazorpay(page, /with Razorpay$/),
  PayPal: (page) => payWithPaypal(page),
};

const GATEWAYS: Gateway[] = ['Card (Stripe)', 'Razorpay (UPI, cards, netbanking)', 'PayPal'];

describe.each(GATEWAYS)('checkout through %s (local gateway emulator)', (gateway) => {
  it('buys a song and a premium album; each plays; an admin refund locks the song again', async () => {
    const { context, page, consoleErrors, name } = await listener();
    await page.goto(`${baseUrl}/album/${ids.northbound}`);
    await openDialog(page, /^Buy song .+, Gravel & Grace$/, 'Buy Gravel & Grace', gateway);
    await page
      .getByText(/Test mode/)
      .first()
      .waitFor();
    if (gateway === 'Card (Stripe)') {
      // The card form at rest: Stripe's element mounted and the Pay button enabled.
      await expect
        .poll(() => page.getByRole('dialog').getByRole('button', { name: /^Pay / }).isEnabled())
        .toBe(true);
      await screenshot(page, 'checkout-stripe-desktop');
      expect(await seriousA11yViolations(page)).toEqual([]);
    }
    await pay[gateway](page, 'song');
    await expectPath(page, '/payment-success', 30_000);
    await page.getByText('Paid, unlocked').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Play it now' }).click();
    await waitForPlayback(page);

    await page.goto(`${baseUrl}/album/${ids.midnightProtocol}`);
    await openDialog(page, /^Buy album .+, Midnight Protocol$/, 'Buy Midnight Protocol', gateway);
    await pay[gateway](page, 'album');
    await expectPath(page, '/payment-success', 30_000);
    await page.getByText('Paid, unlocked').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Play it now' }).click();
    await expectPath(page, `/album/${ids.midnightProtocol}`);
    await waitForPlayback(page);

    // Both orders are in the payment history, paid through this gateway.
    await page.goto(`${baseUrl}/payment-history`);
    await page.getByText('Gravel & Grace').first().waitFor();
    await page.getByText('Midnight Protocol').first().waitFor();
    expect(consoleErrors.filter((text) => !text.includes('403'))).toEqual([]);

    // An admin refunds the song through the same gateway: it locks again for the buyer, the history says so.
    await refundFromDashboard(name, 'Song: Gravel & Grace');
    await expect
      .poll(
        async () => {
          await page.goto(`${baseUrl}/album/${ids.northbound}`);
          await page.getByRole('heading', { name: 'Northbound' }).first().waitFor();
          return page.getByRole('button', { name: /^Buy song .+, Gravel & Grace$/ }).count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(1);
    await page.goto(`${baseUrl}/payment-history`);
    await page.getByText('Gravel & Grace').first().waitFor();
    await page.getByText('Refund: Gravel & Grace').first().waitFor();
    if (gateway === 'Card (Stripe)') await screenshot(page, 'payment-history-refund-desktop');
    await context.close();
  });

  it('subscribes to an artist with a chosen cycle; the subscription song then plays', async () => {
    const { context, page } = await listener();
    await page.goto(`${baseUrl}/album/${ids.northbound}`);
    await openDialog(
      page,
      /^Subscribe .+\/month, The Velvet Static$/,
      'Subscribe to The Velvet Static',
      gateway,
    );
    await choose(page, /Every 3 months/);
    await page
      .getByRole('dialog')
      .getByText(/\/3 months|every 3 months/i)
      .first()
      .waitFor();
    if (gateway === 'PayPal') await screenshot(page, 'checkout-subscribe-paypal-desktop');
    await pay[gateway](page, 'subscription');
    await expectPath(page, '/payment-success', 30_000);
    await page.getByRole('link', { name: 'Listen to the artist' }).waitFor({ timeout: 30_000 });
    await page.goto(`${baseUrl}/album/${ids.northbound}`);
    await page.getByRole('button', { name: 'Play Mile Marker 9', exact: true }).click();
    await waitForPlayback(page);
    await page.goto(`${baseUrl}/purchases`);
    await page
      .getByText(/Renews on/i)
      .first()
      .waitFor();
    await context.close();
  });

  it('a declined payment says why; nothing unlocks', async () => {
    const { context, page } = await listener();
    await page.goto(`${baseUrl}/album/${ids.northbound}`);
    if (gateway === 'Card (Stripe)') {
      // A free song plays while the listener buys: the music goes on through the checkout and its result page.
      await page.getByRole('button', { name: 'Play Pine Smoke', exact: true }).click();
      await waitForPlayback(page);
      await openDialog(page, /^Buy song .+, Gravel & Grace$/, 'Buy Gravel & Grace', gateway);
      await payWithStripe(page, '4000 0000 0000 0002');
      // The declined card is said inside the form, which stays open for another card.
      const dialog = page.getByRole('dialog', { name: 'Buy Gravel & Grace' });
      await dialog.getByText(/Your card was declined\./).waitFor();
      await expectPath(page, `/album/${ids.northbound}`);
      await screenshot(page, 'checkout-stripe-declined-desktop');
      const gravel = (await getJson<Titled[]>(`/songs/album/${ids.northbound}`)).find(
        (s) => s.title === 'Gravel & Grace',
      )!;
      expect((await context.request.get(`${baseUrl}/api/stream/song/${gravel._id}`)).status()).toBe(403);
      await payWithStripe(page);
      await expectPath(page, '/payment-success', 30_000);
      await page.getByText('Paid, unlocked').waitFor({ timeout: 30_000 });
      // The results page is inside the app: the player is still there and still playing.
      await page.getByTestId('desktop-player').waitFor();
      const before = await page.evaluate(
        () => document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')!.currentTime,
      );
      await waitForPlayback(page, before + 0.5);
      await screenshot(page, 'payment-success-in-shell-desktop');
      await context.close();
      return;
    }
    await openDialog(page, /^Buy song .+, Gravel & Grace$/, 'Buy Gravel & Grace', gateway);
    let message: RegExp;
    if (gateway === 'PayPal') {
      await payWithPaypal(page, 'declined');
      message = /declined/i;
    } else {
      await payWithRazorpay(page, /with Razorpay$/, 'fail');
      message = /Payment failed|declined|failed/i;
    }
    await expectPath(page, '/payment-fail', 30_000);
    await page.getByText(message).first().waitFor();
    await page
      .getByRole('button', { name: /Try again/ })
      .or(page.getByRole('link', { name: /Try again/ }))
      .first()
      .waitFor();
    const song = (await getJson<Titled[]>(`/songs/album/${ids.northbound}`)).find(
      (s) => s.title === 'Gravel & Grace',
    )!;
    const stream = await context.request.get(`${baseUrl}/api/stream/song/${song._id}`);
    expect(stream.status()).toBe(403);
    await context.close();
  });
});
