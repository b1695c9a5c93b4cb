import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('landing page', () => {
  for (const [name, viewport] of Object.entries(viewports)) {
    it(`loads at ${name} size with no console errors and links to sign in`, async () => {
      const { context, page, consoleErrors } = await openPage(browser, viewport);
      const response = await page.goto(baseUrl, { waitUntil: 'networkidle' });
      expect(response?.status()).toBe(200);
      await expect(page.title()).resolves.toContain('Backbeat');
      const signIn = page.locator('a[href="/login"]').first();
      await signIn.waitFor({ state: 'visible' });
      // Only what the product does: free songs play in full, the rest has a preview (no "whole catalogue").
      await page.getByRole('heading', { name: 'Play free songs in full' }).waitFor();
      await expect(page.getByText(/whole catalogue/i).count()).resolves.toBe(0);
      await screenshot(page, `landing-${name}`);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
      await signIn.click();
      await page.waitForURL(`${baseUrl}/login`);
      await context.close();
    });
  }

  it('serves the app for an unknown client path and JSON 404 for an unknown API path', async () => {
    const app = await fetch(`${baseUrl}/some/client/route`);
    expect(app.status).toBe(200);
    expect(await app.text()).toContain('<div id="root">');
    const api = await fetch(`${baseUrl}/api/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
