import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousA11yViolations } from '../support/a11y';
import { launchBrowser, openPage, screenshot, viewports } from '../support/browser';
import { demo, expectToast, loginViaApi } from '../support/session';

const baseUrl = inject('baseUrl');
let browser: Browser;
let albums: { neonTides: string; midnightProtocol: string };

interface AlbumSummary {
  _id: string;
  title: string;
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`);
  if (!res.ok) throw new Error(`GET ${path} failed: ${res.status}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  browser = await launchBrowser();
  const { artists } = await getJson<{ artists: Array<{ _id: string; name: string }> }>('/artists/all');
  const nova = artists.find((artist) => artist.name === 'Nova Reyes');
  if (!nova) throw new Error('the demo artist Nova Reyes is missing');
  const { albums: novaAlbums } = await getJson<{ albums: AlbumSummary[] }>(`/albums/artist/${nova._id}`);
  const byTitle = (title: string) => {
    const album = novaAlbums.find((candidate) => candidate.title === title);
    if (!album) throw new Error(`the demo album ${title} is missing`);
    return album._id;
  };
  albums = { neonTides: byTitle('Neon Tides'), midnightProtocol: byTitle('Midnight Protocol') };
});
afterAll(() => browser.close());

/**
 * The element's state, with the time in the current song: the gapless player lays songs out on one timeline and
 * marks where the current one starts (`data-song-offset`).
 */
const audioState = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
    if (!audio) throw new Error('no player audio element');
    return {
      currentTime: audio.currentTime - Number(audio.dataset.songOffset ?? 0),
      paused: audio.paused,
      volume: audio.volume,
      src: audio.currentSrc,
      buffered: audio.buffered.length,
      decoded:
        (audio as HTMLAudioElement & { webkitAudioDecodedByteCount?: number }).webkitAudioDecodedByteCount ??
        0,
    };
  });

/** Waits until the audio element has played past `seconds` (it really advances, it is not just seeked). */
async function waitForPlayback(page: Page, seconds: number, timeout = 30_000) {
  await page.waitForFunction(
    (min) => {
      const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
      return (
        audio !== null && !audio.paused && audio.currentTime - Number(audio.dataset.songOffset ?? 0) > min
      );
    },
    seconds,
    { timeout, polling: 100 },
  );
}

/**
 * Routes the element through an AnalyserNode and measures the loudest sample over ~1.5 s: a silent or
 * undecodable stream gives 0.
 */
async function peakLevel(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
    if (!audio) throw new Error('no player audio element');
    const context = new AudioContext();
    await context.resume();
    const source = context.createMediaElementSource(audio);
    const analyser = context.createAnalyser();
    analyser.fftSize = 2048;
    source.connect(analyser);
    analyser.connect(context.destination);
    const samples = new Float32Array(analyser.fftSize);
    let peak = 0;
    for (let step = 0; step < 30; step += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      analyser.getFloatTimeDomainData(samples);
      for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
    }
    return peak;
  });
}

async function playRow(page: Page, title: string) {
  await page.getByRole('button', { name: `Play ${title}`, exact: true }).click();
}

const playerTitle = (page: Page) => page.getByTestId('player-title').first();

async function expectTitle(page: Page, title: string) {
  await page.waitForFunction(
    (wanted) => document.querySelector('[data-testid="player-title"]')?.textContent === wanted,
    title,
    { timeout: 15_000 },
  );
}

async function signedIn(
  account: keyof typeof demo,
  viewport: { width: number; height: number } = viewports.desktop,
) {
  const opened = await openPage(browser, viewport);
  await loginViaApi(opened.context, demo[account]);
  return opened;
}

describe('player (desktop)', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await signedIn('admin'));
  });
  afterAll(() => context.close());

  it('plays a song with real, audible audio', async () => {
    await page.goto(`${baseUrl}/album/${albums.neonTides}`);
    await playRow(page, 'Harbour Lights');
    await expectTitle(page, 'Harbour Lights');
    await waitForPlayback(page, 3);
    const state = await audioState(page);
    expect(state.decoded).toBeGreaterThan(0);
    expect(await peakLevel(page)).toBeGreaterThan(0.01);
    await expect(page.title()).resolves.toBe('Harbour Lights · Nova Reyes');
    await screenshot(page, 'player-desktop');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('goes to the next song, restarts on previous after 3 s, then goes back', async () => {
    await page.getByRole('button', { name: 'Next song' }).click();
    await expectTitle(page, 'Tidal Memory');
    await waitForPlayback(page, 3.5);
    await page.getByRole('button', { name: 'Previous song' }).click();
    await page.waitForFunction(() => {
      const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
      return audio !== null && audio.currentTime - Number(audio.dataset.songOffset ?? 0) < 2;
    });
    await expect(playerTitle(page).textContent()).resolves.toBe('Tidal Memory');
    await page.getByRole('button', { name: 'Previous song' }).click();
    await expectTitle(page, 'Harbour Lights');
    await waitForPlayback(page, 1);
  });

  it('lists what plays next and plays a song from that list', async () => {
    await page.getByRole('button', { name: 'Show playing next' }).click();
    const next = page.getByRole('region', { name: 'Playing next' });
    await next.getByRole('button', { name: /^Play Tidal Memory/ }).waitFor();
    await expect(next.getByRole('listitem').count()).resolves.toBe(3);
    await next.getByRole('button', { name: /^Play Glass Coastline/ }).click();
    await expectTitle(page, 'Glass Coastline');
    await waitForPlayback(page, 1);
    await page.getByRole('button', { name: 'Hide playing next' }).click();
  });

  it('seeks, sets the volume, mutes and unmutes', async () => {
    await page.getByRole('slider', { name: /^Seek in/ }).fill('20');
    await waitForPlayback(page, 20);
    await page.getByRole('slider', { name: 'Volume' }).fill('30');
    await page.waitForFunction(
      () => document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')?.volume === 0.3,
    );
    await expect(page.evaluate(() => localStorage.getItem('player-volume'))).resolves.toBe('0.3');
    await page.getByRole('button', { name: 'Mute' }).click();
    await expect(audioState(page)).resolves.toMatchObject({ volume: 0 });
    await page.getByRole('button', { name: 'Unmute' }).click();
    await expect(audioState(page)).resolves.toMatchObject({ volume: 0.3 });
  });

  it('shows the placeholder toast for lossless, reset master and the decorative button', async () => {
    for (const name of ['Lossless', 'Reset master', 'Audio effects']) {
      await page.getByRole('button', { name, exact: true }).click();
      await expectToast(page, 'This feature will be available soon');
    }
  });

  it('keeps the song, the time and the volume across a reload', async () => {
    await waitForPlayback(page, 22);
    await page.waitForTimeout(1500); // the player's persisted entry is written at most once a second
    const before = await audioState(page);
    await page.reload();
    await expectTitle(page, 'Glass Coastline');
    await page.waitForFunction(
      (min) => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
        return audio !== null && audio.currentTime - Number(audio.dataset.songOffset ?? 0) >= min;
      },
      before.currentTime - 3,
      { timeout: 20_000 },
    );
    const after = await audioState(page);
    expect(after.volume).toBe(0.3);
    expect(after.currentTime).toBeGreaterThanOrEqual(before.currentTime - 3);
  });

  it('pauses and plays with the keyboard', async () => {
    await waitForPlayback(page, 1);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Space');
    await page.waitForFunction(
      () => document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')?.paused === true,
    );
    await page.keyboard.press('Space');
    await waitForPlayback(page, 1);
    await page.keyboard.press('Shift+?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'detached' });
  });
});

describe('player: locked songs', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await signedIn('listener'));
  });
  afterAll(() => context.close());

  const cases = [
    {
      album: () => albums.midnightProtocol,
      title: 'Protocol One',
      message: 'Purchase the album "Midnight Protocol" to play this song.',
    },
    {
      album: () => albums.neonTides,
      title: 'Harbour Lights',
      message: 'Subscribe to Nova Reyes to play this song.',
    },
    {
      album: () => albums.neonTides,
      title: 'Low Orbit',
      message: 'You need to purchase this song to play it.',
    },
  ];

  for (const { album, title, message } of cases) {
    it(`'${title}' shows "${message}" and plays nothing`, async () => {
      await page.goto(`${baseUrl}/album/${album()}`);
      await playRow(page, title);
      await expectToast(page, message);
      await expectTitle(page, title);
      await expect(page.getByTestId('player-stream-error').first().textContent()).resolves.toBe(message);
      const toggle = page.getByTestId('player-play-toggle').first();
      await expect(toggle.isDisabled()).resolves.toBe(true);
      await expect(toggle.getAttribute('data-state')).resolves.toBe('error');
      // Not a dead end: the player offers the preview and the unlock right there.
      const player = page.getByTestId('desktop-player');
      await player.getByTestId('player-preview').waitFor();
      const unlock = player.getByTestId('player-unlock').getByRole('button', {
        name: new RegExp(`^(Buy song|Buy album|Subscribe) .+, (${title}|Midnight Protocol|Nova Reyes)$`),
      });
      await unlock.waitFor();
      await expect(unlock.isEnabled()).resolves.toBe(true);
      await page.waitForTimeout(1500);
      const state = await audioState(page);
      expect(state.currentTime).toBe(0);
      expect(state.paused).toBe(true);
      expect(state.buffered).toBe(0); // nothing of any song is loaded
    });
  }
});

describe('player: the way in from a locked song', () => {
  it('opens the checkout from the player, at 1280 and 390 px', async () => {
    for (const viewport of [viewports.desktop, viewports.mobile]) {
      const { context, page } = await signedIn('listener', viewport);
      await page.goto(`${baseUrl}/album/${albums.neonTides}`);
      await playRow(page, 'Low Orbit');
      await expectToast(page, 'You need to purchase this song to play it.');
      const bar = page.getByTestId(viewport === viewports.desktop ? 'desktop-player' : 'mobile-mini-player');
      await bar.getByTestId('player-preview').waitFor();
      await screenshot(page, `player-locked-offers-${viewport.width}`);
      await bar.getByRole('button', { name: /^Buy song .+, Low Orbit$/ }).click();
      await page.getByRole('dialog', { name: 'Buy Low Orbit' }).waitFor();
      await context.close();
    }
  });
});

describe('player: a free song and a restored song', () => {
  it('plays a free song in full for the demo listener on the first sign-in', async () => {
    const { context, page } = await signedIn('listener');
    await page.goto(`${baseUrl}/album/${albums.neonTides}`);
    const row = page.getByRole('listitem').filter({ hasText: 'Glass Coastline' });
    await row.getByText('Free', { exact: true }).waitFor();
    await playRow(page, 'Glass Coastline');
    await expectTitle(page, 'Glass Coastline');
    await waitForPlayback(page, 1);
    // The whole song, not a 30-second preview: past the preview's window, no preview badge.
    await page.getByRole('slider', { name: /^Seek in/ }).fill('40');
    await waitForPlayback(page, 41);
    await expect(page.getByTestId('preview-badge').count()).resolves.toBe(0);
    await screenshot(page, 'player-free-song-desktop');
    await context.close();
  });

  it('shows a restored song’s own clock and a ready play button (never the 1e9 s timeline)', async () => {
    const { context, page } = await signedIn('admin');
    const songs = await getJson<Array<{ title: string; duration: number }>>(
      `/songs/album/${albums.neonTides}`,
    );
    const tidal = songs.find((song) => song.title === 'Tidal Memory')!;
    const clock = (seconds: number) =>
      `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;
    await page.goto(`${baseUrl}/album/${albums.neonTides}`);
    await playRow(page, 'Tidal Memory');
    await waitForPlayback(page, 1);
    await page.getByTestId('player-play-toggle').first().click();
    // The paused selection is in the player's persisted entry (written at most once a second).
    await page.waitForFunction(() => {
      const entry = localStorage.getItem('persist:player') ?? '';
      return entry.includes('Tidal Memory') && entry.includes('"isPlaying":"false"');
    });
    await page.reload();
    await expectTitle(page, 'Tidal Memory');
    // The gapless player warms its MediaSource (1e9 s long) once the page is idle: the clock must not take it.
    await page.waitForFunction(
      () =>
        document
          .querySelector<HTMLAudioElement>('[data-testid="player-audio"]')
          ?.currentSrc.startsWith('blob:'),
      undefined,
      { timeout: 20_000 },
    );
    await expect(page.getByTestId('player-duration').first().innerText()).resolves.toMatch(
      new RegExp(`${clock(tidal.duration)}$`),
    );
    const toggle = page.getByTestId('player-play-toggle').first();
    // Ready once the restored song's stream is set up again (a moment after the reload), never left loading.
    await expect.poll(() => toggle.getAttribute('data-state'), { timeout: 10_000 }).toBe('paused');
    await expect(toggle.isEnabled()).resolves.toBe(true);
    await screenshot(page, 'player-restored-desktop');
    await toggle.click();
    await waitForPlayback(page, 1);
    await context.close();
  });
});

describe('player (mobile 390 x 844)', () => {
  it('shows the mini bar, expands to NOW PLAYING and plays', async () => {
    const { context, page } = await signedIn('admin', viewports.mobile);
    await page.goto(`${baseUrl}/album/${albums.neonTides}`);
    await playRow(page, 'Tidal Memory');
    const mini = page.getByTestId('mobile-mini-player');
    await mini.waitFor();
    await waitForPlayback(page, 1);
    await screenshot(page, 'player-mobile-mini');
    await mini.getByRole('button', { name: /^Open now playing: Tidal Memory/ }).click();
    const view = page.getByRole('dialog', { name: 'NOW PLAYING' });
    await view.waitFor();
    await waitForPlayback(page, 3);
    await screenshot(page, 'player-mobile-now-playing');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await view.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.waitForFunction(
      () => document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')?.paused === true,
    );
    await view.getByRole('button', { name: 'Play', exact: true }).click();
    await waitForPlayback(page, 3.5);
    await view.getByRole('button', { name: 'Repeat song' }).click();
    await expect(
      view.getByRole('button', { name: 'Repeat song' }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await view.getByRole('button', { name: 'Next song' }).click();
    await expectTitle(page, 'Low Orbit');
    await view.getByRole('button', { name: 'Close now playing' }).click();
    await view.waitFor({ state: 'detached' });
    await context.close();
  });
});
