import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demoCatalogue } from '../support/catalogue';
import { mailedLink, outboxMails, resetLinkFor } from '../support/outbox';
import {
  demo,
  expectPath,
  expectToast,
  loginViaApi,
  loginViaUi,
  newPerson,
  registerViaApi,
  setGenresViaApi,
} from '../support/session';
import { setSocialIdentity } from '../support/social';

const baseUrl = inject('baseUrl');
const UNAUTHORIZED = /Failed to load resource: the server responded with a status of 401/;
let browser: Browser;
let ids: Awaited<ReturnType<typeof demoCatalogue>>;

beforeAll(async () => {
  browser = await launchBrowser();
  ids = await demoCatalogue();
});
afterAll(() => browser.close());

/** Opens a page and keeps it open only for the test's body; console errors fail the test. */
async function withPage(
  body: (page: Page, context: BrowserContext, consoleErrors: string[]) => Promise<void>,
  options: Parameters<typeof openPage>[2] = {},
  /** Browser-logged failures the test provokes on purpose (e.g. the 401 of a wrong password). */
  expectedErrors: RegExp[] = [],
) {
  const { context, page, consoleErrors } = await openPage(browser, undefined, options);
  try {
    await body(page, context, consoleErrors).catch(async (error: unknown) => {
      await screenshot(page, `failed-auth-${expect.getState().currentTestName?.replace(/\W+/g, '-')}`);
      throw error;
    });
    const unexpected = consoleErrors.filter((text) => !expectedErrors.some((pattern) => pattern.test(text)));
    expect(unexpected, unexpected.join('\n')).toEqual([]);
  } finally {
    await context.close();
  }
}

describe('accounts: register, choose genres, log out, log in', () => {
  it('walks a new listener from sign-up to home and back', async () => {
    const person = newPerson('journey');
    await withPage(async (page) => {
      await page.goto(`${baseUrl}/register`);
      await page.getByLabel('Name').fill(person.name);
      await page.getByLabel('Email').fill(person.email);
      await page.locator('input[name="password"]').fill(person.password);
      await page.locator('input[name="confirmation"]').fill(person.password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await expectToast(page, 'Registered successfully');
      await expectPath(page, '/genres');

      const continueButton = page.getByRole('button', { name: 'Continue' });
      expect(await continueButton.isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Jazz' }).click();
      await page.getByRole('button', { name: 'Electronic' }).click();
      await continueButton.click();
      await expectToast(page, 'Preferred genres updated');
      // It replaced the sign-up's toast instead of stacking under it.
      await expect(
        page.locator('[data-sonner-toast]', { hasText: 'Registered successfully' }).count(),
      ).resolves.toBe(0);
      await expectPath(page, '/home');

      // Log out from the account menu: the session ends and /home is not a page that stays.
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('button', { name: 'Log out' }).click();
      await expectToast(page, 'Logged out successfully');
      await expectPath(page, '/login');
      const me = await page.request.get(`${baseUrl}/api/users/me`);
      expect(me.status()).toBe(401);

      await loginViaUi(page, person);
      await expectToast(page, 'Logged in successfully');
      await expectPath(page, '/home');
    });
  });

  it('shows the server message for a wrong password and stays on /login', async () => {
    await withPage(
      async (page) => {
        await page.goto(`${baseUrl}/login`);
        await loginViaUi(page, { email: demo.listener.email, password: 'not-the-password' });
        await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).first().waitFor();
        expect(new URL(page.url()).pathname).toBe('/login');
      },
      {},
      [UNAUTHORIZED],
    );
  });
});

describe('accounts: deep links survive signing in', () => {
  it('returns a guest to the album they opened, once they log in', async () => {
    await withPage(
      async (page) => {
        await page.goto(`${baseUrl}/album/${ids.albumId}`);
        await expectPath(page, '/login');
        await loginViaUi(page, demo.listener);
        await expectPath(page, `/album/${ids.albumId}`);
        await page.getByRole('heading', { name: ids.albumTitle, level: 1 }).waitFor();
      },
      {},
      [UNAUTHORIZED],
    );
  });

  it('takes a new account through /genres first, then on to the artist it opened', async () => {
    const person = newPerson('deeplink');
    await withPage(
      async (page) => {
        await page.goto(`${baseUrl}/artist/${ids.artistId}`);
        await expectPath(page, '/login');
        await page
          .getByRole('link', { name: /sign up|create an account/i })
          .first()
          .click();
        await expectPath(page, '/register');
        await page.getByLabel('Name').fill(person.name);
        await page.getByLabel('Email').fill(person.email);
        await page.locator('input[name="password"]').fill(person.password);
        await page.locator('input[name="confirmation"]').fill(person.password);
        await page.getByRole('button', { name: 'Create account' }).click();
        await expectPath(page, '/genres');
        await page.getByRole('button', { name: 'Jazz' }).click();
        await page.getByRole('button', { name: 'Continue' }).click();
        await expectPath(page, `/artist/${ids.artistId}`);
        await page.getByRole('heading', { name: ids.artistName, level: 1 }).waitFor();
      },
      {},
      [UNAUTHORIZED],
    );
  });

  it('returns through the social login too, and only ever to a path of this site', async () => {
    const suffix = Math.random().toString(36).slice(2, 10);
    await setSocialIdentity({
      sub: `e2e-deep-${suffix}`,
      email: `deep.${suffix}@example.com`,
      email_verified: true,
      name: 'Dee Link',
    });
    await withPage(
      async (page) => {
        await page.goto(`${baseUrl}/search?q=jazz`);
        await expectPath(page, '/login');
        await page.getByRole('link', { name: 'Continue with Google' }).click();
        await expectPath(page, '/genres');
        await page.getByRole('button', { name: 'Lo-Fi' }).click();
        await page.getByRole('button', { name: 'Continue' }).click();
        await expectPath(page, '/search');
        expect(new URL(page.url()).search).toBe('?q=jazz');

        // A return address planted in storage that leaves the site is ignored: home, as the SPEC says.
        await page.getByRole('button', { name: 'Account menu' }).click();
        await page.getByRole('button', { name: 'Log out' }).click();
        await expectPath(page, '/login');
        await page.evaluate(() => sessionStorage.setItem('backbeat.returnTo', '//evil.example/album/1'));
        await loginViaUi(page, demo.listener);
        await expectPath(page, '/home');
      },
      { ignoreHTTPSErrors: true },
      [UNAUTHORIZED],
    );
  });
});

/** A 16 x 16 PNG, for a profile picture. */
const PICTURE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAGUlEQVQokWP4H2VGEmIY1RA1Gkr/h2vSAADn3Y8QukoUWwAAAABJRU5ErkJggg==',
  'base64',
);

describe('accounts: settings', () => {
  it('changes the name, the picture, the e-mail (through the mailed link) and the password, which ends other sessions', async () => {
    const person = newPerson('settings');
    const elsewhere = await browser.newContext();
    try {
      await withPage(
        async (page, context) => {
          await registerViaApi(context, person);
          await setGenresViaApi(context, ['Jazz']);
          await loginViaApi(elsewhere, person);
          await page.goto(`${baseUrl}/home`);
          await page.getByRole('button', { name: 'Account menu' }).click();
          await page.getByRole('link', { name: 'Settings' }).click();
          await expectPath(page, '/settings');

          await page.getByLabel('Name', { exact: true }).fill('Renamed Listener');
          await page.getByRole('button', { name: 'Save name' }).click();
          await expectToast(page, 'Name updated');
          await page.getByRole('button', { name: 'Account menu' }).getByText('Renamed Listener').waitFor();

          await page.locator('#settings-avatar').setInputFiles({
            name: 'me.png',
            mimeType: 'image/png',
            buffer: PICTURE,
          });
          await expectToast(page, 'Profile picture updated');
          const picture = page.getByRole('img', { name: 'Your profile picture' });
          await picture.waitFor();
          expect(await picture.getAttribute('src')).toMatch(/^\/api\/media\/images\/avatar\//);
          await screenshot(page, 'settings-filled-desktop');

          // A new address changes only through the link mailed to it; the old address hears of it.
          const moved = newPerson('moved').email;
          await page.getByLabel('New e-mail address').fill(moved);
          await page.locator('input[name="email-password"]').fill(person.password);
          await page.getByRole('button', { name: 'Send confirmation link' }).click();
          await page.getByText(`We sent a link to ${moved}.`, { exact: false }).waitFor();
          expect((await (await context.request.get(`${baseUrl}/api/users/me`)).json()).email).toBe(
            person.email,
          );
          const link = await mailedLink(moved, /\/settings\/email\?[^\s"<>]+/);
          await page.goto(`${baseUrl}${link}`);
          await page.getByRole('heading', { name: 'E-mail address confirmed' }).waitFor();
          expect((await (await context.request.get(`${baseUrl}/api/users/me`)).json()).email).toBe(moved);
          expect(
            outboxMails().some(
              (mail) => mail.includes(`To: ${person.email}`) && mail.includes(`now ${moved}`),
            ),
          ).toBe(true);

          // The password: the current one first; every other session ends.
          await page.goto(`${baseUrl}/settings`);
          await page.locator('input[name="current-password"]').fill(person.password);
          await page.locator('input[name="new-password"]').fill('a brand new passphrase');
          await page.locator('input[name="repeat-password"]').fill('a brand new passphrase');
          await page.getByRole('button', { name: 'Change password' }).click();
          await page.getByText('Password changed. Signed out of 1 other session.').waitFor();
          expect((await elsewhere.request.get(`${baseUrl}/api/users/me`)).status()).toBe(401);
          expect((await context.request.get(`${baseUrl}/api/users/me`)).status()).toBe(200);
        },
        {},
        [UNAUTHORIZED],
      );
    } finally {
      await elsewhere.close();
    }
  });

  it('fits a phone: every section readable at 390 px', async () => {
    await withPage(async (page, context) => {
      await registerViaApi(context, newPerson('phone'));
      await setGenresViaApi(context, ['Jazz']);
      await page.setViewportSize(viewports.mobile);
      await page.goto(`${baseUrl}/settings`);
      await page.getByRole('heading', { name: 'Preferred genres' }).waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, 'settings-mobile');
    });
  });
});

describe('accounts: forgotten password', () => {
  it('mails a link that sets a new password; the old one stops working', async () => {
    const person = newPerson('reset');
    const setup = await browser.newContext();
    await registerViaApi(setup, person);
    await setGenresViaApi(setup, ['Rock']);
    await setup.close();
    const newPassword = `${person.password}-renewed`;

    await withPage(
      async (page) => {
        await page.goto(`${baseUrl}/login`);
        await page.getByRole('link', { name: 'Forgot password?' }).click();
        await expectPath(page, '/forgot-password');
        await page.getByLabel('Email').fill(person.email);
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await page
          .getByText(/reset link is on its way|If an account exists/i)
          .first()
          .waitFor();

        const link = await resetLinkFor(person.email);
        expect(link).toMatch(/^\/reset-password\/[A-Za-z0-9_-]+$/);
        await page.goto(`${baseUrl}${link}`);
        await page.locator('input[name="password"]').fill(newPassword);
        await page.locator('input[name="confirmation"]').fill(newPassword);
        await page.getByRole('button', { name: 'Save new password' }).click();
        await expectPath(page, '/login');

        // The old password is refused, the new one signs in.
        await loginViaUi(page, person);
        await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).first().waitFor();
        expect(new URL(page.url()).pathname).toBe('/login');
        await loginViaUi(page, { email: person.email, password: newPassword });
        await expectToast(page, 'Logged in successfully');
        await expectPath(page, '/home');

        // The link works once.
        const reused = await page.request.post(
          `${baseUrl}/api${link.replace('/reset-password/', '/users/reset-password/')}`,
          {
            data: { password: `${newPassword}-again` },
          },
        );
        expect(reused.status()).toBe(400);
      },
      {},
      [UNAUTHORIZED],
    );
  });
});

describe('accounts: social login through the local OpenID Connect issuer', () => {
  it('registers a new person, asks for genres, and signs them in again later', async () => {
    const suffix = Math.random().toString(36).slice(2, 10);
    await setSocialIdentity({
      sub: `e2e-${suffix}`,
      email: `social.${suffix}@example.com`,
      email_verified: true,
      name: 'Sam Social',
    });
    // The issuer serves a throwaway self-signed certificate.
    await withPage(
      async (page) => {
        // Every document the browser asked for, redirects included.
        const visited: string[] = [];
        page.on('request', (request) => {
          if (request.isNavigationRequest()) visited.push(request.url());
        });
        await page.goto(`${baseUrl}/login`);
        await page.getByRole('link', { name: 'Continue with Google' }).click();
        await expectToast(page, 'Social registration successful! Please select your genres.');
        await expectPath(page, '/genres');
        expect(visited.some((url) => url.startsWith(inject('oidcIssuerUrl')))).toBe(true);
        expect(visited).toContain(`${baseUrl}/auth/callback?new=1`);
        // The genre page greets the new account once its profile has loaded.
        await page.getByText('Welcome, Sam').waitFor();
        await page.getByRole('button', { name: 'Lo-Fi' }).click();
        await page.getByRole('button', { name: 'Continue' }).click();
        await expectPath(page, '/home');

        await page.getByRole('button', { name: 'Account menu' }).click();
        await page.getByRole('button', { name: 'Log out' }).click();
        await expectPath(page, '/login');
        await page.getByRole('link', { name: 'Continue with Google' }).click();
        await expectToast(page, 'Social login successful!');
        await expectPath(page, '/home');
        expect(visited).toContain(`${baseUrl}/auth/callback`);
      },
      { ignoreHTTPSErrors: true },
    );
  });

  it('never signs into an existing account on its e-mail alone, and says how to get in', async () => {
    await setSocialIdentity({
      sub: `e2e-squat-${Math.random().toString(36).slice(2, 10)}`,
      email: demo.listener.email,
      email_verified: true,
      name: 'Not Lee',
    });
    await withPage(
      async (page) => {
        await page.goto(`${baseUrl}/login`);
        await page.getByRole('link', { name: 'Continue with Google' }).click();
        await expectToast(
          page,
          'An account with this e-mail already exists. Sign in with its password, or reset the password by e-mail.',
        );
        await expectPath(page, '/login');
      },
      { ignoreHTTPSErrors: true },
    );
  });
});
