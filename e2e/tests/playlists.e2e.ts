import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demoCatalogue } from '../support/catalogue';
import { demo, expectPath, expectToast, loginViaApi, setGenresViaApi } from '../support/session';
import { waitForPlayback } from '../support/playback';

const baseUrl = inject('baseUrl');
let browser: Browser;
let ids: Awaited<ReturnType<typeof demoCatalogue>>;
let albumSongs: Array<{ _id: string; title: string }>;

interface PlaylistJson {
  _id: string;
  name: string;
  songs: Array<{ _id: string; title: string }>;
}

beforeAll(async () => {
  browser = await launchBrowser();
  ids = await demoCatalogue();
  const res = await fetch(`${baseUrl}/api/songs/album/${ids.albumId}`);
  albumSongs = (await res.json()) as Array<{ _id: string; title: string }>;
  if (albumSongs.length < 3) throw new Error('the demo album needs at least three songs');
});
afterAll(() => browser.close());

const DUPLICATE_REFUSED = /Failed to load resource: the server responded with a status of 409/;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The playlist as the server has it (the page's cookie jar is signed in). */
async function serverPlaylist(context: BrowserContext, id: string): Promise<PlaylistJson> {
  const res = await context.request.get(`${baseUrl}/api/playlists/${id}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { playlist: PlaylistJson }).playlist;
}

/** Titles of the rows on the playlist page, top to bottom. */
async function rowTitles(page: Page, name: string): Promise<string[]> {
  const rows = page.getByRole('list', { name: `Songs in ${name}` }).getByRole('listitem');
  return rows.evaluateAll((items) =>
    items.map((item) => item.querySelector('p')?.lastChild?.textContent?.trim() ?? ''),
  );
}

async function waitForOrderSaved(page: Page) {
  await page.waitForResponse(
    (response) => response.request().method() === 'PUT' && response.url().endsWith('/order') && response.ok(),
  );
}

async function expectPlayerTitle(page: Page, title: string) {
  await page.waitForFunction(
    (wanted) => document.querySelector('[data-testid="player-title"]')?.textContent === wanted,
    title,
    { timeout: 15_000 },
  );
}

describe('playlists', () => {
  it('builds a playlist from song rows, reorders it by buttons and drag, renames, trims and deletes it', async () => {
    const { context, page, consoleErrors } = await openPage(browser, viewports.desktop);
    try {
      await loginViaApi(context, demo.listener);
      const name = `Road trip ${Date.now().toString(36)}`;
      const [first, second, third] = albumSongs as [
        (typeof albumSongs)[0],
        (typeof albumSongs)[0],
        (typeof albumSongs)[0],
      ];

      // 1. From the album's song rows: create the playlist with the first song, then add two more.
      await page.goto(`${baseUrl}/album/${ids.albumId}`);
      await page.getByRole('list', { name: `Songs on ${ids.albumTitle}` }).waitFor();
      await screenshot(page, 'album-listener-desktop');
      await page.getByRole('button', { name: `Add ${first.title} to a playlist` }).click();
      await page.getByRole('menuitem', { name: 'New playlist…' }).click();
      const dialog = page.getByRole('dialog', { name: 'New playlist' });
      await dialog.getByLabel('Name').fill(`  ${name}  `);
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expectToast(page, `Added to “${name}”`);

      await page.getByRole('button', { name: `Add ${second.title} to a playlist` }).click();
      await page.getByRole('menu', { name: `Add ${second.title} to a playlist` }).waitFor();
      await screenshot(page, 'album-add-to-playlist-desktop');
      await page.getByRole('menuitem', { name: new RegExp(`^${escape(name)}`) }).click();
      await expectToast(page, `Added to “${name}”`);

      // The third by keyboard only: Enter opens the menu, arrows move, Enter chooses.
      const addThird = page.getByRole('button', { name: `Add ${third.title} to a playlist` });
      await addThird.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu', { name: `Add ${third.title} to a playlist` });
      await menu.waitFor();
      await menu.getByRole('menuitem', { name: new RegExp(`^${escape(name)}`) }).waitFor();
      // The playlist just changed is listed first (most recently changed first), right below "New playlist".
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowDown');
      await expect(page.evaluate(() => document.activeElement?.textContent ?? '')).resolves.toContain(name);
      await page.keyboard.press('Enter');
      await expectToast(page, `Added to “${name}”`);
      await expect(menu.count()).resolves.toBe(0);

      // Adding the same song again is refused with the server's message.
      await page.getByRole('button', { name: `Add ${first.title} to a playlist` }).click();
      await page.getByRole('menuitem', { name: new RegExp(`^${escape(name)}`) }).click();
      await expectToast(page, 'This song is already in the playlist');

      // 2. The side menu leads to the playlists, the card to the playlist.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Playlists' }).click();
      await expectPath(page, '/playlists');
      const card = page
        .getByRole('list', { name: 'Your playlists' })
        .getByRole('link', { name: new RegExp(escape(name)) });
      await expect(card.textContent()).resolves.toContain('3 songs');
      await screenshot(page, 'playlists-desktop');
      await card.click();
      await expectPath(page, /^\/playlist\/[0-9a-f-]{36}$/);
      const playlistId = new URL(page.url()).pathname.split('/').pop()!;
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await expect(rowTitles(page, name)).resolves.toEqual([first.title, second.title, third.title]);

      // 3. Reorder with the keyboard-accessible buttons: the third song moves to the top.
      let saved = waitForOrderSaved(page);
      await page.getByRole('button', { name: `Move ${third.title} up` }).click();
      await saved;
      saved = waitForOrderSaved(page);
      await page.getByRole('button', { name: `Move ${third.title} up` }).click();
      await saved;
      await expect(rowTitles(page, name)).resolves.toEqual([third.title, first.title, second.title]);
      expect((await serverPlaylist(context, playlistId)).songs.map((s) => s.title)).toEqual([
        third.title,
        first.title,
        second.title,
      ]);

      // ...and by dragging the top row onto the lower half of the last one.
      const rows = page.getByRole('list', { name: `Songs in ${name}` }).getByRole('listitem');
      const target = (await rows.nth(2).boundingBox())!;
      saved = waitForOrderSaved(page);
      await rows.nth(0).dragTo(rows.nth(2), {
        sourcePosition: { x: 14, y: 20 },
        targetPosition: { x: 14, y: target.height - 6 },
      });
      await saved;
      await expect(rowTitles(page, name)).resolves.toEqual([first.title, second.title, third.title]);
      await page.reload();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await expect(rowTitles(page, name)).resolves.toEqual([first.title, second.title, third.title]);
      await screenshot(page, 'playlist-desktop');
      expect(await seriousA11yViolations(page)).toEqual([]);

      // 4. Rename, remove a song, delete with confirmation.
      await page.getByRole('button', { name: 'Edit playlist' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit playlist' });
      await edit.getByLabel('Name').fill(`${name} II`);
      await edit.getByRole('button', { name: 'Save' }).click();
      await expectToast(page, 'Playlist updated');
      await page.getByRole('heading', { level: 1, name: `${name} II` }).waitFor();

      await page.getByRole('button', { name: `Remove ${second.title} from this playlist` }).click();
      await expectToast(page, `Removed “${second.title}”`);
      await expect(rowTitles(page, `${name} II`)).resolves.toEqual([first.title, third.title]);
      expect((await serverPlaylist(context, playlistId)).songs.map((s) => s.title)).toEqual([
        first.title,
        third.title,
      ]);

      await page.getByRole('button', { name: 'Delete playlist' }).click();
      const confirm = page.getByRole('dialog', { name: `Delete “${name} II”?` });
      await confirm.getByRole('button', { name: 'Delete playlist' }).click();
      await expectToast(page, 'Playlist deleted');
      await expectPath(page, '/playlists');
      expect((await context.request.get(`${baseUrl}/api/playlists/${playlistId}`)).status()).toBe(404);
      // The duplicate add above is refused with 409 on purpose; the browser logs that response.
      const unexpected = consoleErrors.filter((text) => !DUPLICATE_REFUSED.test(text));
      expect(unexpected, unexpected.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('plays the playlist in its own order: Play starts at the top and next follows the playlist', async () => {
    const { context, page, consoleErrors } = await openPage(browser, viewports.desktop);
    try {
      // The artist account owns Nova Reyes, so it may play these songs; playlist screens need preferred genres.
      await loginViaApi(context, demo.artist);
      await setGenresViaApi(context, ['Electronic']);
      const [first, second, third] = albumSongs as [
        (typeof albumSongs)[0],
        (typeof albumSongs)[0],
        (typeof albumSongs)[0],
      ];
      const name = `Shuffled ${Date.now().toString(36)}`;
      const created = await context.request.post(`${baseUrl}/api/playlists`, { data: { name } });
      const { playlist } = (await created.json()) as { playlist: { _id: string } };
      // Not the album's order: third, first, second.
      for (const song of [third, first, second]) {
        const added = await context.request.post(`${baseUrl}/api/playlists/${playlist._id}/songs`, {
          data: { songId: song._id },
        });
        expect(added.status()).toBe(201);
      }

      await page.goto(`${baseUrl}/playlist/${playlist._id}`);
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await expectPlayerTitle(page, third.title);
      await waitForPlayback(page, 1);
      await expect(
        page
          .getByRole('list', { name: `Songs in ${name}` })
          .locator('li[aria-current="true"]')
          .textContent(),
      ).resolves.toContain(third.title);

      await page.getByRole('button', { name: 'Next song' }).click();
      await expectPlayerTitle(page, first.title);
      await page.getByRole('button', { name: 'Next song' }).click();
      await expectPlayerTitle(page, second.title);
      // Next wraps from the last song of the playlist to its first.
      await page.getByRole('button', { name: 'Next song' }).click();
      await expectPlayerTitle(page, third.title);

      // A row click plays that song within the playlist.
      await page.getByRole('button', { name: `Play ${second.title}` }).click();
      await expectPlayerTitle(page, second.title);
      await waitForPlayback(page, 0.5);
      await screenshot(page, 'playlist-playing-desktop');

      await context.request.delete(`${baseUrl}/api/playlists/${playlist._id}`);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the empty state and a usable list on a phone', async () => {
    const { context, page, consoleErrors } = await openPage(browser, viewports.mobile);
    try {
      await loginViaApi(context, demo.listener);
      const name = `Phone mix ${Date.now().toString(36)}`;
      const created = await context.request.post(`${baseUrl}/api/playlists`, { data: { name } });
      expect(created.status()).toBe(201);
      const { playlist } = (await created.json()) as { playlist: { _id: string } };
      await page.goto(`${baseUrl}/playlist/${playlist._id}`);
      await page.getByRole('heading', { name: 'This playlist is empty' }).waitFor();
      for (const song of albumSongs.slice(0, 2)) {
        await context.request.post(`${baseUrl}/api/playlists/${playlist._id}/songs`, {
          data: { songId: song._id },
        });
      }
      await page.reload();
      await page.getByRole('button', { name: `Move ${albumSongs[0]!.title} down` }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, 'playlist-mobile');
      await context.request.delete(`${baseUrl}/api/playlists/${playlist._id}`);
      expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
