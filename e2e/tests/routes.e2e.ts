import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, openPage, screenshot } from '../support/browser';
import { demoCatalogue } from '../support/catalogue';
import {
  demo,
  expectPath,
  loginViaApi,
  newPerson,
  registerViaApi,
  setGenresViaApi,
} from '../support/session';

const baseUrl = inject('baseUrl');
let browser: Browser;
let ids: Awaited<ReturnType<typeof demoCatalogue>>;

beforeAll(async () => {
  browser = await launchBrowser();
  ids = await demoCatalogue();
});
afterAll(() => browser.close());

/**
 * SPEC section 2, row by row. Each cell is where the app settles: `=` stays on the row's path; `/home>/genres`
 * means "sent to /home, which then sends a person without genres on to /genres" (both hops are checked).
 */
type Who = 'guest' | 'noGenres' | 'withGenres' | 'admin';
type Row = { path: () => string } & Record<Who, string>;

const rows: Row[] = [
  ...['/', '/help', '/data-deletion', '/privacy-policy', '/payment-success', '/payment-fail'].map((path) => ({
    path: () => path,
    guest: '=',
    noGenres: '=',
    withGenres: '=',
    admin: '=',
  })),
  // /auth/callback is public; the page itself then finishes a sign-in: the profile check fails for a guest.
  {
    path: () => '/auth/callback',
    guest: '/login',
    noGenres: '/home>/genres',
    withGenres: '/home',
    admin: '/home>/genres',
  },
  ...['/register', '/login', '/forgot-password', '/reset-password/some-token'].map((path) => ({
    path: () => path,
    guest: '=',
    noGenres: '/home>/genres',
    withGenres: '/home',
    admin: '/home>/genres',
  })),
  { path: () => '/genres', guest: '/login', noGenres: '=', withGenres: '=', admin: '=' },
  ...[
    () => '/home',
    () => '/genre/Electronic',
    () => '/artists',
    () => `/artist/${ids.artistId}`,
    () => '/purchases',
    () => '/liked-songs',
  ].map((path) => ({ path, guest: '/login', noGenres: '/genres', withGenres: '=', admin: '/genres' })),
  ...[() => `/album/${ids.albumId}`, () => '/search'].map((path) => ({
    path,
    guest: '/login',
    noGenres: '=',
    withGenres: '=',
    admin: '=',
  })),
  { path: () => '/payment-history', guest: '/login', noGenres: '/genres', withGenres: '=', admin: '/genres' },
  ...[() => '/admin', () => `/admin/payments/${ids.artistId}`].map((path) => ({
    path,
    guest: '/login',
    noGenres: '/home>/genres',
    withGenres: '/home',
    admin: '=',
  })),
  ...['/no-such-page', '/artist', '/home/extra/segments'].map((path) => ({
    path: () => path,
    guest: '/login',
    noGenres: '/',
    withGenres: '/',
    admin: '/',
  })),
];

async function signIn(who: Who, context: BrowserContext) {
  if (who === 'noGenres') await registerViaApi(context, newPerson('nogenres'));
  if (who === 'withGenres') {
    await registerViaApi(context, newPerson('genres'));
    await setGenresViaApi(context, ['Electronic']);
  }
  if (who === 'admin') {
    await loginViaApi(context, demo.admin);
    // The demo admin has no preferred genres; the admin column above assumes so.
    const me = (await (await context.request.get(`${baseUrl}/api/users/me`)).json()) as {
      preferredGenres: string[];
    };
    expect(me.preferredGenres).toEqual([]);
  }
}

// The four visitors walk the table at once, each in its own browser context (a row is mostly waiting for a late
// redirect: one after another they took 95 s of the suite).
describe.concurrent('SPEC section 2 route table', () => {
  for (const who of ['guest', 'noGenres', 'withGenres', 'admin'] as const) {
    it(`sends a ${who} visitor where the table says`, async ({ expect }) => {
      const { context, page, consoleErrors } = await openPage(browser);
      try {
        await signIn(who, context);
        const paths: string[] = [];
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame()) paths.push(new URL(frame.url()).pathname);
        });
        const mismatches: string[] = [];
        for (const row of rows) {
          const target = row.path();
          const hops = row[who] === '=' ? [target] : row[who].split('>');
          const final = hops.at(-1)!;
          paths.length = 0;
          await page.goto(`${baseUrl}${target}`);
          await expectPath(page, final, 10_000).catch(() => undefined);
          // Redirects follow the session check and the lazy route chunks: give a late one the chance to show.
          await page.waitForTimeout(600);
          const settled = new URL(page.url()).pathname;
          const visitedAll = hops.every((hop) => paths.includes(hop));
          if (settled !== final || !visitedAll)
            mismatches.push(`${target}: expected ${hops.join(' > ')}, went ${paths.join(' > ')}`);
          // Routing only: screens.e2e.ts checks each screen's console (a guest's /auth/callback check answers 401).
          consoleErrors.length = 0;
        }
        expect(mismatches, mismatches.join('\n')).toEqual([]);
        await screenshot(page, `routes-${who}-last`);
      } finally {
        await context.close();
      }
    }, 240_000);
  }
});
