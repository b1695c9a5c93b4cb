import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, screenshot, trackConsoleErrors, viewports } from '../support/browser';
import { demoCatalogue } from '../support/catalogue';
import {
  CLS_BUDGET,
  cumulativeLayoutShift,
  describeShifts,
  recordLayoutShifts,
} from '../support/layout-shift';
import { demo, expectPath, likeSongViaApi, loginViaApi, signedInListener } from '../support/session';

const baseUrl = inject('baseUrl');
let browser: Browser;
let ids: Awaited<ReturnType<typeof demoCatalogue>>;

type Who = 'guest' | 'listener' | 'admin' | 'artist';

interface Screen {
  name: string;
  who: Who;
  path: () => string;
  /** Text that must be visible: demo catalogue names where the screen shows the catalogue, else its heading. */
  shows: () => string[];
  /** A link on the screen (by its href) and the path it must lead to. */
  link?: () => { href: string; to: string };
}

/** The listener-app screens of SPEC section 2; studio and playlist screens live in their own files. */
const screens: Screen[] = [
  {
    name: 'landing',
    who: 'guest',
    path: () => '/',
    shows: () => ['Backbeat'],
    link: () => ({ href: '/register', to: '/register' }),
  },
  {
    name: 'login',
    who: 'guest',
    path: () => '/login',
    shows: () => ['Welcome back'],
    link: () => ({ href: '/forgot-password', to: '/forgot-password' }),
  },
  {
    name: 'register',
    who: 'guest',
    path: () => '/register',
    shows: () => ['Create your account'],
    link: () => ({ href: '/login', to: '/login' }),
  },
  {
    name: 'forgot-password',
    who: 'guest',
    path: () => '/forgot-password',
    shows: () => ['Reset your password'],
    link: () => ({ href: '/login', to: '/login' }),
  },
  {
    name: 'reset-password',
    who: 'guest',
    path: () => '/reset-password/sample-token-from-a-mail',
    shows: () => ['Choose a new password'],
  },
  {
    name: 'help',
    who: 'guest',
    path: () => '/help',
    shows: () => ['Getting started', 'Contact support'],
    link: () => ({ href: '/privacy-policy', to: '/privacy-policy' }),
  },
  {
    name: 'privacy-policy',
    who: 'guest',
    path: () => '/privacy-policy',
    shows: () => ['What we collect'],
    link: () => ({ href: '/data-deletion', to: '/data-deletion' }),
  },
  {
    name: 'data-deletion',
    who: 'guest',
    path: () => '/data-deletion',
    shows: () => ['What is deleted'],
    link: () => ({ href: '/help', to: '/help' }),
  },
  {
    name: 'payment-success',
    who: 'guest',
    path: () => '/payment-success',
    shows: () => ['Payment complete'],
    link: () => ({ href: '/login', to: '/login' }),
  },
  {
    name: 'payment-fail',
    who: 'guest',
    path: () => '/payment-fail',
    shows: () => ['Payment not completed'],
    link: () => ({ href: '/login', to: '/login' }),
  },
  {
    name: 'genres',
    who: 'listener',
    path: () => '/genres',
    shows: () => ['Electronic', 'Hip-Hop', 'Lo-Fi'],
    link: () => ({ href: '/home', to: '/home' }),
  },
  {
    name: 'home',
    who: 'listener',
    path: () => '/home',
    shows: () => ['Nova Reyes'],
    link: () => ({ href: '/artists', to: '/artists' }),
  },
  {
    name: 'artists',
    who: 'listener',
    path: () => '/artists',
    shows: () => ['Nova Reyes', 'Kairo Beats', 'The Velvet Static'],
    link: () => ({ href: `/artist/${ids.artistId}`, to: `/artist/${ids.artistId}` }),
  },
  {
    name: 'artist',
    who: 'listener',
    path: () => `/artist/${ids.artistId}`,
    shows: () => ['Nova Reyes', 'Neon Tides'],
    link: () => ({ href: `/album/${ids.albumId}`, to: `/album/${ids.albumId}` }),
  },
  {
    name: 'album',
    who: 'listener',
    path: () => `/album/${ids.albumId}`,
    shows: () => ['Neon Tides', 'Harbour Lights', 'Nova Reyes'],
    link: () => ({ href: `/artist/${ids.artistId}`, to: `/artist/${ids.artistId}` }),
  },
  {
    name: 'genre',
    who: 'listener',
    path: () => '/genre/Electronic',
    shows: () => ['Electronic', 'Nova Reyes'],
    link: () => ({ href: `/artist/${ids.artistId}`, to: `/artist/${ids.artistId}` }),
  },
  {
    name: 'search',
    who: 'listener',
    path: () => '/search?q=nova',
    shows: () => ['Nova Reyes', 'Harbour Lights'],
    link: () => ({ href: `/artist/${ids.artistId}`, to: `/artist/${ids.artistId}` }),
  },
  {
    name: 'liked-songs',
    who: 'listener',
    path: () => '/liked-songs',
    shows: () => ['Harbour Lights', 'Nova Reyes'],
    link: () => ({ href: `/artist/${ids.artistId}`, to: `/artist/${ids.artistId}` }),
  },
  {
    name: 'purchases',
    who: 'listener',
    path: () => '/purchases',
    shows: () => ['Purchases'],
    link: () => ({ href: '/liked-songs', to: '/liked-songs' }),
  },
  {
    name: 'payment-history',
    who: 'listener',
    path: () => '/payment-history',
    shows: () => ['Payment history'],
  },
  {
    name: 'settings',
    who: 'listener',
    path: () => '/settings',
    shows: () => ['Settings', 'Preferred genres', 'Delete your account'],
    link: () => ({ href: '/home', to: '/home' }),
  },
  {
    name: 'discover',
    who: 'listener',
    path: () => '/discover',
    shows: () => ['Discover'],
  },
  {
    name: 'albums',
    who: 'listener',
    path: () => '/albums',
    shows: () => ['Neon Tides'],
  },
  {
    name: 'playlists',
    who: 'listener',
    path: () => '/playlists',
    shows: () => ['Playlists'],
  },
  {
    name: 'studio',
    who: 'admin',
    path: () => '/studio',
    shows: () => ['Catalogue studio', 'Free to stream'],
  },
  {
    name: 'studio-song-new',
    who: 'artist',
    path: () => '/studio/songs/new',
    shows: () => ['Free to stream'],
  },
  {
    name: 'studio-dashboard',
    who: 'artist',
    path: () => '/studio/dashboard',
    shows: () => ['Net revenue'],
  },
  {
    name: 'admin',
    who: 'admin',
    path: () => '/admin',
    shows: () => ['Nova Reyes', 'Kairo Beats'],
    link: () => ({ href: `/admin/payments/${ids.artistId}`, to: `/admin/payments/${ids.artistId}` }),
  },
  {
    name: 'admin-payments',
    who: 'admin',
    path: () => `/admin/payments/${ids.artistId}`,
    shows: () => ['Nova Reyes'],
  },
];

beforeAll(async () => {
  browser = await launchBrowser();
  ids = await demoCatalogue();
});
afterAll(() => browser.close());

/** The first link to `href` a person can see at this size (menus differ between desktop and mobile). */
async function visibleLink(page: Page, href: string) {
  const links = page.locator(`a[href="${href}"]`);
  const count = await links.count();
  for (let index = 0; index < count; index += 1) {
    if (await links.nth(index).isVisible()) return links.nth(index);
  }
  throw new Error(`no visible link to ${href}`);
}

/** Lets lazy chunks, images and queries settle (bounded: the player may keep streaming). */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

for (const [size, viewport] of Object.entries(viewports)) {
  describe(`screens at ${size} size (${viewport.width}x${viewport.height})`, () => {
    const contexts = new Map<Who, BrowserContext>();

    beforeAll(async () => {
      for (const who of ['guest', 'listener', 'admin', 'artist'] as const) {
        const context = await browser.newContext({ viewport });
        await recordLayoutShifts(context);
        if (who === 'listener') {
          await signedInListener(context, ['Electronic', 'Jazz']);
          await likeSongViaApi(context, ids.songId);
        }
        if (who === 'admin') await loginViaApi(context, demo.admin);
        if (who === 'artist') await loginViaApi(context, demo.artist);
        contexts.set(who, context);
      }
    });
    afterAll(async () => {
      for (const context of contexts.values()) await context.close();
    });

    for (const screen of screens) {
      it(`${screen.name}: real content, no console errors, no layout shift, accessible, links work`, async () => {
        const page = await contexts.get(screen.who)!.newPage();
        const consoleErrors = trackConsoleErrors(page);
        try {
          const target = screen.path();
          await page.goto(`${baseUrl}${target}`);
          await expectPath(page, target.split('?')[0]!);
          for (const text of screen.shows()) {
            await page.getByText(text, { exact: false }).filter({ visible: true }).first().waitFor();
          }
          await settle(page);
          // CLS is a layout measure (not a timing): the design's budget holds on every route, at both sizes. It is
          // read before the full-page screenshot, which resizes the page.
          const { cls, window } = await cumulativeLayoutShift(page);
          expect
            .soft(cls, `CLS ${cls} on ${target} at ${size}:\n${describeShifts(window)}`)
            .toBeLessThanOrEqual(CLS_BUDGET);
          await screenshot(page, `${screen.name}-${size}`);

          const violations = await seriousA11yViolations(page);
          expect.soft(violations, violations.join('\n')).toEqual([]);
          expect.soft(consoleErrors, consoleErrors.join('\n')).toEqual([]);

          if (screen.link) {
            const { href, to } = screen.link();
            await (await visibleLink(page, href)).click();
            await expectPath(page, to);
          }
        } catch (error) {
          await screenshot(page, `failed-${screen.name}-${size}`);
          throw error;
        } finally {
          await page.close();
        }
      });
    }
  });
}

describe('no dead ends: what does not exist', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext({ viewport: viewports.desktop });
    await loginViaApi(context, demo.admin);
  });
  afterAll(() => context.close());

  it('an unknown path shows "Page not found" inside the app, with home and search', async () => {
    const page = await context.newPage();
    const consoleErrors = trackConsoleErrors(page);
    await page.goto(`${baseUrl}/no/such/page`);
    await expectPath(page, '/');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByText('There is no page at /no/such/page').waitFor();
    // Inside the main layout: its menu and header, not the marketing page.
    await page.getByRole('navigation', { name: 'Main' }).first().waitFor();
    await page.locator('main').getByRole('link', { name: 'Go home' }).waitFor();
    await screenshot(page, 'not-found-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.locator('main').getByRole('link', { name: 'Search' }).click();
    await expectPath(page, '/search');
    // Plain / is still the landing page.
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: /Stream it\. Own it\./ }).waitFor();
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('a missing album says so once, with no "Try again"', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/album/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('heading', { name: 'Album not found' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Album not found' }).count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Try again' }).count()).resolves.toBe(0);
    await screenshot(page, 'album-not-found-desktop');
    await page.close();
  });

  it('the admin page of a bad artist id asks once, not ten times', async () => {
    const page = await context.newPage();
    const api: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/') && url.pathname !== '/api/users/me') api.push(url.pathname);
    });
    await page.goto(`${baseUrl}/admin/payments/not-an-artist`);
    await page.getByRole('heading', { name: 'No artist with this id' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(api).toEqual(['/api/artists/not-an-artist']);
    await page.close();
  });
});
