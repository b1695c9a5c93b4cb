import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { startServer, type RunningServer } from '../support/server-process';
import { expectToast } from '../support/session';

/**
 * Social sign-in on a fresh development start, with no provider configured: the server runs its local OpenID
 * Connect issuer (test mode) behind "Continue with Google", and the SPEC's flow and messages work through it.
 */
let browser: Browser;
let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  browser = await launchBrowser();
  dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-e2e-dev-oidc-'));
  // `npm start` as a developer runs it: development, nothing configured (no catalogue needed here).
  server = await startServer(dataDir, {
    NODE_ENV: 'development',
    SEED_DEMO: 'false',
    PAYMENTS_EMULATOR: 'false',
    PAYMENTS_SANDBOX: 'false',
  });
});
afterAll(async () => {
  await browser.close();
  await server.stop(15_000);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Waits until the page is on `pathname` of this file's own server (expectPath knows only the shared one). */
const onPath = (page: Page, pathname: string) =>
  page.waitForURL((url) => url.origin === new URL(server.baseUrl).origin && url.pathname === pathname);

/** Clicks "Continue with Google" on /login and answers the local issuer's test page. */
async function continueWithGoogle(
  page: Page,
  answer: { email: string; name: string } | 'cancel',
  shot?: string,
) {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByText('Test mode: a local stand-in for Google signs you in, without a password.').waitFor();
  await page.getByRole('link', { name: 'Continue with Google' }).click();
  await page.getByRole('heading', { name: 'Sign in with Google' }).waitFor();
  await page.getByText('Test mode', { exact: true }).waitFor();
  if (shot) {
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, shot);
  }
  if (answer === 'cancel') {
    await page.getByRole('button', { name: 'Cancel' }).click();
    return;
  }
  await page.getByLabel('E-mail').fill(answer.email);
  await page.getByLabel('Name').fill(answer.name);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('social sign-in on a fresh npm start (local test issuer)', () => {
  it('registers, asks for genres, signs in again, and says when it failed', async () => {
    const person = { email: `dev.${Date.now().toString(36)}@example.com`, name: 'Devi Local' };
    for (const viewport of [viewports.mobile, viewports.desktop]) {
      const { context, page } = await openPage(browser, viewport);
      try {
        await page.goto(`${server.baseUrl}/login`);
        await screenshot(page, `social-dev-login-${viewport.width}`);
        await continueWithGoogle(page, 'cancel', `social-dev-test-page-${viewport.width}`);
        await expectToast(page, 'Social login failed');
        await onPath(page, '/login');
      } finally {
        await context.close();
      }
    }

    const first = await openPage(browser, viewports.desktop);
    try {
      await continueWithGoogle(first.page, person);
      await expectToast(first.page, 'Social registration successful! Please select your genres.');
      await onPath(first.page, '/genres');
      await first.page.getByText('Welcome, Devi').waitFor();
    } finally {
      await first.context.close();
    }

    // Another browser, the same e-mail: the same account, signed in.
    const again = await openPage(browser, viewports.desktop);
    try {
      await continueWithGoogle(again.page, person);
      await expectToast(again.page, 'Social login successful!');
      const me = await again.context.request.get(`${server.baseUrl}/api/users/me`);
      expect(((await me.json()) as { email: string }).email).toBe(person.email);
    } finally {
      await again.context.close();
    }
  });
});
